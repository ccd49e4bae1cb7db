/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * check_collate.c: the PGN collating order, key by key, the tie-breaks
 * between keys, and the agreement of the encoded keys with cd_collate.
 */
#include "config.h"

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "chessdata.h"
#include "check-main.h"

static int
sign(int c)
{
	return c < 0 ? -1 : c > 0;
}

/* Each list is in ascending order; entries in one group (same number)
 * are equal. */
struct ordered {
	int group;
	const char *v;
};

static const struct ordered dates[] = {
	{ 0, "" },
	{ 1, "????.??.??" }, { 1, "0000.00.00" }, { 1, "????" },
	{ 2, "0001.01.01" },
	{ 3, "19??.??.??" }, { 3, "1900" },
	{ 4, "1993.??.??" }, { 4, "1993" }, { 4, "1993.00.00" },
	{ 4, "1993.??" },
	{ 5, "1993.01.??" }, { 5, "1993.01" },
	{ 6, "1993.01.01" },
	{ 7, "1993.01.02" },
	{ 8, "1993.01.10" },
	{ 9, "1993.02.01" },
	{ 10, "1993.12.31" },
	{ 11, "1994.01.01" },
	{ 12, "2024.04.20" },
	{ 13, "9999.99.99" },
	/* not YYYY.MM.DD, YYYY.MM or YYYY: after all dates, in byte
	 * order */
	{ 14, "01993.01.01" },	/* five year digits */
	{ 15, "12345.01.01" },
	{ 16, "1993-01-01" },
	{ 17, "1993.01.01." },
	{ 18, "1993.01.01.01" },
	{ 19, "1993.1" },	/* one month digit */
	{ 20, "1993.1.1" },
	{ 21, "1993.x" },
	{ 22, "?" },
	{ 23, "Jan 1993" },
	{ 24, "unknown" }
};

static const struct ordered rounds[] = {
	{ 0, "" },
	{ 1, "?" },
	{ 2, "-" },
	{ 3, "0" }, { 3, "00" },
	{ 4, "1" }, { 4, "01" },
	{ 5, "1.0" },
	{ 6, "1.1" },
	{ 7, "1.1.1" },
	{ 8, "1.2" },
	{ 9, "1.9" },
	{ 10, "1.10" }, { 10, "1.010" },
	{ 11, "2" },
	{ 12, "3" },
	{ 13, "3.1" },
	{ 14, "3.2" },
	{ 15, "3.10" },
	{ 16, "4" },
	{ 17, "4.1.2" },
	{ 18, "9" },
	{ 19, "10" },
	{ 20, "99999999999999999999" },
	{ 21, "100000000000000000000" },
	/* others: after all numbers, in byte order */
	{ 22, "--" },
	{ 23, "." },
	{ 24, "1." },
	{ 25, "1..2" },
	{ 26, "3a" },
	{ 27, "??" },
	{ 28, "A" },
	{ 29, "final" }
};

static const struct ordered strings[] = {
	{ 0, "" },
	{ 1, " " },
	{ 2, "A" },
	{ 3, "A " },
	{ 4, "AB" },
	{ 5, "B" },
	{ 6, "Kasparov, G" },
	{ 7, "Kasparov, Garry" },
	{ 8, "a" },
	{ 9, "z" },
	{ 10, "\x7f" },
	{ 11, "\xc3\xa9" },	/* unsigned bytes: é after ASCII */
	{ 12, "\xff" }
};

static void
check_order(const struct ordered *rows, size_t n,
    int (*cmp)(const char *, size_t, const char *, size_t))
{
	size_t i, j;

	for (i = 0; i < n; i++) {
		for (j = 0; j < n; j++) {
			int want = rows[i].group < rows[j].group ? -1 :
			    rows[i].group > rows[j].group;
			int got = sign(cmp(rows[i].v, strlen(rows[i].v),
			    rows[j].v, strlen(rows[j].v)));

			ck_assert_msg(got == want, "\"%s\" vs \"%s\": %d, want %d",
			    rows[i].v, rows[j].v, got, want);
		}
		/* Missing (NULL) is the same as empty. */
		ck_assert_int_eq(sign(cmp(NULL, 0, rows[i].v,
		    strlen(rows[i].v))), rows[i].group == 0 ? 0 : -1);
	}
}

