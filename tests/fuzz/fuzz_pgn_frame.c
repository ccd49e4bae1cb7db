/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * fuzz_pgn_frame.c: the game reader's framing against a plain reference
 * framer written from the rules of chessdata/pgn_read.h, byte by byte,
 * with no lookahead tricks and no vectors.
 *
 * The input drives a generator that builds PGN text from pieces: tag
 * sections (repeated names, Event twice, values holding `{`, `}`, `;`
 * and `%`, blank lines and escape lines inside), movetext with moves,
 * closed comments (some holding lines that are tag pairs), comments
 * never closed, `;` comments and `%` escape lines holding `{`, strings
 * holding braces, variations holding markers, NUL and other binary
 * bytes (a control byte, DEL), tag pairs
 * mid-line and on a line of their own, markers or none, comments after
 * the marker, LF or CR LF.  The reader (from memory, and from a stream
 * read with fread) must give the reference's games: the same offsets
 * and lengths, the same unclosed-comment and NUL (binary) flags, and the same
 * bytes skipped before each (binary data marked as such); and each game
 * the same tags as a reader started at that game reads.
 */
#define _GNU_SOURCE 1	/* fmemopen */
#include "config.h"

#include <stdbool.h>
#include <string.h>

#include "chessdata.h"
#include "fuzz.h"

const char *const fuzz_seeds[] = {
	"tests/fuzz/regress/pgn_frame",
	NULL
};

/* ---- the generator ---- */

struct gen {
	const uint8_t *in;
	size_t n, at;
	char *out;
	size_t len, cap;
};

static unsigned
pick(struct gen *g, unsigned k)
{
	return g->at < g->n ? g->in[g->at++] % k : 0;
}

static void
put(struct gen *g, const char *s, size_t n)
{
	if (g->len + n > g->cap) {
		g->cap = (g->len + n) * 2 + 256;
		if ((g->out = realloc(g->out, g->cap)) == NULL)
			abort();
	}
	memcpy(g->out + g->len, s, n);
	g->len += n;
}

static void
puts_(struct gen *g, const char *s)
{
	put(g, s, strlen(s));
}

static void
generate(struct gen *g)
{
	static const char *const names[] = { "Event", "Site", "White",
	    "Result", "Event" };
	static const char *const values[] = { "x", "{", "}", "a{b", "; c",
	    "% d", "" };
	static const char *const markers[] = { " 1-0", " *", " 0-1",
	    " 1/2-1/2" };
	int games = 0;

	while (g->at < g->n && games++ < 40) {
		const char *eol = pick(g, 4) == 0 ? "\r\n" : "\n";
		unsigned i, k, pieces;
		bool open = false;

		k = 1 + pick(g, 4);
		for (i = 0; i < k; i++) {
			char tag[64];

			snprintf(tag, sizeof(tag), "[%s \"%s\"]",
			    names[pick(g, 5)], values[pick(g, 7)]);
			puts_(g, tag);
			puts_(g, eol);
			switch (pick(g, 8)) {
			case 0:
				puts_(g, eol);
				break;
			case 1:
				puts_(g, "%esc {");
				puts_(g, eol);
				break;
			}
		}
		if (pick(g, 3) != 0)
			puts_(g, eol);
		pieces = pick(g, 9);
		for (i = 0; i < pieces && !open; i++) {
			switch (pick(g, 18)) {
			case 0: puts_(g, "1. "); break;
			case 1: puts_(g, "e4 "); break;
			case 2: puts_(g, "Nf3 "); break;
			case 3: puts_(g, "{c} "); break;
			case 4:
				puts_(g, "{");
				puts_(g, eol);
				puts_(g, "[Event \"q\"]");
				puts_(g, eol);
				puts_(g, "} ");
				break;
			case 5:
				puts_(g, "; x {");
				puts_(g, eol);
				break;
			case 6:
				puts_(g, eol);
				puts_(g, "%{ esc");
				puts_(g, eol);
				break;
			case 7: puts_(g, "\"s{\" "); break;
			case 8: puts_(g, "( e5 1-0 ) "); break;
			case 9: {
				static const char *const bin[3] = {
					"{a\0b} ", "{a\001b} ", "{a\177b} " };

				put(g, bin[pick(g, 3)], 6);
				break;
			}
			case 10:
				puts_(g, "{ open");
				puts_(g, eol);
				open = pick(g, 2) == 0;
				if (!open)
					puts_(g, "} ");
				break;
			case 11: puts_(g, "[Event \"m\"] "); break;
			case 12:
				puts_(g, eol);
				puts_(g, "[Event \"n\"]");
				puts_(g, eol);
				break;
			case 13: puts_(g, eol); break;
			case 14: puts_(g, "}"); break;
			case 15:
				puts_(g, eol);
				puts_(g, eol);
				break;
			case 16: puts_(g, "1... "); break;
			default: puts_(g, "Qxd8+ "); break;
			}
		}
		if (!open && pick(g, 5) != 0)
			puts_(g, markers[pick(g, 4)]);
		switch (pick(g, 5)) {
		case 0: puts_(g, " {after}"); break;
		case 1: puts_(g, " ; c"); break;
		}
		puts_(g, eol);
		switch (pick(g, 5)) {
		case 0:
			puts_(g, "{x}");
			puts_(g, eol);
			break;
		case 1:
			puts_(g, "; y");
			puts_(g, eol);
			break;
		}
		if (pick(g, 3) != 0)
			puts_(g, eol);
	}
}

