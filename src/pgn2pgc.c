/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * pgn2pgc: PGN in import format in, PGC (man/pgc.5) out.  Every game is
 * read and checked as pgn-regularize reads it, then coded: record 0x01
 * for a game in reduced form, 0x05 ... 0x06 for the others.  A game that
 * does not read, or that PGC cannot hold (a null move, a string longer
 * than its length field), is not written: one message names it, and its
 * original bytes go to the rejects file.
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

static int opt_comments, opt_stats;
static const char *opt_rejects;
static const cd_san_lang *opt_lang;
static FILE *out;
static uint64_t comments_dropped, games_dropping;
static cd_pgn_buf obuf;

static void
usage(void)
{
	printf("Usage: %s [OPTION]... [FILE]...\n"
	    "Read PGN games (lenient import format), check every move, and\n"
	    "write them in PGC, the binary coding of PGN (see pgc(5)).\n\n"
	    "  -c, --comments        keep comments (extension record 0x0b)\n"
	    "      --lang=LANG       read piece letters of language LANG (de,\n"
	    "                        fr, German, ...: standard section 17)\n"
	    "  -o, --output=FILE     write to FILE (may be one of the inputs)\n"
	    "  -q, --quiet           no progress line, no note about dropped\n"
	    "                        comments or text that is not PGN\n"
	    "      --rejects=FILE    copy the original bytes of every\n"
	    "                        rejected game to FILE\n"
	    "      --stats           print counts and time on standard error\n"
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

/* Encode one game that parsed; NULL, or why it is rejected. */
static const char *
encode(cd_game *g, const cd_pgn_raw_game *raw)
{
	static cd_pgc_error perr;
	size_t dropped = 0;
	cd_status st;

	(void)raw;
	st = cd_pgc_encode(g, opt_comments ? CD_PGC_WITH_COMMENTS : 0, &obuf,
	    &dropped, &perr);
	if (st == CD_ERR_NOMEM)
		cli_fatal("out of memory");
	if (st != CD_OK)
		return perr.msg;
	comments_dropped += dropped;
	games_dropping += dropped > 0;
	if (obuf.len >= OUT_FLUSH)
		flush_out();
	return NULL;
}

int
main(int argc, char **argv)
{
	enum { OPT_LANG = 256, OPT_REJECTS, OPT_STATS };
	static const struct option longopts[] = {
		{ "comments", no_argument, NULL, 'c' },
		{ "lang", required_argument, NULL, OPT_LANG },
		{ "output", required_argument, NULL, 'o' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "rejects", required_argument, NULL, OPT_REJECTS },
		{ "stats", no_argument, NULL, OPT_STATS },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 }
	};
	const char *outpath = NULL;
	int c, status = 0;

	cli_init(argv[0]);
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":co:qhV", longopts, NULL)) !=
	    -1) {
		switch (c) {
		case 'c': opt_comments = 1; break;
		case OPT_LANG:
			opt_lang = cd_san_lang_find(optarg);
			if (opt_lang == NULL)
				cli_usage_error("unknown language '%s'",
				    optarg);
			break;
		case 'o': outpath = optarg; break;
		case 'q': cli_quiet = 1; break;
		case OPT_REJECTS: opt_rejects = optarg; break;
		case OPT_STATS: opt_stats = 1; break;
		case 'h': usage(); cli_exit(0);
		case 'V': cli_print_version(); cli_exit(0);
		default:
			cli_bad_option(c, argv);
		}
	}
	if ((cli_games.game = cd_game_new()) == NULL)
		cli_fatal("out of memory");
	cli_games.opts.lang = opt_lang;
	cli_games.each = encode;
	cli_rejects_open(opt_rejects);
	out = cli_output_open(outpath);
	if (cli_each_input(argc, argv, optind, cli_games_file) != 0)
		status = 2;
	flush_out();
	cd_pgn_buf_free(&obuf);
	cd_game_free(cli_games.game);
	cli_rejects_close();
	if (comments_dropped > 0 && !cli_quiet)
		cli_warn("dropped %llu comments of %llu games (--comments "
		    "keeps them)", (unsigned long long)comments_dropped,
		    (unsigned long long)games_dropping);
	if (opt_stats)
		cli_stats(cli_games.read, cli_games.written,
		    cli_games.rejected);
	if (status == 0 && cli_games.rejected > 0)
		status = 1;
	cli_exit(status);
}
