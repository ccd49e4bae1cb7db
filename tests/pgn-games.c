/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * pgn-games.c: a test helper that shows how the library's game reader
 * cuts a file into games, so shell tests can check that no game is lost.
 *
 *	pgn-games FILE		one line per game: "NUMBER OFFSET LENGTH
 *				HASH TRIMMED" (FNV-1a 64 of its bytes, and
 *				of them without the white space at the end
 *				that separates it from the next game), and
 *				a last line "skipped BYTES"
 *	pgn-games -s ALL PART	PART's games must be, in order and byte
 *				for byte, some of ALL's games, and PART
 *				must be nothing but those games; prints
 *				their numbers in ALL, one a line
 *
 * Without arguments (as make check runs it) it lists the fixtures in
 * $top_srcdir/tests/files and checks that games follow each other in
 * the file and that -s finds a file in itself.
 */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "chessdata.h"

static const char *prog = "pgn-games";

/* The whole file in memory (the reader then points into it). */
static char *
slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *buf = NULL, *nb;
	size_t cap = 0, n;

	*len = 0;
	if (f == NULL) {
		fprintf(stderr, "%s: %s: %s\n", prog, path, strerror(errno));
		exit(2);
	}
	for (;;) {
		if (cap - *len < 65536) {
			cap = cap ? 2 * cap : 1 << 20;
			if ((nb = realloc(buf, cap)) == NULL) {
				fprintf(stderr, "%s: out of memory\n", prog);
				exit(2);
			}
			buf = nb;
		}
		n = fread(buf + *len, 1, cap - *len, f);
		if (n == 0)
			break;
		*len += n;
	}
	if (ferror(f)) {
		fprintf(stderr, "%s: %s: read error\n", prog, path);
		exit(2);
	}
	fclose(f);
	return buf;
}

#define FNV_START	14695981039346656037ULL

/* FNV-1a 64 of s[0..n), going on from the hash h of what came before
 * (FNV_START: nothing). */
static uint64_t
fnv(uint64_t h, const char *s, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		h ^= (unsigned char)s[i];
		h *= 1099511628211ULL;
	}
	return h;
}

struct game {
	uint64_t offset;
	size_t len;
	uint64_t hash, trimmed;
};

/* Cut buf into games; returns their number, *skipped the bytes skipped
 * as not PGN.  Exits on a reader error. */
static size_t
games(const char *path, const char *buf, size_t len, struct game **out,
    uint64_t *skipped)
{
	cd_pgn_reader *r = cd_pgn_reader_new_mem(buf, len);
	struct game *g = NULL, *ng;
	size_t n = 0, cap = 0, k;
	cd_pgn_raw_game raw;
	cd_status st;

	*skipped = 0;
	if (r == NULL) {
		fprintf(stderr, "%s: out of memory\n", prog);
		exit(2);
	}
	while ((st = cd_pgn_reader_next(r, &raw)) == CD_OK) {
		if (n == cap) {
			cap = cap ? 2 * cap : 1024;
			if ((ng = realloc(g, cap * sizeof(*g))) == NULL) {
				fprintf(stderr, "%s: out of memory\n", prog);
				exit(2);
			}
			g = ng;
		}
		g[n].offset = raw.offset;
		g[n].len = raw.len;
		k = raw.len;
		while (k > 0 && (raw.text[k - 1] == '\n' ||
		    raw.text[k - 1] == '\r' || raw.text[k - 1] == ' ' ||
		    raw.text[k - 1] == '\t'))
			k--;
		/* one pass: the whole game's hash goes on from the
		 * trimmed one's */
		g[n].trimmed = fnv(FNV_START, raw.text, k);
		g[n].hash = fnv(g[n].trimmed, raw.text + k, raw.len - k);
		n++;
		*skipped += raw.skipped_bytes;
	}
	if (st != CD_EOF) {
		fprintf(stderr, "%s: %s: %s\n", prog, path, cd_strerror(st));
		exit(2);
	}
	*skipped += raw.skipped_bytes;
	cd_pgn_reader_free(r);
	*out = g;
	return n;
}

