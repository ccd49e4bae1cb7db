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
#include "cli/cli.h"
#include "cli/games.h"

static int opt_comments;
static uint64_t comments_dropped, games_dropping;

static void
usage(void)
{
	printf("Usage: %s [OPTION]... [FILE]...\n", cli_prog);
	fputs(
	    "Read PGN games (lenient import format), check every move, and\n"
	    "write them in PGC, the binary coding of PGN (see pgc(5)).\n"
	    "\n"
	    "  -c, --comments        keep comments (extension record 0x0b)\n"
	    "  -q, --quiet           no progress line, no note about dropped\n"
	    "                        comments or text that is not PGN\n", stdout);
	cli_usage_options(CLI_TAKE_JOBS | CLI_TAKE_LANG | CLI_TAKE_OUTPUT |
	    CLI_TAKE_REJECTS | CLI_TAKE_STATS | CLI_TAKE_COMPRESS |
	    CLI_TAKE_MEMLIMIT);
	fputs(
	    "\n"
	    "With no FILE, or when FILE is -, read standard input.\n"
	    "Exit status: 0 success, 1 some game was rejected,\n"
	    "2 usage or system error.\n", stdout);
}

/* A tag PGC cannot hold (a name or value over 255 bytes): point j at
 * the `[` of the tag pair that gave it (the last of that name). */
static void
locate_tag(struct cli_job *j, const cd_pgn_raw_game *raw)
{
	size_t i = raw->ntags;
	char name[256];

	while (i-- > 0) {
		const cd_pgn_tag *t = &raw->tags[i];
		size_t vlen = 0;
		long k;

		if (t->name_len < sizeof(name)) {
			memcpy(name, t->name, t->name_len);
			name[t->name_len] = '\0';
			k = cd_game_tag_find(j->game, name);
			if (k < 0 || cd_game_tag_value(j->game, name,
			    &vlen) == NULL || vlen <= 255)
				continue;
		}
		j->line = t->line;
		j->col = t->col;
		return;
	}
}

/* Encode one game that parsed; NULL, or why it is rejected. */
static const char *
encode(struct cli_job *j, const cd_pgn_raw_game *raw)
{
	cd_error *perr = j->priv;
	size_t dropped = 0;
	cd_status st;

	if (perr == NULL && (perr = j->priv = malloc(sizeof(*perr))) == NULL)
		cli_fatal("out of memory");
	st = cd_pgc_encode(j->game, opt_comments ? CD_PGC_WITH_COMMENTS : 0,
	    j->out, &dropped, perr);
	if (st == CD_ERR_NOMEM)
		cli_fatal("out of memory");
	if (st == CD_ERR_RANGE)
		locate_tag(j, raw);
	if (st != CD_OK)
		return perr->msg;
	if (dropped > 0) {
		__atomic_add_fetch(&comments_dropped, dropped,
		    __ATOMIC_RELAXED);
		__atomic_add_fetch(&games_dropping, 1, __ATOMIC_RELAXED);
	}
	return NULL;
}

int
main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "comments", no_argument, NULL, 'c' },
		{ NULL, 0, NULL, 0 }
	};
	int c, status = 0;

	cli_init(argv[0]);
	while ((c = cli_getopt(argc, argv, "c", longopts, CLI_TAKE_GAMES,
	    usage)) != -1) {
		switch (c) {
		case 'c': opt_comments = 1; break;
		}
	}
	cli_games.opts.lang = cli_opts.lang;
	/* a null move is reported at its token, as a parse error */
	cli_games.opts.flags = CD_PGN_PARSE_NO_NULL;
	cli_games.each = encode;
	cli_games.priv_free = free;
	cli_files_open(argc, argv, optind);
	if (cli_each_input(argc, argv, optind, cli_games_file) != 0)
		status = 2;
	cli_games_end();
	cli_rejects_close();
	if (comments_dropped > 0 && !cli_quiet)
		cli_warn("dropped %llu comments of %llu games (--comments "
		    "keeps them)", (unsigned long long)comments_dropped,
		    (unsigned long long)games_dropping);
	cli_finish(status, cli_games.read, cli_games.written,
	    cli_games.rejected);
}
