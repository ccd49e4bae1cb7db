/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * pgn/read.c: PGN games from a stream (see chessdata/pgn_read.h for the
 * rules): the buffered reader, which keeps the input in one buffer and
 * gives out the games that its framer (pgn/frame.c) finds in it; the
 * tokens of a game are pgn/lex.c's.  No chess knowledge here.
 *
 * A game is found by framing from its first byte; when the framer
 * reaches the end of the buffer before it can decide, the buffer is
 * refilled (moved down, grown when one game fills it) and the framing
 * starts again from the game's first byte.  So the framer is a pure
 * function of the bytes and needs no resumable state, and memory is
 * bounded by the largest game.
 */
#include "config.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pgn/bytes.h"
#include "pgn/pgn_internal.h"
#include "pgn/reader.h"

static cd_pgn_reader *
reader_alloc(void)
{
	cd_pgn_reader *r = calloc(1, sizeof(*r));
	const char *narrow;

	if (r == NULL)
		return NULL;
	cd__input_none(&r->in);
	r->nul_at = SIZE_MAX;
	narrow = getenv("CHESSDATA_NARROW_FRAME");
	r->narrow = narrow != NULL && *narrow != '\0';
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

void
cd_pgn_reader_set_flags(cd_pgn_reader *r, unsigned flags)
{
	r->read_flags = flags;
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

/* Whether the n bytes at data[pos] hold a NUL byte or another byte
 * that text does not hold (cd__binary_byte), the first clean of them
 * known to hold none (the framer's g_clean): the first one in the input
 * from data[pos] on is searched once and kept, up to the end of the
 * buffer, or of the n bytes when the framer saw some of them. */
static __attribute__((noinline)) int
has_nul_search(cd_pgn_reader *r, size_t n, size_t clean)
{
	size_t to = clean > 0 ? r->pos + n : r->end;

	if (r->nul_at != SIZE_MAX && r->nul_at < r->pos) {
		r->nul_at = SIZE_MAX;
		r->nul_to = r->pos;
	}
	if (r->nul_at == SIZE_MAX && r->nul_to < r->pos + clean)
		r->nul_to = r->pos + (clean < n ? clean : n);
	if (r->nul_at == SIZE_MAX && r->nul_to < r->pos + n) {
		size_t from = r->nul_to > r->pos ? r->nul_to : r->pos;
		const char *z = cd__binary_byte(r->data + from, to - from);

		r->nul_at = z != NULL ? (size_t)(z - r->data) : SIZE_MAX;
		r->nul_to = to;
	}
	return r->nul_at < r->pos + n;
}

/* has_nul_search() with the usual game taken at once: the framer saw
 * all its bytes (none binary), and none is known ahead. */
static inline int
has_nul(cd_pgn_reader *r, size_t n, size_t clean)
{
	size_t e = r->pos + n;

	if (r->nul_at == SIZE_MAX && clean >= n) {
		if (r->nul_to < e)
			r->nul_to = e;
		return 0;
	}
	return has_nul_search(r, n, clean);
}

/* Fill *g from the game just scanned at data[pos]. */
static void
make_game(cd_pgn_reader *r, cd_pgn_raw_game *g)
{
	const char *s = r->data + r->pos;

	g->text = s;
	g->len = r->g_len;
	g->offset = r->base + r->pos;
	g->number = ++r->number;
	g->line = r->line;
	g->col = r->col;
	g->tags = r->tags;
	g->ntags = r->nrt;
	cd__raw_tags_note(g, r->g_plain);
	g->movetext = r->g_mt;
	g->movetext_end = r->g_mt_end;
	g->movetext_line = r->g_mt_line;
	g->movetext_col = r->g_mt_col;
	cd__raw_section_note(g, r->g_bare);
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
		/* (cd__frame_movetext counted them) */
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
		switch (cd__frame(r, &n)) {
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
			if (has_nul(r, n, 0)) {
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
			if (has_nul(r, r->g_len, r->g_clean)) {
				if (cd__frame_binary(r)) {
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

/*
 * The reader's note (its tags plain, cd__raw_tags_note) carried to c,
 * a copy of g, when c's tags are as many as g's, each name and value
 * as long and as far from the first name as in g (the parser reads a
 * plain block by the tags' lengths from its start; the bytes are the
 * caller's copy of g's).  Else the note is dropped, and c is parsed as
 * any game is.
 */
void
cd_pgn_raw_copied(cd_pgn_raw_game *c, const cd_pgn_raw_game *g)
{
	const cd_pgn_tag *ct = c->tags, *gt = g->tags;
	bool same = cd__raw_tags_plain(g) && c->ntags == g->ntags;
	size_t i;

	for (i = 0; same && i < g->ntags; i++)
		same = ct[i].name_len == gt[i].name_len &&
		    ct[i].value_len == gt[i].value_len &&
		    (uintptr_t)ct[i].name - (uintptr_t)ct[0].name ==
		    (uintptr_t)gt[i].name - (uintptr_t)gt[0].name &&
		    (uintptr_t)ct[i].value - (uintptr_t)ct[0].name ==
		    (uintptr_t)gt[i].value - (uintptr_t)gt[0].name;
	cd__raw_tags_note(c, same);
	cd__raw_section_note(c, false);
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

