/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * timecontrol.c: the TimeControl tag as periods (chessdata/timecontrol.h).
 */
#include "config.h"

#include <string.h>

#include "common/internal.h"
#include "chessdata/timecontrol.h"

static bool
digit(char c)
{
	return c >= '0' && c <= '9';
}

/* A number at s[*i..e): digits, then maybe a point and digits; its
 * span without leading zeros (one kept before the point) into *p, *n.
 * false when there is none. */
static bool
number(const char *s, size_t *i, size_t e, const char **p, size_t *n)
{
	size_t k = *i, start;

	while (k < e && digit(s[k]))
		k++;
	if (k == *i)
		return false;
	if (k < e && s[k] == '.') {
		size_t f = ++k;

		while (k < e && digit(s[k]))
			k++;
		if (k == f)
			return false;
	}
	start = *i;
	while (start + 1 < k && s[start] == '0' && digit(s[start + 1]))
		start++;
	*p = s + start;
	*n = k - start;
	*i = k;
	return true;
}

int
cd_timecontrol_parse(const char *s, size_t len, cd_tc_period *out,
    size_t max)
{
	size_t i = 0, e = len, n = 0;

	while (i < e && (s[i] == ' ' || s[i] == '\t'))
		i++;
	while (e > i && (s[e - 1] == ' ' || s[e - 1] == '\t'))
		e--;
	if (e - i == 1 && s[i] == '?')
		return CD_TC_UNKNOWN;
	if (e - i == 1 && s[i] == '-')
		return CD_TC_NONE;
	for (;;) {
		cd_tc_period p;
		const char *num;
		size_t nlen;

		memset(&p, 0, sizeof(p));
		if (n == max)
			return CD_TC_INVALID;
		if (i < e && s[i] == '*') {
			p.sandclock = true;
			i++;
		}
		if (!number(s, &i, e, &num, &nlen))
			return CD_TC_INVALID;
		if (!p.sandclock && i < e && s[i] == '/') {
			size_t m;

			/* moves: a whole number, 1 or more */
			for (m = 0; m < nlen; m++)
				if (!digit(num[m]))
					return CD_TC_INVALID;
			if (nlen > 9 || (nlen == 1 && num[0] == '0'))
				return CD_TC_INVALID;
			for (m = 0; m < nlen; m++)
				p.moves = p.moves * 10 + (uint32_t)(num[m] - '0');
			i++;
			if (!number(s, &i, e, &num, &nlen))
				return CD_TC_INVALID;
		}
		p.seconds = num;
		p.seconds_len = nlen;
		if (!p.sandclock && i < e && s[i] == '+') {
			i++;
			if (!number(s, &i, e, &p.increment, &p.increment_len))
				return CD_TC_INVALID;
		}
		out[n++] = p;
		if (i == e)
			return (int)n;
		if (s[i] != ':')
			return CD_TC_INVALID;
		i++;
	}
}