/* ---- the reference framer ---- */

struct rgame {
	size_t off, len;
	unsigned flags;		/* UNCLOSED_COMMENT, NUL, SKIPPED_BINARY */
	uint64_t skipped;
};

struct ref {
	const char *b;
	size_t n;
	struct rgame g[512];
	size_t ng;
	uint64_t skipped;	/* since the last game */
	bool binary;		/* a binary byte in it */
	uint64_t end_skipped;
	bool end_binary;
};

static bool
ws(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' ||
	    c == '\v' || c == '\f';
}

static bool
hs(char c)
{
	return ws(c) && c != '\n';
}

static bool
namebyte(char c)
{
	unsigned char u = (unsigned char)c;

	return u > 0x20 && u != 0x7f && c != '"' && c != '[' && c != ']';
}

/* A `[` at p that starts a tag: optional white space, a name byte. */
static bool
tag_start(const struct ref *r, size_t p)
{
	for (p++; p < r->n && ws(r->b[p]); p++)
		;
	return p < r->n && namebyte(r->b[p]);
}

/* The end of the line at p (its `\n`, or n). */
static size_t
eol(const struct ref *r, size_t p)
{
	while (p < r->n && r->b[p] != '\n')
		p++;
	return p;
}

/* A simple tag at p: `[` letters/digits/_ ` "` value `"]` (no `"` or
 * `\` in the value, which the generator never writes); its end, or 0. */
static size_t
simple_tag(const struct ref *r, size_t p, size_t e)
{
	size_t q = p + 1;

	if (p >= e || r->b[p] != '[')
		return 0;
	while (q < e && (((r->b[q] | 0x20) >= 'a' && (r->b[q] | 0x20) <= 'z') ||
	    (r->b[q] >= '0' && r->b[q] <= '9') || r->b[q] == '_'))
		q++;
	if (q == p + 1 || q + 1 >= e || r->b[q] != ' ' || r->b[q + 1] != '"')
		return 0;
	for (q += 2; q < e && r->b[q] != '"' && r->b[q] != '\n'; q++)
		if (r->b[q] == '\\')
			return 0;
	if (q + 1 >= e || r->b[q] != '"' || r->b[q + 1] != ']')
		return 0;
	return q + 2;
}

/* The line at p starts with a tag pair (whole: and nothing else but
 * blanks). */
static bool
tag_pair_line(const struct ref *r, size_t p, bool whole)
{
	size_t le = eol(r, p), q = simple_tag(r, p, le);

	if (q == 0)
		return false;
	while (whole && q < le && hs(r->b[q]))
		q++;
	return !whole || q == le;
}

static bool
is_marker(const char *w, size_t n)
{
	return (n == 1 && *w == '*') || (n == 3 && (memcmp(w, "1-0", 3) == 0 ||
	    memcmp(w, "0-1", 3) == 0)) || (n == 7 && memcmp(w, "1/2-1/2",
	    7) == 0);
}

/* Whether the line [l, le) is blank, or ends with a marker (a word
 * after white space or the comment's `{`). */
