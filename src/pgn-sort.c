/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * pgn-sort: sort PGN games in the standard's collating order (section
 * 12; pgn-sort(1)), stable, writing each game's bytes as they came.
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
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
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
#include "cli/cli.h"

#define MIN_BUDGET	((size_t)64 << 10)
#define DEFAULT_BUDGET	((size_t)256 << 20)
#define MERGE_BUF	((size_t)128 << 10)	/* per run while merging */
/* Descriptors a merge leaves to others than its sources. */
#define FDS_KEPT	12
/* What an input of -m holds besides its decompression: the reader's
 * buffer (more for a bigger game) and stdio's. */
#define INPUT_COST	((size_t)320 << 10)

static int opt_reverse, opt_unique, opt_check, opt_merge, opt_stats;
static size_t opt_budget = DEFAULT_BUDGET;
static const char *opt_tmpdir;
static char **opt_keys;		/* -k: tags sorted by first */
static size_t opt_nkeys;
/* For each -k tag: whether a game read has it, else the first name of
 * a tag some game has that differs from it in case only (or NULL). */
static bool *key_seen;
static char **key_case;
static int status;		/* exit status so far */
static uint64_t games_read, games_written, games_rejected;

/* ---- a game with its key ---- */

struct item {
	uint64_t prefix;	/* first 8 key bytes, big-endian */
	uint64_t seq;		/* input order */
	const unsigned char *key;
	const char *text;	/* NULL: the game is in infiles[file] */
	size_t klen, len, mt_off, mt_len;
	/* a game left in its file: where it starts there, how many bytes
	 * of its movetext follow the key (cd_collate_movetext_prefix), and
	 * what emit would add after it (a TAIL_* index) */
	uint64_t off;
	uint32_t file;
	uint8_t plen, tail;
};

/* The movetext bytes kept with the key of a game left in its file: the
 * opening books' lines compare within them. */
#define MT_PREFIX	128

/* The inputs whose games are left in them (see the top). */
static struct infile {
	int fd;			/* a descriptor of its own */
	const char *name;
	struct stat st;		/* to tell a change before reading back */
} *infiles;
static size_t ninfiles, infiles_cap;
static uint64_t infiles_bytes;

/* Read len bytes at off of input file into buf, fully. */
static void
infile_read(uint32_t file, uint64_t off, char *buf, size_t len)
{
	const struct infile *f = &infiles[file];

	while (len > 0) {
		ssize_t k = pread(f->fd, buf, len, (off_t)off);

		if (k < 0 && errno == EINTR)
			continue;
		if (k < 0)
			cli_fatal("%s: read error: %s", f->name,
			    strerror(errno));
		if (k == 0)
			cli_fatal("%s: changed while being sorted", f->name);
		buf += k;
		off += (uint64_t)k;
		len -= (size_t)k;
	}
}

/* The movetext of a game left in its file, read into scratch buffer
 * slot (0 or 1: a comparison reads two). */
static const char *
movetext_fetch(const struct item *it, int slot)
{
	static char *buf[2];
	static size_t cap[2];

	if (it->mt_len > cap[slot]) {
		free(buf[slot]);
		cap[slot] = it->mt_len + it->mt_len / 2 + 256;
		if ((buf[slot] = malloc(cap[slot])) == NULL)
			cli_fatal("out of memory");
	}
	infile_read(it->file, it->off + it->mt_off, buf[slot], it->mt_len);
	return buf[slot];
}

/* Key 8, the movetext: from memory or the prefixes (which tell for
 * two games in memory), else read back. */
static int
movetext_cmp(const struct item *a, const struct item *b)
{
	const char *ma, *mb;
	int c;

	c = cd_collate_movetext_prefix_cmp(
	    a->text ? a->text + a->mt_off : (const char *)a->key + a->klen,
	    a->text ? a->mt_len : a->plen, !a->text && a->plen < a->mt_len,
	    b->text ? b->text + b->mt_off : (const char *)b->key + b->klen,
	    b->text ? b->mt_len : b->plen, !b->text && b->plen < b->mt_len);
	if (c != 2)
		return c;
	ma = a->text ? a->text + a->mt_off : movetext_fetch(a, 0);
	mb = b->text ? b->text + b->mt_off : movetext_fetch(b, 1);
	return cd_collate_movetext_cmp(ma, a->mt_len, mb, b->mt_len);
}

/*
 * With -u a key holds, after the collating key (keys 1 to 7), the seven
 * tag values as they are written: each as a 4-byte length and its
 * bytes, then the 4-byte length of that part.  Games equal in sort
 * order ("1993.?1.01" and "1993.01.01", Round "1" and "01") are the
 * same game only when these bytes and the movetext are equal.
 */
static size_t
key_collate_len(const unsigned char *k, size_t klen)
{
	uint32_t x;

	if (!opt_unique || klen < 4)
		return klen;
	memcpy(&x, k + klen - 4, 4);
	return klen - 4 - x;
}

/* The tag values of -u, compared as bytes. */
static int
exact_cmp(const struct item *a, const struct item *b)
{
	size_t ac = key_collate_len(a->key, a->klen);
	size_t bc = key_collate_len(b->key, b->klen);
	size_t an = a->klen - ac, bn = b->klen - bc;
	int c = memcmp(a->key + ac, b->key + bc, an < bn ? an : bn);

	return c != 0 ? c : (an > bn) - (an < bn);
}

