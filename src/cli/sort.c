/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * sort.c: the external sort of pgn-sort (sort.h; pgn-sort(1)).
 *
 * Games are read into one buffer of the memory budget (-S): their bytes
 * and encoded sort keys grow up from the bottom, the records that point
 * to them grow down from the top.  When the buffer is full its games
 * are sorted and written to a temporary file (a run); at the end the
 * runs are merged at once with a heap (a k-way merge; only when there
 * are more runs than the budget gives buffers for are groups of them
 * merged first).  Every record carries its input sequence number, so
 * the order is total and the same however the runs fall: sorting is
 * stable.  When everything fits, no temporary file is written.
 *
 * A game of an input that is a plain regular file (and the inputs so
 * read fit in half the machine's memory, where the page cache keeps
 * them) is not copied: its record holds its key, where it lies in the
 * file and the start of its movetext, and its bytes are read back from
 * the file when it is written.  So a sort of such inputs moves game
 * bytes once, from the input to the output, and writes runs only when
 * the keys fill the budget.
 */
#define _GNU_SOURCE 1	/* fallocate */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <unistd.h>
#ifdef __GLIBC__
#include <malloc.h>	/* malloc_trim */
#endif

#include "chessdata.h"
#include "cli.h"
#include "sort.h"
#include "sort_int.h"

#define MERGE_BUF	((size_t)128 << 10)	/* per run while merging */
/* The least a run's buffer may be when the buffer's last games stay in
 * it (mem_merge). */
#define MERGE_MIN	((size_t)64 << 10)
/* Descriptors a merge leaves to others than its sources. */
#define FDS_KEPT	12
/* The largest game of a file that is copied into the buffer (mem_add). */
#define SMALL_GAME	((size_t)2 << 10)
/* What an input of -m holds besides its decompression: the reader's
 * buffer (more for a bigger game) and stdio's. */
#define INPUT_COST	((size_t)320 << 10)
/* What a pipe read from is made to hold (pipe_widen). */
#define PIPE_BYTES	((size_t)1 << 20)
/* The least a run is given back by (run_release): a power of two. */
#define RUN_RELEASE_MIN	((uint64_t)64 << 10)


/* ---- a game's key ---- */

static uint64_t
sort_key_prefix(cli_sort *so, const unsigned char *k, size_t klen)
{
	uint64_t v = 0;
	size_t i, n = sort_key_collate_len(so, k, klen);

	for (i = 0; i < 8; i++)
		v = v << 8 | (i < n ? k[i] : 0);
	return v;
}

/* Note which -k tags the raw game g has, or has in another case. */
static void
keys_note(cli_sort *so, const cd_pgn_raw_game *g)
{
	size_t i, k, n;

	for (i = 0; i < so->o.nkeys; i++) {
		if (so->key_seen[i])
			continue;
		if (cd_pgn_raw_tag(g, so->o.keys[i]) != NULL) {
			so->key_seen[i] = true;
			continue;
		}
		n = strlen(so->o.keys[i]);
		for (k = 0; so->key_case[i] == NULL && k < g->ntags; k++)
			if (g->tags[k].name_len == n &&
			    strncasecmp(g->tags[k].name, so->o.keys[i], n) == 0 &&
			    (so->key_case[i] = strndup(g->tags[k].name, n)) ==
			    NULL)
				cli_fatal("out of memory");
	}
}

/* Fill the key fields of it from a raw game; the key goes to kbuf
 * (kcap bytes).  Returns the key length (more than kcap: nothing
 * written, give more room). */
