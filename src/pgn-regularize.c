/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * pgn-regularize: PGN in import format in, export format out
 * (pgn(5)), every move checked.  A game that does not
 * read is not written: one message names it, and its original bytes go
 * to the rejects file.  Games read = games written + games rejected.
 */
#include "config.h"

#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "chessdata.h"
#include "cli/cli.h"
#include "cli/games.h"

static int opt_reduced, opt_verbose;
static unsigned write_flags;	/* CD_PGN_NO_COMMENTS ... */
static const char *opt_strip;	/* --strip-commands: names, "" for all */
static const cd_openings *openings;	/* --openings */

static void
usage(void)
{
	printf("Usage: %s [OPTION]... [FILE]...\n", cli_prog);
	fputs(
	    "Read PGN games (lenient import format), check every move, and\n"
	    "write them in the exact export format.\n"
	    "\n"
	    "      --openings=FILE   classify openings by the table FILE (TSV or\n"
	    "                        PGN; repeatable; default: the files\n"
	    "                        $CHESSDATA_OPENINGS names, colon-separated)\n"
	    "                        and write them as ECO and Opening tags\n"
	    "      --no-comments     leave out comments\n"
	    "      --no-move-numbers leave out move numbers\n"
	    "      --no-nags         leave out NAGs\n"
	    "      --no-results      leave out the termination marker (the\n"
	    "                        Result tag stays)\n"
	    "      --no-variations   leave out variations\n"
	    "  -r, --reduced         write the reduced export format\n"
	    "      --strip-commands[=LIST]  remove the [%name ...] commands of\n"
	    "                        comments (LIST: names such as clk,emt,eval;\n"
	    "                        default: every command)\n"
	    "  -v, --verbose         warn about what was normalized, and about\n"
	    "                        results that contradict the final position\n", stdout);
	cli_usage_options(CLI_TAKE_GAMES);
	fputs(
	    "\n"
	    "With no FILE, or when FILE is -, read standard input.\n"
	    "Exit status: 0 success, 1 some game was rejected,\n"
	    "2 usage or system error.\n", stdout);
}

static void
warn_cb(void *ctx, unsigned long line, unsigned long col, const char *msg)
{
	const struct cli_job *j = ctx;

	cli_warn_at(j->file, line, col, "warning: game %llu: %s",
	    (unsigned long long)j->number, msg);
}

/* With -v: a game that goes on after an automatic draw (FIDE 9.6: a
 * fivefold repetition or 75 moves), told once at the move that drew;
 * and a result that the final position contradicts. */
static void
check_result(struct cli_job *j, const cd_pgn_raw_game *raw)
{
	cd_game_walk *w = j->priv;	/* the thread's, kept between games */
	cd_pgn_result r = cd_game_result(j->game);
	const cd_game *g = j->game;
	const char *why = NULL;
	unsigned end = 0;
	bool told = false;

	if (w == NULL) {
		if ((w = malloc(sizeof(*w))) == NULL)
			cli_fatal("out of memory");
		cd_game_walk_init(w);
		j->priv = w;
	}
	cd_game_walk_start(w, g, true);
	while (!told && g->nodes[w->node].next != 0) {
		int white = w->rules.board.side == CD_WHITE;
		unsigned long num = w->rules.board.fullmove;

		cd_game_walk_next(w);
		if (!w->track || g->nodes[w->node].next == 0)
			break;
		end = cd_game_walk_endings(w) & CD_END_AUTOMATIC;
		if (end != 0) {
			cli_warn_at(j->file, raw->line, raw->col, "warning: game %llu: "
			    "%lu%s %s: %s: the game was drawn (FIDE %s) but "
			    "goes on", (unsigned long long)j->number, num,
			    white ? "." : "...", g->nodes[w->node].san,
			    end & CD_END_FIVEFOLD ? "fivefold repetition" :
			    "75 moves without a pawn move or capture",
			    end & CD_END_FIVEFOLD ? "9.6.1" : "9.6.2");
			told = true;
		}
	}
	while (cd_game_walk_next(w))
		;
	end = cd_game_walk_endings(w);
	/* what pgn-select --wrong-result selects; and a game the Laws
	 * ended whose result is left unknown */
	why = cd_result_contradiction(&w->rules.board, end |
	    (cd_game_lost_on_time(g) ? CD_END_TIME_FORFEIT : 0), r);
	if (r == CD_PGN_RESULT_UNKNOWN && (end & (CD_END_CHECKMATE |
	    CD_END_STALEMATE | CD_END_DEAD | CD_END_AUTOMATIC)))
		why = cd_result_contradiction(&w->rules.board, end,
		    end & CD_END_CHECKMATE ? CD_PGN_RESULT_DRAW :
		    CD_PGN_RESULT_WHITE);
	if (why != NULL)
		cli_warn_at(j->file, raw->line, raw->col, "warning: game %llu: "
		    "the game %s but the result is %s",
		    (unsigned long long)j->number, why, cd_pgn_result_str(r));
}

static void
walk_free(void *p)
{
	cd_game_walk_free(p);
	free(p);
}

/* The game's opening as tags: ECO and Opening, Variation and
 * SubVariation from a PGN table (removed with a TSV table, whose name
 * holds them); with -v, a warning for each the game had with another
 * value.  A game the table does not classify keeps its tags. */
