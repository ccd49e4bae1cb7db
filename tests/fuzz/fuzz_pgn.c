/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * fuzz_pgn.c: the PGN parser and the export writer, and PGC encoding
 * of what they make.
 *
 * Each game the reader finds (up to a limit) is parsed.  Properties:
 * - an error has a status, a message, and a line inside the game;
 *   warnings have messages;
 * - a game that parses is written in export format that follows
 *   docs/export-format.md line by line (roster first, LF only, no
 *   control byte, no leading or trailing space, movetext lines of at
 *   most 79 characters unless one word, the result last and equal to
 *   the Result tag, one empty line after the tags and at the end);
 * - export is a fixed point: the export text reads back as exactly one
 *   game, with nothing skipped, that parses and writes the same bytes;
 *   the same for the reduced form;
 * - the game encoded as PGC (comments included) decodes to a game that
 *   writes the same export text;
 * - every other game is parsed keeping its positions
 *   (CD_PGN_PARSE_POSITIONS): each is its parent's with its move made.
 */
#include "config.h"

#include <string.h>

#include "chessdata.h"
#include "fuzz.h"

const char *const fuzz_seeds[] = {
	"tests/fuzz/regress/pgn",
	"tests/fuzz/regress/pgn_lex",
	"tests/files",
	"corpus:quirks",
	NULL
};

#define MAX_GAMES 16

static const char *const roster[7] = {
	"Event", "Site", "Date", "Round", "White", "Black", "Result"
};

static void
on_warn(void *ctx, unsigned long line, unsigned long col, const char *msg)
{
	(void)ctx;
	(void)col;
	FUZZ_CHECK(msg != NULL && *msg != '\0' && line >= 1, "warning at "
	    "line %lu", line);
}

/* Check one export text line by line. */
static void
check_export(const char *s, size_t len, unsigned flags)
{
	const char *p = s, *end = s + len, *nl, *q, *r;
	size_t n, i, ntag = 0;
	int part = 0;		/* 0 tags, 1 movetext, 2 after it */
	const char *result = NULL, *last = NULL;
	size_t result_len = 0, last_len = 0;

	FUZZ_CHECK(len >= 2 && s[len - 1] == '\n' && s[len - 2] == '\n',
	    "export does not end with an empty line");
	for (i = 0; i < len; i++) {
		unsigned char c = (unsigned char)s[i];

		FUZZ_CHECK(c == '\n' || (c >= 0x20 && c != 0x7f),
		    "byte %02x at offset %zu of the export", c, i);
	}
	while (p < end) {
		nl = memchr(p, '\n', (size_t)(end - p));
		FUZZ_CHECK(nl != NULL, "last line without LF");
		n = (size_t)(nl - p);
		if (n == 0) {
			FUZZ_CHECK(part != 1 || nl + 1 == end,
			    "an empty line inside the movetext");
			FUZZ_CHECK(part != 0 || ntag >= 7, "tags end early");
			part = part == 0 ? 1 : 2;
			p = nl + 1;
			continue;
		}
		FUZZ_CHECK(part != 2, "text after the final empty line");
		FUZZ_CHECK(p[0] != ' ' && p[n - 1] != ' ',
		    "leading or trailing space: %.*s", (int)n, p);
		if (part == 0) {
			FUZZ_CHECK(p[0] == '[' && n >= 5 && p[n - 1] == ']' &&
			    p[n - 2] == '"', "tag line %.*s", (int)n, p);
			if (ntag < 7) {
				size_t rl = strlen(roster[ntag]);

				FUZZ_CHECK(n > rl + 3 &&
				    memcmp(p + 1, roster[ntag], rl) == 0 &&
				    p[rl + 1] == ' ' && p[rl + 2] == '"',
				    "roster tag %zu is %.*s", ntag, (int)n, p);
				if (ntag == 6) {
					result = p + rl + 3;
					result_len = n - rl - 5;
				}
			}
			if (flags & CD_PGN_REDUCED)
				FUZZ_CHECK(ntag < 7 ||
				    memcmp(p, "[SetUp ", 7) == 0 ||
				    memcmp(p, "[FEN ", 5) == 0 ||
				    memcmp(p, "[Variant ", 9) == 0,
				    "reduced export with %.*s", (int)n, p);
			ntag++;
		} else {
			if (n > 79) {
				/* One word alone, with "{ " and " }". */
				q = p;
				r = p + n;
				if (n >= 2 && memcmp(q, "{ ", 2) == 0)
					q += 2;
				if (r - q >= 2 && memcmp(r - 2, " }", 2) == 0)
					r -= 2;
				FUZZ_CHECK(memchr(q, ' ', (size_t)(r - q)) ==
				    NULL, "a %zu-character movetext line: "
				    "%.60s...", n, p);
			}
			for (last = nl; last > p && last[-1] != ' '; last--)
				;
			last_len = (size_t)(nl - last);
		}
		p = nl + 1;
	}
	FUZZ_CHECK(part == 2 && last != NULL, "no movetext");
	FUZZ_CHECK(cd_pgn_result_parse(last, last_len) != CD_PGN_RESULT_NONE,
	    "movetext ends with %.*s", (int)last_len, last);
	FUZZ_CHECK(result != NULL && result_len == last_len &&
	    memcmp(result, last, last_len) == 0, "Result tag %.*s, "
	    "marker %.*s", (int)result_len, result ? result : "",
	    (int)last_len, last);
}

