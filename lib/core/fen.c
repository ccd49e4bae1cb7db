/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * fen.c: reading and writing FEN (standard 16.1) and its Chess960 forms.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/cpu.h"
#include "common/internal.h"
#include "core/board_make.h"

static int
piece_from_char(int c)
{
	switch (c) {
	case 'P': return CD_PIECE(CD_WHITE, CD_PAWN);
	case 'N': return CD_PIECE(CD_WHITE, CD_KNIGHT);
	case 'B': return CD_PIECE(CD_WHITE, CD_BISHOP);
	case 'R': return CD_PIECE(CD_WHITE, CD_ROOK);
	case 'Q': return CD_PIECE(CD_WHITE, CD_QUEEN);
	case 'K': return CD_PIECE(CD_WHITE, CD_KING);
	case 'p': return CD_PIECE(CD_BLACK, CD_PAWN);
	case 'n': return CD_PIECE(CD_BLACK, CD_KNIGHT);
	case 'b': return CD_PIECE(CD_BLACK, CD_BISHOP);
	case 'r': return CD_PIECE(CD_BLACK, CD_ROOK);
	case 'q': return CD_PIECE(CD_BLACK, CD_QUEEN);
	case 'k': return CD_PIECE(CD_BLACK, CD_KING);
	}
	return 0;
}

struct cursor {
	const char *s;
	size_t len, pos;
	const char *why;
	size_t col;
	unsigned flags;
	char *cleared;		/* CD_FEN_CLEAR_CASTLING: letters cleared */
	size_t ncleared;
};

static int
fail(struct cursor *c, const char *why)
{
	c->why = why;
	c->col = c->pos + 1;
	return CD_ERR_SYNTAX;
}

static int
is_space(int ch)
{
	return ch == ' ' || ch == '\t' || ch == '\r' || ch == '\n';
}

/* Skip spaces between fields; 1 if at least one was skipped. */
static int
skip_spaces(struct cursor *c, unsigned flags)
{
	size_t start = c->pos;

	while (c->pos < c->len && is_space((unsigned char)c->s[c->pos])) {
		c->pos++;
		if (flags & CD_FEN_STRICT)
			break;
	}
	return c->pos > start;
}

static int
parse_placement(struct cursor *c, cd_board *b)
{
	int rank = 7, file = 0, ch, piece;

	for (;;) {
		if (c->pos >= c->len || is_space((unsigned char)c->s[c->pos])) {
			if (rank != 0 || file != 8)
				return fail(c, "piece placement has too few squares");
			return CD_OK;
		}
		ch = (unsigned char)c->s[c->pos];
		if (ch == '/') {
			if (file != 8)
				return fail(c, file < 8 ?
				    "rank with too few squares" :
				    "rank with too many squares");
			if (rank == 0)
				return fail(c, "more than eight ranks");
			rank--;
			file = 0;
		} else if (ch >= '1' && ch <= '8') {
			file += ch - '0';
			if (file > 8)
				return fail(c, "rank with too many squares");
		} else if ((piece = piece_from_char(ch)) != 0) {
			if (file > 7)
				return fail(c, "rank with too many squares");
			cd_board_put(b, CD_SQ(file, rank), piece);
			file++;
		} else {
			return fail(c, "unexpected character in piece placement");
		}
		c->pos++;
	}
}

/* The outermost rook of color on the back rank on one side of its
 * king k (cd_board_king); CD_SQ_NONE if there is none. */
static int
outer_rook(const cd_board *b, int color, int side, int k)
{
	int rank = color == CD_WHITE ? 0 : 7;
	int f;

	if (k == CD_SQ_NONE || CD_RANK(k) != rank)
		return CD_SQ_NONE;
	if (side == CD_KINGSIDE) {
		for (f = 7; f > CD_FILE(k); f--)
			if (b->squares[CD_SQ(f, rank)] == CD_PIECE(color, CD_ROOK))
				return CD_SQ(f, rank);
	} else {
		for (f = 0; f < CD_FILE(k); f++)
			if (b->squares[CD_SQ(f, rank)] == CD_PIECE(color, CD_ROOK))
				return CD_SQ(f, rank);
	}
	return CD_SQ_NONE;
}

