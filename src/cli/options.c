/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * cli/options.c: the options every tool shares, declared once
 * (cli_getopt), the end of a run (cli_finish), option values the tools
 * read alike (see cli.h): sizes (pgn-sort -S, pgn-split -b,
 * --memlimit), jobs, and the hint for an optional value written after
 * a space.
 */
#include "config.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "games.h"

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

/* ---- the options every tool shares ---- */

struct cli_opts cli_opts;

#define OPT_LANG	0x4c41
#define OPT_LEVEL	0x4c56
#define OPT_MEMLIMIT	0x4d4c
#define OPT_REJECTS	0x5245
#define OPT_STATS	0x5354
#define OPT_NESTED	0x4e43

/* Each shared option: the CLI_TAKE_ flag that asks for it (0: every
 * tool), its short letter (with ':' when it has a value) and long form. */
static const struct common {
	unsigned take;
	const char *shortopt;
	struct option longopt;
	const char *help;	/* --help's lines: the option, its text */
} common[] = {
	{ CLI_TAKE_JOBS, "j:", { "jobs", required_argument, NULL, 'j' },
	    "  -j, --jobs=N          parse with N threads (default: one per\n"
	    "                        CPU; the output is the same)\n" },
	{ CLI_TAKE_LANG, "", { "lang", required_argument, NULL, OPT_LANG },
	    "      --lang=LANG       read piece letters of language LANG (de,\n"
	    "                        fr, German, ...: standard section 17)\n" },
	{ CLI_TAKE_OUTPUT, "o:", { "output", required_argument, NULL, 'o' },
	    "  -o, --output=FILE     write to FILE (may be one of the inputs)\n" },
	{ CLI_TAKE_QUIET, "q", { "quiet", no_argument, NULL, 'q' },
	    "  -q, --quiet           no progress line, no warning about text\n"
	    "                        that is not PGN\n" },
	{ CLI_TAKE_REJECTS, "",
	    { "rejects", required_argument, NULL, OPT_REJECTS },
	    "      --rejects=FILE    copy the original bytes of every rejected\n"
	    "                        game to FILE\n" },
	{ CLI_TAKE_STATS, "", { "stats", no_argument, NULL, OPT_STATS },
	    "      --stats           print counts and time on standard error\n" },
	{ CLI_TAKE_COMPRESS, "z:",
	    { "compress", required_argument, NULL, 'z' },
	    "  -z, --compress=FORMAT compress the output: zstd, gzip, bzip2, xz,\n"
	    "                        plain or none (default: from the suffix of\n"
	    "                        -o)\n" },
	{ CLI_TAKE_COMPRESS, "",
	    { "level", required_argument, NULL, OPT_LEVEL },
	    "      --level=N         level (zstd 1-22, xz 0-9, else 1-9)\n" },
	{ CLI_TAKE_MEMLIMIT, "",
	    { "memlimit", required_argument, NULL, OPT_MEMLIMIT },
	    "      --memlimit=SIZE   decompress in at most SIZE (default 2G)\n" },
	{ CLI_TAKE_NESTED, "",
	    { "nested-comments", no_argument, NULL, OPT_NESTED },
	    "      --nested-comments read braces nested in a comment as part\n"
	    "                        of it: { a { b } c } is one comment\n" },
	{ 0, "h", { "help", no_argument, NULL, 'h' },
	    "  -h, --help            show this help and exit\n" },
	{ 0, "V", { "version", no_argument, NULL, 'V' },
	    "  -V, --version         show the version and exit\n" },
};
#define NCOMMON	(sizeof(common) / sizeof(common[0]))

void
cli_usage_options(unsigned take)
{
	size_t i;

	for (i = 0; i < NCOMMON; i++)
		if (common[i].take == 0 || (common[i].take & take))
			fputs(common[i].help, stdout);
}

