/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * pgn_internal.h: what the PGN files of the library share, not
 * exported: byte tests and SIMD helpers, the lexer's byte classes and
 * scanners (pgn/lex.c; used by pgn/read.c and pgn/parse.c), the results'
 * texts, comment folding (pgn/fold.c), and the private part of a cd_game
 * with the builder's inner calls (pgn/game.c; used by pgn/tree.c,
 * pgn/parse.c, pgn/write.c).  Its users: the pgn_*.c files, pgc.c and
 * opening.c (which build games), and gen-tables.c (which fills
 * cd__pgn_cls).
 */
#ifndef CHESSDATA_PGN_INTERNAL_H
#define CHESSDATA_PGN_INTERNAL_H

#include "common/internal.h"

#ifdef __SSE2__
#include <emmintrin.h>

/* 0xff in each byte of v that is c, 0 in the others. */
static inline __m128i
cd__eq8(__m128i v, int c)
{
	return _mm_cmpeq_epi8(v, _mm_set1_epi8((char)c));
}

/* 0xff in each byte of v that is c or below (unsigned), 0 in the
 * others. */
static inline __m128i
cd__le8(__m128i v, int c)
{
	return _mm_cmpeq_epi8(_mm_min_epu8(v, _mm_set1_epi8((char)c)), v);
}

#if defined(__x86_64__) && defined(__GNUC__)
#define CD_AVX2 1
#include <immintrin.h>
/* cd__have_avx2: the processor has AVX2 (x86-64's baseline does not)
 * and CHESSDATA_NO_AVX2 is not set; the comment folder and the game
 * reader's comment scan use it. */
#include "common/cpu.h"
#endif
#endif

/* Tests of eight bytes at once, exact for each byte (no carry or
 * borrow crosses one). */
#define CD__ONES	0x0101010101010101ULL
#define CD__HIGHS	0x8080808080808080ULL
#define CD__LOWS	0x7f7f7f7f7f7f7f7fULL

/* 0x80 in each byte of x that is zero. */
static inline uint64_t
cd__zero_bytes(uint64_t x)
{
	return ~(((x & CD__LOWS) + CD__LOWS) | x | CD__LOWS);
}

/* Copy n bytes from s to d with fixed-size moves where n is at most
 * sixteen (two that overlap), memcpy beyond. */
static inline void
cd__copy_small(char *d, const char *s, size_t n)
{
	uint64_t a, b;
	uint32_t c, e;

	if (n >= 8 && n <= 16) {
		memcpy(&a, s, 8);
		memcpy(&b, s + n - 8, 8);
		memcpy(d, &a, 8);
		memcpy(d + n - 8, &b, 8);
	} else if (n >= 4 && n < 8) {
		memcpy(&c, s, 4);
		memcpy(&e, s + n - 4, 4);
		memcpy(d, &c, 4);
		memcpy(d + n - 4, &e, 4);
	} else if (n < 4) {
		while (n-- > 0)
			*d++ = *s++;
	} else {
		memcpy(d, s, n);
	}
}

/* The lexer's byte classes (cd__pgn_cls, constant data written by
 * gen-tables.c), shared with the parser's fast path. */
enum {
	K_WS = 1 << 0,		/* space, tab, LF, CR, VT, FF */
	K_DELIM = 1 << 1,	/* ends a word in the game reader */
	K_DIGIT = 1 << 2,
	K_LETTER = 1 << 3,
	K_MOVE = 1 << 4,	/* may continue a move word (ASCII part) */
	K_TAGNAME = 1 << 5,	/* may be in a tag name */
	K_STOP = 1 << 6		/* the game reader looks at it in movetext */
};
extern CD__TABLE unsigned char cd__pgn_cls[256];

/* The bytes of K_STOP: a line end, a comment, a string, a `[` that may
 * start the next tag section, a variation, `*`, and the bytes without
 * which no word is a marker (`-`, `/`, and the first bytes of `½` and
 * of the dashes).  The game reader's SSE2 scan (skip_plain) tests the
 * same bytes in its own way; check_pgn_lex compares the two. */
#define CD__STOP_BYTES	"\n{;%\"[*()-/\xc2\xe2"

/* Bytes folded in comments: white space, control bytes, DEL, `}`. */
static inline bool
cd__fold_byte(unsigned char c)
{
	return c <= 0x20 || c == 0x7f || c == '}';
}

/* Fold len bytes at s (first and last not folded) into d, each run of
 * folded bytes one space; the length written (pgn/fold.c). */
size_t cd__fold(char *d, const char *s, size_t len);
#ifdef __SSE2__
/* Copy the bytes of s (n >= 16) up to the first one to fold, or a
 * second space in a row, into d; how many (pgn/fold.c). */
size_t cd__fold_plain(char *d, const char *s, size_t n);
#endif

