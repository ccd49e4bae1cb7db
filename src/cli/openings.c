/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * cli/openings.c: the opening tables of the tools that classify games
 * (pgn-regularize, pgn-select, pgn2json, pgn2tsv): the files of
 * --openings=FILE (repeatable), or without the option those that
 * CHESSDATA_OPENINGS names (colon-separated), read in that order
 * (compressed files too) into one table (chessdata/opening.h).
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "chessdata.h"
#include "cli.h"

static char **paths;
static size_t npaths;
static int from_env;		/* the paths are CHESSDATA_OPENINGS's */
static cd_openings *tables;
static cd_buf text;		/* a file's text, for each in turn */

void
cli_openings_add(const char *path)
{
	char **p = realloc(paths, (npaths + 1) * sizeof(*paths));

	if (p == NULL || (p[npaths] = strdup(path)) == NULL)
		cli_fatal("out of memory");
	paths = p;
	npaths++;
}

static void
openings_free(void)
{
	size_t i;

	cd_openings_free(tables);
	free(text.data);
	for (i = 0; i < npaths; i++)
		free(paths[i]);
	free(paths);
}

/* Add text to the table: exit 2 when a line of it does not read. */
static void
openings_text(const char *name, const char *data, size_t len)
{
	cd_error err;

	if (cd_openings_read(tables, data, len, &err) != CD_OK) {
		if (err.status == CD_ERR_NOMEM)
			cli_fatal("out of memory");
		cli_warn_at(name, err.line, err.col, "%s", err.msg);
		cli_exit(2);
	}
}

/* Read the file path into the table: exit 2 when it cannot be read or
 * a line of it does not read. */
static void
openings_file(const char *path)
{
	const char *name;
	FILE *f = cli_open_input(path, &name);
	cd_stream *zs;
	cd_status st;
	size_t n;

	if (f == NULL)
		cli_exit(2);
	/* (copied, not mapped: a table another process cuts short while it
	 * is read gives a message, not SIGBUS) */
	zs = cli_input_stream(f);
	text.len = 0;
	do {
		cli_buf_reserve(&text, 1 << 16);
		st = cd_stream_read(zs, text.data + text.len,
		    text.cap - text.len, &n);
		text.len += n;
	} while (st == CD_OK);
	if (cli_read_end(name, st == CD_EOF ? CD_OK : CD_ERR_IO,
	    cd_stream_error(zs), zs) != 0)
		cli_exit(2);
	cd_stream_free(zs);
	cli_close_input(f);
	openings_text(name, text.data, text.len);
}

/* What path is (standard input for "-"): false when it cannot be
 * said (the open reports it). */
static bool
file_stat(const char *path, struct stat *st)
{
	return (strcmp(path, "-") == 0 ? fstat(0, st) : stat(path, st)) == 0;
}

/* Whether a and b are one file that reading uses up: a pipe, a FIFO, a
 * terminal, a device or a socket (a regular file is read whole each
 * time it is named). */
static bool
same_once(const struct stat *a, const struct stat *b)
{
	return a->st_dev == b->st_dev && a->st_ino == b->st_ino &&
	    !S_ISREG(a->st_mode);
}

/*
 * Refuse (a usage error) a table that the games or another table are
 * read from too where the first read would leave nothing for the
 * second: "-" when the games are read from standard input or another
 * table is "-", or a pipe, FIFO, terminal, device or socket that is
 * also standard input read for games, a games input or another table
 * (CHESSDATA_OPENINGS=/dev/stdin).  A regular file may be both a table
 * and an input: it is read whole each time.
 */
static void
openings_check(int argc, char **argv, int first)
{
	bool games_stdin = first >= argc;
	struct stat st, in;
	size_t i, k;
	int a;

	for (a = first; a < argc; a++)
		games_stdin |= strcmp(argv[a], "-") == 0;
	for (i = 0; i < npaths; i++) {
		const char *why = NULL;

		for (k = 0; k < i && why == NULL; k++)
			if (strcmp(paths[i], "-") == 0 &&
			    strcmp(paths[k], "-") == 0)
				why = "standard input is named as two opening "
				    "tables";
		if (why == NULL && strcmp(paths[i], "-") == 0 && games_stdin)
			why = "the opening table and the games cannot both be "
			    "read from standard input";
		if (why == NULL && file_stat(paths[i], &st) &&
		    !S_ISREG(st.st_mode)) {
			if (games_stdin && fstat(0, &in) == 0 &&
			    same_once(&st, &in))
				why = "the opening table is the standard input "
				    "the games are read from";
			for (a = first; a < argc && why == NULL; a++)
				if (file_stat(argv[a], &in) &&
				    same_once(&st, &in))
					why = "the opening table is also a games "
					    "input, and it can be read only once";
			for (k = 0; k < i && why == NULL; k++)
				if (file_stat(paths[k], &in) &&
				    same_once(&st, &in))
					why = "the file is named as two opening "
					    "tables, and it can be read only once";
		}
		if (why != NULL)
			cli_usage_error("%s%s: %s", from_env ?
			    "CHESSDATA_OPENINGS names " : "--openings=",
			    paths[i], why);
	}
}

const cd_openings *
cli_openings_load(int argc, char **argv, int first)
{
	const char *env = getenv("CHESSDATA_OPENINGS"), *p, *q;
	size_t i;

	from_env = npaths == 0 && env != NULL;
	if (from_env)
		for (p = env; *p != '\0'; p = *q ? q + 1 : q) {
			char *one;

			q = strchr(p, ':');
			q = q ? q : p + strlen(p);
			if (q == p)
				continue;
			if ((one = strndup(p, (size_t)(q - p))) == NULL)
				cli_fatal("out of memory");
			cli_openings_add(one);
			free(one);
		}
	if (npaths == 0)
		return NULL;
	openings_check(argc, argv, first);
	if ((tables = cd_openings_new()) == NULL)
		cli_fatal("out of memory");
	atexit(openings_free);
	for (i = 0; i < npaths; i++)
		openings_file(paths[i]);
	if (cd_openings_count(tables) == 0)
		cli_fatal("no opening line in %s%s", paths[0],
		    npaths > 1 ? " and the other tables" : "");
	return tables;
}