static uint64_t
key_prefix(const unsigned char *k, size_t klen)
{
	uint64_t v = 0;
	size_t i, n = key_collate_len(k, klen);

	for (i = 0; i < 8; i++)
		v = v << 8 | (i < n ? k[i] : 0);
	return v;
}

/* The eight keys: <0, 0, >0. */
static int
keys_cmp(const struct item *a, const struct item *b)
{
	int c;

	if (a->prefix != b->prefix)
		return a->prefix < b->prefix ? -1 : 1;
	c = cd_collate_key_cmp(a->key, key_collate_len(a->key, a->klen),
	    b->key, key_collate_len(b->key, b->klen));
	if (c == 0)
		c = movetext_cmp(a, b);
	return c;
}

/* The output order: keys (reversed with -r), then (with -u, so that
 * equal games meet) the tag values as bytes, then input order. */
static int
item_cmp(const struct item *a, const struct item *b)
{
	int c = keys_cmp(a, b);

	if (c != 0)
		return opt_reverse ? -c : c;
	if (opt_unique && (c = exact_cmp(a, b)) != 0)
		return c;
	return a->seq < b->seq ? -1 : a->seq > b->seq;
}

/*
 * Sort n items stably (bottom-up merge sort) with room for n more at
 * tmp: the room is kept free in the buffer, so sorting stays within the
 * budget (qsort would allocate on its own).
 */
static void
items_sort(struct item *a, struct item *tmp, size_t n)
{
	struct item *src = a, *dst = tmp, *t, x;
	size_t i, j, w;

	for (i = 0; i < n; i += 8) {	/* insertion sort, runs of 8 */
		size_t e = i + 8 < n ? i + 8 : n;

		for (j = i + 1; j < e; j++) {
			size_t k = j;

			x = a[j];
			while (k > i && item_cmp(&a[k - 1], &x) > 0) {
				a[k] = a[k - 1];
				k--;
			}
			a[k] = x;
		}
	}
	for (w = 8; w < n; w *= 2) {
		for (i = 0; i < n; i += 2 * w) {
			size_t l = i, le = i + w < n ? i + w : n;
			size_t r = le, re = i + 2 * w < n ? i + 2 * w : n;
			size_t o = i;

			while (l < le && r < re)
				dst[o++] = item_cmp(&src[l], &src[r]) <= 0 ?
				    src[l++] : src[r++];
			while (l < le)
				dst[o++] = src[l++];
			while (r < re)
				dst[o++] = src[r++];
		}
		t = src;
		src = dst;
		dst = t;
	}
	if (src != a)
		memcpy(a, src, n * sizeof(*a));
}

/* Note which -k tags the raw game g has, or has in another case. */
static void
keys_note(const cd_pgn_raw_game *g)
{
	size_t i, k, n;

	for (i = 0; i < opt_nkeys; i++) {
		if (key_seen[i])
			continue;
		if (cd_pgn_raw_tag(g, opt_keys[i]) != NULL) {
			key_seen[i] = true;
			continue;
		}
		n = strlen(opt_keys[i]);
		for (k = 0; key_case[i] == NULL && k < g->ntags; k++)
			if (g->tags[k].name_len == n &&
			    strncasecmp(g->tags[k].name, opt_keys[i], n) == 0 &&
			    (key_case[i] = strndup(g->tags[k].name, n)) ==
			    NULL)
				cli_fatal("out of memory");
	}
}

/* A warning for each -k tag that no game read has (tag names are
 * case-sensitive: `-k whiteelo` sorts by nothing). */
static void
keys_warn(void)
{
	size_t i;

	for (i = 0; i < opt_nkeys; i++) {
		if (!key_seen[i] && games_read > 0 && key_case[i] != NULL)
			cli_warn("warning: no game has a tag '%s' (some have "
			    "'%s': tag names are case-sensitive)",
			    opt_keys[i], key_case[i]);
		else if (!key_seen[i] && games_read > 0)
			cli_warn("warning: no game has a tag '%s'",
			    opt_keys[i]);
		free(key_case[i]);
	}
	free(key_case);
	free(key_seen);
}

/* Fill the key fields of it from a raw game; the key goes to kbuf
 * (kcap bytes).  Returns the key length (more than kcap: nothing
 * written, give more room). */