static bool
blank_or_marker(const struct ref *r, size_t l, size_t le, bool marker_only)
{
	size_t w;

	while (le > l && ws(r->b[le - 1]))
		le--;
	if (le == l)
		return !marker_only;
	for (w = le; w > l && !ws(r->b[w - 1]) && r->b[w - 1] != '{'; w--)
		;
	return is_marker(r->b + w, le - w);
}

/* A brace comment at p: the byte after its `}`, or SIZE_MAX and in *end
 * where the game ends (never closed: no `}`, or a game starts in it
 * before its `}`). */
static size_t
comment(const struct ref *r, size_t p, size_t *end)
{
	size_t q, close = SIZE_MAX, l;

	for (q = p + 1; q < r->n; q++)
		if (r->b[q] == '}') {
			close = q;
			break;
		}
	if (close != SIZE_MAX) {
		/* a line of the comment, blank or ending with a marker,
		 * then a tag pair line */
		bool game = false;

		for (l = p + 1, q = p + 1; q < close; q++)
			if (r->b[q] == '\n') {
				if (q + 1 < close && r->b[q + 1] == '[' &&
				    blank_or_marker(r, l, q, l == p + 1) &&
				    tag_pair_line(r, q + 1, true))
					game = true;
				l = q + 1;
			}
		if (!game)
			return close + 1;
	}
	for (q = p + 1; q < r->n; q++)
		if (r->b[q] == '\n' && tag_pair_line(r, q + 1, true)) {
			*end = q + 1;
			return SIZE_MAX;
		}
	*end = r->n;
	return SIZE_MAX;
}



/* Movetext from p (ls: its line's start when only blanks stand before
 * p on it, else SIZE_MAX); the game's end, *flags. */
static size_t
movetext(const struct ref *r, size_t p, size_t ls, unsigned *flags)
{
	size_t depth = 0, q, end, marker_end, after;
	bool blank;

	for (;;) {
		if (p >= r->n)
			return r->n;
		switch (r->b[p]) {
		case '\n':
			ls = ++p;
			continue;
		case '{':
			if ((q = comment(r, p, &end)) == SIZE_MAX) {
				*flags |= CD_PGN_RAW_UNCLOSED_COMMENT;
				return end;
			}
			p = q;
			ls = SIZE_MAX;
			continue;
		case '%':
			if (p == ls) {
				p = eol(r, p);
			} else {
				p++;
				ls = SIZE_MAX;
			}
			continue;
		case ';':
			p = eol(r, p);
			continue;
		case '"':
			for (q = p + 1; q < r->n && r->b[q] != '"' &&
			    r->b[q] != '\n'; q++)
				;
			p = q < r->n && r->b[q] == '"' ? q + 1 : q;
			ls = SIZE_MAX;
			continue;
		case '[':
			if (ls != SIZE_MAX && tag_start(r, p))
				return ls;
			ls = SIZE_MAX;
			p++;
			continue;
		case '(':
			depth++;
			ls = SIZE_MAX;
			p++;
			continue;
		case ')':
			depth -= depth > 0;
			ls = SIZE_MAX;
			p++;
			continue;
		}
		if (hs(r->b[p])) {
			p++;
			continue;
		}
		ls = SIZE_MAX;
		if (r->b[p] == '*') {
			p++;
			if (depth == 0)
				break;
			continue;
		}
		/* a word: up to white space or a byte that means something
		 * (the generator's words have no others) */
		for (q = p; q < r->n && !ws(r->b[q]) &&
		    strchr("{}[]()\";%*", r->b[q]) == NULL && r->b[q] != 0; q++)
			;
		if (q == p)
			q++;
		if (depth == 0 && is_marker(r->b + p, q - p)) {
			p = q;
			break;
		}
		p = q;
	}
	/* after the marker: the rest of its line if blank or comments */
	marker_end = p;
	for (;;) {
		while (p < r->n && hs(r->b[p]))
			p++;
		if (p < r->n && r->b[p] == ';') {
			p = eol(r, p);
		} else if (p < r->n && r->b[p] == '{') {
			if ((q = comment(r, p, &end)) == SIZE_MAX)
				break;
			p = q;
		} else
			break;
	}
	(void)marker_end;
	if (p >= r->n)
		return r->n;
	if (r->b[p] != '\n')
		return p;
	after = ++p;
	/* lines of comments only, then the next tag section or the end */
	ls = p;
	blank = true;
	for (;;) {
		if (p >= r->n)
			return r->n;
		if (r->b[p] == '\n') {
			ls = ++p;
			blank = true;
			continue;
		}
		if (hs(r->b[p])) {
			p++;
			continue;
		}
		if (r->b[p] == ';' || (r->b[p] == '%' && p == ls)) {
			p = eol(r, p);
			blank = false;
			continue;
		}
		if (r->b[p] == '{') {
			if ((q = comment(r, p, &end)) == SIZE_MAX)
				break;
			p = q;
			blank = false;
			continue;
		}
		if (r->b[p] == '[' && blank && tag_start(r, p))
			return ls;
		break;
	}
	/* else only the blank lines after the marker's line */
	p = after;
	for (;;) {
		q = p;
		while (q < r->n && hs(r->b[q]))
			q++;
		if (q >= r->n)
			return r->n;
		if (r->b[q] != '\n')
			return p;
		p = q + 1;
	}
}

