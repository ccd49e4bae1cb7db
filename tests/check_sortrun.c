/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * check_sortrun.c: the external sort of pgn-sort (src/cli/sort.c),
 * driven below the tool: games of random tags (a fixed seed) sorted
 * within the smallest budget, so that runs are written and merged in
 * groups, from a file (games left in it) and from memory (games
 * copied); the order against cd_collate_key, stability, -r, -u, -k,
 * the merge of sorted inputs and the check.
 */
#define _GNU_SOURCE 1	/* fallocate */
#include "config.h"

#include <check.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <unistd.h>

#include "chessdata.h"
#include "cli/cli.h"
#include "cli/sort.h"
#include "check-main.h"

/* ---- the games ---- */

static uint64_t rng_state;

static unsigned
rnd(unsigned n)
{
	rng_state = rng_state * 6364136223846793005ULL +
	    1442695040888963407ULL;
	return (unsigned)(rng_state >> 33) % n;
}

/* n games with few values of each tag (so that many tie) and an Id tag
 * (not a key) that numbers them; every game has the same movetext, so
 * games equal in keys 1 to 7 are equal in all eight. */
static char *
games_text(unsigned n, uint64_t seed, size_t *len)
{
	static const char *const players[] = { "Anand, V", "Carlsen, M",
	    "Kasparov, G", "Tal, M" };
	static const char *const rounds[] = { "1", "2", "10", "?" };
	size_t cap = (size_t)n * 256 + 1, used = 0;
	char *buf = malloc(cap);
	unsigned i;

	ck_assert_ptr_nonnull(buf);
	rng_state = seed;
	for (i = 0; i < n; i++)
		used += (size_t)snprintf(buf + used, cap - used,
		    "[Event \"E%u\"]\n[Site \"S\"]\n[Date \"19%02u.%02u.??\"]\n"
		    "[Round \"%s\"]\n[White \"%s\"]\n[Black \"%s\"]\n"
		    "[Result \"*\"]\n[Elo \"%u\"]\n[Id \"%u\"]\n\n1. e4 e5 *\n\n",
		    rnd(3), 90 + rnd(3), 1 + rnd(2), rounds[rnd(4)],
		    players[rnd(4)], players[rnd(4)], rnd(5) * 500, i);
	*len = used;
	return buf;
}

/* The output: every block writev gives. */
static char *out;
static size_t out_len, out_cap;

/* While watch_from is set: the temporary files from that id on (the
 * runs) seen at each output block, the least of their allocated bytes
 * and the most of their sizes (summed). */
static size_t watch_from;
static long long watch_alloc, watch_size;

static void
watch_runs(void)
{
	long long alloc = 0, size = 0;
	struct stat st;
	size_t id;

	for (id = watch_from; strcmp(cli_tmp_name(id), "?") != 0; id++)
		if (stat(cli_tmp_name(id), &st) == 0) {
			alloc += (long long)st.st_blocks * 512;
			size += (long long)st.st_size;
		}
	if (watch_alloc < 0 || alloc < watch_alloc)
		watch_alloc = alloc;
	if (size > watch_size)
		watch_size = size;
}

static void
out_writev(void *ctx, struct iovec *iov, int n)
{
	int i;

	(void)ctx;
	if (watch_from > 0)
		watch_runs();
	for (i = 0; i < n; i++) {
		if (out_len + iov[i].iov_len > out_cap) {
			out_cap = (out_len + iov[i].iov_len) * 2;
			out = realloc(out, out_cap);
			ck_assert_ptr_nonnull(out);
		}
		memcpy(out + out_len, iov[i].iov_base, iov[i].iov_len);
		out_len += iov[i].iov_len;
	}
}

/* An input of the text: a file (fopen: its games are left in it) or
 * memory (fmemopen: no descriptor, they are copied). */