/* Export text must read back as one game that writes the same text. */
static void
check_fixed_point(cd_game *g2, const cd_buf *b, unsigned flags)
{
	cd_pgn_parse_opts opts = { .warn = on_warn };
	cd_buf b2 = { 0 };
	cd_pgn_raw_game raw;
	cd_pgn_reader *r;
	cd_error err;
	cd_status st;

	if ((r = cd_pgn_reader_new_mem(b->data, b->len)) == NULL)
		abort();
	st = cd_pgn_reader_next(r, &raw);
	FUZZ_CHECK(st == CD_OK && raw.len == b->len && raw.offset == 0 &&
	    raw.skipped_bytes == 0 && raw.flags == 0,
	    "export is not read as one whole game (status %d, %zu of %zu "
	    "bytes, flags %u):\n%.*s", st, raw.len, b->len, raw.flags,
	    (int)b->len, b->data);
	memset(&err, 0, sizeof(err));
	st = cd_pgn_parse(g2, &raw, &opts, &err);
	FUZZ_CHECK(st == CD_OK, "export does not parse: %lu:%lu: %s\n%.*s",
	    err.line, err.col, err.msg, (int)b->len, b->data);
	st = cd_pgn_write_buf(g2, flags, &b2);
	FUZZ_CHECK(st == CD_OK, "export of the export: %d", st);
	FUZZ_CHECK(b2.len == b->len && memcmp(b2.data, b->data, b->len) == 0,
	    "export is not a fixed point:\n%.*s\n----\n%.*s", (int)b->len,
	    b->data, (int)b2.len, b2.data);
	FUZZ_CHECK(cd_pgn_reader_next(r, &raw) == CD_EOF &&
	    raw.skipped_bytes == 0, "more after the exported game");
	cd_pgn_reader_free(r);
	cd_buf_free(&b2);
}

/* PGC with comments keeps everything the export shows. */
/* The positions kept: the start, then each node's parent's with the
 * node's move made. */
static void
check_positions(const cd_game *g)
{
	cd_board b;
	uint32_t n;

	FUZZ_CHECK(g->positions != NULL, "no positions kept");
	FUZZ_CHECK(memcmp(&g->positions[0], &g->start, sizeof(b)) == 0,
	    "positions[0] is not the start");
	for (n = 1; n < g->nnodes; n++) {
		b = g->positions[g->nodes[n].parent];
		cd_board_make(&b, g->nodes[n].move);
		FUZZ_CHECK(memcmp(&b, &g->positions[n], sizeof(b)) == 0,
		    "position of node %u (%s)", (unsigned)n,
		    g->nodes[n].san);
	}
}

static void
check_pgc(cd_game *g, cd_game *g3, const cd_buf *b)
{
	cd_buf enc = { 0 }, b3 = { 0 };
	cd_pgc_reader *r;
	cd_error err;
	cd_status st;

	memset(&err, 0, sizeof(err));
	st = cd_pgc_encode(g, CD_PGC_WITH_COMMENTS, &enc, NULL, &err);
	if (st == CD_ERR_UNSUPPORTED || st == CD_ERR_RANGE) {
		FUZZ_CHECK(enc.len == 0, "a failed encoding appended %zu "
		    "bytes", enc.len);
		cd_buf_free(&enc);
		return;
	}
	FUZZ_CHECK(st == CD_OK, "pgc encode: %d %s", st, err.msg);
	if ((r = cd_pgc_reader_new_mem(enc.data, enc.len)) == NULL)
		abort();
	st = cd_pgc_reader_next(r, g3, &err);
	FUZZ_CHECK(st == CD_OK, "own PGC does not decode: %s at %llu",
	    err.msg, (unsigned long long)err.offset);
	st = cd_pgn_write_buf(g3, 0, &b3);
	FUZZ_CHECK(st == CD_OK && b3.len == b->len &&
	    memcmp(b3.data, b->data, b->len) == 0,
	    "PGC round trip changes the game:\n%.*s\n----\n%.*s",
	    (int)b->len, b->data, (int)b3.len, b3.data);
	FUZZ_CHECK(cd_pgc_reader_next(r, g3, &err) == CD_EOF,
	    "more than one game decoded");
	FUZZ_CHECK(cd_pgc_reader_tell(r) == enc.len, "tell %llu of %zu",
	    (unsigned long long)cd_pgc_reader_tell(r), enc.len);
	cd_pgc_reader_free(r);
	cd_buf_free(&enc);
	cd_buf_free(&b3);
}