/* Whether a right of color to the rook on sq is one of standard chess:
 * the king on e1 (e8) and the rook in the corner of its side.  The one
 * test of both cd_fen_castling_check and the clearing parse. */
static bool
standard_right(const cd_board *b, int color, int side, int sq)
{
	int rank = color == CD_WHITE ? 0 : 7;

	return sq != CD_SQ_NONE && cd_board_king(b, color) == CD_SQ(4, rank) &&
	    sq == CD_SQ(side == CD_KINGSIDE ? 7 : 0, rank);
}

static int
parse_castling(struct cursor *c, cd_board *b)
{
	int ch, color, side, sq, k, rank;
	bool clear = (c->flags & CD_FEN_CLEAR_CASTLING) != 0;
	bool std = !(c->flags & (CD_FEN_960 | CD_FEN_DETECT_960));

	if (c->pos < c->len && c->s[c->pos] == '-') {
		c->pos++;
		return CD_OK;
	}
	if (c->pos >= c->len || is_space((unsigned char)c->s[c->pos]))
		return fail(c, "missing castling field");
	while (c->pos < c->len && !is_space((unsigned char)c->s[c->pos])) {
		ch = (unsigned char)c->s[c->pos];
		color = (ch >= 'a' && ch <= 'z') ? CD_BLACK : CD_WHITE;
		rank = color == CD_WHITE ? 0 : 7;
		k = cd_board_king(b, color);
		if (ch == 'K' || ch == 'k') {
			side = CD_KINGSIDE;
			sq = outer_rook(b, color, side, k);
		} else if (ch == 'Q' || ch == 'q') {
			side = CD_QUEENSIDE;
			sq = outer_rook(b, color, side, k);
		} else if ((ch >= 'A' && ch <= 'H') || (ch >= 'a' && ch <= 'h')) {
			int f = (ch | 0x20) - 'a';

			sq = CD_SQ(f, rank);
			if (k == CD_SQ_NONE || CD_RANK(k) != rank ||
			    b->squares[sq] != CD_PIECE(color, CD_ROOK))
				sq = CD_SQ_NONE;
			side = k != CD_SQ_NONE && f > CD_FILE(k) ?
			    CD_KINGSIDE : CD_QUEENSIDE;
		} else {
			return fail(c, "unexpected character in castling field");
		}
		if (clear && (sq == CD_SQ_NONE ||
		    (std && !standard_right(b, color, side, sq)))) {
			/* a right the position cannot have: dropped */
			if (c->cleared != NULL && c->ncleared < 8)
				c->cleared[c->ncleared++] = (char)ch;
			c->pos++;
			continue;
		}
		if (sq == CD_SQ_NONE) {
			c->why = cd_position_strerror(CD_POS_BAD_CASTLING);
			c->col = c->pos + 1;
			return CD_ERR_POSITION;
		}
		if (b->castle_rook[color][side] != CD_SQ_NONE &&
		    b->castle_rook[color][side] != sq)
			return fail(c, "two castling rights for one side");
		b->castle_rook[color][side] = (uint8_t)sq;
		c->pos++;
	}
	return CD_OK;
}

/* Whether every castling right is one of standard chess (king on the
 * e-file, rook on the a- or h-file of its side). */
static int
standard_rights(const cd_board *b)
{
	int color, s;

	for (color = 0; color < 2; color++)
		for (s = 0; s < 2; s++) {
			int r = b->castle_rook[color][s];
			int k = cd_board_king(b, color);

			if (r != CD_SQ_NONE && (k == CD_SQ_NONE || CD_FILE(k) != 4 ||
			    CD_FILE(r) != (s == CD_KINGSIDE ? 7 : 0)))
				return 0;
		}
	return 1;
}

