/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * pgn-sort: sort PGN games in the standard's collating order (section
 * 12; pgn-sort(1)), stable, writing each game's bytes as they came.
 * The sort itself, within the memory budget of -S, is src/cli/sort.c;
 * this file reads the options and drives it.
 */
#include "config.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "chessdata.h"
#include "cli/cli.h"
#include "cli/sort.h"

#define DEFAULT_BUDGET	((size_t)256 << 20)

static struct cli_sort_opts sort_opts = { .budget = DEFAULT_BUDGET };
static cli_sort *sorter;
static int status;		/* exit status so far */

/* The end: --stats, then exit with the status. */
static void __attribute__((noreturn))
finish(void)
{
	struct cli_sort_counts n;

	cli_sort_free(sorter, &n);
	if (cli_opts.stats)
		cli_stats(n.read, n.written, n.rejected);
	cli_exit(status);
}

static int
sort_file(FILE *f, const char *name)
{
	return cli_sort_read(sorter, f, name);
}

/* -c: at the first game out of order, end with status 1. */
static int
check_file(FILE *f, const char *name)
{
	int ret = cli_sort_check(sorter, f, name);

	if (ret == 1) {
		status = 1;
		finish();
	}
	return ret;
}

/* ---- options ---- */

/* -S: sort(1)'s syntax (cli_parse_size), KiB without a unit. */
static size_t
parse_size(const char *s)
{
	uint64_t v = cli_parse_size("-S", s, 1024, CLI_SIZE_PERCENT);

	if (v > (uint64_t)(SIZE_MAX / 2))
		cli_usage_error("-S: size too large '%s'", s);
	return v < CLI_SORT_MIN_BUDGET ? CLI_SORT_MIN_BUDGET : (size_t)v;
}

/* -k TAG[,TAG...]: append the names to the keys. */
static void
add_keys(const char *arg)
{
	const char *p = arg, *e;

	do {
		size_t n, i;
		char **k;

		e = strchr(p, ',');
		n = e ? (size_t)(e - p) : strlen(p);
		for (i = 0; i < n; i++)
			if (!(p[i] >= 'A' && p[i] <= 'Z') &&
			    !(p[i] >= 'a' && p[i] <= 'z') &&
			    !(p[i] >= '0' && p[i] <= '9') && p[i] != '_')
				break;
		if (n == 0 || i < n)
			cli_usage_error("-k '%s': not a list of tag names", arg);
		if ((k = realloc(sort_opts.keys, (sort_opts.nkeys + 1) *
		    sizeof(*k))) == NULL ||
		    (k[sort_opts.nkeys] = strndup(p, n)) == NULL)
			cli_fatal("out of memory");
		sort_opts.keys = k;
		sort_opts.nkeys++;
		if (e != NULL)
			p = e + 1;
	} while (e != NULL);
}

static void
usage(void)
{
	printf("Usage: %s [OPTION]... [FILE]...\n", cli_prog);
	fputs(
	    "Sort PGN games in the standard's collating order (Date, Event,\n"
	    "Site, Round, White, Black, Result, movetext), stable, writing\n"
	    "each game's bytes as they came.\n"
	    "\n"
	    "  -c, --check           check that the input is sorted; exit 1 at\n"
	    "                        the first game out of order\n"
	    "  -k, --key=TAG[,TAG...]  sort by these tags first (numbers as\n"
	    "                        numbers, after values that are none,\n"
	    "                        dates as dates), then by the\n"
	    "                        standard's keys; repeatable\n"
	    "  -m, --merge           merge already sorted inputs\n"
	    "  -q, --quiet           no progress line\n"
	    "  -r, --reverse         reverse the order (equal games keep their\n"
	    "                        input order)\n"
	    "  -S, --buffer-size=SIZE  memory budget: an integer with b, K, M, G,\n"
	    "                        T, P, E (KiB without a unit; KB, MB, ...: of\n"
	    "                        1000) or % of memory (default 256M)\n"
	    "      --compress-temp   compress the temporary files (zstd)\n"
	    "  -T, --temporary-directory=DIR  temporary files in DIR (default\n"
	    "                        $TMPDIR or /tmp)\n"
	    "  -u, --unique          keep only the first of games equal in all\n"
	    "                        eight keys as text\n", stdout);
	cli_usage_options(CLI_TAKE_OUTPUT | CLI_TAKE_STATS | CLI_TAKE_COMPRESS |
	    CLI_TAKE_MEMLIMIT | CLI_TAKE_NESTED);
	fputs(
	    "\n"
	    "With no FILE, or when FILE is -, read standard input.\n"
	    "Exit status: 0 success, 1 some game was out of order (-c) or\n"
	    "binary data was met, 2 usage or system error.\n", stdout);
}

int
main(int argc, char **argv)
{
	enum { OPT_COMPRESS_TEMP = 256 };
	static const struct option longopts[] = {
		{ "check", no_argument, NULL, 'c' },
		{ "key", required_argument, NULL, 'k' },
		{ "merge", no_argument, NULL, 'm' },
		{ "reverse", no_argument, NULL, 'r' },
		{ "buffer-size", required_argument, NULL, 'S' },
		{ "compress-temp", no_argument, NULL, OPT_COMPRESS_TEMP },
		{ "temporary-directory", required_argument, NULL, 'T' },
		{ "unique", no_argument, NULL, 'u' },
		{ NULL, 0, NULL, 0 }
	};
	const char *outpath;
	int c, check = 0, merge = 0;

	cli_init(argv[0]);
	while ((c = cli_getopt(argc, argv, "ck:mrS:T:u", longopts,
	    CLI_TAKE_OUTPUT | CLI_TAKE_QUIET | CLI_TAKE_STATS |
	    CLI_TAKE_COMPRESS | CLI_TAKE_MEMLIMIT | CLI_TAKE_NESTED, usage)) !=
	    -1) {
		switch (c) {
		case 'c': check = 1; break;
		case 'k': add_keys(optarg); break;
		case 'm': merge = 1; break;
		case 'r': sort_opts.reverse = 1; break;
		case 'S': sort_opts.budget = parse_size(optarg); break;
		case OPT_COMPRESS_TEMP:
			if (!cd_stream_format_supported(CD_STREAM_ZSTD))
				cli_usage_error("--compress-temp needs zstd, "
				    "which this build leaves out");
			sort_opts.compress_temp = 1;
			break;
		case 'T': sort_opts.tmpdir = optarg; break;
		case 'u': sort_opts.unique = 1; break;
		}
	}
	outpath = cli_opts.output;
	if (check && merge)
		cli_usage_error("-c and -m cannot be used together");
	if (check && outpath != NULL)
		cli_usage_error("-c writes no output: -o makes no sense");
	sorter = cli_sort_new(&sort_opts);
	if (!check)
		cli_inputs(argc, argv, optind);
	(void)cli_output_open(check ? NULL : outpath);
	if (check) {
		if (cli_each_input(argc, argv, optind, check_file) != 0)
			status = 2;
	} else if (merge) {
		if (cli_sort_merge(sorter, argv + optind, argc - optind) != 0)
			status = 2;
	} else {
		if (cli_each_input(argc, argv, optind, sort_file) != 0)
			status = 2;
		if (cli_sort_write(sorter) != 0)
			status = 2;
	}
	finish();
}
