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
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "chessdata.h"
#include "cli/cli.h"
#include "cli/games.h"

static unsigned opt_flags;
static bool opt_positions;	/* --positions: an object per position */
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
	    "      --positions       one object per main-line position instead:\n"
	    "                        game, ply, key (Polyglot, 16 hex digits),\n"
	    "                        epd, move (SAN; null at the end), result,\n"
	    "                        white_elo, black_elo (numbers or null)\n"
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

/* Append the n bytes at s. */
static void
put(cd_buf *out, const char *s, size_t n)
{
	cli_buf_reserve(out, n);
	memcpy(out->data + out->len, s, n);
	out->len += n;
}

/* --positions: an object for each position of g's main line, the
 * start to the final one, the columns of pgn2tsv --positions; the
 * game's result and Elos made once in tail. */
static void
positions(struct cli_job *j)
{
	const cd_game *g = j->game;
	const cd_game_node *nodes = g->nodes;
	cd_buf *out = j->out, tail = { 0 };
	cd_board b = g->start;
	static const char *const elos[] = { "WhiteElo", "BlackElo" };
	char num[64], epd[CD_FEN_MAX];
	uint32_t n = 0, next;
	size_t k, len;
	int i;

	k = (size_t)snprintf(num, sizeof(num), ",\"result\":\"%s\"",
	    cd_pgn_result_str(cd_game_result(g)));
	put(&tail, num, k);
	for (i = 0; i < 2; i++) {
		const char *v = cli_game_elo(g, elos[i], &len);

		put(&tail, i == 0 ? ",\"white_elo\":" : ",\"black_elo\":", 13);
		if (v != NULL)
			put(&tail, v, len);
		else
			put(&tail, "null", 4);
	}
	put(&tail, "}\n", 2);
	for (;;) {
		next = nodes[n].next;
		k = (size_t)snprintf(num, sizeof(num), "{\"game\":%" PRIu64
		    ",\"ply\":%" PRIu32 ",\"key\":\"", j->index,
		    nodes[n].ply);
		put(out, num, k);
		cli_put_key(num, cd_polyglot_key(&b));
		put(out, num, 16);
		put(out, "\",\"epd\":\"", 9);
		put(out, epd, cd_fen_write_epd(&b, epd));
		put(out, "\",\"move\":", 9);
		if (next == 0)
			put(out, "null", 4);
		else if (cd_json_append_string(out, nodes[next].san,
		    nodes[next].san_len) != CD_OK)
			cli_fatal("out of memory");
		put(out, tail.data, tail.len);
		if (next == 0)
			break;
		cd_board_make(&b, nodes[next].move);
		n = next;
	}
	free(tail.data);
}

/* Write one game that parsed. */
static const char *
to_json(struct cli_job *j, const cd_pgn_raw_game *raw)
{
	cd_opening op;
	bool found = openings != NULL &&
	    cd_openings_classify(openings, j->game, &op);

	(void)raw;
	if (opt_positions) {
		positions(j);
		return NULL;
	}
	if (cd_game_write_json_opening(j->game, j->index, opt_flags,
	    found ? &op : NULL, j->out) != CD_OK)
		cli_fatal("out of memory");
	return NULL;
}

int
main(int argc, char **argv)
{
	enum { OPT_OPENINGS = 256, OPT_VARIATIONS, OPT_POSITIONS };
	static const struct option longopts[] = {
		{ "comments", no_argument, NULL, 'c' },
		{ "fens", no_argument, NULL, 'f' },
		{ "openings", required_argument, NULL, OPT_OPENINGS },
		{ "positions", no_argument, NULL, OPT_POSITIONS },
		{ "variations", no_argument, NULL, OPT_VARIATIONS },
		{ NULL, 0, NULL, 0 }
	};
	int c, status = 0;
	bool openings_given = false;

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
		case OPT_OPENINGS:
			cli_openings_add(optarg);
			openings_given = true;
			break;
		case OPT_VARIATIONS: opt_flags |= CD_JSON_VARIATIONS; break;
		case OPT_POSITIONS: opt_positions = true; break;
		}
	}
	if (opt_positions && (opt_flags != 0 || openings_given))
		cli_usage_error("--positions has its own keys: no --comments, "
		    "--fens, --openings or --variations");
	if (!opt_positions &&
	    (openings = cli_openings_load(argc, argv, optind)) != NULL) {
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