cd_status
cd_fen_castling_check(const char *field, size_t len, const cd_board *b,
    cd_error *err)
{
	static const char *const dup[4] = {
		"castling right 'K' given twice",
		"castling right 'Q' given twice",
		"castling right 'k' given twice",
		"castling right 'q' given twice"
	};
	static const char *const off[4] = {
		"castling right 'K' needs the king on e1 and a rook on h1 "
		"in standard chess (Chess960 rights name the rook's file)",
		"castling right 'Q' needs the king on e1 and a rook on a1 "
		"in standard chess (Chess960 rights name the rook's file)",
		"castling right 'k' needs the king on e8 and a rook on h8 "
		"in standard chess (Chess960 rights name the rook's file)",
		"castling right 'q' needs the king on e8 and a rook on a8 "
		"in standard chess (Chess960 rights name the rook's file)"
	};
	bool seen[256] = { false }, files = false;
	size_t i;

	if (len == 1 && field[0] == '-')
		return CD_OK;
	for (i = 0; i < len; i++) {
		unsigned char c = (unsigned char)field[i];

		if (seen[c]) {
			const char *q = c ? strchr("KQkq", c) : NULL;

			cd__error_set(err, CD_ERR_POSITION, i, 1, i + 1, "%s",
			    q != NULL ? dup[q - "KQkq"] :
			    "castling right given twice");
			return CD_ERR_POSITION;
		}
		seen[c] = true;
		if ((c >= 'A' && c <= 'H') || (c >= 'a' && c <= 'h'))
			files = true;
	}
	if (files)
		return CD_OK;
	for (i = 0; i < len; i++) {
		const char *q = strchr("KQkq", field[i]);
		int color, side;

		if (q == NULL || field[i] == '\0')
			continue;
		color = q - "KQkq" < 2 ? CD_WHITE : CD_BLACK;
		side = (q - "KQkq") % 2 == 0 ? CD_KINGSIDE : CD_QUEENSIDE;
		if (!standard_right(b, color, side,
		    b->castle_rook[color][side])) {
			cd__error_set(err, CD_ERR_POSITION, i, 1, i + 1, "%s",
			    off[q - "KQkq"]);
			return CD_ERR_POSITION;
		}
	}
	return CD_OK;
}

static int
parse_uint(struct cursor *c, uint32_t *out, const char *what)
{
	uint64_t v = 0;
	size_t start = c->pos;

	while (c->pos < c->len && c->s[c->pos] >= '0' && c->s[c->pos] <= '9') {
		v = v * 10 + (uint64_t)(c->s[c->pos] - '0');
		if (v > 0xffffffffULL)
			return fail(c, what);
		c->pos++;
	}
	if (c->pos == start ||
	    (c->pos < c->len && !is_space((unsigned char)c->s[c->pos])))
		return fail(c, what);
	*out = (uint32_t)v;
	return CD_OK;
}

