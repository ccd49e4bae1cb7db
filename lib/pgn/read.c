/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * pgn/read.c: PGN games from a stream (see chessdata/pgn_read.h for the
 * rules); the tokens of a game are pgn/lex.c's.  No chess knowledge
 * here.
 *
 * The game reader keeps the input in one buffer.  A game is found by
 * scanning from its first byte; when the scan reaches the end of the
 * buffer before it can decide, the buffer is refilled (moved down,
 * grown when one game fills it) and the scan starts again from the
 * game's first byte.  So the scanners are pure functions of the bytes
 * and need no resumable state, and memory is bounded by the largest
 * game.
 */
#include "config.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pgn/pgn_internal.h"
#include "stream/input.h"

#define cls cd__pgn_cls
#define U(c)		((unsigned char)(c))
#define IS_WS(c)	(cls[U(c)] & K_WS)
#define IS_DIGIT(c)	(cls[U(c)] & K_DIGIT)
#define IS_HSPACE(c)	((c) == ' ' || (c) == '\t' || (c) == '\r' || \
			    (c) == '\v' || (c) == '\f')

/* ---- tag pairs ---- */

/*
 * Whether p (a `[`) starts a tag: optional whitespace then a tag name
 * byte.  1 yes, 0 no, -1 more input needed.
 */
static int
tag_start(const char *p, const char *e, int eof)
{
	p++;
	while (p < e && IS_WS(*p))
		p++;
	if (p == e)
		return eof ? 0 : -1;
	return (cls[U(*p)] & K_TAGNAME) != 0;
}

/*
 * Whether the line at p (a line start) starts with one complete
 * standard tag pair in column one, `[Name "value"]`, with blanks only
 * after it to the line end when whole.  Used to end a brace comment
 * that is never closed (whole) and binary data.  1 yes, 0 no, -1 more
 * input needed.
 */
static int
tag_pair_line(const char *p, const char *e, int eof, int whole)
{
	const char *le, *q;
	struct cd__tagscan ts;

	if (p == e)
		return eof ? 0 : -1;
	if (*p != '[')
		return 0;
	le = memchr(p, '\n', (size_t)(e - p));
	if (le == NULL) {
		if (!eof)
			return -1;
		le = e;
	}
	for (q = p + 1; q < le && (IS_DIGIT(*q) || (cls[U(*q)] & K_LETTER) ||
	    *q == '_'); q++)
		;
	if (q == p + 1 || q == le || (*q != ' ' && *q != '\t'))
		return 0;
	if (cd__scan_tag(p, le, 1, &ts) != 1)
		return 0;
	for (q = ts.next; q < le && IS_HSPACE(*q); q++)
		;
	return q == le || !whole;
}

/* A line that is one complete tag pair (tag_pair_line). */
static int
tag_line(const char *p, const char *e, int eof)
{
	return tag_pair_line(p, e, eof, 1);
}

/*
 * A tag pair at p (a `[`) in its usual form: `[Name "value"]`, one
 * space between name and value, no backslash or line end in the
 * value.  1: read into *ts as cd__scan_tag reads it; 0: another form,
 * or more input may be needed (cd__scan_tag reads it then).  The token
 * lexer reads every tag with cd__scan_tag: check_pgn_lex compares the
 * two.
 */
static inline int
quick_tag(const char *p, const char *e, struct cd__tagscan *ts)
{
	const char *n = p + 1, *q, *i;

	if (n == e || !(cls[U(*n)] & K_TAGNAME))
		return 0;
	q = cd__tag_name_end(n, e);
	if (e - q < 2 || memcmp(q, " \"", 2) != 0)
		return 0;
	i = cd__tag_value_stop(q + 2, e, 0);
	if (e - i < 2 || memcmp(i, "\"]", 2) != 0)
		return 0;
	ts->name = n;
	ts->name_len = (size_t)(q - n);
	ts->value = q + 2;
	ts->value_len = (size_t)(i - (q + 2));
	ts->escapes = 0;
	ts->next = i + 2;
	ts->lines = 0;
	ts->last_nl = NULL;
	return 1;
}

/* ---- the game reader ---- */

#define READER_BLOCK	(256 * 1024)

struct cd_pgn_reader {
	struct cd__input in;	/* where the bytes come from (input.h) */
	char *buf;		/* owned buffer (NULL for memory input) */
	size_t cap;
	const char *data;	/* buf or the caller's memory */
	size_t pos, end;	/* unread bytes: data[pos..end) */
	uint64_t base;		/* input offset of data[0] */
	int eof, failed, started;
	int read_errno;		/* a read failed (with this errno, the
				 * input's error in in.err): what came
				 * before is read as the input's end */
	int bol;		/* data[pos] is at the start of a line */
	int keep_bol;		/* the next advance leaves bol as it is (a
				 * piece of a run of blanks) */
	int junk;		/* skipping text that is not PGN: JUNK_* */
	int skipped_nul;	/* a binary byte (has_nul) in the text
				 * skipped before the next game */
	size_t max_game;	/* a game is framed within its first
				 * max_game bytes (cd_pgn_reader_set_limit) */
	unsigned long line, col;	/* of data[pos] */
	uint64_t number;

	/* The game being scanned.  Its tags as they are given out, but
	 * with arena offsets for name and value (the arena may move)
	 * until make_game. */
	cd_pgn_tag *tags;
	size_t nrt, tagcap;
	char *arena;
	size_t alen, acap;
	size_t g_len, g_mt, g_mt_end;
	/* scan_movetext's count of the line ends in the game from its
	 * movetext on, when g_counted: g_nl of them, the last at offset
	 * g_lastnl - 1 (g_lastnl 0: none) */
	int g_counted;
	unsigned long g_nl;
	size_t g_lastnl;
	unsigned long g_mt_line, g_mt_col;	/* where the movetext is */
	cd_pgn_result g_result;
	unsigned g_flags;

	/* Binary bytes (a NUL, or another that text does not hold:
	 * cd__binary_byte): data[nul_at] is the first from where the last
	 * search began (no earlier than the game being made), SIZE_MAX when
	 * there is none before data[nul_to].  So the input is searched once
	 * (the game's own bytes only after such a byte). */
	size_t nul_at, nul_to;

	uint64_t skipped;
	unsigned long skipped_line;
	cd_error err;		/* why the reader failed, or why the game
				 * cd_pgn_reader_read gave last is not read */
	cd_game *game;		/* cd_pgn_reader_read's game */

	/* cd_pgn_reader_on_gap */
	void (*gap_fn)(void *ctx, const char *bytes, size_t len);
	void *gap_ctx;
};

enum { S_MORE, S_GAME, S_JUNK, S_BLANK, S_END, S_NOMEM };

/* Skipping text (r->junk): no, up to a blank line or a line that starts
 * a tag section (text that is not PGN), up to a line that starts with a
 * complete tag pair in column one (binary data, the rest of a game too
 * large to keep). */
enum { JUNK_NO, JUNK_TEXT, JUNK_TO_TAGS };

/* A line of text that is not PGN is skipped in pieces of at most this
 * many bytes (never kept whole). */
#define JUNK_PIECE	(READER_BLOCK / 2)

static cd_pgn_reader *
reader_alloc(void)
{
	cd_pgn_reader *r = calloc(1, sizeof(*r));

	if (r == NULL)
		return NULL;
	cd__input_none(&r->in);
	r->nul_at = SIZE_MAX;
	r->max_game = CD_PGN_GAME_MAX;
	r->bol = 1;
	r->line = 1;
	r->col = 1;
	return r;
}

/* A reader of input: its buffer; NULL (input closed) when out of
 * memory. */
static cd_pgn_reader *
reader_input(cd_pgn_reader *r, struct cd__input *in)
{
	if (r != NULL)
		r->buf = malloc(READER_BLOCK);
	if (r == NULL || r->buf == NULL) {
		free(r);
		cd__input_close(in);
		return NULL;
	}
	r->in = *in;
	r->cap = READER_BLOCK;
	r->data = r->buf;
	return r;
}

/* A reader of in (reader_input). */
static cd_pgn_reader *
pgn_input(struct cd__input *in)
{
	return reader_input(reader_alloc(), in);
}