static bool
tag_has(const struct ref *r, const size_t *tags, size_t nt, size_t at)
{
	size_t i, la = strcspn(r->b + at + 1, " ");

	for (i = 0; i < nt; i++)
		if (strncmp(r->b + tags[i] + 1, r->b + at + 1, la + 1) == 0)
			return true;
	return false;
}

/* A game from s whose tag section starts at p; its end. */
static size_t
tagged(const struct ref *r, size_t s, size_t p, unsigned *flags)
{
	size_t tags[256], nt = 0, q, ls = s;
	int newlines = 0;

	for (;;) {
		/* a tag (the generator writes only simple ones) */
		if (nt > 0 && newlines >= 2 && (strncmp(r->b + p,
		    "[Event ", 7) == 0 || tag_has(r, tags, nt, p)))
			return ls;
		q = simple_tag(r, p, r->n);
		FUZZ_CHECK(q != 0, "the reference reads no tag at %zu", p);
		if (nt < 256)
			tags[nt++] = p;
		p = q;
		newlines = 0;
		ls = SIZE_MAX;
		for (;;) {
			if (p >= r->n)
				return r->n;
			if (r->b[p] == '\n') {
				newlines++;
				ls = ++p;
				continue;
			}
			if (hs(r->b[p])) {
				p++;
				continue;
			}
			if (r->b[p] == '%' && p == ls) {
				p = eol(r, p);
				newlines = 0;
				continue;
			}
			break;
		}
		if (r->b[p] == '[' && tag_start(r, p))
			continue;
		return movetext(r, p, ls, flags);
	}
}

/* Skip text (junk): lines up to a blank line or a tag section (binary:
 * up to a line that starts with a tag pair); from p, at a line start
 * or not. */
static size_t
junk(struct ref *r, size_t p, bool binary)
{
	size_t q, s = p;

	if (p > 0 && r->b[p - 1] != '\n')
		p = eol(r, p) + (eol(r, p) < r->n);
	for (;;) {
		if (p >= r->n)
			break;
		for (q = p; q < r->n && hs(r->b[q]); q++)
			;
		if (q >= r->n)
			break;
		if (!binary && r->b[q] == '\n')
			break;
		if (r->b[q] == '[' && (binary ? q == p &&
		    tag_pair_line(r, q, false) : tag_start(r, q)))
			break;
		q = eol(r, q);
		p = q + (q < r->n);
	}
	if (fuzz_binary(r->b + s, p - s))
		r->binary = true;
	if (!binary && r->binary)
		return junk(r, p, true);	/* (a binary byte in it) */
	r->skipped += p - s;
	return p;
}

static bool
untagged_start(const struct ref *r, size_t p)
{
	const char *c = r->b + p;

	return (*c >= '0' && *c <= '9') || *c == '*' || *c == '(' ||
	    *c == '$' || strncmp(c, "e4", 2) == 0 || strncmp(c, "e5", 2) == 0 ||
	    strncmp(c, "Nf3", 3) == 0 || strncmp(c, "Qxd8+", 5) == 0;
}