static cd_status
fen_parse(cd_board *b, const char *text, size_t len, unsigned flags,
    char *cleared, const char **why, size_t *col)
{
	struct cursor c = { text, len, 0, NULL, 0, flags, cleared, 0 };
	int st, ch;
	cd_position_error pe;
	uint32_t v;

	cd_board_clear(b);
	if (!(flags & CD_FEN_STRICT))
		skip_spaces(&c, flags);
	if ((st = parse_placement(&c, b)) != CD_OK)
		goto out;
	if (!skip_spaces(&c, flags)) {
		st = fail(&c, "missing side to move");
		goto out;
	}
	ch = c.pos < len ? (unsigned char)text[c.pos] : 0;
	if (ch == 'w' || ch == 'b') {
		b->side = ch == 'w' ? CD_WHITE : CD_BLACK;
		c.pos++;
	} else {
		st = fail(&c, "side to move is not 'w' or 'b'");
		goto out;
	}
	if (c.pos < len && !is_space((unsigned char)text[c.pos])) {
		st = fail(&c, "side to move is not 'w' or 'b'");
		goto out;
	}
	if (!skip_spaces(&c, flags)) {
		st = fail(&c, "missing castling field");
		goto out;
	}
	if ((st = parse_castling(&c, b)) != CD_OK)
		goto out;
	if (!skip_spaces(&c, flags)) {
		st = fail(&c, "missing en passant field");
		goto out;
	}
	ch = c.pos < len ? (unsigned char)text[c.pos] : 0;
	if (ch == '-') {
		c.pos++;
	} else if (ch >= 'a' && ch <= 'h' && c.pos + 1 < len &&
	    (text[c.pos + 1] == '3' || text[c.pos + 1] == '6')) {
		b->ep = (uint8_t)CD_SQ(ch - 'a', text[c.pos + 1] - '1');
		c.pos += 2;
	} else {
		st = fail(&c, "bad en passant square");
		goto out;
	}
	if (c.pos < len && !is_space((unsigned char)text[c.pos])) {
		st = fail(&c, "bad en passant square");
		goto out;
	}
	/* the clocks: required when strict, else optional */
	if (skip_spaces(&c, flags) && c.pos < len) {
		if ((st = parse_uint(&c, &v, "bad halfmove clock")) != CD_OK)
			goto out;
		b->halfmove = v;
		if (!skip_spaces(&c, flags) || c.pos >= len) {
			if (flags & CD_FEN_STRICT) {
				st = fail(&c, "missing fullmove number");
				goto out;
			}
		} else {
			if ((st = parse_uint(&c, &v, "bad fullmove number")) != CD_OK)
				goto out;
			if (v == 0) {
				if (flags & CD_FEN_STRICT) {
					c.pos--;
					st = fail(&c, "fullmove number 0");
					goto out;
				}
				v = 1;
			}
			b->fullmove = v;
		}
	} else if (flags & CD_FEN_STRICT) {
		st = fail(&c, "missing halfmove clock");
		goto out;
	}
	if (!(flags & CD_FEN_STRICT))
		skip_spaces(&c, flags);
	if (c.pos < len) {
		st = fail(&c, "unexpected text after the FEN");
		goto out;
	}
	b->chess960 = (flags & CD_FEN_960) != 0;
	if (!b->chess960 && (flags & CD_FEN_DETECT_960) && !standard_rights(b))
		b->chess960 = 1;
	cd_board_finish(b);
	if (!(flags & CD_FEN_NO_VALIDATE) &&
	    (pe = cd_board_validate(b)) != CD_POS_OK) {
		c.why = cd_position_strerror(pe);
		c.col = 1;
		st = CD_ERR_POSITION;
		goto out;
	}
	st = CD_OK;
out:
	if (why != NULL)
		*why = c.why;
	if (col != NULL)
		*col = c.col;
	if (cleared != NULL)
		cleared[c.ncleared] = '\0';
	return (cd_status)st;
}

/* fen_parse's outcome into *err (when not NULL). */
static cd_status
fen_error(cd_status st, const char *why, size_t col, cd_error *err)
{
	if (err != NULL) {
		if (st == CD_OK)
			cd__error_set(err, st, 0, 0, 0, NULL);
		else
			cd__error_set(err, st, col > 0 ? col - 1 : 0, 1, col,
			    "%s", why ? why : cd_strerror(st));
	}
	return st;
}

cd_status
cd_fen_parse(cd_board *b, const char *text, size_t len, unsigned flags,
    cd_error *err)
{
	const char *why = NULL;
	size_t col = 0;
	cd_status st = fen_parse(b, text, len,
	    flags & ~(unsigned)CD_FEN_CLEAR_CASTLING, NULL, &why, &col);

	return fen_error(st, why, col, err);
}

cd_status
cd_fen_parse_clearing(cd_board *b, const char *text, size_t len,
    unsigned flags, char *cleared, cd_error *err)
{
	const char *why = NULL;
	size_t col = 0;
	cd_status st = fen_parse(b, text, len, flags | CD_FEN_CLEAR_CASTLING,
	    cleared, &why, &col);

	return fen_error(st, why, col, err);
}