CD__INPUT_OPENERS(cd_pgn_reader, cd_pgn_reader, pgn_input)

const cd_stream *
cd_pgn_reader_stream(const cd_pgn_reader *r)
{
	return r->in.s;
}

cd_pgn_reader *
cd_pgn_reader_new_mem(const void *buf, size_t len)
{
	cd_pgn_reader *r = reader_alloc();

	if (r == NULL)
		return NULL;
	r->data = len > 0 ? buf : "";
	r->end = len;
	r->eof = 1;
	return r;
}

void
cd_pgn_reader_free(cd_pgn_reader *r)
{
	if (r == NULL)
		return;
	cd__input_close(&r->in);
	cd_game_free(r->game);
	free(r->buf);
	free(r->arena);
	free(r->tags);
	free(r);
}

void
cd_pgn_reader_on_gap(cd_pgn_reader *r,
    void (*fn)(void *ctx, const char *bytes, size_t len), void *ctx)
{
	r->gap_fn = fn;
	r->gap_ctx = ctx;
}

void
cd_pgn_reader_set_limit(cd_pgn_reader *r, size_t max_game)
{
	r->max_game = max_game < 256 ? 256 : max_game;
}

uint64_t
cd_pgn_reader_tell(const cd_pgn_reader *r)
{
	return r->base + r->pos;
}

/* More input: move the unread bytes down, grow when full, read. */
static cd_status
fill(cd_pgn_reader *r)
{
	cd_status st;
	size_t n, want, got;

	if (r->eof)
		return CD_OK;
	if (r->pos > 0) {
		memmove(r->buf, r->buf + r->pos, r->end - r->pos);
		r->base += r->pos;
		r->end -= r->pos;
		if (r->nul_at != SIZE_MAX && r->nul_at < r->pos) {
			r->nul_at = SIZE_MAX;	/* behind: search again */
			r->nul_to = 0;
		} else {
			if (r->nul_at != SIZE_MAX)
				r->nul_at -= r->pos;
			r->nul_to = r->nul_to > r->pos ? r->nul_to - r->pos : 0;
		}
		r->pos = 0;
	}
	if (r->end == r->cap) {
		size_t ncap = r->cap * 2;
		char *nb;

		if (ncap < r->cap)
			return CD_ERR_NOMEM;
		nb = realloc(r->buf, ncap);
		if (nb == NULL)
			return CD_ERR_NOMEM;
		r->buf = nb;
		r->data = nb;
		r->cap = ncap;
	}
	/* The scanners start again from data[pos] after each fill: read
	 * until the new bytes are at least as many as the unread ones kept
	 * (or the buffer is full), so that each byte is scanned a bounded
	 * number of times however little a read gives (a pipe, a
	 * decompressor: 64 KiB).  Below a block, one read: a pipeline's
	 * small games are read as they come. */
	want = r->end < READER_BLOCK / 2 ? 1 : r->end;
	if (want > r->cap - r->end)
		want = r->cap - r->end;
	got = 0;
	do {
		st = cd__input_read(&r->in, r->buf + r->end, r->cap - r->end,
		    &n);
		if (st != CD_OK && st != CD_EOF)
			/* (see in.err; the next fill fails again) */
			return got > 0 ? CD_OK : CD_ERR_IO;
		r->end += n;
		got += n;
		if (st == CD_EOF) {
			r->eof = 1;
			break;
		}
	} while (got < want);
	return CD_OK;
}

#ifdef CD_AVX2
/* Masks of the last n of 32 bytes: the 32 bytes at last_n + n, n from
 * 0 to 32. */
static const char last_n[64] = {
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	-1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1,
	-1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1
};

/* The sums of the four quarters of v's byte counters. */
__attribute__((target("avx2"))) static inline unsigned long
sum_counts(__m256i v)
{
	__m256i s = _mm256_sad_epu8(v, _mm256_setzero_si256());
	__m128i t = _mm_add_epi64(_mm256_castsi256_si128(s),
	    _mm256_extracti128_si256(s, 1));

	return (unsigned long)_mm_cvtsi128_si64(t) +
	    (unsigned long)_mm_extract_epi64(t, 1);
}

/*
 * count_lines() with AVX2 for e - p >= 32: sixty-four bytes a step,
 * then thirty-two, then the last thirty-two with those counted before
 * masked off.
 */
__attribute__((target("avx2"))) static unsigned long
count_lines_avx2(const char *p, const char *e)
{
	const __m256i nl = _mm256_set1_epi8('\n');
	const __m256i zero = _mm256_setzero_si256();
	__m256i acc, keep;
	unsigned long n = 0;
	int k;

	while (e - p >= 32) {
		/* byte counters (a match is -1), two a step, summed
		 * before they wrap */
		acc = zero;
#define LINES32(q)	acc = _mm256_sub_epi8(acc, _mm256_cmpeq_epi8( \
			    _mm256_loadu_si256((const void *)(q)), nl))
		for (k = 0; k < 127 && e - p >= 64; k++, p += 64) {
			LINES32(p);
			LINES32(p + 32);
		}
		if (e - p >= 32) {	/* (a counter is at most 255) */
			LINES32(p);
			p += 32;
		}
#undef LINES32
		n += sum_counts(acc);
	}
	if (p < e) {
		/* bytes i >= 32 - (e - p) of the last thirty-two */
		keep = _mm256_loadu_si256((const void *)(last_n + (e - p)));
		n += sum_counts(_mm256_sub_epi8(zero, _mm256_and_si256(keep,
		    _mm256_cmpeq_epi8(_mm256_loadu_si256((const void *)
		    (e - 32)), nl))));
	}
	return n;
}
#endif

/* The number of line ends in [p, e): with AVX2 where the processor
 * has it (count_lines_avx2), else sixty-four bytes a step, then
 * sixteen, then the last sixteen with those counted before masked off,
 * where SSE2 is (a game is read line by line otherwise, a call a
 * line). */
static unsigned long
count_lines(const char *p, const char *e)
{
	unsigned long n = 0;

#ifdef CD_AVX2
	if (cd__have_avx2 && e - p >= 32)
		return count_lines_avx2(p, e);
#endif
#ifdef __SSE2__
	static const char index[16] = { 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10,
	    11, 12, 13, 14, 15 };
	const __m128i nl = _mm_set1_epi8('\n'), zero = _mm_setzero_si128();
	const char *s = p;
	__m128i acc;

	while (e - p >= 16) {
		/* byte counters (a match is -1), summed before they wrap */
		int k;

		acc = zero;
#define LINES16(q)	acc = _mm_sub_epi8(acc, _mm_cmpeq_epi8( \
			    _mm_loadu_si128((const void *)(q)), nl))
		for (k = 0; k < 63 && e - p >= 64; k++, p += 64) {
			LINES16(p);
			LINES16(p + 16);
			LINES16(p + 32);
			LINES16(p + 48);
		}
		for (k = 0; k < 3 && e - p >= 16; k++, p += 16)
			LINES16(p);
#undef LINES16
		acc = _mm_sad_epu8(acc, zero);
		n += (unsigned long)_mm_cvtsi128_si32(acc) +
		    (unsigned long)_mm_extract_epi16(acc, 4);
	}
	if (p < e && e - s >= 16) {
		/* bytes i >= 16 - (e - p) of the last sixteen */
		__m128i keep = _mm_cmpgt_epi8(_mm_loadu_si128((const void *)
		    index), _mm_set1_epi8((char)(15 - (e - p))));

		acc = _mm_sad_epu8(_mm_sub_epi8(zero, _mm_and_si128(keep,
		    _mm_cmpeq_epi8(_mm_loadu_si128((const void *)(e - 16)),
		    nl))), zero);
		return n + (unsigned long)_mm_cvtsi128_si32(acc) +
		    (unsigned long)_mm_extract_epi16(acc, 4);
	}
#endif
	for (; p < e; p++)
		n += *p == '\n';
	return n;
}