START_TEST(test_date)
{
	check_order(dates, sizeof(dates) / sizeof(dates[0]),
	    cd_collate_date);
}
END_TEST

/* The one date reader: its kind and numbers. */
static const struct {
	const char *v;
	int kind;
	unsigned y, m, d;
} date_reads[] = {
	{ "", CD_DATE_EMPTY, 0, 0, 0 },
	{ "1993.01.02", CD_DATE_VALID, 1993, 1, 2 },
	{ "1993.??.??", CD_DATE_VALID, 1993, 0, 0 },
	{ "19?3.1?.?5", CD_DATE_VALID, 1903, 10, 5 },
	{ "1993.07", CD_DATE_VALID, 1993, 7, 0 },
	{ "1993", CD_DATE_VALID, 1993, 0, 0 },
	{ "????", CD_DATE_VALID, 0, 0, 0 },
	{ "9999.99.99", CD_DATE_VALID, 9999, 99, 99 },
	{ "1993.1.1", CD_DATE_OTHER, 0, 0, 0 },
	{ "01993.01.01", CD_DATE_OTHER, 0, 0, 0 },
	{ "1993.01.1", CD_DATE_OTHER, 0, 0, 0 },
	{ "1993.01.011", CD_DATE_OTHER, 0, 0, 0 },
	{ "993.01.01", CD_DATE_OTHER, 0, 0, 0 },
	{ "1993.01.0x", CD_DATE_OTHER, 0, 0, 0 },
	{ "1993/01/01", CD_DATE_OTHER, 0, 0, 0 },
	{ "1993.01.", CD_DATE_OTHER, 0, 0, 0 },
	{ "+993", CD_DATE_OTHER, 0, 0, 0 },
	{ " 1993", CD_DATE_OTHER, 0, 0, 0 },
	{ "?", CD_DATE_OTHER, 0, 0, 0 }
};

START_TEST(test_date_read)
{
	unsigned ymd[3] = { 7, 7, 7 };
	const char *v = date_reads[_i].v;

	ck_assert_int_eq(cd_collate_date_read(v, strlen(v), ymd),
	    date_reads[_i].kind);
	ck_assert_uint_eq(ymd[0], date_reads[_i].y);
	ck_assert_uint_eq(ymd[1], date_reads[_i].m);
	ck_assert_uint_eq(ymd[2], date_reads[_i].d);
	ck_assert_int_eq(cd_collate_date_read(NULL, 0, ymd), CD_DATE_EMPTY);
}
END_TEST

START_TEST(test_round)
{
	check_order(rounds, sizeof(rounds) / sizeof(rounds[0]),
	    cd_collate_round);
}
END_TEST

START_TEST(test_bytes)
{
	check_order(strings, sizeof(strings) / sizeof(strings[0]),
	    cd_collate_bytes);
	/* NUL bytes are bytes too. */
	ck_assert_int_lt(cd_collate_bytes("a", 1, "a\0", 2), 0);
	ck_assert_int_lt(cd_collate_bytes("a\0", 2, "a\1", 2), 0);
}
END_TEST

START_TEST(test_movetext)
{
	ck_assert_int_eq(cd_collate_movetext_cmp("1. e4\r\ne5 1-0", 13,
	    "1. e4\ne5 1-0", 12), 0);
	ck_assert_int_eq(cd_collate_movetext_cmp("", 0, "", 0), 0);
	ck_assert_int_lt(cd_collate_movetext_cmp("", 0, "*", 1), 0);
	ck_assert_int_lt(cd_collate_movetext_cmp("1. e4 *", 7, "1. e4 e5 *",
	    10), 0);
	/* LF (10) sorts before space (32): a line break is a byte. */
	ck_assert_int_lt(cd_collate_movetext_cmp("1. e4\r\ne5", 9,
	    "1. e4 e5", 8), 0);
	ck_assert_int_gt(cd_collate_movetext_cmp("1. e4  e5", 9,
	    "1. e4\r\ne5", 9), 0);
	/* A lone CR stays a CR (13 > 10). */
	ck_assert_int_gt(cd_collate_movetext_cmp("e4\re5", 5, "e4\ne5", 5),
	    0);
	ck_assert_int_gt(cd_collate_movetext_cmp("e4\r", 3, "e4\r\n", 4), 0);
	ck_assert_int_lt(cd_collate_movetext_cmp("e4\r\n", 4, "e4\r", 3), 0);
	ck_assert_int_gt(cd_collate_movetext_cmp("1. d4", 5, "1. c4", 5), 0);
	ck_assert_int_lt(cd_collate_movetext_cmp("1. e4\r\n", 7,
	    "1. e4\r\nx", 8), 0);
}
END_TEST