size_t
cd_fen_cleared_message(int letter, bool chess960, char *buf, size_t cap)
{
	int white = letter >= 'A' && letter <= 'Z';
	int rank = white ? '1' : '8', f = letter | 0x20;
	int n;

	if (!chess960 && (f == 'k' || f == 'h' || f == 'q' || f == 'a'))
		n = snprintf(buf, cap, "FEN castling right '%c' without the "
		    "king and the rook on e%c and %c%c: cleared", letter, rank,
		    f == 'k' || f == 'h' ? 'h' : 'a', rank);
	else if (!chess960)
		n = snprintf(buf, cap, "FEN castling right '%c' is not one of "
		    "standard chess: cleared", letter);
	else if (f == 'k' || f == 'q')
		n = snprintf(buf, cap, "FEN castling right '%c' without the "
		    "king on rank %c and a rook on its %s side: cleared",
		    letter, rank, f == 'k' ? "king" : "queen");
	else
		n = snprintf(buf, cap, "FEN castling right '%c' without the "
		    "king on rank %c and the rook on %c%c: cleared", letter,
		    rank, f, rank);
	return n < 0 ? 0 : (size_t)n;
}

/* The shapes of a rank's FEN by its occupancy (tables.h), constant
 * data written by gen-tables.c. */
#define rank_shapes	cd__rank_shapes

#if defined(__x86_64__) && defined(__GNUC__)
#define CD_RANK_SHUFFLE 1
#include <immintrin.h>
/* The shapes as SSSE3 byte shuffles (tables.h), used when the
 * processor has SSSE3 (x86-64's baseline does not), on the letters of
 * cd__piece_letters with '8' for an empty square. */
#define rank_shuffles	cd__rank_shuffles
static const char shuffle_letters[16] __attribute__((aligned(16))) =
    "8PNBRQK..pnbrqk.";
/* the SSSE3 code, and the AVX2 code where SSSE3 is allowed too */
#define have_ssse3	cd__have_ssse3
#define have_avx2	(cd__have_ssse3 && cd__have_avx2)
#endif

#ifdef CD_RANK_SHUFFLE
/* The placement field, one shuffle a rank (p has room for 16 bytes
 * from the start of each rank: CD_FEN_MAX); the end of the field.  The
 * letters of two ranks come from one shuffle of their sixteen squares,
 * the lower rank's in the low half; the digits are in both halves. */
__attribute__((target("ssse3"))) static char *
placement_ssse3(const cd_board *b, char *p)
{
	const __m128i letters = _mm_load_si128((const __m128i *)(const void *)
	    shuffle_letters);
	const __m128i digits = _mm_setr_epi8('1', '2', '3', '4', '5', '6',
	    '7', '/', '1', '2', '3', '4', '5', '6', '7', '/');
	const uint8_t *occ = (const uint8_t *)(const void *)&b->by_type[0];
	int pair;

#pragma GCC unroll 4
	for (pair = 3; pair >= 0; pair--) {
		/* (occ[rank]: the rank's byte of the occupancy, on a
		 * little-endian machine as x86-64 is) */
		const uint8_t *hi = rank_shuffles[occ[2 * pair + 1]];
		const uint8_t *lo = rank_shuffles[occ[2 * pair]];
		__m128i two = _mm_shuffle_epi8(letters, _mm_loadu_si128(
		    (const __m128i *)(const void *)&b->squares[16 * pair]));

		/* each rank's eight letters, then the digits and '/' */
		_mm_storeu_si128((__m128i *)(void *)p, _mm_shuffle_epi8(
		    _mm_unpackhi_epi64(two, digits),
		    _mm_load_si128((const __m128i *)(const void *)hi)));
		p += hi[15];
		_mm_storeu_si128((__m128i *)(void *)p, _mm_shuffle_epi8(
		    _mm_unpacklo_epi64(two, digits),
		    _mm_load_si128((const __m128i *)(const void *)lo)));
		p += lo[15];
	}
	return p - 1;
}

/* placement_ssse3 four ranks a turn: the two halves of a 256-bit
 * shuffle are two of its 128-bit ones, the lower ranks' in the lower
 * half (fewer instructions: one load, letter shuffle and pair of
 * unpacks for four ranks, and no copies of registers). */