/* Consume n bytes: keep line, column and start-of-line up to date. */
static void
advance(cd_pgn_reader *r, size_t n)
{
	const char *p = r->data + r->pos, *e = p + n, *last;

	if (n == 0)
		return;
	for (last = e - 1; last >= p && *last != '\n'; last--)
		;
	if (last >= p) {
		r->line += count_lines(p, last + 1);
		r->col = (unsigned long)(e - (last + 1)) + 1;
	} else {
		r->col += (unsigned long)n;
	}
	if (r->keep_bol)
		r->keep_bol = 0;
	else
		r->bol = e[-1] == '\n';
	r->pos += n;
}

#ifdef __SSE2__
/* The `}` and line ends of the sixteen bytes at p, as a bit mask. */
static inline uint64_t
brace_or_line_end16(const char *p)
{
	__m128i v = _mm_loadu_si128((const void *)p);

	return (unsigned)_mm_movemask_epi8(_mm_or_si128(cd__eq8(v, '}'),
	    cd__eq8(v, '\n')));
}
#endif

#ifdef CD_AVX2
/* brace_or_line_end() with AVX2, for e - p >= 64: sixty-four bytes a
 * step, the last 64 overlapping the ones before. */
__attribute__((target("avx2"))) static const char *
brace_or_line_end_avx2(const char *p, const char *e)
{
	const __m256i rb = _mm256_set1_epi8('}'), nl = _mm256_set1_epi8('\n');

	for (;;) {
		const char *q = e - p >= 64 ? p : e - 64;
		__m256i v = _mm256_loadu_si256((const void *)q);
		__m256i v1 = _mm256_loadu_si256((const void *)(q + 32));
		__m256i h = _mm256_or_si256(_mm256_cmpeq_epi8(v, rb),
		    _mm256_cmpeq_epi8(v, nl));
		__m256i h1 = _mm256_or_si256(_mm256_cmpeq_epi8(v1, rb),
		    _mm256_cmpeq_epi8(v1, nl));

		if (!_mm256_testz_si256(_mm256_or_si256(h, h1),
		    _mm256_or_si256(h, h1)))
			return q + __builtin_ctzll(
			    (uint64_t)(uint32_t)_mm256_movemask_epi8(h) |
			    (uint64_t)(uint32_t)_mm256_movemask_epi8(h1) <<
			    32);
		if ((p = q + 64) == e)
			return e;
	}
}
#endif

/* The first `}` or line end in [p, e), or e: sixty-four bytes a step
 * (AVX2), or sixty-four then sixteen (SSE2). */
static const char *
brace_or_line_end(const char *p, const char *e)
{
#ifdef __SSE2__
	uint64_t m;

#ifdef CD_AVX2
	if (cd__have_avx2 && e - p >= 64)
		return brace_or_line_end_avx2(p, e);
#endif

	for (; e - p >= 64; p += 64) {
		m = brace_or_line_end16(p) |
		    brace_or_line_end16(p + 16) << 16 |
		    brace_or_line_end16(p + 32) << 32 |
		    brace_or_line_end16(p + 48) << 48;
		if (m != 0)
			return p + __builtin_ctzll(m);
	}
	for (; e - p >= 16; p += 16)
		if ((m = brace_or_line_end16(p)) != 0)
			return p + __builtin_ctzll(m);
#endif
	while (p < e && *p != '}' && *p != '\n')
		p++;
	return p;
}

/* Whether only blanks stand in [p, e). */
static int
only_blanks(const char *p, const char *e)
{
	while (p < e && IS_HSPACE(*p))
		p++;
	return p == e;
}

/* Whether the line [l, le) is blank or ends with a termination marker
 * (then blanks). */
static int
game_ends_line(const char *l, const char *le)
{
	const char *w;

	while (le > l && IS_WS(le[-1]))
		le--;
	for (w = le; w > l && !IS_WS(w[-1]) && w[-1] != '{'; w--)
		;
	return le == l || cd_pgn_result_parse(w, (size_t)(le - w)) !=
	    CD_PGN_RESULT_NONE;
}

/*
 * Whether a line of the comment text [c, stop) (c just after the `{`)
 * starts a game: a complete tag pair in column one (tag_line) after a
 * line of the comment that is blank or ends with a termination marker
 * (the comment's first line, after the `{`, counts for a marker only).
 * 1 yes, 0 no, -1 more input needed.
 */
static int
game_in_comment(const char *c, const char *stop, const char *e, int eof)
{
	const char *l = c, *nl;
	int t;

	while ((nl = memchr(l, '\n', (size_t)(stop - l))) != NULL) {
		if (nl + 1 < stop && nl[1] == '[' && (l == c ?
		    game_ends_line(l, nl) && l < nl && !only_blanks(l, nl) :
		    game_ends_line(l, nl))) {
			if ((t = tag_line(nl + 1, e, eof)) != 0)
				return t;
		}
		l = nl + 1;
	}
	return 0;
}

/*
 * The end of a brace comment opened at p (a `{`): it ends at its `}`
 * (standard, section 5), whatever lines it holds, tag pairs too, and
 * *out gets the byte after it (1).  But a comment that holds the start
 * of a game before its `}` (game_in_comment: a tag pair line after a
 * blank line or a line ending with a marker), or that has no `}` up to
 * the end of the input (or of the part of a game that is read:
 * GAME_MAX), is never closed: the game ends at the first line inside it
 * that is a complete tag pair starting in column one (reading goes on
 * there), or at the end: *out gets that place (0).  -1 when more input
 * is needed.
 */
static int
comment_end(const char *p, const char *e, int eof, const char **out)
{
	const char *q = brace_or_line_end(p + 1, e), *stop;
	int t;

	if (q < e && *q == '}') {
		*out = q + 1;	/* (the usual: on one line) */
		return 1;
	}
	if (q < e)
		q = memchr(q, '}', (size_t)(e - q));
	else
		q = NULL;
	if (q == NULL && !eof)
		return -1;
	stop = q != NULL ? q : e;
	if ((t = game_in_comment(p + 1, stop, e, eof)) < 0)
		return -1;
	if (t == 0 && q != NULL) {
		*out = q + 1;
		return 1;
	}
	for (q = p + 1; (q = memchr(q, '\n', (size_t)(stop - q))) != NULL;)
		if ((t = tag_line(++q, e, eof)) != 0) {
			if (t < 0)
				return -1;
			*out = q;
			return 0;
		}
	*out = e;	/* (eof: no `}`) */
	return 0;
}

/* The end of the line at p (the `\n` or e); NULL if more input is
 * needed. */
static const char *
line_end(const char *p, const char *e, int eof)
{
	const char *nl = memchr(p, '\n', (size_t)(e - p));

	if (nl != NULL)
		return nl;
	return eof ? e : NULL;
}

/* The end of a word (a move, a number, a marker) starting at p. */
static const char *
word_end(const char *p, const char *e)
{
	while (p < e && !(cls[U(*p)] & K_DELIM))
		p++;
	return p;
}

/* Whether one of the four bytes at p is in K_STOP; *q gets the first
 * such. */
static inline bool
stop4(const char *p, const char **q)
{
	if (cls[U(p[0])] & K_STOP)
		*q = p;
	else if (cls[U(p[1])] & K_STOP)
		*q = p + 1;
	else if (cls[U(p[2])] & K_STOP)
		*q = p + 2;
	else if (cls[U(p[3])] & K_STOP)
		*q = p + 3;
	else
		return false;
	return true;
}

/* The first byte at or after p that can change the scan (K_STOP), or
 * e.  Eight bytes through the table first (short runs between comments
 * are common), then sixteen bytes a step where SSE2 is: the vector test
 * pairs the stop bytes that differ in one bit: `[` and `{` (0x20), 0xc2
 * and 0xe2 (0x20), `(` and `)` (0x01), `-` and `/` (0x02); no other
 * byte matches a pair. */
