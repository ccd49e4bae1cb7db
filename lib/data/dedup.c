/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * dedup.c: games' keys for duplicate detection (chessdata/dedup.h):
 * normalised surnames, main-line keys, text keys.
 */
#include "config.h"

#include <string.h>

#include "chessdata.h"
#include "common/internal.h"

const char *
cd__fold_char(uint32_t cp, size_t *n)
{
	size_t lo = 0, hi = cd__fold_nranges, m;
	const struct cd__fold_range *r;
	uint16_t at;

	while (lo < hi) {
		m = (lo + hi) / 2;
		r = &cd__fold_ranges[m];
		if (cp < r->lo)
			hi = m;
		else if (cp > r->hi)
			lo = m + 1;
		else {
			at = cd__fold_index[r->at + (cp - r->lo)];
			if (at == 0xFFFF)
				return NULL;
			*n = cd__fold_pool[at];
			return (const char *)cd__fold_pool + at + 1;
		}
	}
	return NULL;
}

/* The code point of the UTF-8 sequence at s (n bytes left) and its
 * length in *len; -1 when it is not UTF-8 (one byte then). */
static long
utf8_at(const unsigned char *s, size_t n, size_t *len)
{
	unsigned c = s[0];
	size_t k, i;
	long cp;

	*len = 1;
	if (c < 0xc2 || c > 0xf4)
		return -1;
	k = c < 0xe0 ? 2 : c < 0xf0 ? 3 : 4;
	if (n < k)
		return -1;
	cp = c & (0x3f >> (k - 1));
	for (i = 1; i < k; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return -1;
		cp = cp << 6 | (s[i] & 0x3f);
	}
	if ((k == 3 && cp < 0x800) || (k == 4 && (cp < 0x10000 ||
	    cp > 0x10ffff)) || (cp >= 0xd800 && cp <= 0xdfff))
		return -1;
	*len = k;
	return cp;
}

/* Whether s[0..n) is initials: letters each followed by '.' or '-' or
 * the word's end, no two letters in a row ("M", "M.", "J.-M."). */
static bool
initials(const char *s, size_t n)
{
	bool letter = false;
	size_t i;

	for (i = 0; i < n; i++) {
		unsigned char ch = (unsigned char)s[i] | 0x20;

		if (ch >= 'a' && ch <= 'z') {
			if (i + 1 < n && s[i + 1] != '.' && s[i + 1] != '-')
				return false;
			letter = true;
		} else if (s[i] != '.' && s[i] != '-')
			return false;
	}
	return letter;
}

/* Where the surname ends: at the first comma, or with none at the end
 * less trailing initials ("Carlsen M." is "Carlsen"). */
static size_t
surname_end(const char *s, size_t len)
{
	const char *c = memchr(s, ',', len);
	size_t end = len, w;

	if (c != NULL)
		return (size_t)(c - s);
	for (;;) {
		while (end > 0 && s[end - 1] == ' ')
			end--;
		for (w = end; w > 0 && s[w - 1] != ' '; w--)
			;
		/* the first word stays, initials or not */
		if (w == 0 || !initials(s + w, end - w))
			return end;
		end = w;
	}
}

size_t
cd_dedup_surname(const char *name, size_t len, char *out, size_t cap)
{
	const unsigned char *s = (const unsigned char *)name;
	size_t end = surname_end(name, len), i = 0, n = 0, k, j, fn;
	const char *f;

#define PUT(ch)	do { if (n < cap) out[n] = (char)(ch); n++; } while (0)
	while (i < end) {
		unsigned c = s[i];
		long cp;

		if (c < 0x80) {
			if (c >= 'A' && c <= 'Z')
				PUT(c | 0x20);
			else if ((c >= 'a' && c <= 'z') || (c >= '0' &&
			    c <= '9'))
				PUT(c);
			i++;
			continue;
		}
		cp = utf8_at(s + i, end - i, &k);
		if (cp < 0)
			cp = c;		/* Latin-1 */
		if ((f = cd__fold_char((uint32_t)cp, &fn)) != NULL) {
			for (j = 0; j < fn; j++)
				PUT(f[j]);
		} else {
			for (j = 0; j < k; j++)
				PUT(s[i + j]);
		}
		i += k;
	}
#undef PUT
	return n;
}

cd_dedup_key
cd_dedup_bytes(cd_dedup_key k, const void *p, size_t n)
{
	const unsigned char *s = p;
	uint64_t w;

	for (; n >= 8; s += 8, n -= 8) {
		memcpy(&w, s, 8);
		k = cd_dedup_move(k, (cd_move)0);
		k.a ^= w;
		k.b += w;
	}
	w = n;	/* the tail and its length: "ab" is not "ab\0" */
	memcpy(&w, s, n);
	w ^= (uint64_t)n << 56;
	k.a ^= w;
	k.b += w;
	return cd_dedup_move(cd_dedup_move(k, (cd_move)0), (cd_move)n);
}

/* Key k extended by the surname of the value of tag name. */
static cd_dedup_key
player(cd_dedup_key k, const cd_game *g, const char *tag)
{
	char buf[256];
	size_t len = 0, n;
	const char *v = cd_game_tag_value(g, tag, &len);

	if (v == NULL)
		len = 0;
	/* a longer surname is cut: 256 bytes are one player */
	n = cd_dedup_surname(v ? v : "", len, buf, sizeof(buf));
	if (n > sizeof(buf))
		n = sizeof(buf);
	return cd_dedup_bytes(k, buf, n);
}

cd_dedup_key
cd_dedup_seed(const cd_game *g, unsigned flags)
{
	cd_dedup_key k = { g->start.key, g->start.chess960 ? 960 : 1 };

	k = cd_dedup_move(k, (cd_move)(flags & CD_DEDUP_PLAYERS));
	if (flags & CD_DEDUP_PLAYERS) {
		k = player(k, g, "White");
		k = player(k, g, "Black");
	}
	return k;
}

cd_dedup_key
cd_dedup_mainline(const cd_game *g, unsigned flags, uint32_t *plies)
{
	cd_dedup_key k = cd_dedup_seed(g, flags);
	uint32_t i, n = 0;

	for (i = g->nodes[0].next; i != 0; i = g->nodes[i].next) {
		k = cd_dedup_move(k, g->nodes[i].move);
		n++;
	}
	if (plies != NULL)
		*plies = n;
	return k;
}