static void
reference(struct ref *r)
{
	size_t p = 0, s, q, end;
	bool bol = true;
	unsigned flags;

	if (r->n >= 3 && memcmp(r->b, "\xef\xbb\xbf", 3) == 0)
		p = 3;
	for (;;) {
		/* blank lines: in no game */
		s = p;
		for (q = p; q < r->n && ws(r->b[q]); q++)
			if (r->b[q] == '\n')
				s = q + 1, bol = true;
		if (q >= r->n) {
			r->skipped += 0;
			break;
		}
		if (s == p && !bol)
			s = p;
		p = s;
		flags = 0;
		if (r->b[q] == '[' && tag_start(r, q)) {
			end = tagged(r, s, q, &flags);
		} else {
			/* untagged: comments first */
			size_t c = q;
			bool blank = true;

			for (;;) {
				while (c < r->n && ws(r->b[c]))
					if (r->b[c++] == '\n')
						blank = true;
				if (c < r->n && r->b[c] == '{') {
					if ((c = comment(r, c, &end)) ==
					    SIZE_MAX) {
						(void)0;
						r->skipped += end - s;
						if (fuzz_binary(r->b + s, end - s)) {
							r->binary = true;
							end = junk(r, end,
							    true);
						}
						p = end;
						bol = p > 0 && r->b[p - 1] == '\n';
						goto next;
					}
					blank = false;
					continue;
				}
				if (c < r->n && (r->b[c] == ';' ||
				    r->b[c] == '%')) {
					c = eol(r, c);
					continue;
				}
				break;
			}
			if (c < r->n && r->b[c] == '[' && tag_start(r, c)) {
				/* (from its line on after blanks only) */
				size_t l = c;

				while (blank && l > s && r->b[l - 1] != '\n')
					l--;
				r->skipped += l - s;
				if (fuzz_binary(r->b + s, l - s)) {
					r->binary = true;
					p = junk(r, l, true);
				} else
					p = l;
				bol = p > 0 && r->b[p - 1] == '\n';
				continue;
			}
			if (c < r->n && untagged_start(r, c)) {
				end = movetext(r, q, SIZE_MAX, &flags);
			} else {
				p = junk(r, s, false);
				bol = p > 0 && r->b[p - 1] == '\n';
				continue;
			}
		}
		if (fuzz_binary(r->b + s, end - s)) {
			size_t f = s;

			while (f < end && hs(r->b[f]))
				f++;
			if (!tag_pair_line(r, f, false)) {
				r->binary = true;
				r->skipped += end - s;
				p = junk(r, end, true);
				bol = p > 0 && r->b[p - 1] == '\n';
				continue;
			}
			flags |= CD_PGN_RAW_NUL;
		}
		FUZZ_CHECK(r->ng < 512, "too many games");
		if (r->binary)
			flags |= CD_PGN_RAW_SKIPPED_BINARY;
		r->g[r->ng].off = s;
		r->g[r->ng].len = end - s;
		r->g[r->ng].flags = flags;
		r->g[r->ng].skipped = r->skipped;
		r->ng++;
		r->skipped = 0;
		r->binary = false;
		p = end;
		bol = p > 0 && r->b[p - 1] == '\n';
	next:;
	}
	r->end_skipped = r->skipped;
	r->end_binary = r->binary;
}

/* ---- the check ---- */

static void
compare(const struct ref *ref, cd_pgn_reader *r, const char *how)
{
	cd_pgn_raw_game g;
	size_t i = 0;
	const unsigned mask = CD_PGN_RAW_UNCLOSED_COMMENT | CD_PGN_RAW_NUL |
	    CD_PGN_RAW_SKIPPED_BINARY;

	while (cd_pgn_reader_next(r, &g) == CD_OK) {
		FUZZ_CHECK(i < ref->ng, "%s: game %zu at %llu (length %zu) "
		    "more than the reference's %zu", how, i + 1,
		    (unsigned long long)g.offset, g.len, ref->ng);
		FUZZ_CHECK(g.offset == ref->g[i].off &&
		    g.len == ref->g[i].len, "%s: game %zu at %llu, length "
		    "%zu; the reference's at %zu, length %zu", how, i + 1,
		    (unsigned long long)g.offset, g.len, ref->g[i].off,
		    ref->g[i].len);
		FUZZ_CHECK((g.flags & mask) == ref->g[i].flags, "%s: game "
		    "%zu flags %#x, the reference's %#x", how, i + 1,
		    g.flags & mask, ref->g[i].flags);
		FUZZ_CHECK(g.skipped_bytes == ref->g[i].skipped, "%s: game "
		    "%zu: %llu bytes skipped, the reference %llu", how, i + 1,
		    (unsigned long long)g.skipped_bytes,
		    (unsigned long long)ref->g[i].skipped);
		i++;
	}
	FUZZ_CHECK(i == ref->ng, "%s: %zu games, the reference %zu", how, i,
	    ref->ng);
	FUZZ_CHECK(g.skipped_bytes == ref->end_skipped &&
	    !!(g.flags & CD_PGN_RAW_SKIPPED_BINARY) == ref->end_binary,
	    "%s: %llu bytes skipped at the end, the reference %llu", how,
	    (unsigned long long)g.skipped_bytes,
	    (unsigned long long)ref->end_skipped);
}