static const char *
skip_plain(const char *p, const char *e)
{
	const char *q;
	int round;

	for (round = 0; round < 2 && e - p >= 4; round++, p += 4)
		if (stop4(p, &q))
			return q;
#ifdef __SSE2__
	while (e - p >= 16) {
		__m128i v = _mm_loadu_si128((const void *)p);
		__m128i v20 = _mm_or_si128(v, _mm_set1_epi8(0x20));
		unsigned m;

		m = (unsigned)_mm_movemask_epi8(_mm_or_si128(_mm_or_si128(
		    _mm_or_si128(cd__eq8(v, '\n'), cd__eq8(v, ';')),
		    _mm_or_si128(cd__eq8(v, '%'), cd__eq8(v, '"'))),
		    _mm_or_si128(_mm_or_si128(cd__eq8(v, '*'), cd__eq8(v20, '{')),
		    _mm_or_si128(cd__eq8(v20, 0xe2), _mm_or_si128(
		    cd__eq8(_mm_or_si128(v, _mm_set1_epi8(0x01)), ')'),
		    cd__eq8(_mm_or_si128(v, _mm_set1_epi8(0x02)), '/'))))));
		if (m != 0)
			return p + __builtin_ctz(m);
		p += 16;
	}
#endif
	for (; e - p >= 4; p += 4)
		if (stop4(p, &q))
			return q;
	while (p < e && !(cls[U(*p)] & K_STOP))
		p++;
	return p;
}

/*
 * Scan movetext from m to the end of the game that starts at s.  ls is
 * the start of m's line (NULL when unknown), blank whether only blanks
 * precede m on it.
 *
 * Only the bytes in K_STOP can end a game or open something that hides
 * a marker, so the scan jumps from one to the next: a line end, a
 * comment, a string, a `[` that may start the next tag section, a
 * variation, `*`, and the bytes without which no word is a marker
 * (`-`, `/`, and the first bytes of `½` and of the dashes).  At one of
 * those the word around it is looked at whole.
 */
static int
scan_movetext(cd_pgn_reader *r, const char *s, const char *m,
    const char *ls, int blank)
{
	const char *e = r->data + r->end, *p = m, *last = m, *q, *w, *end;
	const char *tls = blank ? ls : NULL;	/* a `[` here after blanks
						 * may start tags */
	int eof = r->eof, t;
	size_t depth = 0;	/* variations open: markers in them do not
				 * end the game */
	/* the line ends before p and the last of them, while no brace
	 * comment (which may hold some) was skipped: advance_game counts
	 * them otherwise */
	unsigned long nl = 0, nl_mark;
	const char *lastnl = NULL, *lastnl_mark;
	int counted = 1;

	r->g_result = CD_PGN_RESULT_NONE;
	for (;;) {
		p = skip_plain(p, e);
		if (p == e) {
			if (!eof)
				return S_MORE;
			end = e;
			break;
		}
		switch (*p) {
		case '\n':
			nl++;
			lastnl = p++;
			ls = tls = p;
			continue;
		case '{':
			counted = 0;
			t = comment_end(p, e, eof, &q);
			if (t < 0)
				return S_MORE;
			if (t == 0) {
				r->g_flags |= CD_PGN_RAW_UNCLOSED_COMMENT;
				/* The comment runs to the game's end. */
				last = q;
				while (last > p && IS_WS(last[-1]))
					last--;
				end = q;
				goto done;
			}
			p = q;
			continue;
		case '%':
			if (p != ls) {
				p++;
				continue;
			}
			/* FALLTHROUGH */
		case ';':
			q = line_end(p, e, eof);
			if (q == NULL)
				return S_MORE;
			p = q;
			continue;
		case '"':
			q = line_end(p, e, eof);
			if (q == NULL)
				return S_MORE;
			w = memchr(p + 1, '"', (size_t)(q - (p + 1)));
			p = w != NULL ? w + 1 : q;
			continue;
		case '[':
			if (tls != NULL && only_blanks(tls, p)) {
				t = tag_start(p, e, eof);
				if (t < 0)
					return S_MORE;
				if (t > 0) {
					end = ls;
					goto trimmed;
				}
			}
			p++;
			continue;
		case '*':
			p++;
			if (depth > 0)
				continue;
			last = p;
			r->g_result = CD_PGN_RESULT_UNKNOWN;
			goto marker;
		case '(':
			depth++;
			p++;
			continue;
		case ')':
			if (depth > 0)
				depth--;
			p++;
			continue;
		default:
			break;
		}
		/* `-`, `/` or a lead byte inside a word: the word whole */
		w = p;
		while (w > m && !(cls[U(w[-1])] & K_DELIM))
			w--;
		q = word_end(p + 1, e);
		if (q == e && !eof)
			return S_MORE;
		p = q;
		if (depth == 0 && (*w == '0' || *w == '1' || U(*w) == 0xc2) &&
		    (r->g_result = cd_pgn_result_parse(w, (size_t)(q - w))) !=
		    CD_PGN_RESULT_NONE) {
			last = q;
			goto marker;
		}
	}
trimmed:
	/* no marker: the movetext ends at its last byte that is not
	 * white space */
	last = end;
	while (last > m && IS_WS(last[-1]))
		last--;
	goto done;
marker:
	/* The usual: the marker ends its line, an empty line and the next
	 * tag section follow (LF or CR LF); the game ends before that. */
	q = p + (p < e && *p == '\r');
	if (e - q >= 5 && q[0] == '\n') {
		w = q + 1 + (q[1] == '\r');
		if (w[0] == '\n' && w[1] == '[' && (cls[U(w[2])] & K_TAGNAME)) {
			nl += 2;
			lastnl = w;
			end = w + 1;
			goto done;
		}
	}
	/* The rest of the marker's line if blank or comments, then blank
	 * lines. */
	q = p;
	for (;;) {
		const char *c;

		while (q < e && IS_HSPACE(*q))
			q++;
		if (q < e && *q == ';') {
			q = line_end(q, e, eof);
			if (q == NULL)
				return S_MORE;
		} else if (q < e && *q == '{') {
			counted = 0;
			t = comment_end(q, e, eof, &c);
			if (t < 0)
				return S_MORE;
			if (t == 0)
				break;
			q = c;
		} else {
			break;
		}
	}
	if (q == e) {
		if (!eof)
			return S_MORE;
		end = e;
		goto done;
	}
	if (*q != '\n') {
		end = q;
		goto done;
	}
	nl_mark = ++nl;
	lastnl_mark = lastnl = q;
	end = ++q;
	/*
	 * Lines after it that hold only comments belong to the game too
	 * when nothing but the next tag section (or the end) follows them;
	 * otherwise the game ends after its blank lines.
	 */
	ls = q;
	blank = 1;
	for (;;) {
		const char *c;

		if (q == e) {
			if (!eof)
				return S_MORE;
			end = e;
			break;
		}
		if (*q == '\n') {
			nl++;
			lastnl = q;
			ls = ++q;
			blank = 1;
			continue;
		}
		if (IS_WS(*q)) {
			q++;
			continue;
		}
		if (*q == ';' || (*q == '%' && q == ls)) {
			q = line_end(q, e, eof);
			if (q == NULL)
				return S_MORE;
			blank = 0;
			continue;
		}
		if (*q == '{') {
			counted = 0;
			t = comment_end(q, e, eof, &c);
			if (t < 0)
				return S_MORE;
			if (t == 0)
				goto blank_lines;
			q = c;
			blank = 0;
			continue;
		}
		if (*q == '[' && blank) {
			t = tag_start(q, e, eof);
			if (t < 0)
				return S_MORE;
			if (t > 0) {
				end = ls;
				break;
			}
		}
		goto blank_lines;
	}
	goto done;
blank_lines:
	/* Only the blank lines after the marker's line. */
	q = end;
	nl = nl_mark;
	lastnl = lastnl_mark;
	for (;;) {
		while (q < e && IS_HSPACE(*q))
			q++;
		if (q == e) {
			end = e;	/* (eof: the scan above saw it) */
			break;
		}
		if (*q != '\n')
			break;
		nl++;
		lastnl = q;
		end = ++q;
	}
done:
	r->g_counted = counted;
	r->g_nl = nl;
	r->g_lastnl = lastnl != NULL ? (size_t)(lastnl - s) + 1 : 0;
	if (r->g_result == CD_PGN_RESULT_NONE)
		r->g_flags |= CD_PGN_RAW_NO_RESULT;
	r->g_len = (size_t)(end - s);
	r->g_mt = (size_t)(m - s);
	r->g_mt_end = (size_t)(last - s);
	if (r->g_mt_end < r->g_mt)
		r->g_mt_end = r->g_mt;
	return S_GAME;
}

