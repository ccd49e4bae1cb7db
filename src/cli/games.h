/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * games.h: the games of PGN inputs, for the tools that parse them
 * (pgn-regularize, pgn2epd, pgn2pgc, pgn-select, pgn2json, pgn2tsv;
 * src/cli/games.c): set cli_games.opts,
 * each (and priv_free, jobs), pass cli_games_file to cli_each_input
 * (cli.h), then call cli_games_end.
 *
 * cli_games.jobs threads (1: the calling thread alone) take turns
 * reading batches of about 64 KB of games, parse them at the same time
 * and call each, and write each batch's output, messages and rejected
 * games in input order, so the result does not depend on the number of
 * threads.  Every game is read (cli_pgn_notes), counted,
 * and parsed into the thread's job->game; each gets the games that
 * parse, appends what it writes to job->out (it must not write
 * anywhere else, nor touch state that other threads share) and
 * returns NULL, or why it rejects the game.  A game that does not parse
 * or that each rejects is reported ("file:line:col: game N: message"),
 * counted and copied to the rejects file.  read = written + rejected,
 * always.  The parser's warning callback (opts.warn) is called with the
 * job as its context.
 */
#ifndef CD_GAMES_H
#define CD_GAMES_H

#include <stdint.h>
#include <stdio.h>

#include "chessdata.h"

struct cli_job {
	cd_game *game;		/* the game that parsed */
	const char *file;	/* its input */
	uint64_t number;	/* its number in its input */
	uint64_t index;		/* its number in all inputs, from 1 */
	cd_buf *out;	/* append the output here */
	void *priv;		/* the tool's state for this thread: NULL at
				 * first, freed with cli_games.priv_free */
	cd_pgn_parse_opts opts;	/* cli_games.opts, warn_ctx = the job */
	unsigned long line, col;	/* where a game each rejects is
					 * reported: 0 (the game's first line)
					 * unless each sets them */
	bool parsed;		/* game holds this game (else NULL or
				 * another's) */
};
struct cli_games {
	cd_pgn_parse_opts opts;
	const char *(*each)(struct cli_job *j, const cd_pgn_raw_game *raw);
	void (*priv_free)(void *priv);
	unsigned jobs;		/* threads that parse; 0: one per CPU,
				 * one fewer for an input that a thread
				 * decompresses */
	int stop;		/* set (one job only): read no more games;
				 * the batch read goes on to each */
	bool noparse;		/* each gets the raw games unparsed, one
				 * at a time from the reader on the
				 * calling thread (job->game is NULL;
				 * jobs does not count) */
	/* When set, asked first: false when the game need not be parsed
	 * (each gets it unparsed, job->parsed false). */
	bool (*need_parse)(struct cli_job *j, const cd_pgn_raw_game *raw);
	uint64_t limit;		/* read no more than this many games, all
				 * inputs (0: no limit) */
	bool no_messages;	/* no message about a game that does not
				 * read (it is still counted and copied) */
	/* When set, it gets what each appended for a batch, in input
	 * order (one thread at a time), instead of the output file (a
	 * tool that decides in input order: pgn-dedup). */
	void (*emit)(const char *data, size_t len);
	/* When set, asked about a game that does not parse (not about
	 * one the tool rejects): true when it has put in job->game what
	 * can be kept of it (pgn-regularize --salvage); the game goes on
	 * to each, and its bytes to the rejects file too. */
	bool (*salvage)(struct cli_job *j, const cd_pgn_raw_game *raw,
	    const cd_error *err);
	uint64_t read, written, rejected;
	uint64_t salvaged;	/* games salvage kept */
	uint64_t bytes;		/* input bytes read, all inputs */
};
extern struct cli_games cli_games;
/* Returns 2 after a read error (reported), else 0.  Everything of the
 * input has been written when it returns. */
int cli_games_file(FILE *f, const char *name);
/* From each: write what job->out (and the messages and rejects of
 * the batch's earlier games) holds so far, waiting for the batch's
 * turn, and empty it; for a game whose output is far larger than the
 * game (pgn2epd), so that it is not kept whole. */
void cli_games_flush(struct cli_job *j);
/* Stop the threads and free what cli_games_file allocated. */
void cli_games_end(void);

/* Append a game's bytes as they came to out, and an empty line (in
 * the game's line ends) when they do not end with one, so that games
 * stay apart (the last game of a file often lacks it). */
void cli_append_game(cd_buf *out, const char *text, size_t len);

/* The number of CPUs this process may run on (at least 1). */
unsigned cli_cpus(void);
/* The value of -j/--jobs: a number from 1 to 256 (else a usage
 * error). */

#endif
