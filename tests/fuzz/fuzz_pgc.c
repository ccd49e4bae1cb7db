/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * fuzz_pgc.c: the PGC decoder on any bytes.
 *
 * Properties:
 * - an error is CD_ERR_CORRUPT (or out of memory) with a message and an
 *   offset inside the input, and the reader then stays failed with the
 *   same status; the reader never claims more bytes than it was given;
 * - a game that decodes writes export text that reads back as one game
 *   and writes the same bytes (the decoder builds only games that PGN
 *   can carry);
 * - it encodes again (comments included) to PGC that decodes to a game
 *   writing the same export text.
 */
#include "config.h"

#include <string.h>

#include "chessdata.h"
#include "fuzz.h"

const char *const fuzz_seeds[] = {
	"tests/fuzz/regress/pgc",
	"tests/files",
	NULL
};

#define MAX_GAMES 16

static void
check_game(cd_game *g, cd_game *g2)
{
	cd_buf b = { 0 }, b2 = { 0 };
	cd_buf enc = { 0 };
	cd_pgn_raw_game raw;
	cd_pgn_reader *pr;
	cd_pgc_reader *cr;
	cd_error perr;
	cd_error err;
	cd_status st;

	st = cd_pgn_write_buf(g, 0, &b);
	FUZZ_CHECK(st == CD_OK, "export of a decoded game: %d", st);
	FUZZ_CHECK(b.len >= 2 && b.data[b.len - 1] == '\n' &&
	    b.data[b.len - 2] == '\n', "export end");

	if ((pr = cd_pgn_reader_new_mem(b.data, b.len)) == NULL)
		abort();
	st = cd_pgn_reader_next(pr, &raw);
	FUZZ_CHECK(st == CD_OK && raw.len == b.len && raw.skipped_bytes == 0 &&
	    raw.flags == 0, "the export of a decoded game is not read as "
	    "one whole game (status %d, %zu of %zu bytes, flags %u):\n%.*s",
	    st, raw.len, b.len, raw.flags, (int)b.len, b.data);
	memset(&perr, 0, sizeof(perr));
	st = cd_pgn_parse(g2, &raw, NULL, &perr);
	FUZZ_CHECK(st == CD_OK, "the export of a decoded game does not "
	    "parse: %lu:%lu: %s\n%.*s", perr.line, perr.col, perr.msg,
	    (int)b.len, b.data);
	st = cd_pgn_write_buf(g2, 0, &b2);
	FUZZ_CHECK(st == CD_OK && b2.len == b.len &&
	    memcmp(b.data, b2.data, b.len) == 0, "decoded game changes "
	    "through PGN:\n%.*s\n----\n%.*s", (int)b.len, b.data,
	    (int)b2.len, b2.data);
	cd_pgn_reader_free(pr);

	memset(&err, 0, sizeof(err));
	st = cd_pgc_encode(g, CD_PGC_WITH_COMMENTS, &enc, NULL, &err);
	FUZZ_CHECK(st == CD_OK, "a decoded game does not encode: %s",
	    err.msg);
	if ((cr = cd_pgc_reader_new_mem(enc.data, enc.len)) == NULL)
		abort();
	st = cd_pgc_reader_next(cr, g2, &err);
	FUZZ_CHECK(st == CD_OK, "re-encoded game does not decode: %s",
	    err.msg);
	b2.len = 0;
	st = cd_pgn_write_buf(g2, 0, &b2);
	FUZZ_CHECK(st == CD_OK && b2.len == b.len &&
	    memcmp(b.data, b2.data, b.len) == 0, "decoded game changes "
	    "through PGC:\n%.*s\n----\n%.*s", (int)b.len, b.data,
	    (int)b2.len, b2.data);
	cd_pgc_reader_free(cr);
	cd_buf_free(&enc);
	cd_buf_free(&b);
	cd_buf_free(&b2);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	cd_game *g, *g2;
	cd_pgc_reader *r;
	cd_error err;
	cd_status st = CD_OK, st2;
	int n = 0;

	if ((g = cd_game_new()) == NULL || (g2 = cd_game_new()) == NULL)
		abort();
	if ((r = cd_pgc_reader_new_mem(data, size)) == NULL)
		abort();
	while (n++ < MAX_GAMES) {
		memset(&err, 0, sizeof(err));
		st = cd_pgc_reader_next(r, g, &err);
		FUZZ_CHECK(cd_pgc_reader_tell(r) <= size, "tell %llu of %zu",
		    (unsigned long long)cd_pgc_reader_tell(r), size);
		if (st != CD_OK)
			break;
		check_game(g, g2);
	}
	if (st != CD_OK && st != CD_EOF) {
		FUZZ_CHECK(st == CD_ERR_CORRUPT || st == CD_ERR_NOMEM,
		    "status %d", st);
		FUZZ_CHECK(err.status == st && err.msg[0] != '\0' &&
		    err.offset <= size, "error %d at %llu of %zu: %s",
		    err.status, (unsigned long long)err.offset, size,
		    err.msg);
		st2 = cd_pgc_reader_next(r, g, &err);
		FUZZ_CHECK(st2 == st, "after an error %d, then %d", st, st2);
	}
	cd_pgc_reader_free(r);
	cd_game_free(g);
	cd_game_free(g2);
	return 0;
}