/* Copy n bytes from s (in the input, which ends at e) to d, which has
 * room for at least sixteen: a short stretch as one sixteen-byte move,
 * with no call, where sixteen bytes can be read. */
static inline void
copy_short(char *d, const char *s, size_t n, const char *e)
{
	if (n <= 16 && e - s >= 16)
		memcpy(d, s, 16);
	else
		memcpy(d, s, n);
}

/* The arena offset held in a tag's name or value while the game is
 * scanned. */
#define AOFF(ptr)	((size_t)(uintptr_t)(ptr))
#define APTR(off)	((const char *)(uintptr_t)(off))

/* Room for need more bytes in the arena of *alen bytes (its start and
 * capacity in *arena and *acap, kept in r too); 0, or -1 when out of
 * memory. */
static int
arena_grow(cd_pgn_reader *r, char **arena, size_t *acap, size_t alen,
    size_t need)
{
	size_t ncap = *acap ? *acap : 4096;
	char *na;

	while (ncap - alen < need)
		ncap *= 2;
	na = realloc(*arena, ncap);
	if (na == NULL)
		return -1;
	r->arena = *arena = na;
	r->acap = *acap = ncap;
	return 0;
}

/* A name of nl and a value of vl bytes, both shorter than sixteen and
 * with sixteen bytes readable at each, to d in the arena, each with a
 * NUL (sixteen bytes of each copied at once). */
static inline void
arena_put16(char *d, const char *n, size_t nl, const char *v, size_t vl)
{
	memcpy(d, n, 16);
	d[nl] = '\0';
	memcpy(d + nl + 1, v, 16);
	d[nl + 1 + vl] = '\0';
}

/* Copy a tag's name and its value (unescaped) to d in the arena (room
 * for both, their NULs and sixteen bytes more), each with a NUL (e: the
 * end of the input); the value's length. */
static inline size_t
arena_put(char *d, const struct cd__tagscan *ts, const char *e)
{
	size_t nl = ts->name_len, vl = ts->value_len;

	if ((nl | vl) < 16 && e - ts->value >= 16 && !ts->escapes) {
		/* the usual (the value comes after the name) */
		arena_put16(d, ts->name, nl, ts->value, vl);
		return vl;
	}
	copy_short(d, ts->name, nl, e);
	d[nl] = '\0';
	if (ts->escapes)
		vl = cd__unescape(ts->value, vl, 1, d + nl + 1);
	else
		copy_short(d + nl + 1, ts->value, vl, e);
	d[nl + 1 + vl] = '\0';
	return vl;
}

/* Whether the tag section so far has a tag named name. */
static int
has_tag(const cd_pgn_reader *r, const char *name, size_t len)
{
	size_t i;

	for (i = 0; i < r->nrt; i++)
		if (r->tags[i].name_len == len &&
		    memcmp(r->arena + AOFF(r->tags[i].name), name, len) == 0)
			return 1;
	return 0;
}

/* Set *l, *c to the line and column of p in the game that starts at s,
 * from the line ends before p and the start of p's line (NULL: the
 * game's first line). */
static inline void
place_of(const cd_pgn_reader *r, const char *s, const char *p,
    unsigned long lines, const char *line, unsigned long *l,
    unsigned long *c)
{
	*l = r->line + lines;
	*c = line != NULL ? (unsigned long)(p - line) + 1 :
	    r->col + (unsigned long)(p - s);
}

/* The first byte of the sixteen at p that ends a tag name (as
 * cd__tag_name_end) and of the sixteen at v that stops a value (as
 * cd__tag_value_stop, backslash too); 16 for none. */
static inline unsigned
name_end16(const char *p)
{
#ifdef __SSE2__
	__m128i v = _mm_loadu_si128((const void *)p);
	unsigned m = (unsigned)_mm_movemask_epi8(_mm_or_si128(
	    cd__le8(v, 0x20),
	    _mm_or_si128(_mm_or_si128(cd__eq8(v, '"'), cd__eq8(v, '[')),
	    _mm_or_si128(cd__eq8(v, ']'), cd__eq8(v, 0x7f)))));

	return m != 0 ? (unsigned)__builtin_ctz(m) : 16;
#else
	return (unsigned)(cd__tag_name_end(p, p + 16) - p);
#endif
}

static inline unsigned
value_stop16(const char *p)
{
#ifdef __SSE2__
	__m128i v = _mm_loadu_si128((const void *)p);
	unsigned m = (unsigned)_mm_movemask_epi8(_mm_or_si128(
	    _mm_or_si128(cd__eq8(v, '"'), cd__eq8(v, '\n')),
	    cd__eq8(v, '\\')));

	return m != 0 ? (unsigned)__builtin_ctz(m) : 16;
#else
	return (unsigned)(cd__tag_value_stop(p, p + 16, 0) - p);
#endif
}

/* Whether the two bytes at p are a and b. */
static inline bool
two(const char *p, char a, char b)
{
	return p[0] == a && p[1] == b;
}

/*
 * The usual tag lines of a tag section, read without the general
 * scan's state: from p, a `[` that starts a line and a tag (*lines line
 * ends of the game before it), tags `[Name "value"]` (name and value
 * shorter than sixteen bytes, no backslash) each at the start of a
 * line, the line before ending
 * right after the `]` before it with LF or CR LF.  Each is added to r's
 * tags and arena (column one).  Returns where it stopped, *lines the
 * line ends before it: *after 0, at the start of a line whose `[` it
 * did not read (from there on as scan_tagged reads it); *after 1, right
 * after the `]` of the last tag it read, when the next line does not
 * follow at once or holds no `[`.  After the last tag it read (if any):
 * *last_end, and in *end_lines and *end_line the line ends before it
 * and the start of its line.
 */
static __attribute__((noinline)) const char *
tag_run(cd_pgn_reader *r, const char *p, const char *e,
    unsigned long *lines, int *after, const char **last_end,
    unsigned long *end_lines, const char **end_line)
{
	cd_pgn_tag *tags = r->tags, *tg;
	char *arena = r->arena;
	size_t nrt = r->nrt, nrt0 = nrt, tagcap = r->tagcap, alen = r->alen;
	size_t acap = r->acap;
	unsigned long ln = r->line + *lines, end_ln = 0;
	const char *n, *v, *at = NULL, *end = NULL;
	size_t nl, vl;

	*after = 0;
	/* (48 bytes hold the line: a name and a value of at most fifteen,
	 * and what follows them up to the next line's name) */
	while (e - p >= 48 && nrt < tagcap) {
		n = p + 1;
		if (!(cls[U(*n)] & K_TAGNAME))
			break;
		nl = name_end16(n);
		if (nl == 16 || !two(n + nl, ' ', '"'))
			break;
		v = n + nl + 2;
		vl = value_stop16(v);
		if (vl == 16 || !two(v + vl, '"', ']') ||
		    acap - alen < nl + vl + 2 + 16)
			break;
		tg = &tags[nrt++];
		tg->name = APTR(alen);
		tg->name_len = nl;
		tg->value = APTR(alen + nl + 1);
		tg->value_len = vl;
		tg->line = ln;
		tg->col = 1;
		arena_put16(arena + alen, n, nl, v, vl);
		alen += nl + vl + 2;
		at = p;
		end = p = v + vl + 2;
		end_ln = ln;
		p += *p == '\r';
		if (!two(p, '\n', '[')) {
			p = end;
			*after = 1;
			break;
		}
		ln++;
		p++;
	}
	r->nrt = nrt;
	r->alen = alen;
	if (nrt > nrt0) {
		*last_end = end;
		*end_lines = end_ln - r->line;
		*end_line = at;
	}
	*lines = ln - r->line;
	return p;
}