static void
game_set(cd_collate_game *g, const char *const v[7], const char *mt)
{
	int i;

	for (i = 0; i < CD_COLLATE_NTAGS; i++) {
		g->tag[i] = v[i];
		g->tag_len[i] = v[i] ? strlen(v[i]) : 0;
	}
	g->movetext = mt;
	g->movetext_len = strlen(mt);
}

static int
key_cmp_games(const cd_collate_game *a, const cd_collate_game *b)
{
	unsigned char ka[4096], kb[4096];
	size_t la = cd_collate_key(a, ka, sizeof(ka));
	size_t lb = cd_collate_key(b, kb, sizeof(kb));
	int c;

	ck_assert_uint_le(la, sizeof(ka));
	ck_assert_uint_le(lb, sizeof(kb));
	c = cd_collate_key_cmp(ka, la, kb, lb);
	if (c == 0)
		c = cd_collate_movetext_cmp(a->movetext, a->movetext_len,
		    b->movetext, b->movetext_len);
	return c;
}

/* Each key decides over all the keys after it, and only when the keys
 * before it are equal. */
/* Prefixes tell the order of whole movetexts or say that they cannot:
 * every pair of strings of a, b, CR and LF up to four bytes, every
 * cut of each. */
static size_t
word(unsigned n, char *out)
{
	static const char alphabet[4] = { 'a', 'b', '\r', '\n' };
	size_t len = 0;

	/* n = 1 + 4 + ... numbers the strings by length, then letters */
	for (; n > 0; n = (n - 1) / 4)
		out[len++] = alphabet[(n - 1) % 4];
	return len;
}

START_TEST(test_movetext_prefix)
{
	char a[8], b[8];
	size_t la, lb, ca, cb, pa, pb;
	unsigned na, nb;
	int full, part, undecided = 0;

	for (na = 0; na < 341; na++)	/* the 341 strings of 0 to 4 bytes */
	for (nb = 0; nb < 341; nb++) {
		la = word(na, a);
		lb = word(nb, b);
		full = cd_collate_movetext_cmp(a, la, b, lb);
		/* (no ck_assert in the loop: each costs a message to the
		 * parent process) */
		for (ca = 0; ca <= la; ca++)
		for (cb = 0; cb <= lb; cb++) {
			pa = cd_collate_movetext_prefix(a, la, ca);
			pb = cd_collate_movetext_prefix(b, lb, cb);
			part = cd_collate_movetext_prefix_cmp(a, pa, pa < la,
			    b, pb, pb < lb);
			if (pa > ca || pb > cb || (part == 2 && pa == la &&
			    pb == lb) || (part != 2 && part != full))
				ck_abort_msg("%u cut %zu (of %zu), %u cut %zu "
				    "(of %zu): %d, whole %d", na, pa, ca, nb,
				    pb, cb, part, full);
			undecided += part == 2;
		}
	}
	ck_assert_int_gt(undecided, 0);
}
END_TEST

