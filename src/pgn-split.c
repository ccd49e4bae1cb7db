/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * pgn-split: cut PGN archives at game boundaries, into parts whose
 * concatenation is the input (-n, -l, -b) or into the files of the
 * standard's section 11 (--by).  The split itself is src/cli/split.c;
 * this file reads the options and drives it.
 */
#include "config.h"

#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "chessdata.h"
#include "cli/cli.h"
#include "cli/split.h"

static struct cli_split_opts opts = {
	.mode = CLI_SPLIT_NONE, .dir = ".", .prefix = "part"
};

static void
usage(void)
{
	printf("Usage: %s [OPTION]... [FILE]...\n", cli_prog);
	fputs(
	    "Cut PGN archives between games: into parts whose concatenation\n"
	    "is the input, or into the files of PGN standard section 11.\n"
	    "\n"
	    "  -b, --bytes=SIZE      parts of at most SIZE bytes (an integer with\n"
	    "                        b, K, M, G, T, P, E: of 1024; KB, MB, ...:\n"
	    "                        of 1000)\n"
	    "      --by=KEY          a file per player, event, year, month or day\n"
	    "                        (KEY: player, event, year, month, day)\n"
	    "  -d, --directory=DIR   write the files into DIR (created; default:\n"
	    "                        the current directory)\n"
	    "  -l, --games=GAMES     parts of GAMES games\n"
	    "      --append          --by: append to files that exist\n"
	    "      --list            print each part's name once it is written\n"
	    "  -n, --number=N        N parts of about equal size\n"
	    "      --prefix=PREFIX   parts are PREFIXNNN.pgn (default: part)\n", stdout);
	cli_usage_options(CLI_TAKE_QUIET | CLI_TAKE_STATS | CLI_TAKE_MEMLIMIT |
	    CLI_TAKE_NESTED);
	fputs(
	    "\n"
	    "With no FILE, or when FILE is -, read standard input.\n"
	    "Exit status: 0 success, 1 binary data was met, 2 usage or\n"
	    "system error.\n", stdout);
}

static void
set_mode(enum cli_split_mode m)
{
	if (opts.mode != CLI_SPLIT_NONE && opts.mode != m)
		cli_usage_error("-n, -l, -b and --by exclude each other");
	opts.mode = m;
}

/* -l GAMES, -n N: a positive decimal number (N up to a million). */
static uint64_t
parse_number(int c, const char *arg)
{
	char *end;
	unsigned long long v;

	errno = 0;
	v = strtoull(arg, &end, 10);
	if (*arg < '0' || *arg > '9' || *end != '\0' || errno != 0 ||
	    v == 0 || (c == 'n' && v > 1000000))
		cli_usage_error("-%c: invalid number '%s'", c, arg);
	return v;
}

int
main(int argc, char **argv)
{
	enum { OPT_APPEND = 256, OPT_BY, OPT_LIST, OPT_PREFIX };
	static const struct option longopts[] = {
		{ "append", no_argument, NULL, OPT_APPEND },
		{ "by", required_argument, NULL, OPT_BY },
		{ "bytes", required_argument, NULL, 'b' },
		{ "directory", required_argument, NULL, 'd' },
		{ "games", required_argument, NULL, 'l' },
		{ "list", no_argument, NULL, OPT_LIST },
		{ "number", required_argument, NULL, 'n' },
		{ "prefix", required_argument, NULL, OPT_PREFIX },
		{ NULL, 0, NULL, 0 }
	};
	static const struct { const char *name; enum cli_split_mode m; }
	    keys[] = {
		{ "player", CLI_SPLIT_PLAYER }, { "event", CLI_SPLIT_EVENT },
		{ "year", CLI_SPLIT_YEAR }, { "month", CLI_SPLIT_MONTH },
		{ "day", CLI_SPLIT_DAY }
	};
	cli_split *sp;
	int c, status;
	size_t i;

	cli_init(argv[0]);
	while ((c = cli_getopt(argc, argv, "b:d:l:n:", longopts,
	    CLI_TAKE_QUIET | CLI_TAKE_STATS | CLI_TAKE_MEMLIMIT |
	    CLI_TAKE_NESTED, usage)) != -1) {
		switch (c) {
		case 'b':
			set_mode(CLI_SPLIT_BYTES);
			opts.value = cli_parse_size("-b", optarg, 1, 0);
			if (opts.value == 0)
				cli_usage_error("-b: must be at least 1");
			break;
		case 'l':
		case 'n':
			set_mode(c == 'l' ? CLI_SPLIT_GAMES : CLI_SPLIT_COUNT);
			opts.value = parse_number(c, optarg);
			break;
		case OPT_BY:
			for (i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
				if (strcmp(optarg, keys[i].name) == 0)
					break;
			if (i == sizeof(keys) / sizeof(keys[0]))
				cli_usage_error("--by: unknown key '%s' "
				    "(player, event, year, month, day)",
				    optarg);
			set_mode(keys[i].m);
			break;
		case 'd': opts.dir = optarg; break;
		case OPT_APPEND: opts.append = 1; break;
		case OPT_LIST: opts.list = 1; break;
		case OPT_PREFIX:
			if (strchr(optarg, '/') != NULL)
				cli_usage_error("--prefix: no '/' (use -d)");
			opts.prefix = optarg;
			break;
		}
	}
	if (opts.mode == CLI_SPLIT_NONE)
		cli_usage_error("say how to split: -n, -l, -b or --by");
	if (opts.list && opts.mode >= CLI_SPLIT_PLAYER)
		cli_usage_error("--list goes with -n, -l and -b");
	if (opts.append && opts.mode < CLI_SPLIT_PLAYER)
		cli_usage_error("--append goes with --by");
	if (*opts.dir == '\0')
		cli_usage_error("-d: empty directory name");
	/* (standard output, for --list, may not be an input) */
	cli_inputs(argc, argv, optind);
	cli_output_open(NULL);
	sp = cli_split_new(&opts, argc, argv, optind);
	status = cli_split_run(sp);
	if (cli_opts.stats)
		cli_stats(cli_split_games(sp), cli_split_games(sp), 0);
	cli_split_free(sp);
	cli_exit(status);
}