/* A game that starts with a tag section at p (a `[`); s is its start. */
static int
scan_tagged(cd_pgn_reader *r, const char *s, const char *p)
{
	const char *e = r->data + r->end, *ls = r->bol ? s : NULL;
	const char *last_tag_end = p;
	const char *line = NULL;	/* where p's line starts, when that
					 * is in the game */
	unsigned long lines = 0;	/* line ends before p */
	const char *end_line = NULL;	/* the same at last_tag_end */
	unsigned long end_lines = 0;
	int eof = r->eof, newlines = 0, blank = 1, after;
	/* the tag read (ts: read by cd__scan_tag, then copied into tq, which
	 * stays out of memory) */
	struct cd__tagscan ts, tq;

	r->nrt = 0;
	r->alen = 0;
	r->g_flags = 0;
	r->g_counted = 0;
	if (p == ls) {
		/* the usual section from its first line on */
		p = tag_run(r, p, e, &lines, &after, &last_tag_end,
		    &end_lines, &end_line);
		if (after) {
			ls = line = end_line;
			goto tags_end;	/* (after a tag, as below) */
		}
		if (r->nrt > 0) {
			newlines = 1;
			ls = line = p;
			goto line_start;	/* (a `[` to look at, as below) */
		}
	}
	for (;;) {
		int t = 1;

		if (!quick_tag(p, e, &tq)) {
			t = cd__scan_tag(p, e, eof, &ts);
			tq = ts;
		}
		if (t < 0)
			return S_MORE;
		if (t > 0) {
			cd_pgn_tag *tg;
			int is_event = tq.name_len == 5 &&
			    memcmp(tq.name, "Event", 5) == 0;
			size_t need = tq.name_len + tq.value_len + 2 + 16;

			/* a new game: after a blank line, an Event tag or
			 * a tag whose name the section has (a tag section
			 * without movetext before it); without one, a
			 * repeated name is the same game's (the last
			 * value wins) */
			if (r->nrt > 0 && newlines >= 2 &&
			    (is_event || has_tag(r, tq.name, tq.name_len))) {
				/* The next game begins here. */
				r->g_result = CD_PGN_RESULT_NONE;
				r->g_flags |= CD_PGN_RAW_NO_RESULT;
				r->g_len = (size_t)((blank && ls ? ls : p) -
				    s);
				r->g_mt = r->g_mt_end =
				    (size_t)(last_tag_end - s);
				place_of(r, s, last_tag_end, end_lines,
				    end_line, &r->g_mt_line, &r->g_mt_col);
				return S_GAME;
			}
			if (r->nrt == r->tagcap) {
				size_t ncap = r->tagcap ? 2 * r->tagcap : 32;
				cd_pgn_tag *nt = realloc(r->tags,
				    ncap * sizeof(*nt));

				if (nt == NULL)
					return S_NOMEM;
				r->tags = nt;
				r->tagcap = ncap;
			}
			if (r->acap - r->alen < need && arena_grow(r,
			    &r->arena, &r->acap, r->alen, need) != 0)
				return S_NOMEM;
			tg = &r->tags[r->nrt++];
			tg->name = APTR(r->alen);
			tg->name_len = tq.name_len;
			tg->value = APTR(r->alen + tq.name_len + 1);
			tg->value_len = arena_put(r->arena + r->alen, &tq, e);
			r->alen += tq.name_len + tg->value_len + 2;
			place_of(r, s, p, lines, line, &tg->line, &tg->col);
			if (tq.last_nl != NULL) {
				lines += tq.lines;
				line = tq.last_nl + 1;
			}
		} else {
			r->g_flags |= CD_PGN_RAW_BAD_TAG;
		}
		p = last_tag_end = tq.next;
		end_lines = lines;
		end_line = line;
		/* The usual: the next tag at the start of the next line
		 * (tag_start is true for it), after a LF or a CR LF; the
		 * lines of such tags after it at once */
		{
			const char *n = p + (p < e && *p == '\r');

			if (e - n >= 3 && n[0] == '\n' && n[1] == '[' &&
			    (cls[U(n[2])] & K_TAGNAME)) {
				lines++;
				p = tag_run(r, n + 1, e, &lines, &after,
				    &last_tag_end, &end_lines, &end_line);
				if (!after) {
					/* (at the start of the line after
					 * its last tag: a `[` that may not
					 * start a tag) */
					newlines = 1;
					ls = line = p;
					blank = 1;
					goto line_start;
				}
				/* (after the last tag it read, on its line) */
				ls = line = end_line;
			}
		}
tags_end:
		/* Blanks, blank lines and escape lines up to what follows. */
		newlines = 0;
		blank = 0;
		for (;;) {
			if (p == e) {
				if (!eof)
					return S_MORE;
				r->g_result = CD_PGN_RESULT_NONE;
				r->g_flags |= CD_PGN_RAW_NO_RESULT;
				r->g_len = (size_t)(e - s);
				r->g_mt = r->g_mt_end =
				    (size_t)(last_tag_end - s);
				place_of(r, s, last_tag_end, end_lines,
				    end_line, &r->g_mt_line, &r->g_mt_col);
				return S_GAME;
			}
			if (*p == '\n') {
				newlines++;
				lines++;
				p++;
				ls = line = p;
				blank = 1;
				continue;
			}
			if (IS_WS(*p)) {
				p++;
				continue;
			}
			if (*p == '%' && p == ls) {
				const char *q = line_end(p, e, eof);

				if (q == NULL)
					return S_MORE;
				p = q;
				newlines = 0;
				continue;
			}
			break;
		}
line_start:
		if (*p == '[') {
			int ts2 = tag_start(p, e, eof);

			if (ts2 < 0)
				return S_MORE;
			if (ts2 > 0)
				continue;
		}
		place_of(r, s, p, lines, line, &r->g_mt_line, &r->g_mt_col);
		return scan_movetext(r, s, p, ls, blank);
	}
}

/*
 * Whether the word at p can begin movetext: a move number, a move, a
 * marker, a NAG, a variation.  1 yes, 0 no, -1 more input needed.
 */
static int
movetext_start(const char *p, const char *e, int eof)
{
	const unsigned char *q, *w;
	int square = 0;
	size_t n;

	if (IS_DIGIT(*p) || *p == '*' || *p == '(' || *p == '$')
		return 1;
	/* (no move or marker is longer than 64 bytes: a longer word is
	 * not read whole) */
	q = (const unsigned char *)word_end(p, e - p > 65 ? p + 65 : e);
	if ((const char *)q - p > 64)
		return 0;
	if ((const char *)q == e && !eof)
		return -1;
	w = (const unsigned char *)p;
	n = (size_t)(q - w);
	if (cd_pgn_result_parse(p, n) != CD_PGN_RESULT_NONE)
		return 1;
	while (n > 0 && (w[n - 1] == '!' || w[n - 1] == '?' ||
	    w[n - 1] == '+' || w[n - 1] == '#'))
		n--;
	if ((n == 2 && memcmp(w, "--", 2) == 0) ||
	    (n == 2 && memcmp(w, "Z0", 2) == 0) ||
	    (n == 4 && memcmp(w, "@@@@", 4) == 0))
		return 1;
	/* Castling: O, o or 0 with dashes of any kind. */
	if (n >= 3 && (w[0] == 'O' || w[0] == 'o')) {
		size_t i = 1;
		int parts = 1;

		while (i < n) {
			if (w[i] == '-')
				i++;
			else if (w[i] == 0xe2 && i + 2 < n && w[i + 1] == 0x80)
				i += 3;
			else
				break;
			if (i < n && w[i] == w[0]) {
				i++;
				parts++;
			} else {
				break;
			}
		}
		if (i == n && parts >= 2)
			return 1;
	}
	/* A SAN-like word: piece letters, files, ranks, x : = - / ( ) and
	 * figurines, with a square in it. */
	for (size_t i = 0; i < n; i++) {
		unsigned c = w[i];

		if (c == 0xe2 && i + 2 < n && w[i + 1] == 0x99 &&
		    w[i + 2] >= 0x94 && w[i + 2] <= 0x9f) {
			i += 2;
			continue;
		}
		if (c >= 'a' && c <= 'h') {
			if (i + 1 < n && w[i + 1] >= '1' && w[i + 1] <= '8')
				square = 1;
			continue;
		}
		if ((c >= '1' && c <= '8') || (c != 0 &&
		    strchr("KQRBNPkqrnx:=-/()", (int)c) != NULL))
			continue;
		return 0;
	}
	return square;
}

/*
 * Text that does not begin with a tag: a game without tags if its first
 * token (after comments) can begin movetext, else skipped.
 */
