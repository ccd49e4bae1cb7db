/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * pgn2json: PGN games in, one JSON object per game and line out
 * (NDJSON): tags, start and final FEN, SAN and UCI moves, ply count,
 * result, termination, and per ply the clocks, elapsed times and
 * evaluations of [%clk], [%emt] and [%eval] comments (the library's
 * cd_game_write_json).  A game that does not read is not written: one
 * message names it, and its original bytes go to the rejects file.
 */
#include "config.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>

#include "chessdata.h"
#include "cli.h"
#include "games.h"

static int opt_stats;
static unsigned opt_flags;
static const char *opt_rejects;
static const cd_san_lang *opt_lang;
static const cd_openings *openings;	/* --openings */

static void
usage(void)
{
	printf("Usage: %s [OPTION]... [FILE]...\n"
	    "Read PGN games and write each as one line of JSON (NDJSON):\n"
	    "tags, start and final FEN, SAN and UCI moves, plies, result,\n"
	    "termination, and the clocks, elapsed times and evaluations of\n"
	    "[%%clk], [%%emt] and [%%eval] comments.\n\n"
	    "  -c, --comments        add \"comments\": the comment text of\n"
	    "                        every ply (and before the first move)\n"
	    "  -f, --fens            add \"fens\": the FEN after every ply\n"
	    "  -j, --jobs=N          parse with N threads (default: one per\n"
	    "                        CPU; the output is the same)\n"
	    "      --lang=LANG       read piece letters of language LANG\n"
	    "      --openings=FILE   add \"opening\", classified by the table\n"
	    "                        FILE (TSV or PGN; repeatable; default: the\n"
	    "                        files $CHESSDATA_OPENINGS names)\n"
	    "  -o, --output=FILE     write to FILE\n"
	    "  -z, --compress=FORMAT compress the output: zstd, gzip, bzip2, xz\n"
	    "                        (default: from the suffix of -o)\n"
	    "      --level=N         level (zstd 1-22, xz 0-9, else 1-9)\n"
	    "      --memlimit=SIZE   decompress in at most SIZE (default 2G)\n"
	    "  -q, --quiet           no progress line, no warning about text\n"
	    "                        that is not PGN\n"
	    "      --rejects=FILE    copy the original bytes of every rejected\n"
	    "                        game to FILE\n"
	    "      --stats           print counts and time on standard error\n"
	    "      --variations      add \"variations\": the move tree\n"
	    "  -h, --help            show this help and exit\n"
	    "  -V, --version         show the version and exit\n\n"
	    "With no FILE, or when FILE is -, read standard input.\n"
	    "Exit status: 0 success, 1 some game was rejected,\n"
	    "2 usage or system error.\n", cli_prog);
}

/* Write one game that parsed. */
static const char *
to_json(struct cli_job *j, const cd_pgn_raw_game *raw)
{
	cd_opening op;
	bool found = openings != NULL &&
	    cd_openings_classify(openings, j->game, &op);

	(void)raw;
	if (cd_game_write_json_opening(j->game, j->index, opt_flags,
	    found ? &op : NULL, j->out) != CD_OK)
		cli_fatal("out of memory");
	return NULL;
}

int
main(int argc, char **argv)
{
	enum { OPT_LANG = 256, OPT_OPENINGS, OPT_REJECTS, OPT_STATS,
		OPT_VARIATIONS };
	static const struct option longopts[] = {
		{ "comments", no_argument, NULL, 'c' },
		{ "fens", no_argument, NULL, 'f' },
		{ "jobs", required_argument, NULL, 'j' },
		{ "lang", required_argument, NULL, OPT_LANG },
		{ "openings", required_argument, NULL, OPT_OPENINGS },
		{ "output", required_argument, NULL, 'o' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "rejects", required_argument, NULL, OPT_REJECTS },
		{ "stats", no_argument, NULL, OPT_STATS },
		{ "variations", no_argument, NULL, OPT_VARIATIONS },
		CLI_COMPRESS_OPTIONS,
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 }
	};
	const char *outpath = NULL;
	int c, status = 0;

	cli_init(argv[0]);
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":cfj:o:qz:hV", longopts, NULL)) !=
	    -1) {
		switch (c) {
		case 'c': opt_flags |= CD_JSON_COMMENTS; break;
		case 'f': opt_flags |= CD_JSON_FENS; break;
		case 'j': cli_games.jobs = cli_parse_jobs(optarg); break;
		case OPT_LANG:
			opt_lang = cd_san_lang_find(optarg);
			if (opt_lang == NULL)
				cli_usage_error("unknown language '%s'", optarg);
			break;
		case OPT_OPENINGS: cli_openings_add(optarg); break;
		case 'o': outpath = optarg; break;
		case 'q': cli_quiet = 1; break;
		case OPT_REJECTS: opt_rejects = optarg; break;
		case OPT_STATS: opt_stats = 1; break;
		case OPT_VARIATIONS: opt_flags |= CD_JSON_VARIATIONS; break;
		case 'z': case CLI_OPT_LEVEL: case CLI_OPT_MEMLIMIT:
			cli_compress_option(c, optarg);
			break;
		case 'h': usage(); cli_exit(0);
		case 'V': cli_print_version(); cli_exit(0);
		default:
			cli_bad_option(c, argv);
		}
	}
	if ((openings = cli_openings_load()) != NULL)
		opt_flags |= CD_JSON_OPENING;
	cli_games.opts.lang = opt_lang;
	cli_games.each = to_json;
	cli_inputs(argc, argv, optind);
	cli_rejects_open(opt_rejects);
	cli_output_open(outpath);
	if (cli_each_input(argc, argv, optind, cli_games_file) != 0)
		status = 2;
	cli_games_end();
	cli_rejects_close();
	if (opt_stats)
		cli_stats(cli_games.read, cli_games.written,
		    cli_games.rejected);
	if (status == 0 && cli_games.rejected > 0)
		status = 1;
	cli_exit(status);
}
