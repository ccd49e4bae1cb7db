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

static unsigned opt_flags;
static const cd_openings *openings;	/* --openings */

static void
usage(void)
{
	printf("Usage: %s [OPTION]... [FILE]...\n", cli_prog);
	fputs(
	    "Read PGN games and write each as one line of JSON (NDJSON):\n"
	    "tags, start and final FEN, SAN and UCI moves, plies, result,\n"
	    "termination, and the clocks, elapsed times and evaluations of\n"
	    "[%clk], [%emt] and [%eval] comments.\n"
	    "\n"
	    "  -c, --comments        add \"comments\": the comment text of every\n"
	    "                        ply (and before the first move)\n"
	    "  -f, --fens            add \"fens\": the FEN after every ply\n"
	    "      --openings=FILE   add \"opening\", classified by the table FILE\n"
	    "                        (TSV or PGN; repeatable; default: the files\n"
	    "                        $CHESSDATA_OPENINGS names)\n"
	    "      --variations      add \"variations\": the move tree\n", stdout);
	cli_usage_options(CLI_TAKE_GAMES);
	fputs(
	    "\n"
	    "With no FILE, or when FILE is -, read standard input.\n"
	    "Exit status: 0 success, 1 some game was rejected,\n"
	    "2 usage or system error.\n", stdout);
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
	enum { OPT_OPENINGS = 256, OPT_VARIATIONS };
	static const struct option longopts[] = {
		{ "comments", no_argument, NULL, 'c' },
		{ "fens", no_argument, NULL, 'f' },
		{ "openings", required_argument, NULL, OPT_OPENINGS },
		{ "variations", no_argument, NULL, OPT_VARIATIONS },
		{ NULL, 0, NULL, 0 }
	};
	int c, status = 0;

	cli_init(argv[0]);
	while ((c = cli_getopt(argc, argv, "cf", longopts, CLI_TAKE_GAMES,
	    usage)) != -1) {
		switch (c) {
		case 'c':
			opt_flags |= CD_JSON_COMMENTS;
			cli_games.opts.flags |=
			    CD_PGN_PARSE_COMMENTS_AS_WRITTEN;
			break;
		case 'f': opt_flags |= CD_JSON_FENS; break;
		case OPT_OPENINGS: cli_openings_add(optarg); break;
		case OPT_VARIATIONS: opt_flags |= CD_JSON_VARIATIONS; break;
		}
	}
	if ((openings = cli_openings_load(argc, argv, optind)) != NULL) {
		opt_flags |= CD_JSON_OPENING;
		/* (classifying makes fewer moves again) */
		cli_games.opts.flags |= CD_PGN_PARSE_MAIN_KEYS;
	}
	cli_games.opts.lang = cli_opts.lang;
	cli_games.each = to_json;
	cli_files_open(argc, argv, optind);
	if (cli_each_input(argc, argv, optind, cli_games_file) != 0)
		status = 2;
	cli_games_end();
	cli_rejects_close();
	cli_finish(status, cli_games.read, cli_games.written,
	    cli_games.rejected);
}