/* The game cd_pgn_reader_read parses into (NULL until then; freed with
 * the reader) and the reader's error, for pgn/parse.c (pgn/read.c). */
cd_game **cd__pgn_reader_game(cd_pgn_reader *r, cd_error **err);

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
 * move word and leaves any other to the lexer. */
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
	}
#endif
	for (p++; p < e && (unsigned char)*p > 0x20; p++)
		;
	return p;
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

/* Undo \" and \\ in a value into out; returns the length. */
size_t cd__unescape(const char *v, size_t len, int escapes, char *out);

/* The state of one line while it is being built. */
struct cd__line {
	uint32_t cur;		/* its last move (valid when has_move) */
	uint32_t base;		/* its first move is played after base */
	uint32_t var_of;	/* the move it is a variation of (0: main) */
	uint32_t pending;	/* notes before its first move (variations) */
	uint32_t pending_nags;	/* NAGs before its first move: a pair of
				 * nagsets (the second holds them); 0 none */
	uint32_t owner;		/* variations: the stack index of the line
				 * whose last move is var_of */
	uint32_t vtail;		/* the last variation of cur so far */
	bool has_move;
	bool check;		/* the side to move in board is in check */
	bool prev_check;	/* the same in prev */
	bool flat;		/* opened right after the first move of a
				 * variation: a next variation of var_of
				 * (export-format.md rule 11) */
	bool anchorless;	/* opened in a variation with no move yet:
				 * can hold only comments and NAGs */
	bool prev_stale;	/* prev is not kept: set by the parser
				 * when the movetext begins (most games
				 * have no variation); the first variation
				 * begun makes it again from the main line */
	unsigned long line, col;	/* where its `(` stood (parser) */
	cd_board board;		/* position after cur (or at base) */
	cd_board prev;		/* position before cur */
};

/* A position packed for the builder's stack: 56 bytes instead of a
 * cd_board's 160 (pgn/tree.c). */
struct cd__pboard {
	uint8_t sq[32];		/* a piece per nibble, a1 first */
	uint8_t side, ep, castle[4], chess960, ep_hashed;
	uint32_t halfmove, fullmove;
	uint64_t key;
};

/* A line on the builder's stack, waiting for its variation to close:
 * the cd__line without its boards, which are rebuilt from a packed
 * one (its own, or for a flat line the owner's) and the move cur. */
struct cd__frame {
	uint32_t cur, base, var_of, pending, pending_nags, owner, vtail;
	uint32_t pb;		/* index of its packed board (not flat) */
	uint32_t line, col;	/* (saturated) */
	uint8_t flags;		/* FR_* of pgn/tree.c */
};

/* The tags the library looks up itself (priv->known), the roster first
 * in its order. */
enum {
	KT_EVENT, KT_SITE, KT_DATE, KT_ROUND, KT_WHITE, KT_BLACK, KT_RESULT,
	KT_SETUP, KT_FEN, KT_VARIANT, KT_N
};

struct cd__game_priv {
	/* the capacities of the game's arrays */
	size_t str_cap, tags_cap;
	uint32_t nodes_cap, notes_cap, nagsets_cap;

	cd_board initial;	/* the standard initial position */

	struct cd__line line;	/* the current line */
	struct cd__frame *stack;	/* the lines it branched from */
	size_t depth, stack_cap;
	struct cd__pboard *pboards;	/* their packed positions */
	size_t npboards, pboards_cap;

	/* g->positions when kept (CD_PGN_PARSE_POSITIONS), and its
	 * capacity */
	cd_board *positions;
	uint32_t positions_cap;

	/* what the parser keeps after each move (KEEP_*): tested once a
	 * move, 0 in most games */
	uint8_t keep;
	/* CD_PGN_PARSE_MAIN_KEYS: keys[k] the key of the position after
	 * main-line move k + 1, up to key_next; room up to key_end;
	 * keys_ok while they are the whole main line's (a move added but
	 * by the parser, a new start or out of memory clears it) */
	bool keys_ok;
	uint64_t *keys, *key_next, *key_end;

	/* castling rights cd_game_setup cleared from the FEN tag */
	char fen_cleared[9];

	/* the last note appended, to append the next in O(1) */
	uint64_t tail_key;
	uint32_t tail;

	/* the tags the library looks up itself, by KT_* of pgn/game.c (the
	 * roster in its order, SetUp, FEN, Variant): tag index + 1, 0
	 * when absent */
	uint32_t known[10];
	size_t nknown;		/* how many of them are there */
	/* a tag value holds `\` or `"` (or did: not cleared when a tag
	 * goes) */
	bool tag_quotes;