static FILE *
input(const char *text, size_t len, int in_file)
{
	FILE *f;

	if (!in_file)
		return fmemopen((void *)(uintptr_t)text, len, "rb");
	f = tmpfile();
	ck_assert_ptr_nonnull(f);
	ck_assert_uint_eq(fwrite(text, 1, len, f), len);
	ck_assert_int_eq(fflush(f), 0);
	rewind(f);
	return f;
}

static struct cli_sort_opts
opts_small(void)
{
	struct cli_sort_opts o;

	memset(&o, 0, sizeof(o));
	o.budget = CLI_SORT_MIN_BUDGET;
	o.writev = out_writev;
	return o;
}

/* Sort text with o; the output in out, the counts in *c. */
static void
sort_text(const struct cli_sort_opts *o, const char *text, size_t len,
    int in_file, struct cli_sort_counts *c)
{
	cli_sort *so = cli_sort_new(o);
	FILE *f = input(text, len, in_file);

	out_len = 0;
	ck_assert_ptr_nonnull(f);
	ck_assert_int_eq(cli_sort_read(so, f, "games"), 0);
	ck_assert_int_eq(cli_sort_write(so), 0);
	fclose(f);
	cli_sort_free(so, c);
}

/* ---- what the output holds ---- */

struct got {
	unsigned id;
	long elo;
	unsigned char key[512];
	size_t klen;
};

/* The games of out, with their collating keys and tags. */
static struct got *
games_of_output(size_t *n)
{
	FILE *f = fmemopen(out, out_len, "rb");
	cd_pgn_reader *r = cd_pgn_reader_new(f);
	cd_pgn_raw_game g;
	struct got *v = NULL;
	size_t cap = 0;

	*n = 0;
	ck_assert_ptr_nonnull(r);
	while (cd_pgn_reader_next(r, &g) == CD_OK) {
		const cd_pgn_tag *t;
		cd_collate_game cg;

		if (*n == cap) {
			cap = cap ? 2 * cap : 256;
			v = realloc(v, cap * sizeof(*v));
			ck_assert_ptr_nonnull(v);
		}
		cd_collate_from_raw(&g, &cg);
		v[*n].klen = cd_collate_key(&cg, v[*n].key,
		    sizeof(v[*n].key));
		ck_assert_uint_le(v[*n].klen, sizeof(v[*n].key));
		t = cd_pgn_raw_tag(&g, "Id");
		ck_assert_ptr_nonnull(t);
		v[*n].id = (unsigned)strtoul(t->value, NULL, 10);
		t = cd_pgn_raw_tag(&g, "Elo");
		v[*n].elo = t != NULL ? strtol(t->value, NULL, 10) : -1;
		(*n)++;
	}
	cd_pgn_reader_free(r);
	fclose(f);
	return v;
}

/* The output holds games 0 to n-1 each once (all: unique false), in
 * the collating order (reversed with reverse), equal games in input
 * order; with by_elo, Elo first (numbers, ascending). */
static void
check_order(unsigned n, int reverse, int unique, int by_elo)
{
	size_t k, i;
	struct got *v = games_of_output(&k);
	char *seen = calloc(n, 1);

	ck_assert_ptr_nonnull(seen);
	if (!unique)
		ck_assert_uint_eq(k, n);
	for (i = 0; i < k; i++) {
		ck_assert_uint_lt(v[i].id, n);
		ck_assert_int_eq(seen[v[i].id], 0);
		seen[v[i].id] = 1;
		if (i > 0) {
			int c = by_elo && v[i - 1].elo != v[i].elo ?
			    (v[i - 1].elo < v[i].elo ? -1 : 1) :
			    cd_collate_key_cmp(v[i - 1].key, v[i - 1].klen,
			    v[i].key, v[i].klen);

			if (reverse)
				c = -c;
			ck_assert_int_le(c, 0);
			if (c == 0)
				ck_assert(!unique);
			if (c == 0)	/* stable */
				ck_assert_uint_lt(v[i - 1].id, v[i].id);
		}
	}
	free(seen);
	free(v);
}

