/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * pgn/frame_scan.c: the framer's top, which decides what the bytes at
 * the reader's position are: a game with tags (pgn/frame_tags.c), a
 * game without (its movetext framed by pgn/frame.c), blank lines or
 * text that is not PGN to skip, or binary data.  Calls go down, never
 * back: frame_scan.c -> frame_tags.c -> frame.c.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "pgn/lex.h"
#include "pgn/reader.h"

/* ---- a game, blank lines or text to skip ---- */

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

	if (CD__IS_DIGIT(*p) || *p == '*' || *p == '(' || *p == '$')
		return 1;
	/* (no move or marker is longer than 64 bytes: a longer word is
	 * not read whole) */
	q = (const unsigned char *)cd__frame_word_end(p, e - p > 65 ? p + 65 : e);
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
	r->g_bare = false;
	r->g_flags = 0;
	r->g_counted = 0;
	r->g_clean = 0;
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
		if (CD__IS_WS(*p)) {
			p++;
			continue;
		}
		if (*p == '{') {
			t = cd__frame_comment_end(p, e, eof, &q);
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
			q = cd__frame_line_end(p, e, eof);
			if (q == NULL)
				return S_MORE;
			p = q;
			continue;
		}
		break;
	}
	if (*p == '[') {
		t = cd__frame_tag_start(p, e, eof);
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

		for (q = s; CD__IS_WS(*q); q++)
			if (*q == '\n') {
				lines++;
				line = q + 1;
			}
		cd__frame_place(r, s, q, lines, line, &r->g_mt_line, &r->g_mt_col);
		return cd__frame_movetext(r, s, q, r->bol ? s : NULL, 1);
	}
	/* Not PGN: skip this line (a piece of it at a time: scan_junk
	 * goes on) and go on line by line. */
	q = cd__frame_line_end(p, e, eof);
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
	for (q = s; q < e && CD__IS_HSPACE(*q) && q - s <= JUNK_PIECE; q++)
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
		t = r->junk == JUNK_TO_TAGS ? (q == s ? cd__frame_tag_pair_line(q, e,
		    eof, 0) : 0) : cd__frame_tag_start(q, e, eof);
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
	for (p = s; p < e && CD__IS_WS(*p); p++)
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
		int t = cd__frame_tag_start(p, e, eof);

		if (t < 0)
			return S_MORE;
		if (t > 0)
			return cd__frame_tagged(r, s, p);
	}
	return scan_untagged(r, s, p, n);
}

/*
 * Whether the game just scanned at data[pos], which holds a binary
 * byte (has_nul), is binary data rather than a game: unless its first line (after
 * blanks) starts with a complete tag pair.
 */
int
cd__frame_binary(const cd_pgn_reader *r)
{
	const char *p = r->data + r->pos, *e = p + r->g_len;

	while (p < e && CD__IS_HSPACE(*p))
		p++;
	return cd__frame_tag_pair_line(p, e, 1, 0) <= 0;
}

/*
 * Scan as scan() does, but decide within the first max_game bytes from
 * data[pos]: when the buffer holds that many, the scan sees them as the
 * whole input.  A game that then reaches their end, with more input
 * after it, is too large (CD_PGN_RAW_TOO_LARGE; the rest of it is
 * skipped up to the next tag section).
 */
int
cd__frame(cd_pgn_reader *r, size_t *n)
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