static size_t
item_key(const cd_pgn_raw_game *g, unsigned char *kbuf, size_t kcap)
{
	cd_collate_game cg;

	size_t n, x, i;
	uint32_t len;

	cd_collate_from_raw(g, &cg);
	if (opt_nkeys > 0)
		keys_note(g);
	/* the -k tags, then keys 1 to 7 */
	n = opt_nkeys == 0 ? 0 : cd_collate_key_tags(g,
	    (const char *const *)opt_keys, opt_nkeys, kbuf, kcap);
	n += cd_collate_key(&cg, kbuf != NULL && n <= kcap ? kbuf + n : NULL,
	    n <= kcap ? kcap - n : 0);
	if (!opt_unique)
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

/* ---- output ---- */

/*
 * Games go to the output with writev (cli_output_writev), straight from
 * where they lie (the buffer or a run's buffer): no copy.  The queue is
 * flushed before any of those buffers changes (flush_pending).
 */
#define IOV_BATCH	512

static int opt_compress_temp;	/* runs compressed (zstd level 1) */
static struct iovec oq[IOV_BATCH];
static int noq;

/* Games read back from their files on their way out, a buffer's worth
 * at a time (the queue points into it until flushed). */
#define STAGE_BYTES	((size_t)1 << 20)
static char *stage;
static size_t stage_used;

static void
oq_flush(void)
{
	cli_output_writev(oq, noq);
	noq = 0;
	stage_used = 0;
}

static void
oq_add(const void *p, size_t n)
{
	if (noq == IOV_BATCH)
		oq_flush();
	oq[noq].iov_base = (void *)(uintptr_t)p;
	oq[noq].iov_len = n;
	noq++;
}

/* What goes after a game's bytes: nothing, or a line end or two. */
enum { TAIL_NONE, TAIL_BLANK, TAIL_LF, TAIL_CRLF };
static const char *const tails[] = { "", "\n\n", "\n", "\r\n" };

/*
 * What to write after a game's bytes so that games stay apart whatever
 * order they come in: an empty line when they do not end with one (the
 * last game of a file often does not).
 */
static int
text_tail(const char *text, size_t len)
{
	size_t p;

	if (len == 0)
		return TAIL_NONE;
	if (text[len - 1] != '\n')
		return TAIL_BLANK;
	for (p = len - 1; p > 0 && (text[p - 1] == ' ' || text[p - 1] == '\t' ||
	    text[p - 1] == '\r'); p--)
		;
	if (p > 0 && text[p - 1] != '\n')
		return len >= 2 && text[len - 2] == '\r' ? TAIL_CRLF : TAIL_LF;
	return TAIL_NONE;
}

static void
emit_tail(int tail)
{
	if (tail != TAIL_NONE)
		oq_add(tails[tail], strlen(tails[tail]));
}

/* Write a game and its tail, from memory or read back from its file. */
static void
emit(const struct item *it)
{
	uint64_t off = it->off;
	size_t len = it->len;

	games_written++;
	if (it->text != NULL) {
		if (len > 0) {
			oq_add(it->text, len);
			emit_tail(text_tail(it->text, len));
		}
		return;
	}
	if (stage == NULL && (stage = malloc(STAGE_BYTES)) == NULL)
		cli_fatal("out of memory");
	while (len > 0) {
		size_t n = len < STAGE_BYTES ? len : STAGE_BYTES;

		/* room in the buffer, and in the queue (oq_add would
		 * flush it, and free the buffer, before adding) */
		if (stage_used + n > STAGE_BYTES || noq == IOV_BATCH)
			oq_flush();
		infile_read(it->file, off, stage + stage_used, n);
		oq_add(stage + stage_used, n);
		stage_used += n;
		off += n;
		len -= n;
	}
	emit_tail(it->tail);
}

/* With -u: the last game written, to drop the games equal to it. */
static struct item last;
static unsigned char *last_buf;
static size_t last_cap;
static int have_last;

/* Keep a copy of the keys of it as the last game. */
static void
remember(const struct item *it)
{
	size_t need = it->klen + it->mt_len;

	if (need > last_cap) {
		free(last_buf);
		last_cap = need + need / 2 + 64;
		last_buf = malloc(last_cap);
		if (last_buf == NULL)
			cli_fatal("out of memory");
	}
	memcpy(last_buf, it->key, it->klen);
	memcpy(last_buf + it->klen, it->text + it->mt_off, it->mt_len);
	last = *it;
	last.key = last_buf;
	last.text = (const char *)last_buf + it->klen;
	last.mt_off = 0;
	have_last = 1;
}

/* Whether it repeats the last game written (-u); if not, it becomes
 * the last game. */
static int
unique_skip(const struct item *it)
{
	if (!opt_unique)
		return 0;
	if (have_last && keys_cmp(&last, it) == 0 && exact_cmp(&last, it) == 0)
		return 1;
	remember(it);
	return 0;
}

/* ---- temporary files ---- */

/* A new temporary file open for writing (removed on every exit and on
 * a signal, cli/tmp.c); *id names it. */
static int
tmp_create(size_t *id)
{
	return cli_tmp_create(opt_tmpdir, "pgn-sort", id);
}

/* ---- runs ---- */

/* A run file holds records: seven 64-bit numbers (sequence, text
 * length, key length, movetext offset and length, and for a game left
 * in its file where it starts there and file << 16 | plen << 8 | tail,
 * else UINT64_MAX and 0), the text (none for a game left in its file),
 * the key (with the movetext prefix of a game left in its file). */
#define RUN_HDR	(7 * sizeof(uint64_t))

static size_t *runs;		/* temporary file ids */
static size_t nruns, runcap;

static void
run_add(size_t id)
{
	cli_grow(&runs, &runcap, nruns, sizeof(*runs), 64);
	runs[nruns++] = id;
}

/* The run being written: records gathered for writev. */
static struct runw {
	int fd;
	cd_stream *zs;		/* --compress-temp */
	size_t id;
	int n, nh;
	struct iovec iov[IOV_BATCH];
	uint64_t hdr[IOV_BATCH / 3][7];
} rw = { -1, NULL, 0, 0, 0, { { NULL, 0 } }, { { 0 } } };

static void
run_flush(void)
{
	int i;

	for (i = 0; rw.zs != NULL && i < rw.n; i++)
		if (cd_stream_write(rw.zs, rw.iov[i].iov_base,
		    rw.iov[i].iov_len) != CD_OK)
			cli_fatal("write error on %s: %s", cli_tmp_name(rw.id),
			    cd_stream_error(rw.zs)->msg);
	if (rw.zs != NULL)
		rw.n = 0;
	if (rw.n > 0 && cli_writev_all(rw.fd, rw.iov, rw.n) < 0)
		cli_fatal("write error on %s: %s", cli_tmp_name(rw.id),
		    strerror(errno));
	rw.n = 0;
	rw.nh = 0;
}

static void
run_open(void)
{
	rw.fd = tmp_create(&rw.id);
	if (opt_compress_temp) {
		int lo;

		cd_stream_levels(CD_STREAM_ZSTD, &lo, NULL, NULL);
		rw.zs = cd_stream_open_write_fd(rw.fd, CD_STREAM_ZSTD, lo);
		if (rw.zs == NULL)
			cli_fatal("out of memory");
	}
	rw.n = 0;
	rw.nh = 0;
}

static void
run_put(const struct item *it)
{
	uint64_t *h;

	if (rw.nh == IOV_BATCH / 3)
		run_flush();
	h = rw.hdr[rw.nh++];
	h[0] = it->seq;
	h[1] = it->len;
	h[2] = it->klen;
	h[3] = it->mt_off;
	h[4] = it->mt_len;
	h[5] = it->text != NULL ? UINT64_MAX : it->off;
	h[6] = it->text != NULL ? 0 : (uint64_t)it->file << 16 |
	    (uint64_t)it->plen << 8 | it->tail;
	rw.iov[rw.n].iov_base = h;
	rw.iov[rw.n++].iov_len = RUN_HDR;
	if (it->text == NULL) {
		rw.iov[rw.n].iov_base = (void *)(uintptr_t)it->key;
		rw.iov[rw.n++].iov_len = it->klen + it->plen;
	} else if ((const char *)it->key == it->text + it->len) {
		rw.iov[rw.n].iov_base = (void *)(uintptr_t)it->text;
		rw.iov[rw.n++].iov_len = it->len + it->klen;
	} else {
		rw.iov[rw.n].iov_base = (void *)(uintptr_t)it->text;
		rw.iov[rw.n++].iov_len = it->len;
		rw.iov[rw.n].iov_base = (void *)(uintptr_t)it->key;
		rw.iov[rw.n++].iov_len = it->klen;
	}
}

static void
run_close(void)
{
	run_flush();
	if (rw.zs != NULL && cd_stream_finish(rw.zs) != CD_OK)
		cli_fatal("write error on %s: %s", cli_tmp_name(rw.id),
		    cd_stream_error(rw.zs)->msg);
	cd_stream_free(rw.zs);
	rw.zs = NULL;
	if (close(rw.fd) != 0)
		cli_fatal("write error on %s: %s", cli_tmp_name(rw.id),
		    strerror(errno));
	rw.fd = -1;
	run_add(rw.id);
}

/* Write out what points into buffers that are about to change. */
static void
flush_pending(void)
{
	oq_flush();
	if (rw.fd >= 0)
		run_flush();
}

/* ---- the in-memory buffer ---- */

static char *mem;		/* opt_budget bytes */
static size_t mem_lo;		/* game bytes and keys below */
static size_t mem_hi;		/* items from here to the end */

/* The buffer: pages not touched (a small input) cost nothing.  (Huge
 * pages were tried: faults get cheaper, but compaction stalls make the
 * time vary more than it saves.) */
static void
mem_alloc(void)
{
	if (mem != NULL)
		return;
	mem = malloc(opt_budget);
	if (mem == NULL)
		cli_fatal("cannot allocate the %zu-byte buffer", opt_budget);
}

static size_t
mem_nitems(void)
{
	return (opt_budget - mem_hi) / sizeof(struct item);
}

static struct item *
mem_items(void)
{
	return (struct item *)(void *)(mem + mem_hi);
}

/* Sort the buffer's games; write them as a run, or to the output when
 * final (no run was written). */
static void
mem_flush(int final)
{
	size_t n = mem_nitems(), i;
	struct item *it = mem_items();

	if (n == 0)
		return;
	/* The room below the items was kept free for this. */
	items_sort(it, it - n, n);
	if (!final)
		run_open();
	for (i = 0; i < n; i++) {
		if (unique_skip(&it[i]))
			continue;
		if (final)
			emit(&it[i]);
		else
			run_put(&it[i]);
	}
	if (final)
		oq_flush();
	else
		run_close();
	have_last = 0;		/* runs are merged with -u again */
	mem_lo = 0;
	mem_hi = opt_budget - opt_budget % sizeof(struct item);
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
		it->tail = (uint8_t)text_tail(g->text, g->len);
	}
}