/* ---- the tests ---- */

/* Within the smallest budget the games are spilled to runs, which are
 * merged two at a time (the budget gives two merge buffers): the order
 * and the stability hold, and the output is the same whether the games
 * were left in their file or copied. */
START_TEST(spill_and_merge)
{
	struct cli_sort_opts o = opts_small();
	struct cli_sort_counts c;
	size_t len;
	char *text = games_text(4000, 7, &len), *first;
	size_t first_len;

	sort_text(&o, text, len, 1, &c);
	ck_assert_uint_eq(c.read, 4000);
	ck_assert_uint_eq(c.written, 4000);
	ck_assert_uint_eq(c.rejected, 0);
	ck_assert_uint_gt(c.runs, 4);
	check_order(4000, 0, 0, 0);
	first = malloc(out_len);
	ck_assert_ptr_nonnull(first);
	memcpy(first, out, out_len);
	first_len = out_len;

	sort_text(&o, text, len, 0, &c);
	ck_assert_uint_gt(c.runs, 4);
	ck_assert_uint_eq(out_len, first_len);
	ck_assert(memcmp(out, first, out_len) == 0);

	/* and the same as a sort in memory, without a run */
	o.budget = (size_t)64 << 20;
	sort_text(&o, text, len, 1, &c);
	ck_assert_uint_eq(c.runs, 0);
	ck_assert_uint_eq(out_len, first_len);
	ck_assert(memcmp(out, first, out_len) == 0);
	free(first);
	free(text);
}
END_TEST

START_TEST(reverse_stable)
{
	struct cli_sort_opts o = opts_small();
	struct cli_sort_counts c;
	size_t len;
	char *text = games_text(1500, 11, &len);

	o.reverse = 1;
	sort_text(&o, text, len, _i, &c);
	ck_assert_uint_gt(c.runs, 1);
	check_order(1500, 1, 0, 0);
	free(text);
}
END_TEST

START_TEST(unique)
{
	struct cli_sort_opts o = opts_small();
	struct cli_sort_counts c;
	size_t len, k;
	char *text = games_text(1500, 13, &len);
	struct got *v;

	o.unique = 1;
	sort_text(&o, text, len, _i, &c);
	ck_assert_uint_gt(c.runs, 1);
	ck_assert_uint_eq(c.read, 1500);
	check_order(1500, 0, 1, 0);
	/* 3 events, 9 dates, 4 rounds, 16 pairings: fewer kinds than
	 * games, so some were dropped */
	v = games_of_output(&k);
	ck_assert_uint_eq(c.written, k);
	ck_assert_uint_lt(k, 1500);
	free(v);
	free(text);
}
END_TEST

START_TEST(key_tag)
{
	static char elo[] = "Elo";
	char *keys[] = { elo };
	struct cli_sort_opts o = opts_small();
	struct cli_sort_counts c;
	size_t len;
	char *text = games_text(1500, 17, &len);

	o.keys = keys;
	o.nkeys = 1;
	sort_text(&o, text, len, _i, &c);
	ck_assert_uint_gt(c.runs, 1);
	check_order(1500, 0, 0, 1);
	free(text);
}
END_TEST

/* -m: two sorted inputs merged give the sort of both; -c finds them
 * sorted, and the input unsorted. */