	/* an index of tag names once a game has many tags (open
	 * addressing; slots hold tag index + 1; tags[0..tag_hashed) are
	 * in it) */
	uint32_t *tag_hash;
	size_t tag_hash_cap, tag_hashed;
};

/* cd_game_clear in two parts: the first empties all but the start
 * position and the current line, which cd_game_setup makes after the
 * tags (or the second part, as cd_game_clear does). */
/* The value of the known tag k (KT_*), NULL if absent; its length in
 * *len. */
static inline const char *
cd__game_known_value(const cd_game *g, int k, size_t *len)
{
	uint32_t i = g->priv->known[k];

	if (i == 0)
		return NULL;
	*len = g->tags[i - 1].value_len;
	return g->str + g->tags[i - 1].value;
}

/* pgn/tags.c: forget the index of the tags (they were cleared or
 * moved). */
void cd__game_tag_index_drop(cd_game *g);
void cd__game_clear_start(cd_game *g);
void cd__game_clear_end(cd_game *g);

/* Add the n tags at t in turn, as cd_game_add_tag does; *done gets how
 * many were added (all but on an error). */
cd_status cd__game_add_tags(cd_game *g, const cd_pgn_tag *t, size_t n,
    size_t *done);

/* Add a move known to be legal (the parser's moves come from
 * cd_san_parse). */
cd_status cd__game_add_move_trusted(cd_game *g, cd_move m, uint32_t *node);
/* The same with the SAN (without mark) already known (san NULL: compute
 * it). */
cd_status cd__game_add_move_san(cd_game *g, cd_move m, const char *san,
    size_t slen, uint32_t *node);
/* The move token t of len bytes read by the fast SAN reader (English,
 * san_fast.h) and added as cd__game_add_move_san adds it: 1 (and *node,
 * if not NULL, the node), 0 when the reader leaves the token to
 * cd_san_parse (nothing done), or the adding's failure (negative). */
int cd__game_add_san_fast(cd_game *g, const char *t, size_t len,
    uint32_t *node);
/* Keep the line's position, after the move just added, as its node's in
 * g->positions (CD_PGN_PARSE_POSITIONS: the parser, after each move;
 * out of the way of the moves of games that keep none).  Out of memory,
 * the game keeps none any more. */
cd_status cd__game_position_keep(cd_game *g);

/* priv->keep: positions (g->positions), main-line keys (priv->keys) */
#define CD__KEEP_POSITIONS	1
#define CD__KEEP_KEYS		2

/* What the parser keeps after a move (priv->keep not 0), out of line;
 * out of memory: CD_ERR_NOMEM for positions, keys are dropped. */
cd_status cd__game_keep_slow(cd_game *g);

/* The same, the common case (the main-line key, room for it) inline. */
static inline cd_status
cd__game_keep(cd_game *g)
{
	struct cd__game_priv *p = g->priv;

	if (p->keep == CD__KEEP_KEYS && p->key_next != p->key_end) {
		if (p->depth == 0)
			*p->key_next++ = p->line.board.key;
		return CD_OK;
	}
	return cd__game_keep_slow(g);
}

/*
 * A brace comment at s (after its `{`; e: the end of the movetext)
 * whose text holds nothing to fold but single spaces, added as
 * cd_game_add_comment() adds it, folded and stored in one pass that
 * also finds its `}` (no line end in it: line numbers stay): the byte
 * after the `}`.  NULL, with nothing added, for any other comment,
 * which the lexer's way takes.  *st: CD_OK, or an error of the
 * note's.
 */
/* cd_game_add_comment for CD_PGN_PARSE_COMMENTS_AS_WRITTEN: the text
 * trimmed, CRLF made LF, the rest as it is. */
cd_status cd__game_add_comment_as_written(cd_game *g, const char *text,
    size_t len);
const char *cd__game_add_plain_comment(cd_game *g, const char *s,
    const char *e, cd_status *st);

/* cd__grow (internal.h) for a uint32_t capacity, out of line
 * (pgn/game.c). */
int cd__grow32(void **arr, uint32_t *cap, size_t need, size_t sz,
    size_t min);
/* The after-move NAG set of node i, made when it has none; NULL when
 * out of memory (pgn/tree.c). */
cd_game_nagset *cd__game_nags_after(cd_game *g, uint32_t i);
/* Append the note chain first to the chain at *head (pgn/tree.c). */
void cd__game_notes_append(cd_game *g, uint32_t *head, uint32_t first);

/* The move number and side of the move at ply (from 1) of g. */
static inline unsigned long
cd__game_move_number(const cd_game *g, uint32_t ply)
{
	return (unsigned long)g->start.fullmove +
	    ((unsigned long)ply - 1 + g->start.side) / 2;
}

static inline int
cd__game_mover(const cd_game *g, uint32_t ply)
{
	return (int)((g->start.side + ply - 1) & 1);
}

#endif