/* One game whose key does not fit in the whole buffer (or, copied,
 * whose bytes do not): a run of its own, written from the reader's
 * memory. */
static void
big_game(const cd_pgn_raw_game *g, uint64_t seq, long file, uint64_t base)
{
	struct item it;
	unsigned char *k;
	size_t klen;

	item_fill(&it, g, seq, file, base);
	klen = item_key(g, NULL, 0);
	k = malloc(klen + it.plen + 1);
	if (k == NULL)
		cli_fatal("out of memory");
	item_key(g, k, klen);
	memcpy(k + klen, g->text + g->movetext, it.plen);
	it.key = k;
	it.klen = klen;
	it.prefix = key_prefix(k, klen);
	run_open();
	run_put(&it);
	run_close();
	free(k);
}

/* Add a game to the buffer (flushing it to a run when full): its bytes
 * and key, or for a game left in its file (file >= 0) its key and
 * movetext prefix. */
static void
mem_add(const cd_pgn_raw_game *g, uint64_t seq, long file, uint64_t base)
{
	size_t room, klen, text = file >= 0 ? 0 : g->len, extra;
	struct item *it;
	int tries;

	/* (the prefix is known before the key: it goes after it) */
	extra = file >= 0 ? cd_collate_movetext_prefix(g->text + g->movetext,
	    g->movetext_end - g->movetext, MT_PREFIX) : 0;
	for (tries = 0; tries < 2; tries++) {
		/* The new item, and free room of one item per item to sort
		 * with (items_sort), and the rounding of the data. */
		size_t reserve = (mem_nitems() + 2) * sizeof(struct item) + 7 +
		    extra;

		room = mem_hi - mem_lo;
		if (room >= text + reserve) {
			klen = item_key(g, (unsigned char *)mem + mem_lo +
			    text, room - text - reserve);
			if (text + klen + reserve <= room)
				goto fits;
		}
		if (mem_nitems() == 0)
			break;
		mem_flush(0);
	}
	big_game(g, seq, file, base);
	return;
fits:
	memcpy(mem + mem_lo, g->text, text);
	memcpy(mem + mem_lo + text + klen, g->text + g->movetext, extra);
	mem_hi -= sizeof(struct item);
	it = mem_items();
	item_fill(it, g, seq, file, base);
	if (file < 0)
		it->text = mem + mem_lo;
	it->key = (unsigned char *)mem + mem_lo + text;
	it->klen = klen;
	it->prefix = key_prefix(it->key, klen);
	/* Round the data up to 8 bytes. */
	mem_lo += (text + klen + extra + 7) & ~(size_t)7;
}