START_TEST(merge_and_check)
{
	struct cli_sort_opts o = opts_small();
	struct cli_sort_counts c;
	size_t la, lb, sa, sb, i;
	char *a = games_text(700, 19, &la), *b = games_text(900, 23, &lb);
	char *both = malloc(la + lb), *sorted_a, *sorted_b, *want;
	char path[2][64];
	char *files[2] = { path[0], path[1] };
	cli_sort *so;
	FILE *f;
	size_t want_len;

	ck_assert_ptr_nonnull(both);
	memcpy(both, a, la);
	memcpy(both + la, b, lb);
	sort_text(&o, both, la + lb, 1, &c);
	want = malloc(out_len);
	ck_assert_ptr_nonnull(want);
	memcpy(want, out, out_len);
	want_len = out_len;
	sort_text(&o, a, la, 1, &c);
	sorted_a = malloc(out_len);
	ck_assert_ptr_nonnull(sorted_a);
	memcpy(sorted_a, out, sa = out_len);
	sort_text(&o, b, lb, 1, &c);
	sorted_b = malloc(out_len);
	ck_assert_ptr_nonnull(sorted_b);
	memcpy(sorted_b, out, sb = out_len);

	for (i = 0; i < 2; i++) {
		int fd;

		snprintf(path[i], sizeof(path[i]), "%s/sortrun.XXXXXX",
		    getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
		fd = mkstemp(path[i]);
		ck_assert_int_ge(fd, 0);
		f = fdopen(fd, "wb");
		ck_assert_ptr_nonnull(f);
		fwrite(i == 0 ? sorted_a : sorted_b, 1, i == 0 ? sa : sb, f);
		ck_assert_int_eq(fclose(f), 0);
	}
	out_len = 0;
	so = cli_sort_new(&o);
	ck_assert_int_eq(cli_sort_merge(so, files, 2), 0);
	cli_sort_free(so, &c);
	ck_assert_uint_eq(c.read, 1600);
	ck_assert_uint_eq(c.written, 1600);
	ck_assert_uint_eq(out_len, want_len);
	ck_assert(memcmp(out, want, want_len) == 0);

	/* -c: the sorted inputs one after the other are not sorted as a
	 * whole; each alone is; the unsorted input is not */
	so = cli_sort_new(&o);
	f = input(sorted_a, sa, 1);
	ck_assert_int_eq(cli_sort_check(so, f, "a"), 0);
	fclose(f);
	cli_sort_free(so, NULL);
	so = cli_sort_new(&o);
	f = input(want, want_len, 0);
	ck_assert_int_eq(cli_sort_check(so, f, "all"), 0);
	fclose(f);
	cli_sort_free(so, NULL);
	so = cli_sort_new(&o);
	f = input(a, la, 0);
	ck_assert_int_eq(cli_sort_check(so, f, "a"), 1);
	fclose(f);
	cli_sort_free(so, NULL);
	for (i = 0; i < 2; i++)
		remove(path[i]);
	free(want);
	free(sorted_a);
	free(sorted_b);
	free(both);
	free(a);
	free(b);
}
END_TEST


/*
 * A sort that writes runs keeps the games still in its buffer at the
 * end there, sorted, and merges them with the runs (read into the room
 * the buffer has left): three buffers' worth of games copied are two
 * runs, the third is not written (two of games left in their file, one
 * run).  The order, stability, -r and -u hold, and
 * the output is that of a sort in memory; the same with the runs
 * compressed (--compress-temp: each run given back as its decompressor
 * reads it).
 */
START_TEST(last_buffer_in_memory)
{
	/* (games left in their file: only their keys in the buffer) */
	static const struct { int reverse, unique, in_file, zst; size_t runs; }
	    v[] = {
		{ 0, 0, 0, 0, 2 }, { 0, 0, 1, 0, 1 }, { 1, 0, 0, 0, 2 },
		{ 0, 1, 0, 0, 2 }, { 0, 0, 0, 1, 2 },
	};
	struct cli_sort_opts o = opts_small();
	struct cli_sort_counts c;
	size_t len, mem_len;
	char *text = games_text(6000, 23, &len), *mem;

	if (v[_i].zst && !cd_stream_format_supported(CD_STREAM_ZSTD))
		return;		/* (a build without zstd) */
	o.reverse = v[_i].reverse;
	o.unique = v[_i].unique;
	o.compress_temp = v[_i].zst;
	o.budget = (size_t)64 << 20;
	sort_text(&o, text, len, v[_i].in_file, &c);
	ck_assert_uint_eq(c.runs, 0);
	mem = malloc(out_len);
	ck_assert_ptr_nonnull(mem);
	memcpy(mem, out, out_len);
	mem_len = out_len;

	o.budget = (size_t)1 << 20;
	sort_text(&o, text, len, v[_i].in_file, &c);
	ck_assert_uint_eq(c.read, 6000);
	ck_assert_uint_eq(c.runs, v[_i].runs);
	check_order(6000, o.reverse, o.unique, 0);
	ck_assert_uint_eq(out_len, mem_len);
	ck_assert(memcmp(out, mem, out_len) == 0);
	free(mem);
	free(text);
}
END_TEST

/* Whether holes can be punched in a file of the temporary directory. */
static int
can_punch(void)
{
	size_t id;
	int fd = cli_tmp_create(NULL, "check-sortrun", &id), ok;
	static char block[256 << 10];
	struct stat st;

	ok = write(fd, block, sizeof(block)) == (ssize_t)sizeof(block) &&
	    fallocate(fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, 0,
	    sizeof(block) / 2) == 0 && fstat(fd, &st) == 0 &&
	    (long long)st.st_blocks * 512 < (long long)sizeof(block);
	close(fd);
	cli_tmp_remove(id);
	return ok;
}

/*
 * The merge gives back each run's bytes once read (holes punched), so
 * the output's pages are the ones the runs had: while the output is
 * written, the runs hold fewer bytes than they are long.
 */
START_TEST(runs_given_back)
{
	struct cli_sort_opts o = opts_small();
	struct cli_sort_counts c;
	size_t len, id;
	char *text = games_text(20000, 29, &len);

	if (!can_punch()) {
		free(text);
		return;		/* (a file system without holes) */
	}
	/* the ids of the runs come after this one's */
	close(cli_tmp_create(NULL, "check-sortrun", &id));
	cli_tmp_remove(id);
	watch_from = id + 1;
	watch_alloc = -1;
	watch_size = 0;
	o.budget = (size_t)1 << 20;
	sort_text(&o, text, len, 0, &c);
	watch_from = 0;
	ck_assert_uint_gt(c.runs, 3);
	check_order(20000, 0, 0, 0);
	ck_assert_int_gt(watch_size, (long long)len / 2);
	ck_assert_int_lt(watch_alloc, watch_size / 2);
	free(text);
}
END_TEST

/* A pipe read from is made to hold 1 MiB (where the system lets it:
 * /proc/sys/fs/pipe-max-size), so that reads get more than 64 KiB. */
START_TEST(pipe_widened)
{
	struct cli_sort_opts o = opts_small();
	struct cli_sort_counts c;
	size_t len;
	char *text = games_text(50, 31, &len);
	cli_sort *so = cli_sort_new(&o);
	FILE *f, *mx;
	int p[2];
	long most = 0;

	ck_assert_int_eq(pipe(p), 0);
	if ((mx = fopen("/proc/sys/fs/pipe-max-size", "r")) != NULL) {
		if (fscanf(mx, "%ld", &most) != 1)
			most = 0;
		fclose(mx);
	}
	ck_assert_int_lt(fcntl(p[0], F_GETPIPE_SZ), 1 << 20);
	ck_assert_uint_lt(len, 64 << 10);
	ck_assert_int_eq(write(p[1], text, len), (ssize_t)len);
	close(p[1]);
	f = fdopen(p[0], "rb");
	ck_assert_ptr_nonnull(f);
	out_len = 0;
	ck_assert_int_eq(cli_sort_read(so, f, "pipe"), 0);
	if (most >= 1 << 20)
		ck_assert_int_ge(fcntl(p[0], F_GETPIPE_SZ), 1 << 20);
	ck_assert_int_eq(cli_sort_write(so), 0);
	fclose(f);
	cli_sort_free(so, &c);
	ck_assert_uint_eq(c.written, 50);
	check_order(50, 0, 0, 0);
	free(text);
}
END_TEST

/*
 * Games alike in all their tags go by their movetexts: movetexts that
 * share long starts and differ anywhere, with CR LF, LF and lone CR
 * (a CR LF is one line end, so "x\r\ny" and "x\ny" are equal), in the
 * order cd_collate_movetext_cmp gives, equal ones in input order; the
 * same from memory and left in the file (the first 128 bytes kept).
 */
START_TEST(movetext_order)
{
	static const char *const bits[] = { "1. e4 e5 ", "2. Nf3 ", "\r\n",
	    "\n", "\r", "Nc6 ", "{x} " };
	struct cli_sort_opts o = opts_small();
	struct cli_sort_counts c;
	size_t cap = 3000 * 400, len = 0, k = 0, i;
	char *text = malloc(cap);
	FILE *f;
	cd_pgn_reader *r;
	cd_pgn_raw_game g;
	char *prev = NULL;
	size_t prev_len = 0;
	unsigned prev_id = 0;

	ck_assert_ptr_nonnull(text);
	rng_state = 37;
	for (i = 0; i < 3000; i++) {
		unsigned n = 10 + rnd(30), j;

		len += (size_t)snprintf(text + len, cap - len,
		    "[Event \"E\"]\n[Id \"%zu\"]\n\n", i);
		/* a long start alike, then pieces at random */
		for (j = 0; j < n; j++)
			len += (size_t)snprintf(text + len, cap - len, "%s",
			    j < 4 + rnd(12) ? bits[j % 2] : bits[rnd(7)]);
		len += (size_t)snprintf(text + len, cap - len, "*\n\n");
	}
	o.budget = (size_t)_i << 20 | CLI_SORT_MIN_BUDGET;
	sort_text(&o, text, len, _i, &c);
	ck_assert_uint_eq(c.written, 3000);
	f = fmemopen(out, out_len, "rb");
	r = cd_pgn_reader_new(f);
	while (cd_pgn_reader_next(r, &g) == CD_OK) {
		const cd_pgn_tag *t = cd_pgn_raw_tag(&g, "Id");
		unsigned id;
		size_t ml = g.movetext_end - g.movetext;

		ck_assert_ptr_nonnull(t);
		id = (unsigned)strtoul(t->value, NULL, 10);
		if (prev != NULL) {
			int cmp = cd_collate_movetext_cmp(prev, prev_len,
			    g.text + g.movetext, ml);

			ck_assert_int_le(cmp, 0);
			if (cmp == 0)
				ck_assert_uint_lt(prev_id, id);
		}
		free(prev);
		prev = malloc(ml + 1);
		ck_assert_ptr_nonnull(prev);
		memcpy(prev, g.text + g.movetext, ml);
		prev_len = ml;
		prev_id = id;
		k++;
	}
	ck_assert_uint_eq(k, 3000);
	free(prev);
	cd_pgn_reader_free(r);
	fclose(f);
	free(text);
}
END_TEST

static Suite *
sortrun_suite(void)
{
	Suite *s = suite_create("sortrun");
	TCase *tc = tcase_create("core");

	cli_init("check_sortrun");
	cli_quiet = 1;

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, spill_and_merge);
	tcase_add_loop_test(tc, reverse_stable, 0, 2);
	tcase_add_loop_test(tc, unique, 0, 2);
	tcase_add_loop_test(tc, key_tag, 0, 2);
	tcase_add_test(tc, merge_and_check);
	tcase_add_loop_test(tc, last_buffer_in_memory, 0, 5);
	tcase_add_test(tc, runs_given_back);
	tcase_add_test(tc, pipe_widened);
	tcase_add_loop_test(tc, movetext_order, 0, 2);
	suite_add_tcase(s, tc);
	return s;
}

TU_SUITES(sortrun_suite);