static size_t
sort_item_key(cli_sort *so, const cd_pgn_raw_game *g, unsigned char *kbuf, size_t kcap)
{
	cd_collate_game cg;

	size_t n, x, i;
	uint32_t len;

	cd_collate_from_raw(g, &cg);
	if (so->o.nkeys > 0)
		keys_note(so, g);
	/* the -k tags, then keys 1 to 7 */
	n = so->o.nkeys == 0 ? 0 : cd_collate_key_tags(g,
	    (const char *const *)so->o.keys, so->o.nkeys, kbuf, kcap);
	n += cd_collate_key(&cg, kbuf != NULL && n <= kcap ? kbuf + n : NULL,
	    n <= kcap ? kcap - n : 0);
	if (!so->o.unique)
		return n;
	for (x = 4, i = 0; i < CD_COLLATE_NTAGS; i++)
		x += 4 + (cg.tag[i] != NULL ? cg.tag_len[i] : 0);
	if (n + x > kcap)
		return n + x;
	for (i = 0; i < CD_COLLATE_NTAGS; i++) {
		len = cg.tag[i] != NULL ? (uint32_t)cg.tag_len[i] : 0;
		memcpy(kbuf + n, &len, 4);
		if (len > 0)
			memcpy(kbuf + n + 4, cg.tag[i], len);
		n += 4 + len;
	}
	len = (uint32_t)(x - 4);
	memcpy(kbuf + n, &len, 4);
	return n + 4;
}

/* ---- the in-memory buffer ---- */


/* The buffer: pages not touched (a small input) cost nothing.  (Huge
 * pages were tried: faults get cheaper, but compaction stalls make the
 * time vary more than it saves.) */
static void
mem_alloc(cli_sort *so)
{
	if (so->mem != NULL)
		return;
	so->mem = malloc(so->o.budget);
	if (so->mem == NULL)
		cli_fatal("cannot allocate the %zu-byte buffer", so->o.budget);
}

static size_t
mem_nitems(cli_sort *so)
{
	return (so->o.budget - so->mem_hi) / sizeof(struct item);
}

static struct item *
mem_items(cli_sort *so)
{
	return (struct item *)(void *)(so->mem + so->mem_hi);
}

/* Sort the buffer's games; write them as a run, or to the output when
 * final (no run was written). */
static void
mem_flush(cli_sort *so, int final)
{
	size_t n = mem_nitems(so), i;
	struct item *it = mem_items(so);

	if (n == 0)
		return;
	/* The room below the items was kept free for this. */
	sort_items_sort(so, it, it - n, n);
	if (!final)
		sort_run_open(so);
	for (i = 0; i < n; i++) {
		if (sort_unique_skip(so, &it[i]))
			continue;
		if (final)
			sort_emit(so, &it[i]);
		else
			sort_run_put(so, &it[i]);
	}
	if (final)
		sort_oq_flush(so);
	else
		sort_run_close(so);
	so->have_last = 0;		/* runs are merged with -u again */
	so->mem_key = NULL;
	so->mem_lo = 0;
	so->mem_hi = so->o.budget - so->o.budget % sizeof(struct item);
}

/* Fill the item of g but its key (and movetext prefix) and text; file:
 * its index in infiles, -1 when it is copied; base: where the reader
 * started in that file. */
static void
item_fill(struct item *it, const cd_pgn_raw_game *g, uint64_t seq, long file,
    uint64_t base)
{
	it->seq = seq;
	it->len = g->len;
	it->mt_off = g->movetext;
	it->mt_len = g->movetext_end - g->movetext;
	it->text = g->text;
	it->plen = 0;
	if (file >= 0) {
		it->text = NULL;
		it->file = (uint32_t)file;
		it->off = base + g->offset;
		it->plen = (uint8_t)cd_collate_movetext_prefix(
		    g->text + g->movetext, it->mt_len, MT_PREFIX);
		it->tail = (uint8_t)sort_text_tail(g->text, g->len);
	}
}

/* One game whose key does not fit in the whole buffer (or, copied,
 * whose bytes do not): a run of its own, written from the reader's
 * memory. */
static void
big_game(cli_sort *so, const cd_pgn_raw_game *g, uint64_t seq, long file, uint64_t base)
{
	struct item it;
	unsigned char *k;
	size_t klen;

	item_fill(&it, g, seq, file, base);
	klen = sort_item_key(so, g, NULL, 0);
	k = malloc(klen + it.plen + 1);
	if (k == NULL)
		cli_fatal("out of memory");
	sort_item_key(so, g, k, klen);
	memcpy(k + klen, g->text + g->movetext, it.plen);
	it.key = k;
	it.klen = klen;
	it.prefix = sort_key_prefix(so, k, klen);
	sort_run_open(so);
	sort_run_put(so, &it);
	sort_run_close(so);
	free(k);
}

