/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * sort.h: the external sort of pgn-sort (src/cli/sort.c): games in the
 * standard's collating order (section 12, cd_collate_key), stable,
 * within a memory budget, each game's bytes written as they came.
 *
 * A sort reads its inputs with cli_sort_read, one after the other, then
 * writes the games in order with cli_sort_write.  cli_sort_merge merges
 * inputs that are sorted already (-m), and cli_sort_check checks that
 * inputs are (-c).  cli_sort_free ends it: it warns about each -k tag
 * that no game read had, and gives the counts.
 *
 * Games go to the output (cli_output_writev) unless opts.writev is set:
 * it then gets them, the iovec blocks valid until it returns.  Messages
 * and fatal errors go through cli.h as in any tool.
 */
#ifndef CD_CLI_SORT_H
#define CD_CLI_SORT_H

#include <stdint.h>
#include <stdio.h>

/* The smallest budget: a smaller one is taken as this. */
#define CLI_SORT_MIN_BUDGET	((size_t)64 << 10)

struct iovec;
struct cli_sort_opts {
	size_t budget;		/* bytes of memory (CLI_SORT_MIN_BUDGET at
				 * least) */
	const char *tmpdir;	/* runs in DIR (NULL: $TMPDIR or /tmp) */
	char **keys;		/* -k: tags sorted by first (borrowed) */
	size_t nkeys;
	int reverse;		/* -r: equal games keep their input order */
	int unique;		/* -u: only the first of games equal as text
				 * in the eight keys */
	int compress_temp;	/* runs compressed (zstd) */
	/* NULL: cli_output_writev */
	void (*writev)(void *ctx, struct iovec *iov, int n);
	void *ctx;
};
struct cli_sort_counts {
	uint64_t read, written, rejected;
	uint64_t runs;		/* temporary files written */
};
typedef struct cli_sort cli_sort;

/* A new sort (the options copied); out of memory is fatal. */
cli_sort *cli_sort_new(const struct cli_sort_opts *o);
/* Read the games of an input into the sort (a form of cli_each_input's
 * function): 2 after a read error (reported), else 0.  A game that
 * cli_pgn_check refuses is counted as rejected and left out. */
int cli_sort_read(cli_sort *so, FILE *f, const char *name);
/* Write the games read, sorted: 2 when a run could not be read back
 * (reported), else 0. */
int cli_sort_write(cli_sort *so);
/* Merge the sorted inputs files[0..nfiles) (none: standard input) to
 * the output: 2 when one could not be opened or read (reported),
 * else 0. */
int cli_sort_merge(cli_sort *so, char **files, int nfiles);
/* Check that the games of an input, after those of the inputs checked
 * before, are sorted: 1 at the first game out of order (or equal to the
 * one before it, with unique), said "file:line: game N is out of
 * order"; else 2 after a read error (reported) in this input or one
 * before, else 0. */
int cli_sort_check(cli_sort *so, FILE *f, const char *name);
/* End the sort: a warning for each -k tag that no game read has, the
 * counts in *c (when not NULL), the memory freed. */
void cli_sort_free(cli_sort *so, struct cli_sort_counts *c);

#endif