/* ---- merging ---- */

struct src {
	/* A run... */
	int fd;
	cd_stream *zs;		/* a compressed run */
	size_t id;
	char *buf;
	size_t cap, pos, end;
	int eof;
	int owned;		/* buf is malloc'ed (else a part of mem) */
	/* ...or a sorted PGN input (-m). */
	cd_pgn_reader *r;
	const char *name;
	FILE *f;
	unsigned char *kbuf;
	size_t kcap;
	uint64_t seqbase;
	unsigned long line;	/* of the current game */
	uint64_t number;
	struct item cur;
	int primed, have;	/* cur is read (have: there was one) */
};

/* Read more of a run so that want bytes from pos are in the buffer. */
static int
src_ensure(struct src *s, size_t want)
{
	while (s->end - s->pos < want) {
		ssize_t k;

		if (s->eof)
			return 0;
		flush_pending();
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
	}
	return 1;
}

/* The next record of a source into s->cur; 0 at its end. */
static int
src_next(struct src *s)
{
	if (s->r != NULL) {
		cd_pgn_raw_game g;
		cd_status st;
		size_t klen;

		flush_pending();	/* the reader reuses its buffer */
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
				status = 2;
			return 0;
		}
		games_read++;
		if (cli_pgn_check(s->name, &g)) {
			games_rejected++;
			return src_next(s);	/* (never sorted) */
		}
		while ((klen = item_key(&g, s->kbuf, s->kcap)) > s->kcap) {
			free(s->kbuf);
			s->kcap = klen * 2;
			s->kbuf = malloc(s->kcap);
			if (s->kbuf == NULL)
				cli_fatal("out of memory");
		}
		s->cur.key = s->kbuf;
		s->cur.klen = klen;
		s->cur.prefix = key_prefix(s->kbuf, klen);
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

		if (!src_ensure(s, RUN_HDR)) {
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
		if (!src_ensure(s, total))
			cli_fatal("%s: truncated temporary file",
			    cli_tmp_name(s->id));
		s->cur.text = h[5] == UINT64_MAX ? s->buf + s->pos + RUN_HDR :
		    NULL;
		s->cur.key = (unsigned char *)s->buf + s->pos + RUN_HDR +
		    (s->cur.text != NULL ? s->cur.len : 0);
		s->cur.prefix = key_prefix(s->cur.key, s->cur.klen);
		s->pos += total;
		return 1;
	}
}

