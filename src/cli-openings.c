/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * cli-openings.c: the opening tables of the tools that classify games
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

#include "chessdata.h"
#include "cli.h"

static char **paths;
static size_t npaths;
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

const cd_openings *
cli_openings_load(void)
{
	const char *env = getenv("CHESSDATA_OPENINGS"), *p, *q;
	size_t i;

	if (npaths == 0 && env != NULL)
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
