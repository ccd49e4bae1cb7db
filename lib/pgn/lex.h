/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * pgn/lex.h: what the lexer (pgn/lex.c) offers the library's other PGN
 * files, not exported: the termination markers' texts, the token rules
 * the parser's fast path and the framer share (move words, tag pairs),
 * and the lexer's own fast path, which the parser (pgn/parse.c) asks
 * for the bulk of movetext instead of a token at a time.  Only these
 * functions move a cd_pgn_lexer.
 */
#ifndef CHESSDATA_PGN_LEX_INT_H
#define CHESSDATA_PGN_LEX_INT_H

#include "pgn/bytes.h"

/* The termination markers, by cd_pgn_result ("" for none; pgn/lex.c). */
extern const char *const cd__pgn_results[5];
extern const unsigned char cd__pgn_result_len[5];	/* their lengths */
/* The result of a game with this marker and Result tag value (NULL:
 * none): see cd_pgn_raw_result. */
cd_pgn_result cd__pgn_result_of(cd_pgn_result marker, const char *tag,
    size_t len);

/* cd_pgn_result_str(r), its length in *len. */
static inline const char *
cd__pgn_result_text(cd_pgn_result r, size_t *len)
{
	if ((unsigned)r >= 5)
		r = CD_PGN_RESULT_NONE;
	*len = cd__pgn_result_len[r];
	return cd__pgn_results[r];
}

/* Whether the word at p (p < e) is a move word of ASCII letters and
 * digits for sure: a letter that starts no castling, null move or en
 * passant mark. */
static inline bool
cd__plain_move_start(const char *p, const char *e)
{
	unsigned c = (unsigned char)*p;

	return (cd__pgn_cls[c] & K_LETTER) && c != 'O' && c != 'o' &&
	    c != 'Z' && (c != 'e' || (e - p >= 2 && p[1] != '.' &&
	    p[1] != 'p'));
}

/* The end of the ASCII part (letters, digits, signs) of the move word
 * that starts at p; *more when the word goes on past it (a UTF-8
 * sign, or the `(` of "e8(Q)"). */
static inline const char *
cd__move_ascii_end(const char *p, const char *e, bool *more)
{
	for (p++; p < e && (cd__pgn_cls[(unsigned char)*p] & K_MOVE); p++)
		;
	*more = p < e && ((unsigned char)*p >= 0xc2 || *p == '(');
	return p;
}

/* The end of the word that starts at p (p < e): the first byte after p
 * that is white space or a control byte, or e.  The parser's fast path
 * hands such a word to the fast SAN reader, which takes only a whole
 * move word and leaves any other to the lexer.  Sixteen bytes by one
 * load where SSE2 is, else eight (near the movetext's end: most words
 * are shorter), else a byte at a time. */
static inline const char *
cd__word_end(const char *p, const char *e)
{
#ifdef __SSE2__
	if (e - p >= 16) {
		unsigned m = (unsigned)_mm_movemask_epi8(cd__le8(
		    _mm_loadu_si128((const void *)p), 0x20)) & ~1U;

		if (m != 0)
			return p + __builtin_ctz(m);
		p += 15;
	} else if (e - p >= 8) {
		unsigned m = (unsigned)_mm_movemask_epi8(cd__le8(
		    _mm_loadl_epi64((const void *)p), 0x20)) & 0xfeU;

		if (m != 0)
			return p + __builtin_ctz(m);
		p += 7;
	}
#endif
	for (p++; p < e && (unsigned char)*p > 0x20; p++)
		;
	return p;
}

/* cd_pgn_lex_init, inline for the parser (a call a game). */
static inline void
cd__lex_init(cd_pgn_lexer *lx, const char *text, size_t len,
    unsigned long line, unsigned long col)
{
	lx->p = text;
	lx->end = text + len;
	lx->line_start = text;
	lx->line = line ? line : 1;
	lx->col0 = col ? col : 1;
}

/* Skip the white space at lx->p, counting its line ends (the lexer,
 * and the parser's fast path, which reads from the same lexer). */
static inline void
cd__lex_blanks(cd_pgn_lexer *lx)
{
	const char *p = lx->p, *e = lx->end;

	for (; p < e; p++) {
		unsigned c = (unsigned char)*p;

		if (c == ' ')
			continue;
		if (!(cd__pgn_cls[c] & K_WS))
			break;
		if (c == '\n') {
			lx->line++;
			lx->line_start = p + 1;
			lx->col0 = 1;
		}
	}
	lx->p = p;
}

