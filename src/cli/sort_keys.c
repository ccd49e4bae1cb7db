/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * sort_keys.c: the order of the external sort (sort_int.h): a game's
 * key, keys compared (the movetext of a game left in its file read back
 * when keys tie), the in-memory sort and the heap of a merge.
 */
#include "config.h"

#include <errno.h>
#include <stdint.h>
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

/*
 * How many bytes a and b (n each at least) begin with alike, eight at a
 * time, less a carriage return that ends them: the movetext comparison
 * reads equal bytes in step (a line end CR LF in both as one), so it
 * may start after them, but a CR whose next bytes differ is its own.
 * (The movetexts of an opening book's games share their first moves.)
 */
static size_t
common_start(const char *a, const char *b, size_t n)
{
	size_t k = 0;
	uint64_t x, y;

	while (k + 8 <= n) {
		memcpy(&x, a + k, 8);
		memcpy(&y, b + k, 8);
		if (x != y) {
#if defined(__GNUC__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
			k += (size_t)__builtin_ctzll(x ^ y) / 8;
			goto found;
#else
			break;
#endif
		}
		k += 8;
	}
	while (k < n && a[k] == b[k])
		k++;
#if defined(__GNUC__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
found:
#endif
	if (k > 0 && a[k - 1] == '\r')
		k--;
	return k;
}

/* Key 8, the movetext: from memory or the prefixes (which tell for
 * two games in memory), else read back. */
static int
movetext_cmp(cli_sort *so, const struct item *a, const struct item *b)
{
	const char *ma, *mb;
	size_t la, lb, k;
	int c;

	ma = a->text ? a->text + a->mt_off : (const char *)a->key + a->klen;
	mb = b->text ? b->text + b->mt_off : (const char *)b->key + b->klen;
	la = a->text ? a->mt_len : a->plen;
	lb = b->text ? b->mt_len : b->plen;
	k = common_start(ma, mb, la < lb ? la : lb);
	c = cd_collate_movetext_prefix_cmp(ma + k, la - k,
	    !a->text && a->plen < a->mt_len, mb + k, lb - k,
	    !b->text && b->plen < b->mt_len);
	if (c != 2)
		return c;
	ma = a->text ? a->text + a->mt_off : movetext_fetch(so, a, 0);
	mb = b->text ? b->text + b->mt_off : movetext_fetch(so, b, 1);
	return cd_collate_movetext_cmp(ma, a->mt_len, mb, b->mt_len);
}

/* The tag values of -u, compared as bytes. */
static int
exact_cmp(cli_sort *so, const struct item *a, const struct item *b)
{
	size_t ac = sort_key_collate_len(so, a->key, a->klen);
	size_t bc = sort_key_collate_len(so, b->key, b->klen);
	size_t an = a->klen - ac, bn = b->klen - bc;
	int c = memcmp(a->key + ac, b->key + bc, an < bn ? an : bn);

	return c != 0 ? c : (an > bn) - (an < bn);
}

/* The eight keys: <0, 0, >0. */
static int
keys_cmp(cli_sort *so, const struct item *a, const struct item *b)
{
	int c;

	if (a->prefix != b->prefix)
		return a->prefix < b->prefix ? -1 : 1;
	if (a->key == b->key && a->klen == b->klen)	/* (mem_add) */
		return movetext_cmp(so, a, b);
	c = cd_collate_key_cmp(a->key, sort_key_collate_len(so, a->key, a->klen),
	    b->key, sort_key_collate_len(so, b->key, b->klen));
	if (c == 0)
		c = movetext_cmp(so, a, b);
	return c;
}

/* The output order: keys (reversed with -r), then (with -u, so that
 * equal games meet) the tag values as bytes, then input order. */
static int
item_cmp(cli_sort *so, const struct item *a, const struct item *b)
{
	int c = keys_cmp(so, a, b);

	if (c != 0)
		return so->o.reverse ? -c : c;
	if (so->o.unique && (c = exact_cmp(so, a, b)) != 0)
		return c;
	return a->seq < b->seq ? -1 : a->seq > b->seq;
}

/* keys_cmp and exact_cmp for the other files (-c, -u: a call a game);
 * here they stay static, inlined where games are compared. */
int
sort_keys_cmp(cli_sort *so, const struct item *a, const struct item *b)
{
	return keys_cmp(so, a, b);
}

int
sort_exact_cmp(cli_sort *so, const struct item *a, const struct item *b)
{
	return exact_cmp(so, a, b);
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