/* ---- the wide scan against the narrow one ---- */

/* The games of a reader of the n bytes at b as text: every field of
 * each (tags too) and cd_pgn_raw_check's message; with the narrow scan
 * (CHESSDATA_NARROW_FRAME, read when the reader is made) or not. */
static char *
framing(const char *b, size_t n, bool narrow, size_t *len)
{
	cd_pgn_reader *r;
	cd_pgn_raw_game g;
	cd_error err;
	cd_status st;
	char *out = NULL;
	size_t i;
	FILE *f = open_memstream(&out, len);

	if (f == NULL)
		abort();
	if (narrow)
		setenv("CHESSDATA_NARROW_FRAME", "1", 1);
	r = cd_pgn_reader_new_mem(b, n);
	unsetenv("CHESSDATA_NARROW_FRAME");
	if (r == NULL)
		abort();
	while ((st = cd_pgn_reader_next(r, &g)) == CD_OK) {
		fprintf(f, "game %llu at %llu len %zu line %lu col %lu mt %zu "
		    "%zu at %lu:%lu result %d flags %#x skipped %llu from "
		    "%lu\n", (unsigned long long)g.number,
		    (unsigned long long)g.offset, g.len, g.line, g.col,
		    g.movetext, g.movetext_end, g.movetext_line,
		    g.movetext_col, (int)g.result, g.flags,
		    (unsigned long long)g.skipped_bytes, g.skipped_line);
		for (i = 0; i < g.ntags; i++) {
			fprintf(f, " tag %lu:%lu ", g.tags[i].line,
			    g.tags[i].col);
			fwrite(g.tags[i].name, 1, g.tags[i].name_len, f);
			fputc('=', f);
			fwrite(g.tags[i].value, 1, g.tags[i].value_len, f);
			fputc('\n', f);
		}
		if (cd_pgn_raw_check(&g, &err) != CD_OK)
			fprintf(f, " check %d %llu %lu:%lu %s\n", err.status,
			    (unsigned long long)err.offset, err.line, err.col,
			    err.msg);
	}
	fprintf(f, "end %d skipped %llu from %lu flags %#x\n", st,
	    (unsigned long long)g.skipped_bytes, g.skipped_line, g.flags);
	cd_pgn_reader_free(r);
	fclose(f);
	return out;
}

/* The wide and the narrow scan frame the n bytes at b alike. */
static void
wide_narrow(const char *b, size_t n, const char *how)
{
	size_t wl, nl;
	char *w = framing(b, n, false, &wl), *na = framing(b, n, true, &nl);

	if (wl != nl || memcmp(w, na, wl) != 0) {
		size_t i = 0;

		while (i < wl && i < nl && w[i] == na[i])
			i++;
		while (i > 0 && w[i - 1] != '\n')
			i--;
		FUZZ_CHECK(false, "%s: the wide scan frames\n%.300s\nthe "
		    "narrow one\n%.300s", how, w + i, na + i);
	}
	free(w);
	free(na);
}

/* Each game of a reader of the n bytes at b that starts a line (with no
 * binary byte, no byte order mark) against the first game of a reader
 * started there, which has read no tag section before it (the framer
 * keeps the tags of a section that begins as the one before): the
 * same game, the same tags, their lines counted from the game's. */