static void
classify(struct cli_job *j, const cd_pgn_raw_game *raw)
{
	static const char *const name[4] = { "ECO", "Opening", "Variation",
	    "SubVariation" };
	static const size_t name_len[4] = { 3, 7, 9, 12 };
	cd_game *g = j->game;
	const char *value[4];
	long at[4] = { -1, -1, -1, -1 };
	cd_opening op;
	size_t i;
	int k;

	if (!cd_openings_classify(openings, g, &op))
		return;
	value[0] = op.eco;
	value[1] = op.opening;
	value[2] = op.variation;
	value[3] = op.subvariation;
	/* the four tags the game has, in one pass */
	for (i = 0; i < g->ntags; i++)
		for (k = 0; k < 4; k++)
			if (g->tags[i].name_len == name_len[k] &&
			    memcmp(cd_game_str(g, g->tags[i].name), name[k],
			    name_len[k]) == 0)
				at[k] = (long)i;
	for (k = 0; k < 4; k++) {
		const char *old = at[k] < 0 ? NULL :
		    cd_game_str(g, g->tags[at[k]].value);
		size_t vlen = strlen(value[k]);

		if (old != NULL && g->tags[at[k]].value_len == vlen &&
		    memcmp(old, value[k], vlen) == 0)
			continue;
		if (opt_verbose && old != NULL)
			cli_warn_at(j->file, raw->line, raw->col, "warning: "
			    "game %llu: %s \"%s\" %s%s%s",
			    (unsigned long long)j->number, name[k], old,
			    vlen > 0 ? "replaced by \"" : "removed", value[k],
			    vlen > 0 ? "\"" : "");
		if (vlen > 0 ? cd_game_add_tag(g, name[k], name_len[k],
		    value[k], vlen) != CD_OK : old != NULL &&
		    !cd_game_remove_tag(g, name[k]))
			cli_fatal("out of memory");
	}
}

/* Write one game that parsed; NULL, or why it is rejected. */
static const char *
regularize(struct cli_job *j, const cd_pgn_raw_game *raw)
{
	cd_status st;

	if (openings != NULL)
		classify(j, raw);
	if (opt_strip != NULL)
		cd_game_strip_commands(j->game, *opt_strip ? opt_strip : NULL);
	st = cd_pgn_write_buf(j->game, write_flags, j->out);

	if (st == CD_ERR_NOMEM)
		cli_fatal("out of memory");
	if (st != CD_OK)	/* not reachable from the parser (it
				 * rejects null moves in the main line) */
		return cd_strerror(st);
	if (opt_verbose)
		check_result(j, raw);
	return NULL;
}

int
main(int argc, char **argv)
{
	enum { OPT_OPENINGS = 256, OPT_STRIP, OPT_NO_COMMENTS,
		OPT_NO_NAGS, OPT_NO_VARIATIONS, OPT_NO_RESULTS,
		OPT_NO_MOVE_NUMBERS };
	static const struct option longopts[] = {
		{ "no-comments", no_argument, NULL, OPT_NO_COMMENTS },
		{ "no-move-numbers", no_argument, NULL, OPT_NO_MOVE_NUMBERS },
		{ "no-nags", no_argument, NULL, OPT_NO_NAGS },
		{ "no-results", no_argument, NULL, OPT_NO_RESULTS },
		{ "no-variations", no_argument, NULL, OPT_NO_VARIATIONS },
		{ "openings", required_argument, NULL, OPT_OPENINGS },
		{ "reduced", no_argument, NULL, 'r' },
		{ "strip-commands", optional_argument, NULL, OPT_STRIP },
		{ "verbose", no_argument, NULL, 'v' },
		{ NULL, 0, NULL, 0 }
	};
	int c, status = 0;

	cli_init(argv[0]);
	while ((c = cli_getopt(argc, argv, "rv", longopts, CLI_TAKE_GAMES,
	    usage)) != -1) {
		switch (c) {
		case OPT_OPENINGS: cli_openings_add(optarg); break;
		case OPT_NO_COMMENTS: write_flags |= CD_PGN_NO_COMMENTS; break;
		case OPT_NO_MOVE_NUMBERS:
			write_flags |= CD_PGN_NO_MOVE_NUMBERS;
			break;
		case OPT_NO_NAGS: write_flags |= CD_PGN_NO_NAGS; break;
		case OPT_NO_RESULTS: write_flags |= CD_PGN_NO_RESULT; break;
		case OPT_NO_VARIATIONS:
			write_flags |= CD_PGN_NO_VARIATIONS;
			break;
		case 'r': opt_reduced = 1; break;
		case OPT_STRIP: opt_strip = optarg ? optarg : ""; break;
		case 'v': opt_verbose = 1; break;
		}
	}
	if (opt_reduced)
		write_flags |= CD_PGN_REDUCED;
	openings = cli_openings_load(argc, argv, optind);
	cli_games.opts.lang = cli_opts.lang;
	cli_games.opts.flags = opt_reduced ? CD_PGN_PARSE_NO_NULL_MAIN : 0;
	if (openings != NULL)	/* (classifying makes fewer moves again) */
		cli_games.opts.flags |= CD_PGN_PARSE_MAIN_KEYS;
	if (opt_verbose)
		cli_games.opts.warn = warn_cb;
	cli_games.each = regularize;
	cli_games.priv_free = walk_free;
	cli_files_open(argc, argv, optind);
	if (cli_each_input(argc, argv, optind, cli_games_file) != 0)
		status = 2;
	cli_games_end();
	cli_finish(status, cli_games.read, cli_games.written,
	    cli_games.rejected);
}