static int
scan_untagged(cd_pgn_reader *r, const char *s, const char *p, size_t *n)
{
	const char *e = r->data + r->end, *ls = r->bol ? s : NULL, *q;
	int eof = r->eof, t, blank = 1;

	r->nrt = 0;
	r->alen = 0;
	r->g_flags = 0;
	r->g_counted = 0;
	for (;;) {
		if (p == e) {
			if (!eof)
				return S_MORE;
			*n = (size_t)(e - s);
			return S_JUNK;
		}
		if (*p == '\n') {
			ls = ++p;
			blank = 1;
			continue;
		}
		if (IS_WS(*p)) {
			p++;
			continue;
		}
		if (*p == '{') {
			t = comment_end(p, e, eof, &q);
			if (t < 0)
				return S_MORE;
			if (t == 0) {
				*n = (size_t)(q - s);
				return S_JUNK;
			}
			p = q;
			blank = 0;
			continue;
		}
		if (*p == ';' || (*p == '%' && p == ls)) {
			q = line_end(p, e, eof);
			if (q == NULL)
				return S_MORE;
			p = q;
			continue;
		}
		break;
	}
	if (*p == '[') {
		t = tag_start(p, e, eof);
		if (t < 0)
			return S_MORE;
		if (t > 0) {
			*n = (size_t)((blank && ls ? ls : p) - s);
			return S_JUNK;
		}
	}
	t = movetext_start(p, e, eof);
	if (t < 0)
		return S_MORE;
	if (t > 0) {
		/* Movetext from the first byte: comments before the first
		 * move are the game's. */
		const char *line = NULL;
		unsigned long lines = 0;

		for (q = s; IS_WS(*q); q++)
			if (*q == '\n') {
				lines++;
				line = q + 1;
			}
		place_of(r, s, q, lines, line, &r->g_mt_line, &r->g_mt_col);
		return scan_movetext(r, s, q, r->bol ? s : NULL, 1);
	}
	/* Not PGN: skip this line (a piece of it at a time: scan_junk
	 * goes on) and go on line by line. */
	q = line_end(p, e, eof);
	if (q == NULL && (size_t)(e - s) < JUNK_PIECE)
		return S_MORE;
	r->junk = JUNK_TEXT;
	*n = q == NULL ? (size_t)(e - s) : (size_t)(q - s) + (q < e);
	return S_JUNK;
}

/* Skipping text that is not PGN: a line at a time (a piece of one at a
 * time), up to a blank line or a line that starts a tag section
 * (JUNK_TEXT), or up to a line that is a complete tag pair
 * (JUNK_TO_TAGS). */
static int
scan_junk(cd_pgn_reader *r, size_t *n)
{
	const char *s = r->data + r->pos, *e = r->data + r->end, *q;
	int eof = r->eof, t;

	if (!r->bol) {
		q = memchr(s, '\n', (size_t)(e - s));
		if (q == NULL) {
			if (!eof && (size_t)(e - s) < JUNK_PIECE)
				return S_MORE;
			*n = (size_t)(e - s);
			return *n ? S_JUNK : S_END;
		}
		*n = (size_t)(q + 1 - s);
		return S_JUNK;
	}
	for (q = s; q < e && IS_HSPACE(*q) && q - s <= JUNK_PIECE; q++)
		;
	if (q - s > JUNK_PIECE) {
		/* (blanks at the start of a line: skipped in pieces, the
		 * line's start kept) */
		*n = JUNK_PIECE;
		r->keep_bol = 1;
		return S_JUNK;
	}
	if (q == e) {
		if (!eof)
			return S_MORE;
		r->junk = 0;
		return S_BLANK;
	}
	if (*q == '\n') {
		*n = (size_t)(q + 1 - s);
		if (r->junk == JUNK_TO_TAGS)
			return S_JUNK;
		r->junk = 0;
		return S_BLANK;
	}
	if (*q == '[') {
		/* (after binary data, a complete tag pair in column one) */
		t = r->junk == JUNK_TO_TAGS ? (q == s ? tag_pair_line(q, e,
		    eof, 0) : 0) : tag_start(q, e, eof);
		if (t < 0)
			return S_MORE;
		if (t > 0) {
			r->junk = 0;
			*n = 0;
			return S_BLANK;
		}
	}
	q = memchr(q, '\n', (size_t)(e - q));
	if (q == NULL) {
		if (!eof && (size_t)(e - s) < JUNK_PIECE)
			return S_MORE;
		*n = (size_t)(e - s);
		return S_JUNK;
	}
	*n = (size_t)(q + 1 - s);
	return S_JUNK;
}

/* Find what comes next at data[pos]: a game, text to skip, blank
 * lines, the end, or the need for more input. */
static int
scan(cd_pgn_reader *r, size_t *n)
{
	const char *s = r->data + r->pos, *e = r->data + r->end, *p, *ls, *nl;
	int eof = r->eof;

	if (!r->started) {
		if (e - s < 3 && !eof)
			return S_MORE;
		r->started = 1;
		if (e - s >= 3 && memcmp(s, "\xef\xbb\xbf", 3) == 0) {
			if (r->gap_fn != NULL)
				r->gap_fn(r->gap_ctx, s, 3);
			r->pos += 3;	/* a BOM: in no game */
			s += 3;
		}
	}
	if (r->junk)
		return scan_junk(r, n);
	ls = r->bol ? s : NULL;
	nl = NULL;
	for (p = s; p < e && IS_WS(*p); p++)
		if (*p == '\n') {
			ls = p + 1;
			if (nl == NULL)
				nl = p;
		} else if (nl == NULL && p - s > JUNK_PIECE) {
			break;	/* (a piece: no need to look further) */
		}
	if ((nl != NULL ? nl : p) - s > JUNK_PIECE) {
		/* A long run of blanks without a line end (its first
		 * JUNK_PIECE + 1 bytes): in no game, given in pieces, never
		 * kept whole; the start of its line stays where it was. */
		*n = JUNK_PIECE;
		r->keep_bol = 1;
		return S_BLANK;
	}
	if (ls != NULL && ls > s) {
		*n = (size_t)(ls - s);
		return S_BLANK;
	}
	if (p == e) {
		if (!eof)
			return S_MORE;
		*n = (size_t)(e - s);
		return *n ? S_BLANK : S_END;
	}
	if (*p == '[') {
		int t = tag_start(p, e, eof);

		if (t < 0)
			return S_MORE;
		if (t > 0)
			return scan_tagged(r, s, p);
	}
	return scan_untagged(r, s, p, n);
}

/* Whether the n bytes at data[pos] hold a NUL byte or another byte
 * that text does not hold (cd__binary_byte): the first one in the input
 * from data[pos] on is searched once and kept. */
static int
has_nul(cd_pgn_reader *r, size_t n)
{
	if (r->nul_at != SIZE_MAX && r->nul_at < r->pos) {
		r->nul_at = SIZE_MAX;
		r->nul_to = r->pos;
	}
	if (r->nul_at == SIZE_MAX && r->nul_to < r->pos + n) {
		size_t from = r->nul_to > r->pos ? r->nul_to : r->pos;
		const char *z = cd__binary_byte(r->data + from,
		    r->end - from);

		r->nul_at = z != NULL ? (size_t)(z - r->data) : SIZE_MAX;
		r->nul_to = r->end;
	}
	return r->nul_at < r->pos + n;
}

/*
 * Whether the game just scanned at data[pos], which holds a binary
 * byte (has_nul), is binary data rather than a game: unless its first line (after
 * blanks) starts with a complete tag pair.
 */
static int
binary_game(const cd_pgn_reader *r)
{
	const char *p = r->data + r->pos, *e = p + r->g_len;

	while (p < e && IS_HSPACE(*p))
		p++;
	return tag_pair_line(p, e, 1, 0) <= 0;
}

/*
 * Scan as scan() does, but decide within the first max_game bytes from
 * data[pos]: when the buffer holds that many, the scan sees them as the
 * whole input.  A game that then reaches their end, with more input
 * after it, is too large (CD_PGN_RAW_TOO_LARGE; the rest of it is
 * skipped up to the next tag section).
 */