START_TEST(test_key_order)
{
	static const char *lo[7] = {
		"1990.01.01", "A", "A", "1", "A", "A", "0-1"
	};
	static const char *hi[7] = {
		"1991.01.01", "B", "B", "2", "B", "B", "1-0"
	};
	int k, i;

	for (k = 0; k <= CD_COLLATE_NTAGS; k++) {
		const char *a[7], *b[7];
		cd_collate_game ga, gb;

		/* a < b in key k; equal before; a > b in every key after. */
		for (i = 0; i < CD_COLLATE_NTAGS; i++) {
			a[i] = i < k ? lo[i] : i == k ? lo[i] : hi[i];
			b[i] = i < k ? lo[i] : i == k ? hi[i] : lo[i];
		}
		game_set(&ga, a, k == CD_COLLATE_NTAGS ? "1. d4 *" : "1. e4 *");
		game_set(&gb, b, k == CD_COLLATE_NTAGS ? "1. e4 *" : "1. d4 *");
		ck_assert_msg(cd_collate(&ga, &gb) < 0, "key %d", k);
		ck_assert_msg(cd_collate(&gb, &ga) > 0, "key %d", k);
		ck_assert_msg(key_cmp_games(&ga, &gb) < 0, "key %d", k);
		ck_assert_msg(key_cmp_games(&gb, &ga) > 0, "key %d", k);
	}
}
END_TEST

START_TEST(test_equal_and_missing)
{
	static const char *v[7] = {
		"1993.??.??", "E", "S", "?", "W", "B", "*"
	};
	static const char *v2[7] = {
		"1993", "E", "S", "?", "W", "B", "*"
	};
	static const char *none[7];
	static const char *empty[7] = { "", "", "", "", "", "", "" };
	cd_collate_game a, b, c, d;

	game_set(&a, v, "1. e4\r\n*");
	game_set(&b, v2, "1. e4\n*");
	ck_assert_int_eq(cd_collate(&a, &b), 0);
	ck_assert_int_eq(key_cmp_games(&a, &b), 0);
	game_set(&c, none, "");
	game_set(&d, empty, "");
	ck_assert_int_eq(cd_collate(&c, &d), 0);
	ck_assert_int_eq(key_cmp_games(&c, &d), 0);
	ck_assert_int_lt(cd_collate(&c, &a), 0);
	ck_assert_int_lt(key_cmp_games(&c, &a), 0);
}
END_TEST

/* The encoded keys order random games exactly as cd_collate does. */
START_TEST(test_key_agrees)
{
	static const char *pool[] = {
		"", "?", "-", "1", "1.1", "1.10", "1.9", "01", "10", "2",
		"1993.??.??", "1993", "1993.01.01", "1993.1.1", "1993.01.02",
		"????.??.??", "1994", "x", "1993-01-01", "A", "AB", "B", "a",
		"\xc3\xa9", "\xff", "3.", "3.1.2", "Kasparov, G", "1-0", "0-1",
		"1/2-1/2", "*", "00", "0", "999999999999999999999999"
	};
	static const char *mts[] = {
		"", "*", "1. e4 *", "1. e4\r\n*", "1. e4\n*", "1. d4 1-0"
	};
	const size_t np = sizeof(pool) / sizeof(pool[0]);
	unsigned x = 2024;
	int round;

	for (round = 0; round < 20000; round++) {
		const char *a[7], *b[7];
		cd_collate_game ga, gb;
		int i, c1, c2;
		unsigned char tmp[8];
		size_t need, total = 0;

		for (i = 0; i < 7; i++) {
			x = x * 1103515245u + 12345u;
			a[i] = pool[(x >> 16) % np];
			x = x * 1103515245u + 12345u;
			/* Often equal, so later keys get compared too. */
			b[i] = (x >> 16) % 3 ? a[i] : pool[(x >> 8) % np];
			if ((x >> 4) % 7 == 0)
				a[i] = NULL;
			total += a[i] ? strlen(a[i]) : 0;
		}
		x = x * 1103515245u + 12345u;
		game_set(&ga, a, mts[(x >> 16) % 6]);
		game_set(&gb, b, mts[(x >> 8) % 6]);
		c1 = sign(cd_collate(&ga, &gb));
		c2 = sign(key_cmp_games(&ga, &gb));
		ck_assert_int_eq(c1, c2);
		ck_assert_int_eq(sign(cd_collate(&gb, &ga)), -c1);
		/* The length bound, and the snprintf-like contract. */
		need = cd_collate_key(&ga, tmp, sizeof(tmp));
		ck_assert_uint_le(need, 48 + 2 * total);
		ck_assert_uint_gt(need, sizeof(tmp));
	}
}
END_TEST

