/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * check_dedup.c: players' surnames as pgn-dedup --by=game compares
 * them (cd_dedup_surname): accents of every Latin letter gone,
 * composed or not, Latin, Greek and Cyrillic case folded, apostrophes
 * and hyphens of every kind dropped, in UTF-8 and Latin-1; and the
 * length bound that callers size their buffers by.
 */
#include "config.h"

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "chessdata.h"
#include "check-main.h"

struct name_case {
	const char *a, *b;
	bool same;
};

static const struct name_case name_cases[] = {
	/* Latin letters: Latin-1, Extended-A and -B, Additional */
	{ "M\xc3\xbcller, K.", "MULLER", true },
	{ "M\xfcller", "M\xc3\xbcller", true },		/* Latin-1 */
	{ "\xc8\x98" "erban, Ion", "Serban, I.", true },	/* U+0218 */
	{ "\xc5\x9e" "erban", "SERBAN", true },		/* U+015E */
	{ "\xc8\x99" "erban", "\xc5\x9f" "erban", true },	/* U+0219, U+015F */
	{ "Nguy\xe1\xbb\x85n, Anh", "Nguyen", true },	/* U+1EC5 */
	{ "NGUY\xe1\xbb\x84N", "nguyen", true },	/* U+1EC4 */
	{ "L\xc3\xaa Quang Li\xc3\xaam", "Le Quang Liem", true },
	{ "\xc4\x90\xc3\xa0o Thi\xc3\xaan H\xe1\xba\xa3i", "Dao Thien Hai",
	    true },
	/* decomposed accents: combining marks dropped */
	{ "Ne\xcc\x81meth", "N\xc3\xa9meth", true },	/* e U+0301 */
	{ "Nguye\xcc\x82\xcc\x83n", "Nguyen", true },	/* U+0302 U+0303 */
	/* letters with no decomposition */
	{ "Gro\xc3\x9f", "GROSS", true },		/* sharp s */
	{ "GRO\xe1\xba\x9e", "gross", true },		/* U+1E9E */
	{ "\xc3\x86" "rlig", "Aerlig", true },		/* AE */
	{ "H\xc3\xb8i", "Hoi", true },			/* o with stroke */
	{ "\xc4\x90uki\xc4\x87", "Dukic", true },	/* d with stroke */
	{ "\xc5\x81" "awrynowicz", "Lawrynowicz", true },	/* l stroke */
	{ "\xc3\x9eorsteinsson", "Thorsteinsson", true },	/* thorn */
	{ "Y\xc4\xb1lmaz", "Yilmaz", true },		/* dotless i */
	{ "\xc4\xb0lkin", "ilkin", true },		/* I with dot */
	{ "C\xc5\x93ur", "Coeur", true },		/* oe */
	/* apostrophes and hyphens of every kind */
	{ "O\xe2\x80\x99Kelly", "O'Kelly", true },	/* U+2019 */
	{ "O\xca\xbcKelly", "OKelly", true },		/* U+02BC */
	{ "O`Kelly", "O'Kelly", true },
	{ "O\xc2\xb4Kelly", "O'Kelly", true },		/* U+00B4 */
	{ "O\xb4Kelly", "O'Kelly", true },		/* U+00B4 Latin-1 */
	{ "Cu\xc3\xa9llar\xe2\x80\x90Jim\xc3\xa9nez", "Cuellar-Jimenez",
	    true },						/* U+2010 */
	{ "Cuellar\xe2\x80\x93Jimenez", "Cuellar Jimenez", true },
	/* Cyrillic and Greek case */
	{ "\xd0\x9a\xd0\xb0\xd1\x80\xd0\xbf\xd0\xbe\xd0\xb2",
	    "\xd0\x9a\xd0\x90\xd0\xa0\xd0\x9f\xd0\x9e\xd0\x92", true },
	{ "\xd0\x81\xd0\xbb\xd0\xba\xd0\xb8\xd0\xbd",	/* Yo */
	    "\xd0\xb5\xd0\xbb\xd0\xba\xd0\xb8\xd0\xbd", true },
	{ "\xce\xa0\xce\xb1\xcf\x80\xce\xb1\xce\xb4\xcf\x8c\xcf\x80"
	    "\xce\xbf\xcf\x85\xce\xbb\xce\xbf\xcf\x82",	/* final sigma */
	    "\xce\xa0\xce\x91\xce\xa0\xce\x91\xce\x94\xce\x9f\xce\xa0"
	    "\xce\x9f\xce\xa5\xce\x9b\xce\x9f\xce\xa3", true },
	/* different players stay different */
	{ "M\xc3\xbcller", "Mueller", false },
	{ "\xd0\x9a\xd0\xb0\xd1\x80\xd0\xbf\xd0\xbe\xd0\xb2", "Karpov",
	    false },
	{ "Nguyen", "Nguyan", false },
	{ "Serban", "Sorban", false },
	{ "\xe6\x9d\x8e", "\xe7\x8e\x8b", false },	/* kept as they came */
};