unsigned
cli_parse_jobs(const char *arg)
{
	char *end;
	long v = strtol(arg, &end, 10);

	if (end == arg || *end != '\0' || v < 1 || v > 256)
		cli_usage_error("invalid number of jobs '%s' (1 to 256)", arg);
	return (unsigned)v;
}

/* A size for --memlimit, in the size syntax of every tool
 * (cli_parse_size), at least 1 MiB. */
static uint64_t
parse_memlimit(const char *arg)
{
	uint64_t v = cli_parse_size("--memlimit", arg, 1, 0);

	if (v < ((uint64_t)1 << 20))
		cli_usage_error("memory limit '%s' is less than 1 MiB", arg);
	return v;
}

/* A shared option the tool takes met: 1 when it was one (dealt with),
 * else 0. */
static int
common_option(int c, const char *arg, unsigned take, void (*usage)(void))
{
	size_t i;

	for (i = 0; i < NCOMMON; i++)
		if (common[i].longopt.val == c && (common[i].take == 0 ||
		    (common[i].take & take)))
			break;
	if (i == NCOMMON)
		return 0;
	switch (c) {
	case 'j': cli_games.jobs = cli_parse_jobs(arg); break;
	case OPT_LANG:
		if ((cli_opts.lang = cd_san_lang_find(arg)) == NULL)
			cli_usage_error("unknown language '%s'", arg);
		break;
	case 'o': cli_opts.output = arg; break;
	case 'q': cli_quiet = 1; break;
	case OPT_REJECTS: cli_opts.rejects = arg; break;
	case OPT_STATS: cli_opts.stats = 1; break;
	case 'z': cli_output_compress(arg, NULL); break;
	case OPT_LEVEL: cli_output_compress(NULL, arg); break;
	case OPT_MEMLIMIT: cli_input_memlimit(parse_memlimit(arg)); break;
	case OPT_NESTED: cli_pgn_flags |= CD_PGN_READ_NESTED_COMMENTS; break;
	case 'h': usage(); cli_exit(0);
	case 'V': cli_print_version(); cli_exit(0);
	default: return 0;
	}
	return 1;
}

int
cli_getopt(int argc, char **argv, const char *shortopts,
    const struct option *longopts, unsigned take, void (*usage)(void))
{
	static char *sopts;
	static struct option *lopts;
	int c;

	if (sopts == NULL) {
		size_t nlong = 0, ns = strlen(shortopts) + 2, i, k;

		while (longopts[nlong].name != NULL)
			nlong++;
		for (i = 0; i < NCOMMON; i++)
			ns += strlen(common[i].shortopt);
		if ((sopts = malloc(ns)) == NULL || (lopts = calloc(nlong +
		    NCOMMON + 1, sizeof(*lopts))) == NULL)
			cli_fatal("out of memory");
		/* ':' first: a missing value is told from an unknown option */
		strcpy(sopts, ":");
		strcat(sopts, shortopts + (*shortopts == ':'));
		memcpy(lopts, longopts, nlong * sizeof(*lopts));
		for (i = 0, k = nlong; i < NCOMMON; i++)
			if (common[i].take == 0 || (common[i].take & take)) {
				strcat(sopts, common[i].shortopt);
				lopts[k++] = common[i].longopt;
			}
		opterr = 0;
		cli_options_scan(argc, argv, sopts, lopts);
	}
	while ((c = getopt_long(argc, argv, sopts, lopts, NULL)) != -1) {
		if (c == ':' || c == '?')
			cli_bad_option(c, argv);
		if (!common_option(c, optarg, take, usage))
			return c;
	}
	return -1;
}

void
cli_files_open(int argc, char **argv, int first)
{
	cli_inputs(argc, argv, first);
	cli_rejects_open(cli_opts.rejects);
	cli_output_open(cli_opts.output);
}

void
cli_finish(int status, uint64_t read, uint64_t written, uint64_t rejected)
{
	cli_rejects_close();
	if (cli_opts.stats)
		cli_stats(read, written, rejected);
	if (status == 0 && rejected > 0)
		status = 1;
	cli_exit(status);
}
