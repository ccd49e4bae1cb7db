/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * split.h: the split of pgn-split (src/cli/split.c): PGN inputs cut
 * between games into parts whose concatenation is the input (-n, -l,
 * -b), or into the files of the standard's section 11 (--by), each
 * written under a temporary name in its directory and renamed into
 * place when whole.
 *
 * cli_split_new notes the inputs, argv[first..argc) (none: standard
 * input), that no file written may replace; cli_split_run splits them
 * all, in order; cli_split_free frees the split.  Messages and fatal
 * errors go through cli.h as in any tool; with list, each part's path
 * goes to the output (cli_output_open) once it is whole.
 */
#ifndef CD_CLI_SPLIT_H
#define CD_CLI_SPLIT_H

#include <stdint.h>

enum cli_split_mode {
	CLI_SPLIT_NONE,
	CLI_SPLIT_COUNT,	/* -n: value parts of about equal bytes */
	CLI_SPLIT_GAMES,	/* -l: parts of value games */
	CLI_SPLIT_BYTES,	/* -b: parts of at most value bytes */
	/* --by: the files of section 11 (these last) */
	CLI_SPLIT_PLAYER, CLI_SPLIT_EVENT, CLI_SPLIT_YEAR, CLI_SPLIT_MONTH,
	CLI_SPLIT_DAY
};
struct cli_split_opts {
	enum cli_split_mode mode;
	uint64_t value;		/* N, GAMES or SIZE (1 at least) */
	const char *dir;	/* -d: made when the first file is written */
	const char *prefix;	/* parts are PREFIXNNN.pgn */
	int append;		/* --by: append to the files that exist */
	int list;		/* parts: print each one's path */
};
typedef struct cli_split cli_split;

/* A new split (the options copied); out of memory is fatal. */
cli_split *cli_split_new(const struct cli_split_opts *o, int argc,
    char **argv, int first);
/* Split every input: 2 when one could not be opened or read whole
 * (reported), else 0.  With -n and status 0 there are always N parts;
 * an input without a byte gives one empty part. */
int cli_split_run(cli_split *sp);
/* The games read. */
uint64_t cli_split_games(const cli_split *sp);
void cli_split_free(cli_split *sp);

/*
 * The name of part n (from 1), malloc'd: PREFIX, n in width digits
 * while the first digit is not 9 (001 ... 899 for three), then a 9 and
 * one digit more (90000 ... 98999), and so on, then ".pgn": names sort
 * in part order however many there are, as split(1) -d numbers its
 * files.
 */
char *cli_split_part_name(const char *prefix, unsigned width, uint64_t n);

#endif
