/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * cli-stream.c: compressed inputs for every tool (see cli.h): the
 * readers of an input read it through the library's stream layer (a
 * compressed input known by its magic bytes) with the options' flags
 * and memory limit.
 */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "chessdata.h"
#include "cli.h"

static uint64_t opt_memlimit;	/* --memlimit; 0: the library's default */
static unsigned in_flags = CD_STREAM_THREAD;

void
cli_input_memlimit(uint64_t bytes)
{
	opt_memlimit = bytes;
}

/*
 * The members of the .zip inputs, for messages: each input's members
 * as the stream tells them (cd_stream_on_member, from the thread that
 * decompresses), kept to the end of the run (a tool may report on an
 * input after it is closed: pgn-sort).  The inputs open, by FILE, with
 * the names messages give them.
 */
struct member {
	unsigned long line;	/* its first line in the input */
	char *name;
};
static struct zip_input {
	const char *file;	/* (cli_open_input's name: stays valid) */
	struct member *m;
	size_t n, cap;
	struct zip_input *next;
} *zip_inputs;
static pthread_mutex_t zip_lock = PTHREAD_MUTEX_INITIALIZER;
static struct open_input {
	FILE *f;
	const char *file;
} *open_inputs;
static size_t nopen, open_cap;

void
cli__input_named(FILE *f, const char *file)
{
	if (nopen == open_cap) {
		open_cap = open_cap ? 2 * open_cap : 8;
		if ((open_inputs = realloc(open_inputs, open_cap *
		    sizeof(*open_inputs))) == NULL)
			cli_fatal("out of memory");
	}
	open_inputs[nopen].f = f;
	open_inputs[nopen++].file = file;
}

void
cli__input_closed(FILE *f)
{
	size_t i;

	for (i = nopen; i-- > 0;)
		if (open_inputs[i].f == f) {
			open_inputs[i] = open_inputs[--nopen];
			break;
		}
}

/* The members kept for file (made when add); NULL. Under zip_lock. */
static struct zip_input *
zip_input(const char *file, int add)
{
	struct zip_input *z;

	for (z = zip_inputs; z != NULL; z = z->next)
		if (strcmp(z->file, file) == 0)
			return z;
	if (!add)
		return NULL;
	if ((z = calloc(1, sizeof(*z))) == NULL)
		cli_fatal("out of memory");
	z->file = file;
	z->next = zip_inputs;
	zip_inputs = z;
	return z;
}

/* cd_stream_on_member: the input ctx (its name) has a member name from
 * line on. */
static void
zip_member(void *ctx, const char *name, unsigned long line)
{
	struct zip_input *z;
	char *copy = strdup(name);

	if (copy == NULL)
		cli_fatal("out of memory");
	pthread_mutex_lock(&zip_lock);
	z = zip_input(ctx, 1);
	if (z->n == z->cap) {
		z->cap = z->cap ? 2 * z->cap : 16;
		if ((z->m = realloc(z->m, z->cap * sizeof(*z->m))) == NULL)
			cli_fatal("out of memory");
	}
	z->m[z->n].line = line;
	z->m[z->n++].name = copy;
	pthread_mutex_unlock(&zip_lock);
}

/* A new input named file: the members of one read before under that
 * name are forgotten. */
static void
zip_forget(const char *file)
{
	struct zip_input *z;

	pthread_mutex_lock(&zip_lock);
	if ((z = zip_input(file, 0)) != NULL) {
		while (z->n > 0)
			free(z->m[--z->n].name);
	}
	pthread_mutex_unlock(&zip_lock);
}

int
cli__input_member(const char *file, unsigned long *line, char *name,
    size_t size)
{
	struct zip_input *z;
	size_t lo = 0, hi;
	int found = 0;

	pthread_mutex_lock(&zip_lock);
	if ((z = zip_input(file, 0)) != NULL && z->n > 0 &&
	    z->m[0].line <= *line) {
		/* the last member whose first line is at most *line */
		hi = z->n;
		while (hi - lo > 1) {
			size_t mid = lo + (hi - lo) / 2;

			if (z->m[mid].line <= *line)
				lo = mid;
			else
				hi = mid;
		}
		snprintf(name, size, "%s", z->m[lo].name);
		*line = *line - z->m[lo].line + 1;
		found = 1;
	}
	pthread_mutex_unlock(&zip_lock);
	return found;
}

cd_stream *
cli_input_stream(FILE *f)
{
	cd_stream *s = cd_stream_open_fd_limit(fileno(f), in_flags,
	    opt_memlimit);
	size_t i;

	if (s == NULL)
		cli_fatal("out of memory");
	for (i = nopen; i-- > 0;)
		if (open_inputs[i].f == f) {
			zip_forget(open_inputs[i].file);
			cd_stream_on_member(s, zip_member,
			    (void *)(uintptr_t)open_inputs[i].file);
			break;
		}
	return s;
}

/* A reader made by new, or out of memory. */
static void *
reader_made(void *r)
{
	if (r == NULL)
		cli_fatal("out of memory");
	return r;
}

cd_pgn_reader *
cli_pgn_reader_new(FILE *f)
{
	return reader_made(fileno(f) < 0 ? cd_pgn_reader_new(f) :
	    cd_pgn_reader_open_stream(cli_input_stream(f)));
}

cd_epd_reader *
cli_epd_reader_new(FILE *f)
{
	return reader_made(fileno(f) < 0 ? cd_epd_reader_new(f) :
	    cd_epd_reader_open_stream(cli_input_stream(f)));
}

cd_pgc_reader *
cli_pgc_reader_new(FILE *f)
{
	return reader_made(fileno(f) < 0 ? cd_pgc_reader_new(f) :
	    cd_pgc_reader_open_stream(cli_input_stream(f)));
}

int
cli_input_compressed(FILE *f)
{
	unsigned char head[8];
	int fd = fileno(f);
	off_t at;
	ssize_t n;

	/* a file: its first bytes looked at without taking them */
	if (fd < 0 || (at = lseek(fd, 0, SEEK_CUR)) < 0)
		return 0;
	do
		n = pread(fd, head, sizeof(head), at);
	while (n < 0 && errno == EINTR);
	return n > 0 && cd_stream_detect(head, (size_t)n) != CD_STREAM_PLAIN;
}

int
cli_input_threaded(const cd_stream *s)
{
	return s != NULL && (in_flags & CD_STREAM_THREAD) &&
	    cd_stream_get_format(s) != CD_STREAM_PLAIN;
}

void
cli_input_unthreaded(void)
{
	in_flags &= ~(unsigned)CD_STREAM_THREAD;
}