/* Add a game to the buffer (flushing it to a run when full): its bytes
 * and key, or for a game left in its file (file >= 0) its key and
 * movetext prefix. */
static void
mem_add(cli_sort *so, const cd_pgn_raw_game *g, uint64_t seq, long file, uint64_t base)
{
	size_t room, klen, text, extra;
	struct item *it;
	int tries;

	/* A small game of a file is copied all the same, while the copies
	 * take at most half the budget in all: written from memory, it
	 * costs less than a read of its own (an opening book's games,
	 * 230 bytes, are written in another order than they lie). */
	if (file >= 0 && g->len <= SMALL_GAME &&
	    so->small_copied + g->len <= so->o.budget / 2) {
		so->small_copied += g->len;
		file = -1;
	}
	text = file >= 0 ? 0 : g->len;
	/* (the prefix is known before the key: it goes after it) */
	extra = file >= 0 ? cd_collate_movetext_prefix(g->text + g->movetext,
	    g->movetext_end - g->movetext, MT_PREFIX) : 0;
	for (tries = 0; tries < 2; tries++) {
		/* The new item, and free room of one item per item to sort
		 * with (items_sort), and the rounding of the data. */
		size_t reserve = (mem_nitems(so) + 2) * sizeof(struct item) + 7 +
		    extra;

		room = so->mem_hi - so->mem_lo;
		if (room >= text + reserve) {
			klen = sort_item_key(so, g, (unsigned char *)so->mem + so->mem_lo +
			    text, room - text - reserve);
			if (text + klen + reserve <= room)
				goto fits;
		}
		if (mem_nitems(so) == 0)
			break;
		mem_flush(so, 0);
	}
	big_game(so, g, seq, file, base);
	return;
fits:
	memcpy(so->mem + so->mem_lo, g->text, text);
	memcpy(so->mem + so->mem_lo + text + klen, g->text + g->movetext, extra);
	so->mem_hi -= sizeof(struct item);
	it = mem_items(so);
	item_fill(it, g, seq, file, base);
	it->key = (unsigned char *)so->mem + so->mem_lo + text;
	it->klen = klen;
	if (file < 0) {
		it->text = so->mem + so->mem_lo;
		/* A key equal to the last game's (an opening book's games,
		 * whose tags are all alike) is kept once: the games point
		 * to the same bytes, and comparing them stops there. */
		if (so->mem_key != NULL && so->mem_klen == klen &&
		    memcmp(so->mem_key, it->key, klen) == 0) {
			it->key = so->mem_key;
			klen = 0;
		} else {
			so->mem_key = it->key;
			so->mem_klen = klen;
		}
	}
	it->prefix = sort_key_prefix(so, it->key, it->klen);
	/* Round the data up to 8 bytes. */
	so->mem_lo += (text + klen + extra + 7) & ~(size_t)7;
}

/* ---- merging ---- */


/*
 * Give back the part of a run that is read (it is in the source's
 * buffer or its decompressor now): its pages in the page cache are
 * freed at once instead of when the run is removed after the merge.
 * The output (or the run the merge writes) takes new pages as fast as
 * the runs are read; freed by the merge, the runs' pages are the ones
 * it gets, and none are written to the disk.  (On a virtual machine
 * that hands free memory back to its host, pages that have not been in
 * use for a while cost a fault in the host when first written: sort(1)
 * frees its runs only at the end.)  Where holes cannot be punched, the
 * run stays whole until it is removed.
 */
static void
run_release(struct src *s)
{
#if defined(FALLOC_FL_PUNCH_HOLE) && defined(FALLOC_FL_KEEP_SIZE)
	off_t at;
	uint64_t upto;

	if (s->punched == UINT64_MAX ||
	    (at = lseek(s->fd, 0, SEEK_CUR)) < 0)
		return;
	upto = (uint64_t)at & ~(uint64_t)(RUN_RELEASE_MIN - 1);
	if (upto < s->punched + RUN_RELEASE_MIN)
		return;
	if (fallocate(s->fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE,
	    (off_t)s->punched, (off_t)(upto - s->punched)) != 0)
		s->punched = UINT64_MAX;	/* not here: never again */
	else
		s->punched = upto;
#else
	(void)s;
#endif
}