__attribute__((target("avx2"))) static inline
    __attribute__((always_inline)) char *
placement_avx2(const cd_board *b, char *p)
{
	const __m256i letters = _mm256_broadcastsi128_si256(_mm_load_si128(
	    (const __m128i *)(const void *)shuffle_letters));
	const __m256i digits = _mm256_setr_epi8('1', '2', '3', '4', '5',
	    '6', '7', '/', '1', '2', '3', '4', '5', '6', '7', '/', '1', '2',
	    '3', '4', '5', '6', '7', '/', '1', '2', '3', '4', '5', '6', '7',
	    '/');
	const uint8_t *occ = (const uint8_t *)(const void *)&b->by_type[0];
	int four;

#pragma GCC unroll 2
	for (four = 1; four >= 0; four--) {
		/* ranks 4 * four + 0..3, the highest first */
		const uint8_t *r3 = rank_shuffles[occ[4 * four + 3]];
		const uint8_t *r2 = rank_shuffles[occ[4 * four + 2]];
		const uint8_t *r1 = rank_shuffles[occ[4 * four + 1]];
		const uint8_t *r0 = rank_shuffles[occ[4 * four]];
		__m256i sq = _mm256_shuffle_epi8(letters, _mm256_loadu_si256(
		    (const __m256i *)(const void *)&b->squares[32 * four]));
		/* ranks 1 and 3 of the four (hi), 0 and 2 (lo) */
		__m256i hi = _mm256_shuffle_epi8(_mm256_unpackhi_epi64(sq,
		    digits), _mm256_inserti128_si256(_mm256_castsi128_si256(
		    _mm_load_si128((const __m128i *)(const void *)r1)),
		    _mm_load_si128((const __m128i *)(const void *)r3), 1));
		__m256i lo = _mm256_shuffle_epi8(_mm256_unpacklo_epi64(sq,
		    digits), _mm256_inserti128_si256(_mm256_castsi128_si256(
		    _mm_load_si128((const __m128i *)(const void *)r0)),
		    _mm_load_si128((const __m128i *)(const void *)r2), 1));

		_mm_storeu_si128((__m128i *)(void *)p,
		    _mm256_extracti128_si256(hi, 1));
		p += r3[15];
		_mm_storeu_si128((__m128i *)(void *)p,
		    _mm256_extracti128_si256(lo, 1));
		p += r2[15];
		_mm_storeu_si128((__m128i *)(void *)p,
		    _mm256_castsi256_si128(hi));
		p += r1[15];
		_mm_storeu_si128((__m128i *)(void *)p,
		    _mm256_castsi256_si128(lo));
		p += r0[15];
	}
	return p - 1;
}
#endif

/* The placement field, each rank from its shape: the text, then each
 * square's letter into its place (an empty square's into the scratch
 * byte p[8], overwritten or past the end): no branch, no chain of
 * dependent steps.  The end of the field. */
static char *
placement(const cd_board *b, char *p)
{
	int rank, file;

	for (rank = 7; rank >= 0; rank--) {
		const uint8_t *sq = &b->squares[CD_SQ(0, rank)];
		const struct cd__rank_shape *rs =
		    &rank_shapes[(b->by_type[0] >> (8 * rank)) & 0xff];

		memcpy(p, rs->text, 8);
		for (file = 0; file < 8; file++)
			p[rs->at[file]] = cd__piece_letters[sq[file]];
		p += rs->len;
		if (rank)
			*p++ = '/';
	}
	return p;
}

/* The castling field of a position with some right left, at p; the
 * end (out of line: most positions have none, or only those of
 * castling_standard). */