/* Without a warning callback the parser takes its fast paths (runs of
 * moves, the SAN reader without the lexer): the same status and the
 * same game. */
static void
check_quiet(const cd_game *g, cd_game *g2, const cd_pgn_raw_game *raw,
    const cd_pgn_parse_opts *opts, cd_status st)
{
	cd_pgn_parse_opts quiet = *opts;
	cd_buf b = { 0 }, b2 = { 0 };
	cd_status st2;

	quiet.warn = NULL;
	st2 = cd_pgn_parse(g2, raw, &quiet, NULL);
	FUZZ_CHECK(st2 == st, "status %d with warnings, %d without", st,
	    st2);
	if (st != CD_OK)
		return;
	FUZZ_CHECK(cd_pgn_write_buf(g, 0, &b) == CD_OK &&
	    cd_pgn_write_buf(g2, 0, &b2) == CD_OK && b.len == b2.len &&
	    memcmp(b.data, b2.data, b.len) == 0,
	    "parsed with warnings:\n%.*s\n----\nwithout:\n%.*s",
	    (int)b.len, b.data, (int)b2.len, b2.data);
	cd_buf_free(&b);
	cd_buf_free(&b2);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	cd_pgn_parse_opts opts = { .warn = on_warn };
	cd_buf b = { 0 };
	cd_game *g, *g2;
	cd_pgn_raw_game raw;
	cd_pgn_reader *r;
	cd_error err;
	unsigned long lines;
	cd_status st;
	int n = 0;

	if ((g = cd_game_new()) == NULL || (g2 = cd_game_new()) == NULL)
		abort();
	if ((r = cd_pgn_reader_new_mem(data, size)) == NULL)
		abort();
	/* (an input of odd length: nested comments read) */
	if (size % 2)
		cd_pgn_reader_set_flags(r, CD_PGN_READ_NESTED_COMMENTS);
	while (n++ < MAX_GAMES && cd_pgn_reader_next(r, &raw) == CD_OK) {
		memset(&err, 0, sizeof(err));
		opts.flags = (n % 2 ? CD_PGN_PARSE_POSITIONS : 0) |
		    (size % 2 ? CD_PGN_PARSE_NESTED_COMMENTS : 0);
		st = cd_pgn_parse(g, &raw, &opts, &err);
		check_quiet(g, g2, &raw, &opts, st);
		if (st != CD_OK) {
			const char *p;

			lines = 0;
			for (p = raw.text; (p = memchr(p, '\n',
			    (size_t)(raw.text + raw.len - p))) != NULL; p++)
				lines++;
			FUZZ_CHECK(st < 0 && err.status == st &&
			    err.msg[0] != '\0', "status %d, error %d %s", st,
			    err.status, err.msg);
			FUZZ_CHECK(err.line >= raw.line &&
			    err.line <= raw.line + lines && err.col >= 1,
			    "error at %lu:%lu, game at lines %lu..%lu: %s",
			    err.line, err.col, raw.line, raw.line + lines,
			    err.msg);
			continue;
		}
		if (opts.flags & CD_PGN_PARSE_POSITIONS)
			check_positions(g);
		b.len = 0;
		st = cd_pgn_write_buf(g, 0, &b);
		FUZZ_CHECK(st == CD_OK, "export: %d", st);
		check_export(b.data, b.len, 0);
		check_fixed_point(g2, &b, 0);
		check_pgc(g, g2, &b);
		b.len = 0;
		st = cd_pgn_write_buf(g, CD_PGN_REDUCED, &b);
		if (st == CD_ERR_UNSUPPORTED)
			continue;
		FUZZ_CHECK(st == CD_OK, "reduced export: %d", st);
		check_export(b.data, b.len, CD_PGN_REDUCED);
		check_fixed_point(g2, &b, CD_PGN_REDUCED);
	}
	cd_pgn_reader_free(r);
	cd_buf_free(&b);
	cd_game_free(g);
	cd_game_free(g2);
	return 0;
}