/* ---- the lexer's fast path, for the parser ---- */

/* The bytes 0x40 + i that start a move word for cd__lex_fast, as bits
 * i: the ASCII letters but `Z`, `e` (which may start "e.p.") and `o`
 * (cd__plain_move_start's), and `O` (castling). */
#define CD__FAST_START \
	(((((uint64_t)1 << 26) - 1) << 1 & ~((uint64_t)1 << ('Z' - 0x40))) | \
	((((uint64_t)1 << 26) - 1) << 33 & ~((uint64_t)1 << ('e' - 0x40)) & \
	~((uint64_t)1 << ('o' - 0x40))))

/*
 * The end of the move number at p (p < e, *p a digit) with its
 * periods ("12." or "12..."): the byte after its last period, or NULL
 * when no period follows its digits.  One or two digits and a period
 * by their bytes; else sixteen bytes by one load where SSE2 is (the
 * digits, a byte at most 9 above '0', and the periods as bit masks:
 * their constants stay in vector registers, not in the general ones
 * the parser's loop needs), else a byte at a time.
 */
static inline const char *
cd__number_end(const char *p, const char *e)
{
	/* "1." to "99." and one period, most of them, by their bytes */
	if (e - p >= 4) {
		const char *w = p + 1 + ((unsigned char)(p[1] - '0') < 10);

		if (*w == '.' && w[1] != '.')
			return w + 1;
	}
#ifdef __SSE2__
	if (e - p >= 16) {
		const __m128i v = _mm_loadu_si128((const void *)p);
		const __m128i t = _mm_sub_epi8(v, _mm_set1_epi8('0'));
		/* bits 16 and up set: beyond the window */
		unsigned nd = ~(unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(
		    _mm_min_epu8(t, _mm_set1_epi8(9)), t));
		unsigned dt = (unsigned)_mm_movemask_epi8(cd__eq8(v, '.'));
		unsigned j = (unsigned)__builtin_ctz(nd);

		if (j < 16) {
			if (!((dt >> j) & 1))
				return NULL;
			/* (the periods that reach the window's end may go
			 * on: the bytes' loop below) */
			j += (unsigned)__builtin_ctz(~(dt >> j));
			if (j < 16)
				return p + j;
		}
	}
#endif
	while (p < e && (unsigned char)(*p - '0') < 10)
		p++;
	if (p == e || *p != '.')
		return NULL;
	while (++p < e && *p == '.')
		;
	return p;
}

/* What cd__lex_fast finds next. */
enum {
	CD__LEX_END,		/* the end of the text */
	CD__LEX_WORD,		/* a word the fast SAN reader may take */
	CD__LEX_OTHER		/* anything else: for cd_pgn_lex_next */
};

/*
 * The bulk of movetext without a token: past the white space and the
 * move numbers (with their periods) at lx's place, what comes next:
 * CD__LEX_WORD, a word at *at that may be a move in ASCII letters and
 * digits (castling as "O-O" too) up to *wend; CD__LEX_OTHER, anything
 * else at *at; or CD__LEX_END.  lx stands at *at: cd__lex_skip moves it
 * past a word taken, else cd_pgn_lex_next reads from there.
 */
static inline int
cd__lex_fast(cd_pgn_lexer *lx, const char **at, const char **wend)
{
	const char *q, *e = lx->end, *w;
	unsigned c;

	for (;;) {
		q = lx->p;
		/* one space before a word, mostly */
		if (e - q >= 2 && q[0] == ' ' && CD__U(q[1]) > 0x20) {
			lx->p = ++q;
		} else {
			cd__lex_blanks(lx);
			q = lx->p;
			if (q == e)
				return CD__LEX_END;
		}
		for (;;) {
			*at = q;
			c = (unsigned char)*q;
			/* a letter of cd__plain_move_start, or the `O` of
			 * castling: a bit of CD__FAST_START */
			if (c - 0x40 < 64 &&
			    ((CD__FAST_START >> (c - 0x40)) & 1)) {
				*wend = cd__word_end(q, e);
				return CD__LEX_WORD;
			}
			if (c - '1' >= 9)
				break;
			if ((w = cd__number_end(q, e)) == NULL)
				return CD__LEX_OTHER;
			lx->p = w;
			/* the token after the number, mostly right after its
			 * period ("12.Nf3") or after one space: read on from
			 * there, as the loop would */
			if (w < e && CD__U(*w) > 0x20) {
				q = w;
			} else if (e - w >= 2 && *w == ' ' &&
			    CD__U(w[1]) > 0x20) {
				lx->p = q = w + 1;
			} else {
				break;
			}
		}
		if (c - '1' < 9)
			continue;
		if (c == 'e' && cd__plain_move_start(q, e)) {
			*wend = cd__word_end(q, e);
			return CD__LEX_WORD;
		}
		return CD__LEX_OTHER;
	}
}