/* NUL bytes in values keep the byte order in the keys. */
START_TEST(test_key_nul)
{
	static const char *v[7] = { "", "", "", "", "", "", "" };
	cd_collate_game a, b;
	static const struct {
		const char *s;
		size_t len;
	} vals[] = {
		{ "", 0 }, { "\0", 1 }, { "\0\0", 2 }, { "\0\1", 2 },
		{ "\1", 1 }, { "a", 1 }, { "a\0", 2 }, { "a\0b", 3 }, { "ab", 2 }
	};
	size_t i, j;
	int k;

	for (k = 1; k < CD_COLLATE_NTAGS; k++) {
		for (i = 0; i < sizeof(vals) / sizeof(vals[0]); i++) {
			for (j = 0; j < sizeof(vals) / sizeof(vals[0]); j++) {
				game_set(&a, v, "");
				game_set(&b, v, "");
				a.tag[k] = vals[i].s;
				a.tag_len[k] = vals[i].len;
				b.tag[k] = vals[j].s;
				b.tag_len[k] = vals[j].len;
				ck_assert_int_eq(sign(key_cmp_games(&a, &b)),
				    sign(cd_collate(&a, &b)));
				if (k != CD_COLLATE_ROUND)
					ck_assert_int_eq(sign(cd_collate(&a,
					    &b)), i < j ? -1 : i > j);
			}
		}
	}
}
END_TEST

START_TEST(test_from_raw)
{
	const char *in =
	    "[Event \"e1\"]\n[White \"w1\"]\n[Date \"2000.01.01\"]\n"
	    "[Round \"2\"]\n[White \"w2\"]\n\n1. e4 e5 1-0\n\n"
	    "1. d4 *\n";
	cd_pgn_reader *r = cd_pgn_reader_new_mem(in, strlen(in));
	cd_pgn_raw_game g;
	cd_collate_game c;

	ck_assert_int_eq(cd_pgn_reader_next(r, &g), CD_OK);
	cd_collate_from_raw(&g, &c);
	ck_assert_uint_eq(c.tag_len[CD_COLLATE_WHITE], 2);
	ck_assert(memcmp(c.tag[CD_COLLATE_WHITE], "w2", 2) == 0);
	ck_assert(memcmp(c.tag[CD_COLLATE_EVENT], "e1", 2) == 0);
	ck_assert(memcmp(c.tag[CD_COLLATE_DATE], "2000.01.01", 10) == 0);
	ck_assert(memcmp(c.tag[CD_COLLATE_ROUND], "2", 1) == 0);
	ck_assert_ptr_null(c.tag[CD_COLLATE_SITE]);
	ck_assert_ptr_null(c.tag[CD_COLLATE_RESULT]);
	ck_assert_uint_eq(c.movetext_len, 12);
	ck_assert(memcmp(c.movetext, "1. e4 e5 1-0", 12) == 0);
	ck_assert_int_eq(cd_pgn_reader_next(r, &g), CD_OK);
	cd_collate_from_raw(&g, &c);
	ck_assert_ptr_null(c.tag[CD_COLLATE_DATE]);
	ck_assert_uint_eq(c.movetext_len, 7);
	cd_pgn_reader_free(r);
}
END_TEST

/* The -k key of one tag value (in key, its length returned). */
static size_t
tag_key(const char *name, const char *value, unsigned char *key,
    size_t cap)
{
	char text[256];
	cd_pgn_reader *r;
	cd_pgn_raw_game g;
	const char *names[1] = { name };
	size_t n;

	snprintf(text, sizeof(text), "[%s \"%s\"]\n\n*\n", name, value);
	r = cd_pgn_reader_new_mem(text, strlen(text));
	ck_assert_int_eq(cd_pgn_reader_next(r, &g), CD_OK);
	n = cd_collate_key_tags(&g, names, 1, key, cap);
	ck_assert_uint_le(n, cap);
	cd_pgn_reader_free(r);
	return n;
}

