/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * cli-options.c: option values the tools read alike (see cli.h): sizes
 * (pgn-sort -S, pgn-split -b) and the hint for an optional value
 * written after a space.
 */
#include "config.h"

#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"

/* ---- sizes ---- */

/*
 * An integer and an optional unit: b (bytes), a letter of sort(1)'s
 * (k K m M g G t T P E: powers of 1024), which may be followed by iB
 * (the same) or B (powers of 1000), or, with CLI_SIZE_PERCENT, `%`
 * (of the physical memory, 100 at most).  Without a unit, unit bytes.
 */
uint64_t
cli_parse_size(const char *opt, const char *arg, uint64_t unit, int flags)
{
	static const char letters[] = "kKmMgGtTPE";
	const char *p = arg, *l;
	uint64_t v = 0, mul = unit, base = 1024;
	int power, i;

	if (*p < '0' || *p > '9')
		goto bad;
	for (; *p >= '0' && *p <= '9'; p++) {
		if (v > (UINT64_MAX - (uint64_t)(*p - '0')) / 10)
			goto big;
		v = v * 10 + (uint64_t)(*p - '0');
	}
	if (*p == '\0')
		goto done;
	if (p[0] == 'b' && p[1] == '\0') {
		mul = 1;
		goto done;
	}
	if (p[0] == '%' && p[1] == '\0' && (flags & CLI_SIZE_PERCENT)) {
		long pages = sysconf(_SC_PHYS_PAGES);
		long psize = sysconf(_SC_PAGESIZE);
		unsigned __int128 m;

		if (v > 100)
			cli_usage_error("%s: at most 100%% of the memory, not "
			    "'%s'", opt, arg);
		if (pages <= 0 || psize <= 0)
			cli_usage_error("%s: the size of the memory is not "
			    "known: '%s'", opt, arg);
		m = (unsigned __int128)pages * (uint64_t)psize * v / 100;
		if (m > UINT64_MAX)
			goto big;
		return (uint64_t)m;
	}
	if (*p == '\0' || (l = strchr(letters, *p)) == NULL)
		goto bad;
	power = (int)(l - letters) / 2 + 1;	/* K 1, M 2, ... E 6 */
	if (l - letters >= 8)
		power = (int)(l - letters) - 3;	/* P 5, E 6 */
	p++;
	if (p[0] == 'B' && p[1] == '\0')
		base = 1000;
	else if (!(*p == '\0' || (p[0] == 'i' && p[1] == 'B' &&
	    p[2] == '\0')))
		goto bad;
	for (mul = 1, i = 0; i < power; i++)
		mul *= base;
done:
	if (mul != 0 && v > UINT64_MAX / mul)
		goto big;
	return v * mul;
bad:
	cli_usage_error("%s: invalid size '%s' (an integer with an optional "
	    "unit: b; K, M, G, T, P, E or KiB, MiB, ... of 1024; KB, MB, "
	    "... of 1000%s)", opt, arg, flags & CLI_SIZE_PERCENT ?
	    "; % of the memory" : "");
big:
	cli_usage_error("%s: size too large '%s'", opt, arg);
}

/* ---- an optional value after a space ---- */

/* Words that followed an option taking an optional value (written
 * without `=`), which getopt took for operands. */
static struct {
	const char *word;
	const char *option;
} *loose;
static size_t nloose;

/* The long option name (len bytes) stands for, as getopt_long reads
 * it: itself or the one option it begins; NULL otherwise. */
static const struct option *
long_option(const struct option *longopts, const char *name, size_t len)
{
	const struct option *o, *found = NULL;
	int n = 0;

	for (o = longopts; o->name != NULL; o++) {
		if (strncmp(o->name, name, len) != 0)
			continue;
		if (o->name[len] == '\0')
			return o;
		found = o;
		n++;
	}
	return n == 1 ? found : NULL;
}

void
cli_options_scan(int argc, char *const *argv, const char *shortopts,
    const struct option *longopts)
{
	int i;

	if (*shortopts == '+' || *shortopts == '-')
		shortopts++;
	if (*shortopts == ':')
		shortopts++;
	free(loose);
	loose = NULL;
	nloose = 0;
	for (i = 1; i < argc; i++) {
		const char *a = argv[i];

		if (strcmp(a, "--") == 0)
			break;
		if (a[0] != '-' || a[1] == '\0')
			continue;
		if (a[1] == '-') {
			size_t len = strcspn(a + 2, "=");
			const struct option *o = long_option(longopts, a + 2,
			    len);

			if (o == NULL || a[2 + len] == '=')
				continue;
			if (o->has_arg == required_argument)
				i++;
			else if (o->has_arg == optional_argument &&
			    i + 1 < argc && argv[i + 1][0] != '-') {
				if (loose == NULL && (loose = calloc(
				    (size_t)argc, sizeof(*loose))) == NULL)
					cli_fatal("out of memory");
				loose[nloose].word = argv[i + 1];
				loose[nloose].option = o->name;
				nloose++;
			}
			continue;
		}
		for (a++; *a != '\0'; a++) {
			const char *s = strchr(shortopts, *a);

			if (*a == ':' || s == NULL || s[1] != ':')
				continue;
			/* its value: the rest, or (required) the next word */
			if (a[1] == '\0' && s[2] != ':')
				i++;
			break;
		}
	}
}

const char *
cli__option_hint(const char *name)
{
	static char buf[256];
	size_t i;

	for (i = 0; i < nloose; i++)
		if (strcmp(loose[i].word, name) == 0) {
			snprintf(buf, sizeof(buf), " (did you mean --%s=%s?)",
			    loose[i].option, name);
			return buf;
		}
	return "";
}