static size_t
surname(const char *s, char *out, size_t cap)
{
	size_t n = cd_dedup_surname(s, strlen(s), out, cap);

	ck_assert_uint_le(n, 2 * strlen(s));
	ck_assert_uint_le(n, cap);
	return n;
}

START_TEST(test_names)
{
	const struct name_case *c = &name_cases[_i];
	char a[256], b[256];
	size_t na = surname(c->a, a, sizeof(a));
	size_t nb = surname(c->b, b, sizeof(b));
	bool same = na == nb && memcmp(a, b, na) == 0;

	ck_assert_msg(same == c->same, "'%s' (%.*s) and '%s' (%.*s): %s",
	    c->a, (int)na, a, c->b, (int)nb, b, same ? "one player" :
	    "two players");
}
END_TEST

/* Every code point, in UTF-8 and (below 256) as a Latin-1 byte, folds
 * within twice its length, to lower case letters and digits when it
 * folds to ASCII. */
START_TEST(test_bound)
{
	unsigned char in[8], out[64];
	uint32_t cp;
	size_t n, m, i;

	for (cp = 0x80; cp < 0x110000; cp++) {
		if (cp >= 0xd800 && cp <= 0xdfff)
			continue;
		if (cp < 0x800) {
			in[0] = (unsigned char)(0xc0 | cp >> 6);
			in[1] = (unsigned char)(0x80 | (cp & 0x3f));
			n = 2;
		} else if (cp < 0x10000) {
			in[0] = (unsigned char)(0xe0 | cp >> 12);
			in[1] = (unsigned char)(0x80 | (cp >> 6 & 0x3f));
			in[2] = (unsigned char)(0x80 | (cp & 0x3f));
			n = 3;
		} else {
			in[0] = (unsigned char)(0xf0 | cp >> 18);
			in[1] = (unsigned char)(0x80 | (cp >> 12 & 0x3f));
			in[2] = (unsigned char)(0x80 | (cp >> 6 & 0x3f));
			in[3] = (unsigned char)(0x80 | (cp & 0x3f));
			n = 4;
		}
		m = cd_dedup_surname((const char *)in, n, (char *)out,
		    sizeof(out));
		/* (ck_assert marks every call: a failure only) */
		if (m > 2 * n)
			ck_abort_msg("U+%04X: %zu bytes", (unsigned)cp, m);
		for (i = 0; i < m; i++)
			if (out[i] < 0x80 && !(out[i] >= 'a' &&
			    out[i] <= 'z') && !(out[i] >= '0' &&
			    out[i] <= '9'))
				ck_abort_msg("U+%04X: byte %02x",
				    (unsigned)cp, out[i]);
		if (cp < 0x100) {
			in[0] = (unsigned char)cp;
			m = cd_dedup_surname((const char *)in, 1,
			    (char *)out, sizeof(out));
			if (m > 2)
				ck_abort_msg("Latin-1 %02x: %zu bytes",
				    (unsigned)cp, m);
		}
	}
}
END_TEST

static Suite *
dedup_suite(void)
{
	Suite *s = suite_create("dedup");
	TCase *tc = tcase_create("surname");

	tcase_add_loop_test(tc, test_names, 0,
	    (int)(sizeof(name_cases) / sizeof(name_cases[0])));
	tcase_add_test(tc, test_bound);
	suite_add_tcase(s, tc);
	return s;
}

TU_SUITES(dedup_suite);