/* Read more of a run so that want bytes from pos are in the buffer. */
static int
src_ensure(cli_sort *so, struct src *s, size_t want)
{
	while (s->end - s->pos < want) {
		ssize_t k;

		if (s->eof)
			return 0;
		sort_flush_pending(so);
		if (s->pos > 0) {
			memmove(s->buf, s->buf + s->pos, s->end - s->pos);
			s->end -= s->pos;
			s->pos = 0;
		}
		if (want > s->cap) {
			/* A record bigger than the share: its own buffer. */
			char *nb = malloc(want);

			if (nb == NULL)
				cli_fatal("out of memory");
			memcpy(nb, s->buf, s->end);
			if (s->owned)
				free(s->buf);
			s->buf = nb;
			s->cap = want;
			s->owned = 1;
		}
		if (s->zs != NULL) {
			size_t got;
			cd_status st = cd_stream_read(s->zs, s->buf + s->end,
			    s->cap - s->end, &got);

			if (st != CD_OK && st != CD_EOF)
				cli_fatal("%s: %s", cli_tmp_name(s->id),
				    cd_stream_error(s->zs)->msg);
			k = (ssize_t)got;
		} else
			k = read(s->fd, s->buf + s->end, s->cap - s->end);
		if (k < 0 && errno == EINTR)
			continue;
		if (k < 0)
			cli_fatal("read error on %s: %s", cli_tmp_name(s->id),
			    strerror(errno));
		if (k == 0)
			s->eof = 1;
		s->end += (size_t)k;
		run_release(s);
	}
	return 1;
}

/* The next record of a source into s->cur; 0 at its end. */
static int
src_next(cli_sort *so, struct src *s)
{
	if (s->items != NULL) {
		if (s->next == s->nitems)
			return 0;
		s->cur = s->items[s->next++];
		return 1;
	}
	if (s->r != NULL) {
		cd_pgn_raw_game g;
		cd_status st;
		size_t klen;

		sort_flush_pending(so);	/* the reader reuses its buffer */
		st = cd_pgn_reader_next(s->r, &g);
		if (st == CD_OK)
			cli_pgn_skipped(s->name, &g);
		else
			cli_pgn_skipped_end(s->name, &g);
		if (st == CD_EOF)
			return 0;
		if (st != CD_OK) {
			if (cli_read_end(s->name, st, cd_pgn_reader_error(s->r),
			    cd_pgn_reader_stream(s->r)) != 0)
				so->status = 2;
			return 0;
		}
		so->games_read++;
		if (cli_pgn_check(s->name, &g)) {
			so->games_rejected++;
			return src_next(so, s);	/* (never sorted) */
		}
		while ((klen = sort_item_key(so, &g, s->kbuf, s->kcap)) > s->kcap) {
			free(s->kbuf);
			s->kcap = klen * 2;
			s->kbuf = malloc(s->kcap);
			if (s->kbuf == NULL)
				cli_fatal("out of memory");
		}
		s->cur.key = s->kbuf;
		s->cur.klen = klen;
		s->cur.prefix = sort_key_prefix(so, s->kbuf, klen);
		s->cur.seq = s->seqbase + g.number;
		s->line = g.line;
		s->number = g.number;
		s->cur.text = g.text;
		s->cur.len = g.len;
		s->cur.mt_off = g.movetext;
		s->cur.mt_len = g.movetext_end - g.movetext;
		return 1;
	} else {
		uint64_t h[7];
		size_t total;

		if (!src_ensure(so, s, RUN_HDR)) {
			if (s->end != s->pos)
				cli_fatal("%s: truncated temporary file",
				    cli_tmp_name(s->id));
			return 0;
		}
		memcpy(h, s->buf + s->pos, sizeof(h));
		s->cur.seq = h[0];
		s->cur.len = (size_t)h[1];
		s->cur.klen = (size_t)h[2];
		s->cur.mt_off = (size_t)h[3];
		s->cur.mt_len = (size_t)h[4];
		if (h[5] == UINT64_MAX) {	/* the text follows */
			total = RUN_HDR + s->cur.len + s->cur.klen;
			s->cur.plen = 0;
		} else {
			s->cur.off = h[5];
			s->cur.file = (uint32_t)(h[6] >> 16);
			s->cur.plen = (uint8_t)(h[6] >> 8);
			s->cur.tail = (uint8_t)h[6];
			total = RUN_HDR + s->cur.klen + s->cur.plen;
		}
		if (!src_ensure(so, s, total))
			cli_fatal("%s: truncated temporary file",
			    cli_tmp_name(s->id));
		s->cur.text = h[5] == UINT64_MAX ? s->buf + s->pos + RUN_HDR :
		    NULL;
		s->cur.key = (unsigned char *)s->buf + s->pos + RUN_HDR +
		    (s->cur.text != NULL ? s->cur.len : 0);
		s->cur.prefix = sort_key_prefix(so, s->cur.key, s->cur.klen);
		s->pos += total;
		return 1;
	}
}

