/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * fuzz_san.c: reading SAN (every lenient form of import-format.md).
 *
 * The first line of the input is a FEN (standard, else Chess960; the
 * initial position when it reads as neither).  The rest is cut at white
 * space into move tokens, each read in the current position, which
 * moves on with every token that reads, so games of any length are
 * reached.  Properties:
 * - a token that does not read gets a negative status (syntax, illegal
 *   or ambiguous) and a message;
 * - a move that reads is legal; its canonical SAN reads back strictly
 *   as the same move;
 * - a strict read implies a lenient read of the same move, and the token
 *   is then exactly the canonical SAN;
 * - the same token read in German, when it reads, is a legal move too.
 */
#include "config.h"

#include <string.h>

#include "chessdata.h"
#include "fuzz.h"

const char *const fuzz_seeds[] = {
	"tests/fuzz/regress/san",
	"tests/files",
	"corpus:quirks",
	"corpus:epd",
	NULL
};

#define MAX_TOKENS 600

static void
check_status(cd_status st, const char *why, const char *tok, size_t len)
{
	FUZZ_CHECK(st == CD_ERR_SYNTAX || st == CD_ERR_ILLEGAL ||
	    st == CD_ERR_AMBIGUOUS, "%.*s: status %d", (int)len, tok, st);
	FUZZ_CHECK(why != NULL && *why != '\0', "%.*s: no message", (int)len,
	    tok);
}

/* Read one token in b; make the move when it reads. */
static void
san_token(cd_board *b, const char *tok, size_t len,
    const cd_san_lang *german)
{
	char san[CD_SAN_MAX + 8];
	const char *why, *why2;
	cd_error err, err2;
	cd_move m = CD_MOVE_NONE, m2 = CD_MOVE_NONE, m3;
	cd_status st, st2;
	size_t sl;

	st = cd_san_parse(b, tok, len, NULL, 0, &m, &err);
	why = err.msg;
	st2 = cd_san_parse(b, tok, len, NULL, CD_SAN_STRICT, &m2, &err2);
	why2 = err2.msg;
	if (st2 == CD_OK) {
		FUZZ_CHECK(st == CD_OK && m == m2, "%.*s: strict and lenient "
		    "reads differ", (int)len, tok);
		if (m2 != CD_MOVE_NULL) {
			sl = cd_san_write(b, m2, san);
			FUZZ_CHECK(sl == len && memcmp(san, tok, len) == 0,
			    "%.*s read strictly, but its SAN is %s",
			    (int)len, tok, san);
		}
	} else
		check_status(st2, why2, tok, len);
	if (german != NULL) {
		m3 = CD_MOVE_NONE;
		st2 = cd_san_parse(b, tok, len, german, 0, &m3, &err2);
		why2 = err2.msg;
		if (st2 == CD_OK)
			FUZZ_CHECK(m3 == CD_MOVE_NULL || cd_board_is_legal(b, m3),
			    "%.*s (German): not legal", (int)len, tok);
		else
			check_status(st2, why2, tok, len);
	}
	if (st != CD_OK) {
		check_status(st, why, tok, len);
		return;
	}
	if (m == CD_MOVE_NULL) {
		/* A null move only where it leaves a possible position. */
		if (!cd_board_in_check(b))
			cd_board_make(b, m);
		return;
	}
	FUZZ_CHECK(cd_board_is_legal(b, m), "%.*s read as an illegal move",
	    (int)len, tok);
	sl = cd_san_write(b, m, san);
	FUZZ_CHECK(sl > 0 && sl < CD_SAN_MAX, "%.*s", (int)len, tok);
	m2 = CD_MOVE_NONE;
	st2 = cd_san_parse(b, san, sl, NULL, CD_SAN_STRICT, &m2, &err2);
	FUZZ_CHECK(st2 == CD_OK && m2 == m, "%.*s: its SAN %s does not read "
	    "back", (int)len, tok, san);
	cd_board_make(b, m);
}

static bool
is_space(uint8_t c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' ||
	    c == '\v';
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const cd_san_lang *german = cd_san_lang_find("de");
	size_t i = 0, start, ntok = 0;
	char *tok;
	cd_board b;

	while (i < size && data[i] != '\n')
		i++;
	if (cd_fen_parse(&b, (const char *)data, i, 0, NULL) != CD_OK &&
	    cd_fen_parse(&b, (const char *)data, i, CD_FEN_960, NULL) != CD_OK)
		cd_board_init(&b);
	while (i < size && ntok < MAX_TOKENS) {
		while (i < size && is_space(data[i]))
			i++;
		start = i;
		while (i < size && !is_space(data[i]))
			i++;
		if (i == start)
			break;
		/* An exact copy: a read past its end is caught. */
		if ((tok = malloc(i - start)) == NULL)
			abort();
		memcpy(tok, data + start, i - start);
		san_token(&b, tok, i - start, german);
		free(tok);
		ntok++;
	}
	return 0;
}