static void
alone(const char *b, size_t n, const char *how)
{
	cd_pgn_reader *r, *a;
	cd_pgn_raw_game g, h;
	size_t i;

	if ((r = cd_pgn_reader_new_mem(b, n)) == NULL)
		abort();
	while (cd_pgn_reader_next(r, &g) == CD_OK) {
		if (g.col != 1 || (g.flags & CD_PGN_RAW_NUL) || (g.len >= 3 &&
		    memcmp(g.text, "\xef\xbb\xbf", 3) == 0))
			continue;
		if ((a = cd_pgn_reader_new_mem(b + g.offset,
		    n - (size_t)g.offset)) == NULL)
			abort();
		FUZZ_CHECK(cd_pgn_reader_next(a, &h) == CD_OK &&
		    h.len == g.len && h.ntags == g.ntags &&
		    h.movetext == g.movetext && h.result == g.result,
		    "%s: game %llu at %llu: not the game read from there",
		    how, (unsigned long long)g.number,
		    (unsigned long long)g.offset);
		for (i = 0; i < g.ntags; i++)
			FUZZ_CHECK(h.tags[i].name_len == g.tags[i].name_len &&
			    h.tags[i].value_len == g.tags[i].value_len &&
			    memcmp(h.tags[i].name, g.tags[i].name,
			    g.tags[i].name_len + 1) == 0 &&
			    memcmp(h.tags[i].value, g.tags[i].value,
			    g.tags[i].value_len + 1) == 0 &&
			    h.tags[i].line - 1 == g.tags[i].line - g.line &&
			    h.tags[i].col == g.tags[i].col,
			    "%s: game %llu at %llu: tag %zu not the one read "
			    "from there", how, (unsigned long long)g.number,
			    (unsigned long long)g.offset, i);
		cd_pgn_reader_free(a);
	}
	cd_pgn_reader_free(r);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct gen g = { data, size, 0, NULL, 0, 0 };
	static struct ref ref;
	cd_pgn_reader *r;
	FILE *f;

	generate(&g);
	if (g.len == 0) {
		free(g.out);
		return 0;
	}
	memset(&ref, 0, sizeof(ref));
	ref.b = g.out;
	ref.n = g.len;
	reference(&ref);
	wide_narrow(g.out, g.len, "generated");
	wide_narrow((const char *)data, size, "input");
	alone(g.out, g.len, "generated");
	alone((const char *)data, size, "input");

	if ((r = cd_pgn_reader_new_mem(g.out, g.len)) == NULL)
		abort();
	compare(&ref, r, "memory");
	cd_pgn_reader_free(r);

	/* through a stream without a descriptor (fread) */
	if ((f = fmemopen(g.out, g.len, "rb")) == NULL)
		abort();
	if ((r = cd_pgn_reader_new(f)) == NULL)
		abort();
	if (cd_stream_detect(g.out, g.len) != CD_STREAM_PLAIN) {
		/* (compressed bytes in a FILE without a descriptor: refused
		 * at once, never read as games) */
		cd_pgn_raw_game rg;
		cd_status st = cd_pgn_reader_next(r, &rg);

		FUZZ_CHECK(st == CD_ERR_IO && cd_pgn_reader_error(r)->status ==
		    CD_ERR_UNSUPPORTED, "compressed bytes read: status %d",
		    st);
	} else
		compare(&ref, r, "stream");
	cd_pgn_reader_free(r);
	fclose(f);
	free(g.out);
	return 0;
}
#ifdef FRAME_DUMP
/* (debugging: the generated text on standard output) */
void frame_dump(const uint8_t *data, size_t size);
void
frame_dump(const uint8_t *data, size_t size)
{
	struct gen g = { data, size, 0, NULL, 0, 0 };

	static struct ref ref;
	size_t i;

	generate(&g);
	fwrite(g.out, 1, g.len, stdout);
	ref.b = g.out;
	ref.n = g.len;
	reference(&ref);
	for (i = 0; i < ref.ng; i++)
		fprintf(stderr, "ref game %zu: %zu %zu flags %x skipped %llu\n",
		    i + 1, ref.g[i].off, ref.g[i].len, ref.g[i].flags,
		    (unsigned long long)ref.g[i].skipped);
	free(g.out);
}
#endif
