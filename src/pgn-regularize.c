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
static int status;
static uint64_t games_read, games_written, games_rejected, bytes_done;
static cd_pgn_buf obuf;

/* Where warnings of the game being read point. */
static const char *cur_file;
static uint64_t cur_game;

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
	cli_warn_at(cur_file, line, col, "game %llu: %s",
	    (unsigned long long)cur_game, msg);
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
			cli_warn_at(cur_file, raw->line, raw->col, "game %llu: "
			    "the game ends in checkmate but the result is %s",
			    (unsigned long long)cur_game, rs);
	} else if (cd_board_is_stalemate(&b)) {
		if (r != CD_PGN_RESULT_DRAW)
			cli_warn_at(cur_file, raw->line, raw->col, "game %llu: "
			    "the game ends in stalemate but the result is %s",
			    (unsigned long long)cur_game, rs);
	} else if (cd_board_insufficient_material(&b)) {
		if (r != CD_PGN_RESULT_DRAW)
			cli_warn_at(cur_file, raw->line, raw->col, "game %llu: "
			    "the game ends in a dead position but the result "
			    "is %s", (unsigned long long)cur_game, rs);
	}
}

static void
reject(const cd_pgn_raw_game *raw, const cd_pgn_error *err)
{
	games_rejected++;
	if (status < 1)
		status = 1;
	cli_warn_at(cur_file, err->line, err->col, "game %llu: %s",
	    (unsigned long long)raw->number, err->msg);
	cli_rejects_write(raw->text, raw->len);
}

static cd_game *game;

/* Regularize one input; 0 (errors are counted in the games). */
static int
regularize(FILE *f, const char *name)
{
	cd_game *g = game;
	cd_pgn_reader *r = cd_pgn_reader_new(f);
	cd_pgn_parse_opts po;
	cd_pgn_raw_game raw;
	cd_pgn_error err;
	uint64_t base = bytes_done;
	cd_status st;

	if (r == NULL)
		cli_fatal("out of memory");
	memset(&po, 0, sizeof(po));
	po.lang = opt_lang;
	po.flags = opt_reduced ? CD_PGN_PARSE_NO_NULL_MAIN : 0;
	if (opt_verbose)
		po.warn = warn_cb;
	cur_file = name;
	for (;;) {
		st = cd_pgn_reader_next(r, &raw);
		cli_pgn_notes(name, &raw, st);
		if (st != CD_OK)
			break;
		games_read++;
		cur_game = raw.number;
		st = cd_pgn_parse(g, &raw, &po, &err);
		if (st == CD_ERR_NOMEM)
			cli_fatal("out of memory");
		if (st != CD_OK) {
			reject(&raw, &err);
		} else {
			unsigned flags = opt_reduced ? CD_PGN_REDUCED : 0;

			st = cd_pgn_write_buf(g, flags, &obuf);
			if (st == CD_ERR_NOMEM)
				cli_fatal("out of memory");
			if (st != CD_OK) {
				/* not reachable from the parser (it rejects
				 * null moves in the main line itself) */
				err.line = raw.line;
				err.col = raw.col;
				snprintf(err.msg, sizeof(err.msg), "%s",
				    cd_strerror(st));
				reject(&raw, &err);
			} else {
				games_written++;
				if (opt_verbose)
					check_result(g, &raw);
			}
			if (obuf.len >= OUT_FLUSH)
				flush_out();
		}
		cli_progress(games_read, base + cd_pgn_reader_tell(r));
	}
	if (st == CD_ERR_IO) {
		cli_warn("%s: read error: %s", name, strerror(errno));
		status = 2;
	} else if (st == CD_ERR_NOMEM) {
		cli_fatal("out of memory");
	}
	bytes_done = base + cd_pgn_reader_tell(r);
	cd_pgn_reader_free(r);
	return 0;
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
	cd_game *g;
	int c;

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
	if ((game = g = cd_game_new()) == NULL)
		cli_fatal("out of memory");
	cli_rejects_open(opt_rejects);
	out = cli_output_open(outpath);
	if (cli_each_input(argc, argv, optind, regularize) != 0)
		status = 2;
	flush_out();
	cd_pgn_buf_free(&obuf);
	cd_game_free(g);
	cli_rejects_close();
	if (opt_stats)
		cli_stats(games_read, games_written, games_rejected);
	cli_exit(status);
}
