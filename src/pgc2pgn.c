/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * pgc2pgn: PGC (man/pgc.5) in, PGN in export format out, written by the
 * same writer as pgn-regularize.  The decoder streams: it holds one game
 * at a time.  Damaged input stops the file at the damage with one
 * message naming its byte offset; the games before it are written.
 */
#include "config.h"

#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "chessdata.h"
#include "cli/cli.h"

#define OUT_FLUSH	((size_t)1 << 20)

static int opt_reduced;
static int status;
static uint64_t games_read, games_written, games_damaged, bytes_done;
static cd_buf obuf;

static void
usage(void)
{
	printf("Usage: %s [OPTION]... [FILE]...\n", cli_prog);
	fputs(
	    "Read PGC, the binary coding of PGN (see pgc(5)), and write the\n"
	    "games in the PGN export format.\n"
	    "\n"
	    "  -q, --quiet           no progress line\n"
	    "  -r, --reduced         write the reduced export format\n", stdout);
	cli_usage_options(CLI_TAKE_OUTPUT | CLI_TAKE_STATS | CLI_TAKE_COMPRESS |
	    CLI_TAKE_MEMLIMIT);
	fputs(
	    "\n"
	    "With no FILE, or when FILE is -, read standard input.\n"
	    "Exit status: 0 success, 1 some input was damaged,\n"
	    "2 usage or system error.\n", stdout);
}

static void
flush_out(void)
{
	if (obuf.len == 0)
		return;
	cli_output_write(obuf.data, obuf.len);
	obuf.len = 0;
}

static cd_game *game;

/* Decode one input; 0 (errors are counted in the games). */
static int
decode_file(FILE *f, const char *name)
{
	cd_game *g = game;
	cd_pgc_reader *r = cli_pgc_reader_new(f);
	cd_error err;
	uint64_t base = bytes_done;
	cd_status st;

	if (r == NULL)
		cli_fatal("out of memory");
	while ((st = cd_pgc_reader_next(r, g, &err)) == CD_OK) {
		games_read++;
		st = cd_pgn_write_buf(g, opt_reduced ? CD_PGN_REDUCED : 0,
		    &obuf);
		if (st == CD_ERR_NOMEM)
			cli_fatal("out of memory");
		if (st != CD_OK)
			cli_fatal("%s: %s", name, cd_strerror(st));
		games_written++;
		if (obuf.len >= OUT_FLUSH)
			flush_out();
		cli_progress(games_read, base + cd_pgc_reader_tell(r));
	}
	if (st == CD_ERR_NOMEM)
		cli_fatal("out of memory");
	if (st == CD_ERR_IO || st == CD_EOF) {
		if (cli_read_end(name, st, cd_pgc_reader_error(r),
		    cd_pgc_reader_stream(r)) != 0)
			status = 2;
	} else {
		cli_warn_at(name, 0, 0, "offset %llu: %s",
		    (unsigned long long)err.offset, err.msg);
		games_damaged++;
		if (status < 1)
			status = 1;
	}
	bytes_done = base + cd_pgc_reader_tell(r);
	cd_pgc_reader_free(r);
	return 0;
}

int
main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "reduced", no_argument, NULL, 'r' },
		{ NULL, 0, NULL, 0 }
	};
	cd_game *g;
	int c;

	cli_init(argv[0]);
	while ((c = cli_getopt(argc, argv, "r", longopts, CLI_TAKE_OUTPUT | CLI_TAKE_QUIET | CLI_TAKE_STATS | CLI_TAKE_COMPRESS | CLI_TAKE_MEMLIMIT, usage)) != -1) {
		if (c == 'r')
			opt_reduced = 1;
	}
	if ((game = g = cd_game_new()) == NULL)
		cli_fatal("out of memory");
	cli_inputs(argc, argv, optind);
	cli_output_open(cli_opts.output);
	if (cli_each_input(argc, argv, optind, decode_file) != 0)
		status = 2;
	flush_out();
	cd_buf_free(&obuf);
	cd_game_free(g);
	if (cli_opts.stats)
		cli_stats(games_read + games_damaged, games_written,
		    games_damaged);
	cli_exit(status);
}