/* Merge n sources into the output, or into a new run when to_run. */
static void
merge(cli_sort *so, struct src *srcs, size_t n, int to_run)
{
	struct src **h = malloc((n + 1) * sizeof(*h));
	size_t nh = 0, i;

	if (h == NULL)
		cli_fatal("out of memory");
	for (i = 0; i < n; i++)
		if (srcs[i].primed ? srcs[i].have : src_next(so, &srcs[i]))
			h[nh++] = &srcs[i];
	for (i = nh / 2; i-- > 0;)
		sort_heap_down(so, h, nh, i);
	if (to_run)
		sort_run_open(so);
	so->have_last = 0;
	while (nh > 0) {
		struct src *s = h[0];

		if (!sort_unique_skip(so, &s->cur)) {
			if (to_run)
				sort_run_put(so, &s->cur);
			else
				sort_emit(so, &s->cur);
		}
		if (!src_next(so, s))
			h[0] = h[--nh];
		sort_heap_down(so, h, nh, 0);
		if (!to_run)
			cli_progress(so->games_written, 0);
	}
	so->have_last = 0;
	if (to_run)
		sort_run_close(so);
	else
		sort_oq_flush(so);
	free(h);
}

/* How many runs can be merged at once within the budget and the open
 * file limit. */
static size_t
fan_in(cli_sort *so)
{
	size_t k = so->o.budget / MERGE_BUF;
	struct rlimit rl;

	/* (the inputs whose games are read back stay open; FDS_KEPT for
	 * the standard three, the output, the run written, the rejects,
	 * a library being loaded) */
	if (getrlimit(RLIMIT_NOFILE, &rl) == 0 &&
	    rl.rlim_cur != RLIM_INFINITY) {
		size_t fds = (size_t)rl.rlim_cur > FDS_KEPT + 2 + so->ninfiles ?
		    (size_t)rl.rlim_cur - FDS_KEPT - so->ninfiles : 2;

		if (k > fds)
			k = fds;
	}
	return k < 2 ? 2 : k;
}

/* Merge runs[first..first+n) into the output or a new run, their
 * buffers shared out of the size bytes at buf; with mem (not NULL) as
 * one more source. */
static void
merge_runs(cli_sort *so, size_t first, size_t n, int to_run, char *buf,
    size_t size, struct src *mem)
{
	struct src *s = calloc(n + 1, sizeof(*s));
	size_t i, share = size / n;

	if (s == NULL)
		cli_fatal("out of memory");
	share -= share % 64;
	for (i = 0; i < n; i++) {
		s[i].id = so->runs[first + i];
		/* (read and write: run_release punches holes) */
		s[i].fd = open(cli_tmp_name(s[i].id), O_RDWR);
		if (s[i].fd < 0)
			cli_fatal("%s: %s", cli_tmp_name(s[i].id),
			    strerror(errno));
#ifdef POSIX_FADV_SEQUENTIAL
		posix_fadvise(s[i].fd, 0, 0, POSIX_FADV_SEQUENTIAL);
#endif
		if (so->o.compress_temp && (s[i].zs = cd_stream_open_fd(s[i].fd,
		    0)) == NULL)
			cli_fatal("out of memory");
		/* The buffer of the sort phase, shared out. */
		s[i].cap = share;
		s[i].buf = buf + i * share;
	}
	if (mem != NULL)
		s[n] = *mem;
	merge(so, s, n + (mem != NULL), to_run);
	for (i = 0; i < n; i++) {
		cd_stream_free(s[i].zs);
		close(s[i].fd);
		if (s[i].owned)
			free(s[i].buf);
		cli_tmp_remove(s[i].id);
	}
	free(s);
}