static __attribute__((noinline)) char *
castling(const cd_board *b, char *p, int clocks)
{
	char *start = p;
	int color, s;

	for (color = 0; color < 2; color++) {
		const uint8_t *rook = b->castle_rook[color];
		int k;

		if (rook[0] == CD_SQ_NONE && rook[1] == CD_SQ_NONE)
			continue;
		k = cd__board_king(b, color);
		for (s = 0; s < 2; s++) {
			int r = rook[s];
			char ch;

			if (r == CD_SQ_NONE)
				continue;
			/* EPD: a Chess960 right that standard chess cannot
			 * have names its file (cd_fen_castling_check reads
			 * KQkq as standard chess) */
			if (outer_rook(b, color, s, k) == r && (clocks ||
			    !b->chess960 || (CD_FILE(k) == 4 &&
			    CD_FILE(r) == (s == CD_KINGSIDE ? 7 : 0))))
				ch = s == CD_KINGSIDE ? 'K' : 'Q';
			else
				ch = (char)('A' + CD_FILE(r));
			*p++ = color == CD_WHITE ? ch : (char)(ch | 0x20);
		}
	}
	if (p == start)
		*p++ = '-';
	return p;
}

/*
 * The castling field at p when each right left is one of standard
 * chess: its king alone on e1 (e8), its rook in its corner.  Its letters
 * are then KQkq or some of them, with or without the clocks and in
 * Chess960 too (what castling() finds, with no search for the outer
 * rook); the end, or NULL when some right is of another kind.  No loop:
 * the four rights as the four bytes of a word, in the order of
 * castle_rook (K, Q, k, q).
 */
static inline __attribute__((always_inline)) char *
castling_standard(const cd_board *b, char *p)
{
	/* the letters of each set of rights (bit i: right i), and how
	 * many */
	static const struct {
		char s[4];
		uint8_t n;
	} text[16] = {
		{ "", 0 }, { "K", 1 }, { "Q", 1 }, { "KQ", 2 },
		{ "k", 1 }, { "Kk", 2 }, { "Qk", 2 }, { "KQk", 3 },
		{ "q", 1 }, { "Kq", 2 }, { "Qq", 2 }, { "KQq", 3 },
		{ "kq", 2 }, { "Kkq", 3 }, { "Qkq", 3 }, { "KQkq", 4 }
	};
#define BYTES(a, b, c, d)	((uint32_t)(a) | (uint32_t)(b) << 8 | \
	(uint32_t)(c) << 16 | (uint32_t)(d) << 24)
	const uint8_t *r = &b->castle_rook[0][0], *sq = b->squares;
	uint32_t rights = BYTES(r[0], r[1], r[2], r[3]);
	uint32_t rooks = BYTES(sq[CD_H1], sq[CD_A1], sq[CD_H8], sq[CD_A8]);
	/* 1 in the byte of each right (CD_SQ_NONE: 64) */
	uint32_t have = (~rights & BYTES(64, 64, 64, 64)) >> 6;
	cd_bitboard kings = b->by_type[CD_KING];
	unsigned i;

	if ((((rights ^ BYTES(CD_H1, CD_A1, CD_H8, CD_A8)) |
	    (rooks ^ BYTES(CD_PIECE(CD_WHITE, CD_ROOK),
	    CD_PIECE(CD_WHITE, CD_ROOK), CD_PIECE(CD_BLACK, CD_ROOK),
	    CD_PIECE(CD_BLACK, CD_ROOK)))) & have * 0xff) != 0)
		return NULL;
	if ((have & BYTES(1, 1, 0, 0)) &&
	    (kings & b->by_color[CD_WHITE]) != CD_BB(CD_E1))
		return NULL;
	if ((have & BYTES(0, 0, 1, 1)) &&
	    (kings & b->by_color[CD_BLACK]) != CD_BB(CD_SQ(4, 7)))
		return NULL;
#undef BYTES
	i = (have | have >> 7 | have >> 14 | have >> 21) & 15;
	memcpy(p, text[i].s, 4);
	return p + text[i].n;
}

/* The fields after the placement, which ends at p, and the final NUL;
 * where the NUL is. */