/* ---- runs of moves, the place in the caller's register ---- */

/* lx's place, for a caller that reads on from there in a register of
 * its own (cd__lex_run_cls, cd__lex_run_number) and sets it again with
 * cd__lex_skip; the line ends it passes it counts by cd__lex_newline. */
static inline const char *
cd__lex_place(const cd_pgn_lexer *lx)
{
	return lx->p;
}

/* The line end at p, passed by such a caller, counted as
 * cd__lex_blanks counts it. */
static inline void
cd__lex_newline(cd_pgn_lexer *lx, const char *p)
{
	lx->line++;
	lx->line_start = p + 1;
	lx->col0 = 1;
}

/* What a byte starts in a run of moves (cd__lex_run_cls, pgn/lex.c):
 * a word for the fast SAN reader (a letter of CD__FAST_START, or `e`:
 * "e.p." or "ep", which cd__lex_fast does not hand over, the fast
 * reader leaves to the lexer too), a move number, a line end, a CR;
 * anything else ends the run. */
enum {
	CD__RUN_STOP,
	CD__RUN_WORD,
	CD__RUN_DIGIT,		/* 1 to 9 */
	CD__RUN_LF,
	CD__RUN_CR
};
extern const unsigned char cd__lex_run_cls[256];

#ifdef __SSE2__
/* A bit for each of the sixteen bytes at p that is at most 0x20 (white
 * space or a control byte: at 0x20 its maximum with 0x20), and bit 16. */
static inline uint64_t
cd__space_mask16(const char *p)
{
	const __m128i sp = _mm_set1_epi8(0x20);

	return (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(_mm_max_epu8(
	    _mm_loadu_si128((const void *)p), sp), sp)) | 0x10000;
}
#endif

/* The length of the word at p (sixteen bytes readable there, p[0] not
 * white space or a control byte), as cd__word_end finds its end: 1 to
 * 15, or 16 for a word of sixteen bytes or more (no move the fast SAN
 * reader takes). */
static inline size_t
cd__word_len16(const char *p)
{
#ifdef __SSE2__
	return (unsigned)__builtin_ctzll(cd__space_mask16(p));
#else
	size_t i;

	for (i = 1; i < 16; i++)
		if ((unsigned char)p[i] <= 0x20)
			return i;
	return 16;
#endif
}

/* The length of the word at p, in the sixteen bytes at w that end
 * the text (p[0] not white space or a control byte), as cd__word_end
 * finds its end: by one load of them. */
static inline size_t
cd__word_len_last(const char *p, const char *w)
{
#ifdef __SSE2__
	/* (bit 16: the text's end) */
	return (unsigned)__builtin_ctzll(cd__space_mask16(w) >> (p - w));
#else
	return (size_t)(cd__word_end(p, w + 16) - p);
#endif
}

/* After a digit 1 to 9 at p (p + 3 readable): the byte after "N." or
 * "NN." (one period, as cd__number_end takes it by its bytes), or NULL
 * for any other number (cd__lex_fast's). */
static inline const char *
cd__lex_run_number(const char *p)
{
	if (p[1] == '.')
		return p[2] != '.' ? p + 2 : NULL;
	return (unsigned char)(p[1] - '0') < 10 && p[2] == '.' &&
	    p[3] != '.' ? p + 3 : NULL;
}

/* Move lx to w, past bytes that hold no line end (a word the fast path
 * took, a comment stored in one pass). */
static inline void
cd__lex_skip(cd_pgn_lexer *lx, const char *w)
{
	lx->p = w;
}

/* Move lx to w, past a termination marker: whether only white space
 * follows it to the end.  The usual end, the marker's line end and a
 * blank line (LF or CR LF), by its bytes. */
static inline bool
cd__lex_skip_last(cd_pgn_lexer *lx, const char *w)
{
	const char *e = lx->end;

	lx->p = w;
	if ((e - w == 4 && memcmp(w, "\r\n\r\n", 4) == 0) ||
	    (e - w == 2 && w[0] == '\n' && w[1] == '\n'))
		return true;
	while (w < e && CD__IS_WS(*w))
		w++;
	return w == e;
}

