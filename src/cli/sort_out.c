/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * sort_out.c: what the external sort writes (sort_int.h): the output,
 * games queued for writev straight from where they lie, the temporary
 * files and the runs.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "chessdata.h"
#include "cli.h"
#include "sort_int.h"

/* ---- writes ---- */

/*
 * The blocks iov[0..n) in writes of at most WRITE_CHUNK bytes each, to
 * the output (fd < 0) or to the run being written.  A file system with
 * large folios (ext4 since Linux 6.x) gives a write a folio as large as
 * the write: one of 64 KiB or more comes straight from the page
 * allocator's free blocks, which on a virtual machine that hands free
 * memory back to its host (virtio-balloon free page reporting) costs a
 * fault in the host on every page first written: writing 450 MB took
 * 1.0 to 1.6 s of system time in writes of 64 KiB to 1 MiB, 0.25 s in
 * writes of 16 or 32 KiB (the largest order the per-CPU page lists
 * keep, recently freed memory), the size sort(1)'s writes are near.
 * tmpfs (no large folios) takes either alike.
 */
#define WRITE_CHUNK	((size_t)32 << 10)

static void
write_out(cli_sort *so, int fd, struct iovec *iov, int n)
{
	if (fd >= 0) {
		if (cli_writev_all(fd, iov, n) < 0)
			cli_fatal("write error on %s: %s",
			    cli_tmp_name(so->rw.id), strerror(errno));
	} else if (so->o.writev != NULL)
		so->o.writev(so->o.ctx, iov, n);
	else
		cli_output_writev(iov, n);
}

static void
write_chunked(cli_sort *so, int fd, const struct iovec *iov, int n)
{
	struct iovec sub[IOV_BATCH];
	size_t at = 0;		/* bytes of iov[i] written */
	int i = 0, k;

	while (i < n) {
		size_t room = WRITE_CHUNK;

		for (k = 0; i < n && room > 0 && k < IOV_BATCH;) {
			size_t m = iov[i].iov_len - at;

			if (m > room)
				m = room;
			if (m > 0) {
				sub[k].iov_base = (char *)iov[i].iov_base + at;
				sub[k++].iov_len = m;
				room -= m;
				at += m;
			}
			if (at == iov[i].iov_len) {
				i++;
				at = 0;
			}
		}
		if (k > 0)
			write_out(so, fd, sub, k);
	}
}

/* ---- output ---- */

/* Read the games of the span (queued, pointing into the stage) into
 * the stage. */
static void
span_read(cli_sort *so)
{
	if (so->span_len == 0)
		return;
	sort_infile_read(so, so->span_file, so->span_off,
	    so->stage + so->stage_used, so->span_len);
	so->stage_used += so->span_len;
	so->span_len = 0;
}

void
sort_oq_flush(cli_sort *so)
{
	span_read(so);
	write_chunked(so, -1, so->oq, so->noq);
	so->noq = 0;
	so->stage_used = 0;
}

static void
oq_add(cli_sort *so, const void *p, size_t n)
{
	if (so->noq == IOV_BATCH)
		sort_oq_flush(so);
	so->oq[so->noq].iov_base = (void *)(uintptr_t)p;
	so->oq[so->noq].iov_len = n;
	so->noq++;
}

static const char *const tails[] = { "", "\n\n", "\n", "\r\n" };

static void
emit_tail(cli_sort *so, int tail)
{
	if (tail != TAIL_NONE)
		oq_add(so, tails[tail], strlen(tails[tail]));
}

/* Write a game and its tail, from memory or read back from its file. */
void
sort_emit(cli_sort *so, const struct item *it)
{
	uint64_t off = it->off;
	size_t len = it->len;

	so->games_written++;
	if (it->text != NULL) {
		if (len > 0) {
			oq_add(so, it->text, len);
			emit_tail(so, sort_text_tail(it->text, len));
		}
		return;
	}
	if (so->stage == NULL && (so->stage = malloc(STAGE_BYTES)) == NULL)
		cli_fatal("out of memory");
	/* Games that follow each other in their file are read back with
	 * one read (a span): the output order is often much the input
	 * order (archives kept by date), and a read a game costs more
	 * than the copy of a small game. */
	if (so->span_len > 0 && (it->file != so->span_file ||
	    off != so->span_off + so->span_len ||
	    so->stage_used + so->span_len + len > STAGE_BYTES))
		span_read(so);
	if (len <= STAGE_BYTES / 2) {
		if (so->stage_used + so->span_len + len > STAGE_BYTES ||
		    so->noq + 2 > IOV_BATCH)
			sort_oq_flush(so);
		if (so->span_len == 0) {
			so->span_file = it->file;
			so->span_off = off;
		}
		oq_add(so, so->stage + so->stage_used + so->span_len, len);
		so->span_len += len;
		emit_tail(so, it->tail);
		return;
	}
	span_read(so);
	while (len > 0) {
		size_t n = len < STAGE_BYTES ? len : STAGE_BYTES;

		/* room in the buffer, and in the queue (oq_add would
		 * flush it, and free the buffer, before adding) */
		if (so->stage_used + n > STAGE_BYTES || so->noq == IOV_BATCH)
			sort_oq_flush(so);
		sort_infile_read(so, it->file, off, so->stage + so->stage_used, n);
		oq_add(so, so->stage + so->stage_used, n);
		so->stage_used += n;
		off += n;
		len -= n;
	}
	emit_tail(so, it->tail);
}