/* Heap of sources by their current record. */
static void
heap_down(struct src **h, size_t n, size_t i)
{
	for (;;) {
		size_t l = 2 * i + 1, m = i;
		struct src *t;

		if (l < n && item_cmp(&h[l]->cur, &h[m]->cur) < 0)
			m = l;
		if (l + 1 < n && item_cmp(&h[l + 1]->cur, &h[m]->cur) < 0)
			m = l + 1;
		if (m == i)
			return;
		t = h[i];
		h[i] = h[m];
		h[m] = t;
		i = m;
	}
}

/* Merge n sources into the output, or into a new run when to_run. */
static void
merge(struct src *srcs, size_t n, int to_run)
{
	struct src **h = malloc((n + 1) * sizeof(*h));
	size_t nh = 0, i;

	if (h == NULL)
		cli_fatal("out of memory");
	for (i = 0; i < n; i++)
		if (srcs[i].primed ? srcs[i].have : src_next(&srcs[i]))
			h[nh++] = &srcs[i];
	for (i = nh / 2; i-- > 0;)
		heap_down(h, nh, i);
	if (to_run)
		run_open();
	have_last = 0;
	while (nh > 0) {
		struct src *s = h[0];

		if (!unique_skip(&s->cur)) {
			if (to_run)
				run_put(&s->cur);
			else
				emit(&s->cur);
		}
		if (!src_next(s))
			h[0] = h[--nh];
		heap_down(h, nh, 0);
		if (!to_run)
			cli_progress(games_written, 0);
	}
	have_last = 0;
	if (to_run)
		run_close();
	else
		oq_flush();
	free(h);
}

/* How many runs can be merged at once within the budget and the open
 * file limit. */
static size_t
fan_in(void)
{
	size_t k = opt_budget / MERGE_BUF;
	struct rlimit rl;

	/* (the inputs whose games are read back stay open; FDS_KEPT for
	 * the standard three, the output, the run written, the rejects,
	 * a library being loaded) */
	if (getrlimit(RLIMIT_NOFILE, &rl) == 0 &&
	    rl.rlim_cur != RLIM_INFINITY) {
		size_t fds = (size_t)rl.rlim_cur > FDS_KEPT + 2 + ninfiles ?
		    (size_t)rl.rlim_cur - FDS_KEPT - ninfiles : 2;

		if (k > fds)
			k = fds;
	}
	return k < 2 ? 2 : k;
}

/* Merge runs[first..first+n) into the output or a new run. */
static void
merge_runs(size_t first, size_t n, int to_run)
{
	struct src *s = calloc(n, sizeof(*s));
	size_t i, share = opt_budget / n;

	if (s == NULL)
		cli_fatal("out of memory");
	share -= share % 64;
	for (i = 0; i < n; i++) {
		s[i].id = runs[first + i];
		s[i].fd = open(cli_tmp_name(s[i].id), O_RDONLY);
		if (s[i].fd < 0)
			cli_fatal("%s: %s", cli_tmp_name(s[i].id),
			    strerror(errno));
#ifdef POSIX_FADV_SEQUENTIAL
		posix_fadvise(s[i].fd, 0, 0, POSIX_FADV_SEQUENTIAL);
#endif
		if (opt_compress_temp && (s[i].zs = cd_stream_open_fd(s[i].fd,
		    0)) == NULL)
			cli_fatal("out of memory");
		/* The buffer of the sort phase, shared out. */
		s[i].cap = share;
		s[i].buf = mem + i * share;
	}
	merge(s, n, to_run);
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
merge_all_runs(void)
{
	size_t k = fan_in(), first = 0;

	while (nruns - first > k) {
		merge_runs(first, k, 1);
		first += k;
	}
	merge_runs(first, nruns - first, 0);
}

/* ---- reading ---- */

static uint64_t sort_seq, sort_bytes;

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
infile_add(FILE *f, const char *name, uint64_t *base)
{
	long pages = sysconf(_SC_PHYS_PAGES), psize = sysconf(_SC_PAGESIZE);
	struct stat st;
	off_t at;
	int fd = fileno(f), nfd;

	if (opt_unique || fd < 0 || ninfiles == INFILES_MAX ||
	    cli_input_compressed(f) ||
	    fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) ||
	    (at = lseek(fd, 0, SEEK_CUR)) < 0)
		return -1;
	if (pages > 0 && psize > 0 && infiles_bytes + (uint64_t)st.st_size >
	    (uint64_t)pages * (uint64_t)psize / 2)
		return -1;
	if ((nfd = dup(fd)) < 0)
		return -1;
	cli_grow(&infiles, &infiles_cap, ninfiles, sizeof(*infiles), 8);
	infiles[ninfiles].fd = nfd;
	infiles[ninfiles].name = name;
	infiles[ninfiles].st = st;
	infiles_bytes += (uint64_t)st.st_size;
	*base = (uint64_t)at;
	return (long)ninfiles++;
}

/* Before reading games back: their files are as they were. */
static void
infiles_check(void)
{
	size_t i;

	for (i = 0; i < ninfiles; i++) {
		const struct infile *f = &infiles[i];
		struct stat st;

		if (fstat(f->fd, &st) != 0 || st.st_size != f->st.st_size ||
		    st.st_mtim.tv_sec != f->st.st_mtim.tv_sec ||
		    st.st_mtim.tv_nsec != f->st.st_mtim.tv_nsec)
			cli_fatal("%s: changed while being sorted", f->name);
	}
}