/* The end of lx's text. */
static inline const char *
cd__lex_end(const cd_pgn_lexer *lx)
{
	return lx->end;
}

/* The line of lx's place, and the column of q on that line. */
static inline unsigned long
cd__lex_line(const cd_pgn_lexer *lx)
{
	return lx->line;
}

static inline unsigned long
cd__lex_col(const cd_pgn_lexer *lx, const char *q)
{
	return (unsigned long)(q - lx->line_start) + lx->col0;
}

/* A tag pair read by cd__scan_tag (pgn/lex.c, for the game reader
 * and the token lexer alike). */
struct cd__tagscan {
	const char *name;
	size_t name_len;
	const char *value;
	size_t value_len;
	int escapes;		/* value has \" or \\ to undo */
	const char *next;	/* after the `]`, or where to go on */
	unsigned long lines;	/* line ends in a tag that reads */
	const char *last_nl;	/* the last of them (NULL: none) */
};

/*
 * Read a tag pair at p (a `[`).  1 read, 0 does not read (ts->next is
 * where to go on), -1 more input is needed.
 */
int cd__scan_tag(const char *p, const char *e, int eof,
    struct cd__tagscan *ts);
/* The end of a tag name at p: the first byte at or after p that is
 * not K_TAGNAME (a control byte, white space, `"`, `[`, `]` or DEL), or
 * e.  Sixteen bytes at a time where SSE2 is. */
static inline const char *
cd__tag_name_end(const char *p, const char *e)
{
#ifdef __SSE2__
	while (e - p >= 16) {
		__m128i v = _mm_loadu_si128((const void *)p);
		unsigned m = (unsigned)_mm_movemask_epi8(_mm_or_si128(
		    cd__le8(v, 0x20),
		    _mm_or_si128(_mm_or_si128(cd__eq8(v, '"'), cd__eq8(v, '[')),
		    _mm_or_si128(cd__eq8(v, ']'), cd__eq8(v, 0x7f)))));

		if (m != 0)
			return p + __builtin_ctz(m);
		p += 16;
	}
#endif
	while (p < e && (cd__pgn_cls[(unsigned char)*p] & K_TAGNAME))
		p++;
	return p;
}

/* In a tag value: the first line end or `"` at or after p, and also
 * the first `\` unless no_backslash; e when there is none.  Sixteen
 * bytes at a time where SSE2 is. */
static inline const char *
cd__tag_value_stop(const char *p, const char *e, int no_backslash)
{
#ifdef __SSE2__
	const __m128i bs = _mm_set1_epi8(no_backslash ? '"' : '\\');

	while (e - p >= 16) {
		__m128i v = _mm_loadu_si128((const void *)p);
		unsigned m = (unsigned)_mm_movemask_epi8(_mm_or_si128(
		    _mm_or_si128(cd__eq8(v, '"'), cd__eq8(v, '\n')),
		    _mm_cmpeq_epi8(v, bs)));

		if (m != 0)
			return p + __builtin_ctz(m);
		p += 16;
	}
#endif
	while (p < e && *p != '"' && *p != '\n' &&
	    (no_backslash || *p != '\\'))
		p++;
	return p;
}

/* cd_pgn_lex_next for CD_PGN_PARSE_NESTED_COMMENTS: a brace comment
 * that holds others ({ a { b } c }) is one token, to the `}` that
 * closes its `{` (as usual when there is none), its text a copy with
 * the inner braces made parentheses ("a ( b ) c") in *copy, which the
 * caller frees (NULL when the text is the input's; out of memory, the
 * comment's text as it is). */
cd_pgn_tok_type cd__lex_next_nested(cd_pgn_lexer *lx, cd_pgn_token *t,
    char **copy);
/* Whether the brace comment at q (a `{`, before e) may hold others: a
 * `{` before its first `}`, or no `}`. */
static inline bool
cd__lex_maybe_nested(const char *q, const char *e)
{
	const char *rb = memchr(q + 1, '}', (size_t)(e - (q + 1)));

	return rb == NULL || memchr(q + 1, '{', (size_t)(rb - (q + 1))) !=
	    NULL;
}

/* Undo \" and \\ in a value into out; returns the length. */
size_t cd__unescape(const char *v, size_t len, int escapes, char *out);

#endif