/* Random numbers (signs, leading zeros, fractions with trailing zeros,
 * integers as wide as 15 digits): the keys compare as the numbers, and
 * every other value but the empty one before every number. */
START_TEST(test_key_tags_numbers)
{
	unsigned char ka[128], kb[128];
	char a[64], b[64];
	unsigned seed = 1;
	size_t la, lb;
	int i;

	for (i = 0; i < 20000; i++) {
		char *v[2] = { a, b };
		double x[2];
		int j, c;

		for (j = 0; j < 2; j++) {
			long long ip = (long long)(rand_r(&seed) % 100000) *
			    (rand_r(&seed) % 3 == 0 ? 10000000000LL : 1);
			int frac = rand_r(&seed) % 1000, kind = rand_r(&seed) % 4;
			const char *sg = rand_r(&seed) % 3 == 0 ? "-" :
			    rand_r(&seed) % 5 == 0 ? "+" : "";

			if (kind == 0)
				snprintf(v[j], 64, "%s%lld", sg, ip);
			else if (kind == 1)
				snprintf(v[j], 64, "%s00%lld.%d0", sg, ip, frac);
			else if (kind == 2)
				snprintf(v[j], 64, "%s%lld.%03d", sg, ip, frac);
			else
				snprintf(v[j], 64, "%s%d", sg, frac % 7);
			x[j] = strtod(v[j], NULL);
		}
		la = tag_key("N", a, ka, sizeof(ka));
		lb = tag_key("N", b, kb, sizeof(kb));
		c = cd_collate_key_cmp(ka, la, kb, lb);
		ck_assert_msg(c == (x[0] > x[1]) - (x[0] < x[1]),
		    "%s vs %s: %d", a, b, c);
	}
	/* empty, the rest in byte order ("?" too), then numbers */
	{
		const char *order[] = { "", "-", "1.", "1e3", "2024.01.01",
			"?", "abc", "unrated", "x", "-10", "-9.5", "-9", "0",
			"1.5", "1.55", "9", "10" };
		size_t k, n = sizeof(order) / sizeof(order[0]);

		for (k = 0; k + 1 < n; k++) {
			la = tag_key("N", order[k], ka, sizeof(ka));
			lb = tag_key("N", order[k + 1], kb, sizeof(kb));
			ck_assert_msg(sign(cd_collate_key_cmp(ka, la, kb, lb)) < 0,
			    "'%s' before '%s'", order[k], order[k + 1]);
		}
	}
	/* dates by name: as the Date key ("1993" is "1993.??.??") */
	la = tag_key("UTCDate", "1993", ka, sizeof(ka));
	lb = tag_key("UTCDate", "1993.??.??", kb, sizeof(kb));
	ck_assert_int_eq(cd_collate_key_cmp(ka, la, kb, lb), 0);
	lb = tag_key("UTCDate", "1993.01.01", kb, sizeof(kb));
	ck_assert_int_lt(cd_collate_key_cmp(ka, la, kb, lb), 0);
}
END_TEST

/* Section 11 file names: a tag value's root, by the rule of
 * chessdata/collate.h. */
static const struct { const char *in; const char *root; } roots[] = {
	{ "Carlsen, Magnus", "carlsen_magnus" },
	{ "  --Hello World!..", "hello_world" },
	{ "M\xc3\xbcller", "muller" },		/* ü in UTF-8 */
	{ "Stra\xc3\x9f" "e", "strasse" },	/* ß */
	{ "\xc3\x86sir", "aesir" },		/* Æ */
	{ "Caf\xe9", "cafe" },			/* é as a Latin-1 byte */
	{ "\xce\x94x", "ce94x" },		/* Δ: its bytes in hex */
	{ "a\x80" "b", "a80b" },		/* a lone byte from 0x80 */
	{ "a/b\\c\td", "a_b_c_d" },
	{ "a  ,;  b", "a_b" },
	{ "con", "con_" },
	{ "CON.txt", "con_.txt" },
	{ "com1", "com1_" },
	{ "console", "console" },
	{ "", "_unknown" },
	{ "???", "_unknown" },
	{ "-._", "_unknown" },
};