static inline __attribute__((always_inline)) char *
fields_after(const cd_board *b, char *p, int clocks)
{
	char *q;

	/* " w - -" and the NUL, or " b - -", in one store: what the EPD
	 * fields end with when there is no castling right nor en passant
	 * square (most positions of a game) */
	memcpy(p, b->side == CD_WHITE ? " w - -\0" : " b - -\0", 8);
	if (!cd__any_rights(b) && b->ep == CD_SQ_NONE && !clocks)
		return p + 6;
	p += 3;
	if (!cd__any_rights(b))
		p++;
	else if ((q = castling_standard(b, p)) != NULL)
		p = q;
	else
		p = castling(b, p, clocks);
	*p++ = ' ';
	if (b->ep != CD_SQ_NONE) {
		*p++ = (char)('a' + CD_FILE(b->ep));
		*p++ = (char)('1' + CD_RANK(b->ep));
	} else {
		*p++ = '-';
	}
	if (clocks) {
		*p++ = ' ';
		p = cd__put_uint(p, b->halfmove);
		*p++ = ' ';
		p = cd__put_uint(p, b->fullmove);
	}
	*p = '\0';
	return p;
}

#ifdef CD_RANK_SHUFFLE
/* write_fields with the shuffles, in one function. */
__attribute__((target("ssse3"))) static size_t
write_fields_ssse3(const cd_board *b, char *buf, int clocks)
{
	return (size_t)(fields_after(b, placement_ssse3(b, buf), clocks) -
	    buf);
}

/* The same with the 256-bit shuffles, in a function for each value of
 * clocks: the EPD's needs no room on the stack for a number. */
__attribute__((target("avx2"))) static size_t
write_epd_avx2(const cd_board *b, char *buf)
{
	return (size_t)(fields_after(b, placement_avx2(b, buf), 0) - buf);
}

__attribute__((target("avx2"))) static size_t
write_fen_avx2(const cd_board *b, char *buf)
{
	return (size_t)(fields_after(b, placement_avx2(b, buf), 1) - buf);
}
#endif

static size_t
write_fields(const cd_board *b, char *buf, int clocks)
{
#ifdef CD_RANK_SHUFFLE
	if (have_avx2)
		return clocks ? write_fen_avx2(b, buf) : write_epd_avx2(b, buf);
	if (have_ssse3)
		return write_fields_ssse3(b, buf, clocks);
#endif
	return (size_t)(fields_after(b, placement(b, buf), clocks) - buf);
}

size_t
cd_fen_write(const cd_board *b, char *buf)
{
	return write_fields(b, buf, 1);
}

size_t
cd_fen_write_epd(const cd_board *b, char *buf)
{
	return write_fields(b, buf, 0);
}

bool
cd_board_is_initial(const cd_board *b)
{
	/* compare with the initial position's key and fields, no board
	 * built: the Zobrist key covers pieces, rights and side */
	static const uint8_t back[8] = { CD_ROOK, CD_KNIGHT, CD_BISHOP,
	    CD_QUEEN, CD_KING, CD_BISHOP, CD_KNIGHT, CD_ROOK };
	int f;

	if (b->side != CD_WHITE || b->ep != CD_SQ_NONE || b->halfmove != 0 ||
	    b->fullmove != 1 || b->by_type[0] != 0xffff00000000ffffULL ||
	    b->castle_rook[CD_WHITE][CD_KINGSIDE] != CD_H1 ||
	    b->castle_rook[CD_WHITE][CD_QUEENSIDE] != CD_A1 ||
	    b->castle_rook[CD_BLACK][CD_KINGSIDE] != CD_H8 ||
	    b->castle_rook[CD_BLACK][CD_QUEENSIDE] != CD_A8)
		return false;
	for (f = 0; f < 8; f++)
		if (b->squares[f] != CD_PIECE(CD_WHITE, back[f]) ||
		    b->squares[8 + f] != CD_PIECE(CD_WHITE, CD_PAWN) ||
		    b->squares[48 + f] != CD_PIECE(CD_BLACK, CD_PAWN) ||
		    b->squares[56 + f] != CD_PIECE(CD_BLACK, back[f]))
			return false;
	return true;
}