/* Merge all runs into the output, in groups first if there are more
 * than can be open at once. */
static void
merge_all_runs(cli_sort *so)
{
	size_t k = fan_in(so), first = 0;

	while (so->nruns - first > k) {
		merge_runs(so, first, k, 1, so->mem, so->o.budget, NULL);
		first += k;
	}
	merge_runs(so, first, so->nruns - first, 0, so->mem, so->o.budget,
	    NULL);
}

/* ---- reading ---- */


/* At most this many inputs keep their games (each keeps a descriptor
 * open). */
#define INFILES_MAX	64

/*
 * The index in infiles of the input f when its games can be left in it,
 * else -1: a plain regular file (not decompressed: then f has a
 * descriptor), without -u (which compares games' bytes), that fits in
 * half the memory with the inputs so kept before it.  *base: where its
 * reader starts in it.
 */
static long
infile_add(cli_sort *so, FILE *f, const char *name, uint64_t *base)
{
	long pages = sysconf(_SC_PHYS_PAGES), psize = sysconf(_SC_PAGESIZE);
	struct stat st;
	off_t at;
	int fd = fileno(f), nfd;

	if (so->o.unique || fd < 0 || so->ninfiles == INFILES_MAX ||
	    cli_input_compressed(f) ||
	    fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) ||
	    (at = lseek(fd, 0, SEEK_CUR)) < 0)
		return -1;
	if (pages > 0 && psize > 0 && so->infiles_bytes + (uint64_t)st.st_size >
	    (uint64_t)pages * (uint64_t)psize / 2)
		return -1;
	if ((nfd = dup(fd)) < 0)
		return -1;
	cli_grow(&so->infiles, &so->infiles_cap, so->ninfiles, sizeof(*so->infiles), 8);
	so->infiles[so->ninfiles].fd = nfd;
	so->infiles[so->ninfiles].name = name;
	so->infiles[so->ninfiles].st = st;
	so->infiles_bytes += (uint64_t)st.st_size;
	*base = (uint64_t)at;
	return (long)so->ninfiles++;
}

/* Before reading games back: their files are as they were. */
static void
infiles_check(cli_sort *so)
{
	size_t i;

	for (i = 0; i < so->ninfiles; i++) {
		const struct infile *f = &so->infiles[i];
		struct stat st;

		if (fstat(f->fd, &st) != 0 || st.st_size != f->st.st_size ||
		    st.st_mtim.tv_sec != f->st.st_mtim.tv_sec ||
		    st.st_mtim.tv_nsec != f->st.st_mtim.tv_nsec)
			cli_fatal("%s: changed while being sorted", f->name);
	}
}

static void
infiles_close(cli_sort *so)
{
	size_t i;

	for (i = 0; i < so->ninfiles; i++)
		close(so->infiles[i].fd);
	free(so->infiles);
	so->infiles = NULL;
	so->ninfiles = so->infiles_cap = 0;
}

/* The memory an input's decompression holds (0 for plain input). */
static size_t
input_memory(const cd_pgn_reader *r)
{
	const cd_stream *zs = cd_pgn_reader_stream(r);

	return zs != NULL && cd_stream_get_format(zs) != CD_STREAM_PLAIN ?
	    cd_stream_memory(zs) : 0;
}

/* Return the heap's free pages to the system (glibc keeps them). */
static void
give_back_memory(void)
{
#ifdef __GLIBC__
	(void)malloc_trim(0);
#endif
}

