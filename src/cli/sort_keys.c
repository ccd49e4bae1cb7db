/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * sort_keys.c: the order of the external sort (sort_int.h): a game's
 * key, keys compared (the movetext of a game left in its file read back
 * when keys tie), the in-memory sort and the heap of a merge.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "chessdata.h"
#include "cli.h"
#include "sort_int.h"

/* Read len bytes at off of input file into buf, fully. */
void
sort_infile_read(cli_sort *so, uint32_t file, uint64_t off, char *buf, size_t len)
{
	const struct infile *f = &so->infiles[file];

	while (len > 0) {
		ssize_t k = pread(f->fd, buf, len, (off_t)off);

		if (k < 0 && errno == EINTR)
			continue;
		if (k < 0)
			cli_fatal("%s: read error: %s", f->name,
			    strerror(errno));
		if (k == 0)
			cli_fatal("%s: changed while being sorted", f->name);
		buf += k;
		off += (uint64_t)k;
		len -= (size_t)k;
	}
}

/* The movetext of a game left in its file, read into scratch buffer
 * slot (0 or 1: a comparison reads two). */
static const char *
movetext_fetch(cli_sort *so, const struct item *it, int slot)
{
	char **buf = &so->mt_buf[slot];
	size_t *cap = &so->mt_cap[slot];

	if (it->mt_len > *cap) {
		free(*buf);
		*cap = it->mt_len + it->mt_len / 2 + 256;
		if ((*buf = malloc(*cap)) == NULL)
			cli_fatal("out of memory");
	}
	sort_infile_read(so, it->file, it->off + it->mt_off, *buf, it->mt_len);
	return *buf;
}

/* Key 8, the movetext: from memory or the prefixes (which tell for
 * two games in memory), else read back. */
static int
movetext_cmp(cli_sort *so, const struct item *a, const struct item *b)
{
	const char *ma, *mb;
	int c;

	c = cd_collate_movetext_prefix_cmp(
	    a->text ? a->text + a->mt_off : (const char *)a->key + a->klen,
	    a->text ? a->mt_len : a->plen, !a->text && a->plen < a->mt_len,
	    b->text ? b->text + b->mt_off : (const char *)b->key + b->klen,
	    b->text ? b->mt_len : b->plen, !b->text && b->plen < b->mt_len);
	if (c != 2)
		return c;
	ma = a->text ? a->text + a->mt_off : movetext_fetch(so, a, 0);
	mb = b->text ? b->text + b->mt_off : movetext_fetch(so, b, 1);
	return cd_collate_movetext_cmp(ma, a->mt_len, mb, b->mt_len);
}

/*
 * With -u a key holds, after the collating key (keys 1 to 7), the seven
 * tag values as they are written: each as a 4-byte length and its
 * bytes, then the 4-byte length of that part.  Games equal in sort
 * order ("1993.?1.01" and "1993.01.01", Round "1" and "01") are the
 * same game only when these bytes and the movetext are equal.
 */
static size_t
key_collate_len(cli_sort *so, const unsigned char *k, size_t klen)
{
	uint32_t x;

	if (!so->o.unique || klen < 4)
		return klen;
	memcpy(&x, k + klen - 4, 4);
	return klen - 4 - x;
}

/* The tag values of -u, compared as bytes. */
int
sort_exact_cmp(cli_sort *so, const struct item *a, const struct item *b)
{
	size_t ac = key_collate_len(so, a->key, a->klen);
	size_t bc = key_collate_len(so, b->key, b->klen);
	size_t an = a->klen - ac, bn = b->klen - bc;
	int c = memcmp(a->key + ac, b->key + bc, an < bn ? an : bn);

	return c != 0 ? c : (an > bn) - (an < bn);
}

uint64_t
sort_key_prefix(cli_sort *so, const unsigned char *k, size_t klen)
{
	uint64_t v = 0;
	size_t i, n = key_collate_len(so, k, klen);

	for (i = 0; i < 8; i++)
		v = v << 8 | (i < n ? k[i] : 0);
	return v;
}

/* The eight keys: <0, 0, >0. */
int
sort_keys_cmp(cli_sort *so, const struct item *a, const struct item *b)
{
	int c;

	if (a->prefix != b->prefix)
		return a->prefix < b->prefix ? -1 : 1;
	c = cd_collate_key_cmp(a->key, key_collate_len(so, a->key, a->klen),
	    b->key, key_collate_len(so, b->key, b->klen));
	if (c == 0)
		c = movetext_cmp(so, a, b);
	return c;
}

/* The output order: keys (reversed with -r), then (with -u, so that
 * equal games meet) the tag values as bytes, then input order. */
static int
item_cmp(cli_sort *so, const struct item *a, const struct item *b)
{
	int c = sort_keys_cmp(so, a, b);

	if (c != 0)
		return so->o.reverse ? -c : c;
	if (so->o.unique && (c = sort_exact_cmp(so, a, b)) != 0)
		return c;
	return a->seq < b->seq ? -1 : a->seq > b->seq;
}

/*
 * Sort n items stably (bottom-up merge sort) with room for n more at
 * tmp: the room is kept free in the buffer, so sorting stays within the
 * budget (qsort would allocate on its own).
 */