static int
list(const char *path)
{
	struct game *g;
	uint64_t skipped;
	size_t len, n, i;
	char *buf = slurp(path, &len);

	n = games(path, buf, len, &g, &skipped);
	for (i = 0; i < n; i++)
		printf("%zu %" PRIu64 " %zu %016" PRIx64 " %016" PRIx64 "\n",
		    i + 1, g[i].offset, g[i].len, g[i].hash, g[i].trimmed);
	printf("skipped %" PRIu64 "\n", skipped);
	free(g);
	free(buf);
	return 0;
}

/* PART's games are a subsequence of ALL's, and PART is only them. */
static int
subseq(const char *all, const char *part, int quiet)
{
	struct game *ga, *gp;
	uint64_t sa, sp, covered = 0;
	size_t la, lp, na, np, i, j = 0;
	char *ba = slurp(all, &la), *bp = slurp(part, &lp);
	int status = 0;

	na = games(all, ba, la, &ga, &sa);
	np = games(part, bp, lp, &gp, &sp);
	for (i = 0; i < np; i++) {
		covered += gp[i].len;
		while (j < na && (ga[j].len != gp[i].len ||
		    memcmp(ba + ga[j].offset, bp + gp[i].offset,
		    gp[i].len) != 0))
			j++;
		if (j == na) {
			fprintf(stderr, "%s: %s: game %zu (offset %" PRIu64
			    ") is not, in order, a game of %s\n", prog, part,
			    i + 1, gp[i].offset, all);
			status = 1;
			break;
		}
		if (!quiet)
			printf("%zu\n", j + 1);
		j++;
	}
	if (status == 0 && (sp != 0 || covered != lp)) {
		fprintf(stderr, "%s: %s: %zu bytes are in no game\n", prog,
		    part, (size_t)(lp - covered));
		status = 1;
	}
	free(ga);
	free(gp);
	free(ba);
	free(bp);
	return status;
}

/* make check: the fixtures read as games that follow each other. */
static int
self_check(void)
{
	static const char *const files[] = {
		"sample.pgn", "sort-keys.pgn", "sort-odd.pgn", "pgc-sample.pgn"
	};
	const char *top = getenv("top_srcdir");
	char path[4096];
	struct game *g;
	uint64_t skipped, end;
	size_t len, n, i, k;
	char *buf;
	int status = 0;

	if (top == NULL)
		top = ".";
	for (k = 0; k < sizeof(files) / sizeof(files[0]); k++) {
		snprintf(path, sizeof(path), "%s/tests/files/%s", top,
		    files[k]);
		buf = slurp(path, &len);
		n = games(path, buf, len, &g, &skipped);
		end = 0;
		for (i = 0; i < n; i++) {
			if (g[i].offset < end || g[i].offset + g[i].len > len) {
				fprintf(stderr, "%s: %s: game %zu overlaps\n",
				    prog, path, i + 1);
				status = 1;
			}
			end = g[i].offset + g[i].len;
		}
		if (n == 0) {
			fprintf(stderr, "%s: %s: no game\n", prog, path);
			status = 1;
		}
		free(g);
		free(buf);
		if (skipped == 0 && subseq(path, path, 1) != 0)
			status = 1;
		printf("%s: %s: %zu games, %" PRIu64 " bytes skipped\n", prog,
		    files[k], n, skipped);
	}
	return status;
}

int
main(int argc, char **argv)
{
	if (argc == 1)
		return self_check();
	if (argc == 2)
		return list(argv[1]);
	if (argc == 4 && strcmp(argv[1], "-s") == 0)
		return subseq(argv[2], argv[3], 0);
	fprintf(stderr, "usage: %s FILE | %s -s ALL PART\n", prog, prog);
	return 2;
}