/*
 * -m: merge sorted inputs.  As many are open at once as the descriptor
 * limit and -S allow: each counts what it holds once its first game is
 * read (its reader, and its decompression: the window of a compressed
 * input, which is decompressed without a thread of its own here);
 * more inputs than that are merged in groups into runs first, as
 * sort(1) does.
 */
static void
merge_inputs(cli_sort *so, char **files, int nfiles)
{
	size_t n = nfiles ? (size_t)nfiles : 1, k = fan_in(so), first, i, m;

	cli_input_unthreaded();
	for (first = 0; first < n; first += m) {
		struct src *s = calloc(n - first < k ? n - first : k,
		    sizeof(*s));
		size_t used = 0, held = 0, one = 0;

		if (s == NULL)
			cli_fatal("out of memory");
		/* at least two, then while the next (as big as the last)
		 * fits */
		for (m = 0; first + m < n && m < k && (m < 2 ||
		    held + one <= so->o.budget); m++) {
			const char *name;
			FILE *f = cli_open_input(nfiles ? files[first + m] :
			    "-", &name);

			if (f == NULL) {
				so->status = 2;
				continue;
			}
			s[used].f = f;
			s[used].name = name;
			s[used].r = cli_pgn_reader_new(f);
			s[used].seqbase = (uint64_t)(first + m) << 40;
			s[used].have = src_next(so, &s[used]);
			s[used].primed = 1;
			one = INPUT_COST + input_memory(s[used].r);
			held += one;
			used++;
		}
		merge(so, s, used, !(first == 0 && m == n));
		for (i = 0; i < used; i++) {
			cd_pgn_reader_free(s[i].r);
			cli_close_input(s[i].f);
			free(s[i].kbuf);
		}
		free(s);
		/* what the group held (the decompressors' windows, freed
		 * in pieces of the heap) is given back before the next
		 * group or the merge of the runs takes the budget again:
		 * else the two add up (twice -S) */
		give_back_memory();
	}
	if (so->nruns > 0) {
		mem_alloc(so);
		merge_all_runs(so);
		free(so->mem);
		so->mem = NULL;
	}
}

/*
 * The end of a sort that wrote runs: the games still in the buffer are
 * not written as one more run but sorted there and merged with the runs
 * as they are, the runs' buffers shared out of the room the buffer has
 * left (the items' sorting room, and what the last games did not
 * fill), when that gives each run MERGE_MIN bytes and the runs are
 * merged at once.  So the last buffer (up to -S bytes of games) is
 * neither written nor read back.  0: not so (nothing done).
 */
static int
mem_merge(cli_sort *so)
{
	size_t n = mem_nitems(so), lo, room;
	struct item *it = mem_items(so);
	struct src m;

	lo = (so->mem_lo + 63) & ~(size_t)63;
	room = so->mem_hi > lo ? so->mem_hi - lo : 0;
	if (n == 0 || so->nruns + 1 > fan_in(so) ||
	    room / so->nruns < MERGE_MIN)
		return 0;
	/* The room below the items was kept free for this. */
	sort_items_sort(so, it, it - n, n);
	infiles_check(so);
	memset(&m, 0, sizeof(m));
	m.items = it;
	m.nitems = n;
	merge_runs(so, 0, so->nruns, 0, so->mem + lo, room, &m);
	return 1;
}

/* ---- the interface ---- */

cli_sort *
cli_sort_new(const struct cli_sort_opts *o)
{
	cli_sort *so = calloc(1, sizeof(*so));

	if (so == NULL ||
	    (so->key_seen = calloc(o->nkeys + 1, sizeof(bool))) == NULL ||
	    (so->key_case = calloc(o->nkeys + 1, sizeof(char *))) == NULL)
		cli_fatal("out of memory");
	so->o = *o;
	if (so->o.budget < CLI_SORT_MIN_BUDGET)
		so->o.budget = CLI_SORT_MIN_BUDGET;
	so->rw.fd = -1;
	return so;
}