void
sort_items_sort(cli_sort *so, struct item *a, struct item *tmp, size_t n)
{
	struct item *src = a, *dst = tmp, *t, x;
	size_t i, j, w;

	for (i = 0; i < n; i += 8) {	/* insertion sort, runs of 8 */
		size_t e = i + 8 < n ? i + 8 : n;

		for (j = i + 1; j < e; j++) {
			size_t k = j;

			x = a[j];
			while (k > i && item_cmp(so, &a[k - 1], &x) > 0) {
				a[k] = a[k - 1];
				k--;
			}
			a[k] = x;
		}
	}
	for (w = 8; w < n; w *= 2) {
		for (i = 0; i < n; i += 2 * w) {
			size_t l = i, le = i + w < n ? i + w : n;
			size_t r = le, re = i + 2 * w < n ? i + 2 * w : n;
			size_t o = i;

			while (l < le && r < re)
				dst[o++] = item_cmp(so, &src[l], &src[r]) <= 0 ?
				    src[l++] : src[r++];
			while (l < le)
				dst[o++] = src[l++];
			while (r < re)
				dst[o++] = src[r++];
		}
		t = src;
		src = dst;
		dst = t;
	}
	if (src != a)
		memcpy(a, src, n * sizeof(*a));
}

/* Note which -k tags the raw game g has, or has in another case. */
static void
keys_note(cli_sort *so, const cd_pgn_raw_game *g)
{
	size_t i, k, n;

	for (i = 0; i < so->o.nkeys; i++) {
		if (so->key_seen[i])
			continue;
		if (cd_pgn_raw_tag(g, so->o.keys[i]) != NULL) {
			so->key_seen[i] = true;
			continue;
		}
		n = strlen(so->o.keys[i]);
		for (k = 0; so->key_case[i] == NULL && k < g->ntags; k++)
			if (g->tags[k].name_len == n &&
			    strncasecmp(g->tags[k].name, so->o.keys[i], n) == 0 &&
			    (so->key_case[i] = strndup(g->tags[k].name, n)) ==
			    NULL)
				cli_fatal("out of memory");
	}
}

/* A warning for each -k tag that no game read has (tag names are
 * case-sensitive: `-k whiteelo` sorts by nothing). */
void
sort_keys_warn(cli_sort *so)
{
	size_t i;

	for (i = 0; i < so->o.nkeys; i++) {
		if (!so->key_seen[i] && so->games_read > 0 && so->key_case[i] != NULL)
			cli_warn("warning: no game has a tag '%s' (some have "
			    "'%s': tag names are case-sensitive)",
			    so->o.keys[i], so->key_case[i]);
		else if (!so->key_seen[i] && so->games_read > 0)
			cli_warn("warning: no game has a tag '%s'",
			    so->o.keys[i]);
		free(so->key_case[i]);
	}
	free(so->key_case);
	free(so->key_seen);
}

/* Fill the key fields of it from a raw game; the key goes to kbuf
 * (kcap bytes).  Returns the key length (more than kcap: nothing
 * written, give more room). */
size_t
sort_item_key(cli_sort *so, const cd_pgn_raw_game *g, unsigned char *kbuf, size_t kcap)
{
	cd_collate_game cg;

	size_t n, x, i;
	uint32_t len;

	cd_collate_from_raw(g, &cg);
	if (so->o.nkeys > 0)
		keys_note(so, g);
	/* the -k tags, then keys 1 to 7 */
	n = so->o.nkeys == 0 ? 0 : cd_collate_key_tags(g,
	    (const char *const *)so->o.keys, so->o.nkeys, kbuf, kcap);
	n += cd_collate_key(&cg, kbuf != NULL && n <= kcap ? kbuf + n : NULL,
	    n <= kcap ? kcap - n : 0);
	if (!so->o.unique)
		return n;
	for (x = 4, i = 0; i < CD_COLLATE_NTAGS; i++)
		x += 4 + (cg.tag[i] != NULL ? cg.tag_len[i] : 0);
	if (n + x > kcap)
		return n + x;
	for (i = 0; i < CD_COLLATE_NTAGS; i++) {
		len = cg.tag[i] != NULL ? (uint32_t)cg.tag_len[i] : 0;
		memcpy(kbuf + n, &len, 4);
		if (len > 0)
			memcpy(kbuf + n + 4, cg.tag[i], len);
		n += 4 + len;
	}
	len = (uint32_t)(x - 4);
	memcpy(kbuf + n, &len, 4);
	return n + 4;
}

/* Heap of sources by their current record. */
void
sort_heap_down(cli_sort *so, struct src **h, size_t n, size_t i)
{
	for (;;) {
		size_t l = 2 * i + 1, m = i;
		struct src *t;

		if (l < n && item_cmp(so, &h[l]->cur, &h[m]->cur) < 0)
			m = l;
		if (l + 1 < n && item_cmp(so, &h[l + 1]->cur, &h[m]->cur) < 0)
			m = l + 1;
		if (m == i)
			return;
		t = h[i];
		h[i] = h[m];
		h[m] = t;
		i = m;
	}
}