static void
infiles_close(void)
{
	size_t i;

	for (i = 0; i < ninfiles; i++)
		close(infiles[i].fd);
	free(infiles);
	infiles = NULL;
	ninfiles = infiles_cap = 0;
}

/* Sort: read an input into the buffer (and runs); 2 after a read
 * error. */
static int
sort_file(FILE *f, const char *name)
{
	cd_pgn_reader *r;
	cd_pgn_raw_game g;
	cd_status st;
	uint64_t base = 0;
	long file = infile_add(f, name, &base);
	int ret;

	r = cli_pgn_reader_new(f);
	cli_pgn_watch(r);
	while ((st = cd_pgn_reader_next(r, &g)) == CD_OK) {
		cli_pgn_skipped(name, &g);
		games_read++;
		if (cli_pgn_check(name, &g)) {
			games_rejected++;
			continue;	/* (binary data or too large: not a
					 * game to write) */
		}
		mem_add(&g, ++sort_seq, file, base);
		cli_progress(games_read, sort_bytes + cd_pgn_reader_tell(r));
	}
	cli_pgn_skipped_end(name, &g);
	sort_bytes += cd_pgn_reader_tell(r);
	ret = cli_read_end(name, st, cd_pgn_reader_error(r),
	    cd_pgn_reader_stream(r));
	cd_pgn_reader_free(r);
	return ret;
}

/* Sort: read every input into the buffer (and runs), then write. */
static void
sort_inputs(int argc, char **argv, int first)
{
	mem_alloc();
	mem_lo = 0;
	mem_hi = opt_budget - opt_budget % sizeof(struct item);
	if (cli_each_input(argc, argv, first, sort_file) != 0)
		status = 2;
	if (nruns == 0) {
		infiles_check();
		mem_flush(1);
	} else {
		mem_flush(0);
		infiles_check();
		merge_all_runs();
	}
	infiles_close();
	free(stage);
	stage = NULL;
	free(mem);
	mem = NULL;
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
merge_inputs(char **files, int nfiles)
{
	size_t n = nfiles ? (size_t)nfiles : 1, k = fan_in(), first, i, m;

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
		    held + one <= opt_budget); m++) {
			const char *name;
			FILE *f = cli_open_input(nfiles ? files[first + m] :
			    "-", &name);

			if (f == NULL) {
				status = 2;
				continue;
			}
			s[used].f = f;
			s[used].name = name;
			s[used].r = cli_pgn_reader_new(f);
			s[used].seqbase = (uint64_t)(first + m) << 40;
			s[used].have = src_next(&s[used]);
			s[used].primed = 1;
			one = INPUT_COST + input_memory(s[used].r);
			held += one;
			used++;
		}
		merge(s, used, !(first == 0 && m == n));
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
	if (nruns > 0) {
		mem_alloc();
		merge_all_runs();
		free(mem);
		mem = NULL;
	}
}

/* The end: --stats, then exit with the status. */
static void __attribute__((noreturn))
finish(void)
{
	free(last_buf);
	free(runs);
	keys_warn();
	if (opt_stats)
		cli_stats(games_read, games_written, games_rejected);
	cli_exit(status);
}

/* -c: check that an input, following the ones before, is sorted; at
 * the first game out of order, end (finish) with status 1. */
static int
check_file(FILE *f, const char *name)
{
	struct src s;

	memset(&s, 0, sizeof(s));
	s.f = f;
	s.name = name;
	s.r = cli_pgn_reader_new(f);
	while (src_next(&s)) {
		if (have_last) {
			int c = keys_cmp(&last, &s.cur);

			if (opt_reverse)
				c = -c;
			if (c > 0 || (c == 0 && opt_unique &&
			    exact_cmp(&last, &s.cur) == 0)) {
				cli_warn_at(name, s.line, 0, "game %llu is %s",
				    (unsigned long long)s.number,
				    c > 0 ? "out of order" :
				    "equal to the one before it");
				status = 1;
				finish();
			}
		}
		remember(&s.cur);
	}
	cd_pgn_reader_free(s.r);
	free(s.kbuf);
	return 0;
}

/* -c: check that the inputs (one sequence) are sorted. */
static void
check_inputs(int argc, char **argv, int first)
{
	have_last = 0;
	if (cli_each_input(argc, argv, first, check_file) != 0)
		status = 2;
}

/* ---- options ---- */

/* -S: sort(1)'s syntax (cli_parse_size), KiB without a unit. */
static size_t
parse_size(const char *s)
{
	uint64_t v = cli_parse_size("-S", s, 1024, CLI_SIZE_PERCENT);

	if (v > (uint64_t)(SIZE_MAX / 2))
		cli_usage_error("-S: size too large '%s'", s);
	return v < MIN_BUDGET ? MIN_BUDGET : (size_t)v;
}

