/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * collate_name.c: the standard's section 11, file names for PGN data
 * (see chessdata/collate.h): a file per player (11.2), per event
 * (11.3), per year, month or day (11.4, 11.5), beside section 12's
 * collation in collate.c.  pgn-split --by names its files so.
 */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "chessdata.h"

/*
 * A tag value as a portable file name root (chessdata/collate.h and
 * cd_data(3), cd_collate_file_root, say the rule): ASCII letters
 * folded to lower case and digits kept, `-` and `.` kept inside the
 * name; Latin-1 letters (in UTF-8 or as Latin-1 bytes) spelled in
 * ASCII (é e, ß ss, Æ ae); the bytes of any other UTF-8 character,
 * and any other byte from 0x80 up, two hex digits each; every other
 * run of bytes (spaces, punctuation, `/`, control bytes) one `_`;
 * `_`, `-` and `.` trimmed at both ends; at most 120 bytes;
 * "_unknown" when nothing is left; a `_` after Windows' device names
 * (con, nul, com1, ...: what comes before the first dot).
 */
#define NAME_MAX_LEN	CD_COLLATE_ROOT_MAX

/* The length of the well-formed UTF-8 sequence of two bytes or more at
 * p, or 0. */
static int
utf8_seq(const unsigned char *p, const unsigned char *e)
{
	int n, i;

	if (*p >= 0xc2 && *p <= 0xdf)
		n = 2;
	else if (*p >= 0xe0 && *p <= 0xef)
		n = 3;
	else if (*p >= 0xf0 && *p <= 0xf4)
		n = 4;
	else
		return 0;
	if (e - p < n)
		return 0;
	for (i = 1; i < n; i++)
		if ((p[i] & 0xc0) != 0x80)
			return 0;
	return n;
}

size_t
cd_collate_file_root(const char *v, size_t n, char *out)
{
	static const char *const latin1[64] = {
		"a", "a", "a", "a", "a", "a", "ae", "c",
		"e", "e", "e", "e", "i", "i", "i", "i",
		"d", "n", "o", "o", "o", "o", "o", "_",
		"o", "u", "u", "u", "u", "y", "th", "ss",
		"a", "a", "a", "a", "a", "a", "ae", "c",
		"e", "e", "e", "e", "i", "i", "i", "i",
		"d", "n", "o", "o", "o", "o", "o", "_",
		"o", "u", "u", "u", "u", "y", "th", "y"
	};
	static const char *const devices[] = { "con", "prn", "aux", "nul",
		"com1", "com2", "com3", "com4", "com5", "com6", "com7", "com8",
		"com9", "lpt1", "lpt2", "lpt3", "lpt4", "lpt5", "lpt6", "lpt7",
		"lpt8", "lpt9" };
	const unsigned char *p, *e;
	size_t len = 0, i, stem;

	if (v == NULL)
		v = "";
	p = (const unsigned char *)v;
	e = p + n;

	while (p < e && len < NAME_MAX_LEN) {
		unsigned c = *p;
		const char *s;
		char hex[3];
		int k;

		if ((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
		    c == '-' || c == '.') {
			out[len++] = (char)c;
			p++;
			continue;
		}
		if (c >= 'A' && c <= 'Z') {
			out[len++] = (char)(c - 'A' + 'a');
			p++;
			continue;
		}
		if (c >= 0x80 && (k = utf8_seq(p, e)) > 0) {
			if (c == 0xc3) {
				s = latin1[p[1] - 0x80];  /* U+00C0..U+00FF */
				p += 2;
			} else {
				/* another character: its bytes in hex */
				while (k-- > 0 && len + 2 <= NAME_MAX_LEN) {
					snprintf(out + len, 3, "%02x", *p++);
					len += 2;
				}
				p += k + 1;
				continue;
			}
		} else if (c >= 0xc0) {
			s = latin1[c - 0xc0];
			p++;
		} else if (c >= 0x80) {
			snprintf(hex, sizeof(hex), "%02x", c);
			s = hex;
			p++;
		} else {
			s = "_";
			p++;
		}
		if (*s == '_' && len > 0 && out[len - 1] == '_')
			continue;
		while (*s && len < NAME_MAX_LEN)
			out[len++] = *s++;
	}
	while (len > 0 && strchr("_-.", out[len - 1]) != NULL)
		len--;
	for (i = 0; i < len && strchr("_-.", out[i]) != NULL; i++)
		;
	memmove(out, out + i, len - i);
	len -= i;
	out[len] = '\0';
	if (len == 0) {
		strcpy(out, "_unknown");
		return strlen(out);
	}
	/* the part before the first dot decides: con.txt is CON too */
	stem = strcspn(out, ".");
	for (i = 0; i < sizeof(devices) / sizeof(devices[0]); i++)
		if (strlen(devices[i]) == stem &&
		    memcmp(out, devices[i], stem) == 0) {
			memmove(out + stem + 1, out + stem, len - stem + 1);
			out[stem] = '_';
			len++;
			break;
		}
	return len;
}

size_t
cd_collate_player_root(const char *v, size_t n, char *out)
{
	const char *comma = v != NULL ? memchr(v, ',', n) : NULL;

	return cd_collate_file_root(v, comma ? (size_t)(comma - v) : n, out);
}

size_t
cd_collate_date_path(const char *v, size_t n, int parts, char *out)
{
	unsigned ymd[3];
	char d[9];

	/* no date at all is where "????.??.??" goes, the export form's
	 * value for it (pgn-sort's first, as the empty value is) */
	if (v == NULL || n == 0)
		v = "????.??.??", n = 10;
	if (cd_collate_date_read(v, n, ymd) != CD_DATE_VALID) {
		strcpy(out, "_unknown");
		return strlen(out);
	}
	snprintf(d, sizeof(d), "%04u%02u%02u", ymd[0] % 10000, ymd[1] % 100,
	    ymd[2] % 100);
	if (parts <= 1)
		return (size_t)snprintf(out, CD_COLLATE_DATE_PATH_SIZE, "%.4s",
		    d);
	if (parts == 2)
		return (size_t)snprintf(out, CD_COLLATE_DATE_PATH_SIZE,
		    "%.4s/%.6s", d, d);
	return (size_t)snprintf(out, CD_COLLATE_DATE_PATH_SIZE,
	    "%.4s/%.6s/%s", d, d, d);
}