START_TEST(test_file_root)
{
	char out[CD_COLLATE_ROOT_SIZE];
	size_t n = cd_collate_file_root(roots[_i].in, strlen(roots[_i].in),
	    out);

	ck_assert_str_eq(out, roots[_i].root);
	ck_assert_uint_eq(n, strlen(roots[_i].root));
}
END_TEST

START_TEST(test_file_root_long)
{
	char in[300], out[CD_COLLATE_ROOT_SIZE];
	size_t i;

	/* at most 120 bytes, a hex pair not cut in two */
	memset(in, 'A', sizeof(in));
	ck_assert_uint_eq(cd_collate_file_root(in, sizeof(in), out),
	    CD_COLLATE_ROOT_MAX);
	for (i = 0; i < CD_COLLATE_ROOT_MAX; i++)
		ck_assert_int_eq(out[i], 'a');
	ck_assert_int_eq(out[CD_COLLATE_ROOT_MAX], '\0');
	memset(in, 'a', 119);
	memcpy(in + 119, "\xce\x94", 2);
	ck_assert_uint_eq(cd_collate_file_root(in, 121, out), 119);
	/* the player's last name: up to the first comma */
	ck_assert_uint_eq(cd_collate_player_root("Kasparov, Garry", 15, out),
	    8);
	ck_assert_str_eq(out, "kasparov");
	cd_collate_player_root(NULL, 0, out);
	ck_assert_str_eq(out, "_unknown");
	cd_collate_player_root(", Garry", 7, out);
	ck_assert_str_eq(out, "_unknown");
}
END_TEST

static const struct {
	const char *in;
	int parts;
	const char *path;
} date_paths[] = {
	{ "1993.05.07", 1, "1993" },
	{ "1993.05.07", 2, "1993/199305" },
	{ "1993.05.07", 3, "1993/199305/19930507" },
	{ "1993.??.??", 3, "1993/199300/19930000" },
	{ "1993", 2, "1993/199300" },
	{ "2024.12", 3, "2024/202412/20241200" },
	{ "1993.1.1", 1, "_unknown" },
	{ "1993.1.1", 3, "_unknown" },
	{ "????.??.??", 1, "0000" },
	{ "", 3, "0000/000000/00000000" },
	{ NULL, 1, "0000" },
};

START_TEST(test_date_path)
{
	char out[CD_COLLATE_DATE_PATH_SIZE];
	const char *in = date_paths[_i].in;
	size_t n = cd_collate_date_path(in, in ? strlen(in) : 0,
	    date_paths[_i].parts, out);

	ck_assert_str_eq(out, date_paths[_i].path);
	ck_assert_uint_eq(n, strlen(date_paths[_i].path));
}
END_TEST

static Suite *
collate_suite(void)
{
	Suite *s = suite_create("collate");
	TCase *tc = tcase_create("keys");

	tcase_set_timeout(tc, 60);

	tcase_add_test(tc, test_date);
	tcase_add_loop_test(tc, test_date_read, 0,
	    sizeof(date_reads) / sizeof(date_reads[0]));
	tcase_add_test(tc, test_round);
	tcase_add_test(tc, test_bytes);
	tcase_add_test(tc, test_movetext);
	tcase_add_test(tc, test_movetext_prefix);
	tcase_add_test(tc, test_key_order);
	tcase_add_test(tc, test_equal_and_missing);
	tcase_add_test(tc, test_key_agrees);
	tcase_add_test(tc, test_key_nul);
	tcase_add_test(tc, test_from_raw);
	tcase_add_test(tc, test_key_tags_numbers);
	tcase_add_loop_test(tc, test_file_root, 0,
	    sizeof(roots) / sizeof(roots[0]));
	tcase_add_test(tc, test_file_root_long);
	tcase_add_loop_test(tc, test_date_path, 0,
	    sizeof(date_paths) / sizeof(date_paths[0]));
	suite_add_tcase(s, tc);
	return s;
}

TU_SUITES(collate_suite);