/*
 * A pipe read from is made to hold PIPE_BYTES (Linux: 64 KiB by
 * default), so that the reader's reads of 256 KiB get as much and the
 * writer (cat, a decompressor) and pgn-sort take turns a quarter as
 * often.  Where it cannot be (an unprivileged process above
 * /proc/sys/fs/pipe-max-size), it stays as it is.
 */
static void
pipe_widen(FILE *f)
{
#ifdef F_SETPIPE_SZ
	struct stat st;
	int fd = fileno(f);

	if (fd >= 0 && fstat(fd, &st) == 0 && S_ISFIFO(st.st_mode) &&
	    fcntl(fd, F_GETPIPE_SZ) < (int)PIPE_BYTES)
		(void)fcntl(fd, F_SETPIPE_SZ, (int)PIPE_BYTES);
#else
	(void)f;
#endif
}

int
cli_sort_read(cli_sort *so, FILE *f, const char *name)
{
	cd_pgn_reader *r;
	cd_pgn_raw_game g;
	cd_status st;
	uint64_t base = 0;
	long file;
	int ret;

	if (so->mem == NULL) {
		mem_alloc(so);
		so->mem_lo = 0;
		so->mem_hi = so->o.budget - so->o.budget % sizeof(struct item);
	}
	file = infile_add(so, f, name, &base);
	if (file < 0)
		pipe_widen(f);
	r = cli_pgn_reader_new(f);
	cli_pgn_watch(r);
	while ((st = cd_pgn_reader_next(r, &g)) == CD_OK) {
		cli_pgn_skipped(name, &g);
		so->games_read++;
		if (cli_pgn_check(name, &g)) {
			so->games_rejected++;
			continue;	/* (binary data or too large: not a
					 * game to write) */
		}
		mem_add(so, &g, ++so->seq, file, base);
		cli_progress(so->games_read, so->bytes + cd_pgn_reader_tell(r));
	}
	cli_pgn_skipped_end(name, &g);
	so->bytes += cd_pgn_reader_tell(r);
	ret = cli_read_end(name, st, cd_pgn_reader_error(r),
	    cd_pgn_reader_stream(r));
	cd_pgn_reader_free(r);
	return ret;
}

int
cli_sort_write(cli_sort *so)
{
	if (so->nruns == 0) {
		infiles_check(so);
		if (so->mem != NULL)
			mem_flush(so, 1);
	} else if (!mem_merge(so)) {
		mem_flush(so, 0);
		infiles_check(so);
		merge_all_runs(so);
	}
	infiles_close(so);
	free(so->stage);
	so->stage = NULL;
	free(so->mem);
	so->mem = NULL;
	return so->status;
}

int
cli_sort_merge(cli_sort *so, char **files, int nfiles)
{
	merge_inputs(so, files, nfiles);
	return so->status;
}

int
cli_sort_check(cli_sort *so, FILE *f, const char *name)
{
	struct src s;
	int ret = 0;

	memset(&s, 0, sizeof(s));
	s.f = f;
	s.name = name;
	s.r = cli_pgn_reader_new(f);
	while (ret == 0 && src_next(so, &s)) {
		if (so->have_last) {
			int c = sort_keys_cmp(so, &so->last, &s.cur);

			if (so->o.reverse)
				c = -c;
			if (c > 0 || (c == 0 && so->o.unique &&
			    sort_exact_cmp(so, &so->last, &s.cur) == 0)) {
				cli_warn_at(name, s.line, 0, "game %llu is %s",
				    (unsigned long long)s.number,
				    c > 0 ? "out of order" :
				    "equal to the one before it");
				ret = 1;
				break;
			}
		}
		sort_remember(so, &s.cur);
	}
	cd_pgn_reader_free(s.r);
	free(s.kbuf);
	return ret != 0 ? ret : so->status;
}

void
cli_sort_free(cli_sort *so, struct cli_sort_counts *c)
{
	if (so == NULL)
		return;
	sort_keys_warn(so);
	if (c != NULL) {
		c->read = so->games_read;
		c->written = so->games_written;
		c->rejected = so->games_rejected;
		c->runs = so->nruns;
	}
	free(so->last_buf);
	free(so->runs);
	free(so->mt_buf[0]);
	free(so->mt_buf[1]);
	free(so);
}
