/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * pgn-regularize: PGN in import format in, export format out
 * (docs/export-format.md), every move checked.  A game that does not
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
#include "cli.h"

#define OUT_FLUSH	((size_t)1 << 20)

static int opt_reduced, opt_stats, opt_verbose;
static const char *opt_rejects;
static const cd_san_lang *opt_lang;
static FILE *out;
static cd_pgn_buf obuf;

static void
usage(void)
{
	printf("Usage: %s [OPTION]... [FILE]...\n"
	    "Read PGN games (lenient import format), check every move, and\n"
	    "write them in the exact export format.\n\n"
	    "      --lang=LANG       read piece letters of language LANG (de,\n"
	    "                        fr, German, ...: standard section 17)\n"
	    "  -o, --output=FILE     write to FILE (may be one of the inputs)\n"
	    "  -q, --quiet           no progress line, no warning about text\n"
	    "                        that is not PGN\n"
	    "  -r, --reduced         write the reduced export format\n"
	    "      --rejects=FILE    copy the original bytes of every rejected\n"
	    "                        game to FILE\n"
	    "      --stats           print counts and time on standard error\n"
	    "  -v, --verbose         warn about what was normalized, and about\n"
	    "                        results that contradict the final position\n"
	    "  -h, --help            show this help and exit\n"
	    "  -V, --version         show the version and exit\n\n"
	    "With no FILE, or when FILE is -, read standard input.\n"
	    "Exit status: 0 success, 1 some game was rejected,\n"
	    "2 usage or system error.\n", cli_prog);
}

static void
flush_out(void)
{
	if (obuf.len == 0)
		return;
	if (fwrite(obuf.data, 1, obuf.len, out) != obuf.len)
		cli_output_check();
	obuf.len = 0;
	cli_output_check();
}

static void
warn_cb(void *ctx, unsigned long line, unsigned long col, const char *msg)
{
	(void)ctx;
	cli_warn_at(cli_games.file, line, col, "game %llu: %s",
	    (unsigned long long)cli_games.number, msg);
}

/* With -v: a result that the final position contradicts. */
static void
check_result(cd_game *g, const cd_pgn_raw_game *raw)
{
	cd_pgn_result r = cd_game_result(g);
	const char *rs = cd_pgn_result_str(r);
	cd_board b;

	cd_game_end_position(g, &b);
	if (cd_board_is_checkmate(&b)) {
		cd_pgn_result want = b.side == CD_WHITE ?
		    CD_PGN_RESULT_BLACK : CD_PGN_RESULT_WHITE;

		if (r != want)
			cli_warn_at(cli_games.file, raw->line, raw->col, "game %llu: "
			    "the game ends in checkmate but the result is %s",
			    (unsigned long long)cli_games.number, rs);
	} else if (cd_board_is_stalemate(&b)) {
		if (r != CD_PGN_RESULT_DRAW)
			cli_warn_at(cli_games.file, raw->line, raw->col, "game %llu: "
			    "the game ends in stalemate but the result is %s",
			    (unsigned long long)cli_games.number, rs);
	} else if (cd_board_insufficient_material(&b)) {
		if (r != CD_PGN_RESULT_DRAW)
			cli_warn_at(cli_games.file, raw->line, raw->col, "game %llu: "
			    "the game ends in a dead position but the result "
			    "is %s", (unsigned long long)cli_games.number, rs);
	}
}

/* Write one game that parsed; NULL, or why it is rejected. */
static const char *
regularize(cd_game *g, const cd_pgn_raw_game *raw)
{
	cd_status st = cd_pgn_write_buf(g, opt_reduced ? CD_PGN_REDUCED : 0,
	    &obuf);

	if (st == CD_ERR_NOMEM)
		cli_fatal("out of memory");
	if (st != CD_OK)	/* not reachable from the parser (it
				 * rejects null moves in the main line) */
		return cd_strerror(st);
	if (opt_verbose)
		check_result(g, raw);
	if (obuf.len >= OUT_FLUSH)
		flush_out();
	return NULL;
}

int
main(int argc, char **argv)
{
	enum { OPT_LANG = 256, OPT_REJECTS, OPT_STATS };
	static const struct option longopts[] = {
		{ "lang", required_argument, NULL, OPT_LANG },
		{ "output", required_argument, NULL, 'o' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "reduced", no_argument, NULL, 'r' },
		{ "rejects", required_argument, NULL, OPT_REJECTS },
		{ "stats", no_argument, NULL, OPT_STATS },
		{ "verbose", no_argument, NULL, 'v' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 }
	};
	const char *outpath = NULL;
	int c, status = 0;

	cli_init(argv[0]);
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":o:qrvhV", longopts, NULL)) !=
	    -1) {
		switch (c) {
		case OPT_LANG:
			opt_lang = cd_san_lang_find(optarg);
			if (opt_lang == NULL)
				cli_usage_error("unknown language '%s'", optarg);
			break;
		case 'o': outpath = optarg; break;
		case 'q': cli_quiet = 1; break;
		case 'r': opt_reduced = 1; break;
		case OPT_REJECTS: opt_rejects = optarg; break;
		case OPT_STATS: opt_stats = 1; break;
		case 'v': opt_verbose = 1; break;
		case 'h': usage(); cli_exit(0);
		case 'V': cli_print_version(); cli_exit(0);
		default:
			cli_bad_option(c, argv);
		}
	}
	if ((cli_games.game = cd_game_new()) == NULL)
		cli_fatal("out of memory");
	cli_games.opts.lang = opt_lang;
	cli_games.opts.flags = opt_reduced ? CD_PGN_PARSE_NO_NULL_MAIN : 0;
	if (opt_verbose)
		cli_games.opts.warn = warn_cb;
	cli_games.each = regularize;
	cli_rejects_open(opt_rejects);
	out = cli_output_open(outpath);
	if (cli_each_input(argc, argv, optind, cli_games_file) != 0)
		status = 2;
	flush_out();
	cd_pgn_buf_free(&obuf);
	cd_game_free(cli_games.game);
	cli_rejects_close();
	if (opt_stats)
		cli_stats(cli_games.read, cli_games.written,
		    cli_games.rejected);
	if (status == 0 && cli_games.rejected > 0)
		status = 1;
	cli_exit(status);
}