/* Keep a copy of the keys of it as the last game. */
void
sort_remember(cli_sort *so, const struct item *it)
{
	size_t need = it->klen + it->mt_len;

	if (need > so->last_cap) {
		free(so->last_buf);
		so->last_cap = need + need / 2 + 64;
		so->last_buf = malloc(so->last_cap);
		if (so->last_buf == NULL)
			cli_fatal("out of memory");
	}
	memcpy(so->last_buf, it->key, it->klen);
	memcpy(so->last_buf + it->klen, it->text + it->mt_off, it->mt_len);
	so->last = *it;
	so->last.key = so->last_buf;
	so->last.text = (const char *)so->last_buf + it->klen;
	so->last.mt_off = 0;
	so->have_last = 1;
}

/* Whether it repeats the last game written (-u); if not, it becomes
 * the last game. */
int
sort_unique_skip(cli_sort *so, const struct item *it)
{
	if (!so->o.unique)
		return 0;
	if (so->have_last && sort_keys_cmp(so, &so->last, it) == 0 && sort_exact_cmp(so, &so->last, it) == 0)
		return 1;
	sort_remember(so, it);
	return 0;
}

/* ---- temporary files ---- */

/* A new temporary file open for writing (removed on every exit and on
 * a signal, cli/tmp.c); *id names it. */
static int
tmp_create(cli_sort *so, size_t *id)
{
	return cli_tmp_create(so->o.tmpdir, "pgn-sort", id);
}

/* ---- runs ---- */


static void
run_add(cli_sort *so, size_t id)
{
	cli_grow(&so->runs, &so->runcap, so->nruns, sizeof(*so->runs), 64);
	so->runs[so->nruns++] = id;
}


static void
run_flush(cli_sort *so)
{
	int i;

	for (i = 0; so->rw.zs != NULL && i < so->rw.n; i++)
		if (cd_stream_write(so->rw.zs, so->rw.iov[i].iov_base,
		    so->rw.iov[i].iov_len) != CD_OK)
			cli_fatal("write error on %s: %s", cli_tmp_name(so->rw.id),
			    cd_stream_error(so->rw.zs)->msg);
	if (so->rw.zs != NULL)
		so->rw.n = 0;
	if (so->rw.n > 0)
		write_chunked(so, so->rw.fd, so->rw.iov, so->rw.n);
	so->rw.n = 0;
	so->rw.nh = 0;
}

void
sort_run_open(cli_sort *so)
{
	so->rw.fd = tmp_create(so, &so->rw.id);
	if (so->o.compress_temp) {
		int lo;

		cd_stream_levels(CD_STREAM_ZSTD, &lo, NULL, NULL);
		so->rw.zs = cd_stream_open_write_fd(so->rw.fd, CD_STREAM_ZSTD, lo);
		if (so->rw.zs == NULL)
			cli_fatal("out of memory");
	}
	so->rw.n = 0;
	so->rw.nh = 0;
}

void
sort_run_put(cli_sort *so, const struct item *it)
{
	uint64_t *h;

	if (so->rw.nh == IOV_BATCH / 3)
		run_flush(so);
	h = so->rw.hdr[so->rw.nh++];
	h[0] = it->seq;
	h[1] = it->len;
	h[2] = it->klen;
	h[3] = it->mt_off;
	h[4] = it->mt_len;
	h[5] = it->text != NULL ? UINT64_MAX : it->off;
	h[6] = it->text != NULL ? 0 : (uint64_t)it->file << 16 |
	    (uint64_t)it->plen << 8 | it->tail;
	so->rw.iov[so->rw.n].iov_base = h;
	so->rw.iov[so->rw.n++].iov_len = RUN_HDR;
	if (it->text == NULL) {
		so->rw.iov[so->rw.n].iov_base = (void *)(uintptr_t)it->key;
		so->rw.iov[so->rw.n++].iov_len = it->klen + it->plen;
	} else if ((const char *)it->key == it->text + it->len) {
		so->rw.iov[so->rw.n].iov_base = (void *)(uintptr_t)it->text;
		so->rw.iov[so->rw.n++].iov_len = it->len + it->klen;
	} else {
		so->rw.iov[so->rw.n].iov_base = (void *)(uintptr_t)it->text;
		so->rw.iov[so->rw.n++].iov_len = it->len;
		so->rw.iov[so->rw.n].iov_base = (void *)(uintptr_t)it->key;
		so->rw.iov[so->rw.n++].iov_len = it->klen;
	}
}

void
sort_run_close(cli_sort *so)
{
	run_flush(so);
	if (so->rw.zs != NULL && cd_stream_finish(so->rw.zs) != CD_OK)
		cli_fatal("write error on %s: %s", cli_tmp_name(so->rw.id),
		    cd_stream_error(so->rw.zs)->msg);
	cd_stream_free(so->rw.zs);
	so->rw.zs = NULL;
	if (close(so->rw.fd) != 0)
		cli_fatal("write error on %s: %s", cli_tmp_name(so->rw.id),
		    strerror(errno));
	so->rw.fd = -1;
	run_add(so, so->rw.id);
}

/* Write out what points into buffers that are about to change. */
void
sort_flush_pending(cli_sort *so)
{
	sort_oq_flush(so);
	if (so->rw.fd >= 0)
		run_flush(so);
}
