/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * core-util.h: small helpers shared by the Check suites that play chess
 * (check_board, check_fen, check_san, check_perft, check_opening,
 * check_polyglot): reading a position, finding a legal move by its UCI
 * text, playing a list of moves, listing the legal moves as sorted SAN,
 * and a fixed pseudo-random sequence; and for the suites of the PGN
 * reader (check_pgn_lex, check_frame), whether it noted a game's tags
 * plain.
 * Everything is static: each suite includes this once.
 */
#ifndef CD_TESTS_CORE_UTIL_H
#define CD_TESTS_CORE_UTIL_H

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <chessdata/base.h>
#include <chessdata/board.h>
#include <chessdata/fen.h>
#include <chessdata/san.h>
#include <chessdata/pgn_read.h>

/* The bytes of the file at path, NUL-terminated, their count in *len
 * (len may be NULL); NULL when the file cannot be opened. */
static inline char *
tu_slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *buf;
	long n;

	if (f == NULL)
		return NULL;
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	rewind(f);
	buf = malloc((size_t)n + 1);
	ck_assert_ptr_nonnull(buf);
	ck_assert_uint_eq(fread(buf, 1, (size_t)n, f), (size_t)n);
	buf[n] = '\0';
	fclose(f);
	if (len != NULL)
		*len = (size_t)n;
	return buf;
}

/* Parse fen with flags, failing the test (with the reason) if it does
 * not parse. */
static inline void
tu_fen(cd_board *b, const char *fen, unsigned flags)
{
	cd_error err;
	cd_status st = cd_fen_parse(b, fen, strlen(fen), flags, &err);

	ck_assert_msg(st == CD_OK, "FEN '%s' rejected: %s (col %lu)", fen,
	    err.msg, err.col);
}

/* The FEN of b, in a static buffer. */
static inline const char *
tu_fen_of(const cd_board *b)
{
	static char buf[CD_FEN_MAX];

	cd_fen_write(b, buf);
	return buf;
}

/* The legal move whose UCI text is uci; fails the test if none. */
static inline cd_move
tu_uci(const cd_board *b, const char *uci)
{
	cd_move list[CD_MAX_MOVES];
	char buf[8];
	int n = cd_board_legal_moves(b, list), i;

	for (i = 0; i < n; i++) {
		cd_move_to_uci(b, list[i], buf);
		if (strcmp(buf, uci) == 0)
			return list[i];
	}
	ck_abort_msg("no legal move %s in %s", uci, tu_fen_of(b));
	return CD_MOVE_NONE;
}

/* Play space-separated moves (lenient SAN or UCI) on b. */
static inline void
tu_play(cd_board *b, const char *moves)
{
	const char *p = moves;

	while (*p) {
		const char *why = NULL;
		cd_error err;
		size_t n;
		cd_move m;
		cd_status st;

		while (*p == ' ')
			p++;
		if (!*p)
			break;
		n = strcspn(p, " ");
		st = cd_san_parse(b, p, n, NULL, 0, &m, &err);
		why = err.msg;
		ck_assert_msg(st == CD_OK, "move '%.*s' in %s: %s", (int)n, p,
		    tu_fen_of(b), why ? why : "?");
		cd_board_make(b, m);
		p += n;
	}
}

static inline int
tu_strcmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The canonical SAN of every legal move, sorted, space-separated, in a
 * static buffer. */
static inline const char *
tu_san_list(const cd_board *b)
{
	static char out[CD_MAX_MOVES * CD_SAN_MAX];
	char sans[CD_MAX_MOVES][CD_SAN_MAX];
	char *ptr[CD_MAX_MOVES];
	cd_move list[CD_MAX_MOVES];
	int n = cd_board_legal_moves(b, list), i;
	size_t len = 0;

	for (i = 0; i < n; i++) {
		cd_san_write(b, list[i], sans[i]);
		ptr[i] = sans[i];
	}
	qsort(ptr, (size_t)n, sizeof(ptr[0]), tu_strcmp);
	out[0] = '\0';
	for (i = 0; i < n; i++) {
		size_t k = strlen(ptr[i]);

		if (i)
			out[len++] = ' ';
		memcpy(out + len, ptr[i], k + 1);
		len += k;
	}
	return out;
}

/* A fixed pseudo-random sequence (xorshift64*): the same in every run. */
static uint64_t tu_rng_state = 0x2545f4914f6cdd1dULL;

static inline uint64_t
tu_rand(void)
{
	tu_rng_state ^= tu_rng_state >> 12;
	tu_rng_state ^= tu_rng_state << 25;
	tu_rng_state ^= tu_rng_state >> 27;
	return tu_rng_state * 2685821657736338717ULL;
}

/* The tag sections of the tests of a section read again (the reader's
 * memo), each a game: the 2-move book's (CR LF, the seven tags of the
 * roster) and an online export's (LF, a FEN and long values). */
#define TU_AGAIN_SECTIONS	2

static inline const char *
tu_again_section(size_t i)
{
	static const char *const s[TU_AGAIN_SECTIONS] = {
		"[Event \"?\"]\r\n[Site \"?\"]\r\n[Date \"????.??.??\"]\r\n"
		"[Round \"?\"]\r\n[White \"?\"]\r\n[Black \"?\"]\r\n"
		"[Result \"*\"]\r\n\r\n1. f4 e6 *\r\n\r\n",
		"[Event \"Rated blitz game\"]\n[Site \"https://lichess.org/"
		"abcdefgh\"]\n[White \"someone\"]\n[Result \"1-0\"]\n"
		"[FEN \"rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq "
		"- 0 1\"]\n[Opening \"King's Pawn Game: Wayward Queen "
		"Attack, Kiddie Countergambit, and more words to it\"]\n"
		"[ECO \"C20\"]\n\n1. e4 1-0\n\n",
	};

	return s[i];
}

/* A reader of the n bytes at in through a FILE: a temporary file that
 * holds them, *f, for the caller to close after freeing the reader. */
static inline cd_pgn_reader *
tu_reader_file(const char *in, size_t n, FILE **f)
{
	cd_pgn_reader *r;

	*f = tmpfile();
	ck_assert_ptr_nonnull(*f);
	ck_assert_uint_eq(fwrite(in, 1, n, *f), n);
	rewind(*f);
	r = cd_pgn_reader_new(*f);
	ck_assert_ptr_nonnull(r);
	return r;
}

/* The directory of the test fixtures: $top_srcdir/tests/files, or
 * tests/files relative to the current directory. */
static inline const char *
tu_files_dir(void)
{
	static char buf[4096];
	const char *top = getenv("top_srcdir");

	if (top == NULL || !*top)
		top = ".";
	snprintf(buf, sizeof(buf), "%s/tests/files", top);
	return buf;
}

/* Whether the reader noted g's tags plain (as cd__raw_tags_plain reads
 * the fields private to the library): all of them read by the tag
 * loop. */
static inline bool
tu_noted_plain(const cd_pgn_raw_game *g)
{
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
	return g->ntags > 0 &&
	    g->cd_reserved_[0] == (uint64_t)(uintptr_t)g->tags;
#pragma GCC diagnostic pop
}

#endif