/* -k TAG[,TAG...]: append the names to opt_keys. */
static void
add_keys(const char *arg)
{
	const char *p = arg, *e;

	do {
		size_t n, i;
		char **k;

		e = strchr(p, ',');
		n = e ? (size_t)(e - p) : strlen(p);
		for (i = 0; i < n; i++)
			if (!(p[i] >= 'A' && p[i] <= 'Z') &&
			    !(p[i] >= 'a' && p[i] <= 'z') &&
			    !(p[i] >= '0' && p[i] <= '9') && p[i] != '_')
				break;
		if (n == 0 || i < n)
			cli_usage_error("-k '%s': not a list of tag names", arg);
		if ((k = realloc(opt_keys, (opt_nkeys + 1) * sizeof(*k))) ==
		    NULL || (k[opt_nkeys] = strndup(p, n)) == NULL)
			cli_fatal("out of memory");
		opt_keys = k;
		opt_nkeys++;
		if (e != NULL)
			p = e + 1;
	} while (e != NULL);
}

static void
usage(void)
{
	printf("Usage: %s [OPTION]... [FILE]...\n", cli_prog);
	fputs(
	    "Sort PGN games in the standard's collating order (Date, Event,\n"
	    "Site, Round, White, Black, Result, movetext), stable, writing\n"
	    "each game's bytes as they came.\n"
	    "\n"
	    "  -c, --check           check that the input is sorted; exit 1 at\n"
	    "                        the first game out of order\n"
	    "  -k, --key=TAG[,TAG...]  sort by these tags first (numbers as\n"
	    "                        numbers, after values that are none,\n"
	    "                        dates as dates), then by the\n"
	    "                        standard's keys; repeatable\n"
	    "  -m, --merge           merge already sorted inputs\n"
	    "  -q, --quiet           no progress line\n"
	    "  -r, --reverse         reverse the order (equal games keep their\n"
	    "                        input order)\n"
	    "  -S, --buffer-size=SIZE  memory budget: an integer with b, K, M, G,\n"
	    "                        T, P, E (KiB without a unit; KB, MB, ...: of\n"
	    "                        1000) or % of memory (default 256M)\n"
	    "      --compress-temp   compress the temporary files (zstd)\n"
	    "  -T, --temporary-directory=DIR  temporary files in DIR (default\n"
	    "                        $TMPDIR or /tmp)\n"
	    "  -u, --unique          keep only the first of games equal in all\n"
	    "                        eight keys as text\n", stdout);
	cli_usage_options(CLI_TAKE_OUTPUT | CLI_TAKE_STATS | CLI_TAKE_COMPRESS |
	    CLI_TAKE_MEMLIMIT);
	fputs(
	    "\n"
	    "With no FILE, or when FILE is -, read standard input.\n"
	    "Exit status: 0 success, 1 some game was out of order (-c) or\n"
	    "binary data was met, 2 usage or system error.\n", stdout);
}

int
main(int argc, char **argv)
{
	enum { OPT_COMPRESS_TEMP = 256 };
	static const struct option longopts[] = {
		{ "check", no_argument, NULL, 'c' },
		{ "key", required_argument, NULL, 'k' },
		{ "merge", no_argument, NULL, 'm' },
		{ "reverse", no_argument, NULL, 'r' },
		{ "buffer-size", required_argument, NULL, 'S' },
		{ "compress-temp", no_argument, NULL, OPT_COMPRESS_TEMP },
		{ "temporary-directory", required_argument, NULL, 'T' },
		{ "unique", no_argument, NULL, 'u' },
		{ NULL, 0, NULL, 0 }
	};
	const char *outpath;
	int c;

	cli_init(argv[0]);
	while ((c = cli_getopt(argc, argv, "ck:mrS:T:u", longopts,
	    CLI_TAKE_OUTPUT | CLI_TAKE_QUIET | CLI_TAKE_STATS | CLI_TAKE_COMPRESS | CLI_TAKE_MEMLIMIT, usage)) != -1) {
		switch (c) {
		case 'c': opt_check = 1; break;
		case 'k': add_keys(optarg); break;
		case 'm': opt_merge = 1; break;
		case 'r': opt_reverse = 1; break;
		case 'S': opt_budget = parse_size(optarg); break;
		case OPT_COMPRESS_TEMP:
			if (!cd_stream_format_supported(CD_STREAM_ZSTD))
				cli_usage_error("--compress-temp needs zstd, "
				    "which this build leaves out");
			opt_compress_temp = 1;
			break;
		case 'T': opt_tmpdir = optarg; break;
		case 'u': opt_unique = 1; break;
		}
	}
	outpath = cli_opts.output;
	opt_stats = cli_opts.stats;
	if (opt_check && opt_merge)
		cli_usage_error("-c and -m cannot be used together");
	if ((key_seen = calloc(opt_nkeys + 1, sizeof(*key_seen))) == NULL ||
	    (key_case = calloc(opt_nkeys + 1, sizeof(*key_case))) == NULL)
		cli_fatal("out of memory");
	if (opt_check && outpath != NULL)
		cli_usage_error("-c writes no output: -o makes no sense");
	if (!opt_check)
		cli_inputs(argc, argv, optind);
	(void)cli_output_open(opt_check ? NULL : outpath);
	if (opt_check)
		check_inputs(argc, argv, optind);
	else if (opt_merge)
		merge_inputs(argv + optind, argc - optind);
	else
		sort_inputs(argc, argv, optind);
	finish();
}