static int
scan_limited(cd_pgn_reader *r, size_t *n)
{
	size_t end = r->end;
	int eof = r->eof, st;

	if (end - r->pos < r->max_game)
		return scan(r, n);
	r->end = r->pos + r->max_game;
	r->eof = 1;
	st = scan(r, n);
	r->end = end;
	r->eof = eof;
	if (st == S_GAME && r->g_len == r->max_game &&
	    (end > r->pos + r->max_game || !eof))
		r->g_flags |= CD_PGN_RAW_TOO_LARGE;
	return st;
}

/* Fill *g from the game just scanned at data[pos]. */
static void
make_game(cd_pgn_reader *r, cd_pgn_raw_game *g)
{
	const char *s = r->data + r->pos;
	size_t i;

	g->text = s;
	g->len = r->g_len;
	g->offset = r->base + r->pos;
	g->number = ++r->number;
	g->line = r->line;
	g->col = r->col;
	/* the tags' arena offsets made pointers */
	for (i = 0; i < r->nrt; i++) {
		r->tags[i].name = r->arena + AOFF(r->tags[i].name);
		r->tags[i].value = r->arena + AOFF(r->tags[i].value);
	}
	g->tags = r->tags;
	g->ntags = r->nrt;
	g->movetext = r->g_mt;
	g->movetext_end = r->g_mt_end;
	g->movetext_line = r->g_mt_line;
	g->movetext_col = r->g_mt_col;
	g->result = r->g_result;
	g->flags = r->g_flags;
	if (r->skipped_nul)
		g->flags |= CD_PGN_RAW_SKIPPED_BINARY;
	g->skipped_bytes = r->skipped;
	g->skipped_line = r->skipped_line;
}

/* Consume the game just made, as advance does, its lines counted from
 * its movetext on (the scan placed the movetext). */
static void
advance_game(cd_pgn_reader *r)
{
	const char *m = r->data + r->pos + r->g_mt;
	const char *e = r->data + r->pos + r->g_len, *last;

	if (r->g_counted) {
		/* (scan_movetext counted them) */
		if (r->g_lastnl > 0) {
			r->line = r->g_mt_line + r->g_nl;
			r->col = (unsigned long)(r->g_len - r->g_lastnl) + 1;
		} else {
			r->line = r->g_mt_line;
			r->col = r->g_mt_col + (unsigned long)(e - m);
		}
		r->bol = r->g_len > 0 ? e[-1] == '\n' : r->bol;
		r->pos += r->g_len;
		return;
	}
	for (last = e - 1; last >= m && *last != '\n'; last--)
		;
	if (last >= m) {
		r->line = r->g_mt_line + count_lines(m, last + 1);
		r->col = (unsigned long)(e - (last + 1)) + 1;
	} else {
		r->line = r->g_mt_line;
		r->col = r->g_mt_col + (unsigned long)(e - m);
	}
	r->bol = r->g_len > 0 ? e[-1] == '\n' : r->bol;
	r->pos += r->g_len;
}

/* Fail with status st (errno kept), where the reader stands. */
static cd_status
reader_fail(cd_pgn_reader *r, cd_status st)
{
	int e = errno;

	r->failed = 1;
	cd__error_set(&r->err, st, cd_pgn_reader_tell(r), r->line, r->col,
	    "%s", st != CD_ERR_IO ? cd_strerror(st) : r->in.err.status !=
	    CD_OK ? r->in.err.msg : strerror(e));
	if (st == CD_ERR_IO && r->in.err.status != CD_OK)
		r->err.status = r->in.err.status;
	errno = e;
	return st;
}

const cd_error *
cd_pgn_reader_error(const cd_pgn_reader *r)
{
	return &r->err;
}

cd_game **
cd__pgn_reader_game(cd_pgn_reader *r, cd_error **err)
{
	*err = &r->err;
	return &r->game;
}

/* The next game into *g (make_game fills every field); another status
 * leaves g alone. */
static cd_status
next_game(cd_pgn_reader *r, cd_pgn_raw_game *g)
{
	size_t n;
	cd_status st;

	for (;;) {
		n = 0;
		switch (scan_limited(r, &n)) {
		case S_MORE:
			if (r->eof) {
				/* Cannot happen: the scanners decide at the
				 * end of input.  Never loop. */
				errno = EIO;
				return reader_fail(r, CD_ERR_IO);
			}
			st = fill(r);
			if (st == CD_ERR_IO) {
				/* the games complete before a read error
				 * (damage in a compressed input) first */
				r->read_errno = errno != 0 ? errno : EIO;
				r->eof = 1;
				continue;
			}
			if (st != CD_OK)
				return reader_fail(r, st);
			continue;
		case S_BLANK:
			if (r->gap_fn != NULL && n > 0)
				r->gap_fn(r->gap_ctx, r->data + r->pos, n);
			advance(r, n);
			continue;
		case S_JUNK:
		junk:
			if (r->skipped == 0)
				r->skipped_line = r->line;
			r->skipped += n;
			if (has_nul(r, n)) {
				/* binary data: skipped up to a tag section */
				r->skipped_nul = 1;
				r->junk = JUNK_TO_TAGS;
			}
			if (r->gap_fn != NULL && n > 0)
				r->gap_fn(r->gap_ctx, r->data + r->pos, n);
			advance(r, n);
			continue;
		case S_END:
			if (r->read_errno != 0)
				break;
			return CD_EOF;
		case S_NOMEM:
			return reader_fail(r, CD_ERR_NOMEM);
		case S_GAME:
			/* a game that runs to a read error without its
			 * termination marker is cut short: not given */
			if (r->read_errno != 0 &&
			    (r->g_flags & CD_PGN_RAW_NO_RESULT) &&
			    r->pos + r->g_len == r->end)
				break;
			if (has_nul(r, r->g_len)) {
				if (binary_game(r)) {
					n = r->g_len;
					goto junk;
				}
				r->g_flags |= CD_PGN_RAW_NUL;
			}
			make_game(r, g);
			advance_game(r);
			if (r->g_flags & CD_PGN_RAW_TOO_LARGE)
				r->junk = JUNK_TO_TAGS;
			return CD_OK;
		}
		errno = r->read_errno;
		return reader_fail(r, CD_ERR_IO);
	}
}

cd_status
cd_pgn_reader_next(cd_pgn_reader *r, cd_pgn_raw_game *g)
{
	cd_status st;

	r->skipped = 0;
	r->skipped_line = 0;
	r->skipped_nul = 0;
	st = r->failed ? CD_EOF : next_game(r, g);
	if (st != CD_OK) {
		memset(g, 0, sizeof(*g));
		if (st == CD_EOF) {
			g->skipped_bytes = r->skipped;
			g->skipped_line = r->skipped_line;
			if (r->skipped_nul)
				g->flags = CD_PGN_RAW_SKIPPED_BINARY;
		}
	}
	return st;
}

cd_status
cd_pgn_raw_check(const cd_pgn_raw_game *g, cd_error *err)
{
	if (g->flags & CD_PGN_RAW_NUL) {
		const char *z = cd__binary_byte(g->text, g->len), *p;
		const char *ls = NULL;
		unsigned long line = g->line, col;

		if (z == NULL)
			z = g->text;	/* (cannot be: the reader saw one) */
		for (p = g->text; p < z; p++)
			if (*p == '\n') {
				line++;
				ls = p + 1;
			}
		col = ls != NULL ? (unsigned long)(z - ls) + 1 :
		    g->col + (unsigned long)(z - g->text);
		if (*z == '\0')
			cd__error_set(err, CD_ERR_CORRUPT,
			    g->offset + (uint64_t)(z - g->text), line, col,
			    "binary data (NUL byte)");
		else
			cd__error_set(err, CD_ERR_CORRUPT,
			    g->offset + (uint64_t)(z - g->text), line, col,
			    "binary data (control byte 0x%02x)",
			    (unsigned char)*z);
		return CD_ERR_CORRUPT;
	}
	if (g->flags & CD_PGN_RAW_TOO_LARGE) {
		cd__error_set(err, CD_ERR_RANGE, g->offset, g->line, g->col,
		    "game too large (over %zu bytes): only its first %zu "
		    "bytes kept, the rest skipped", g->len, g->len);
		return CD_ERR_RANGE;
	}
	cd__error_ok(err);
	return CD_OK;
}
