/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * cli/msg.c: what a tool says (see cli.h): its name, messages in the
 * form "prog: file:line:col: message" (or captured per thread), usage
 * and fatal errors, the progress line, --stats, and the flag that input
 * was refused (exit status 1 at least).  A fatal error exits with
 * status 2; the temporary files go through the exit handler that
 * cli_init registers (src/cli/tmp.c).
 */
#include "config.h"

#include <getopt.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "chessdata.h"
#include "cli.h"

const char *cli_prog = "chessdata";
int cli_quiet;
const char *cli_unit = "games";

static double start_time;
static double last_progress;
static int progress_shown;
/* Input rejected outside the games' count (binary data, a game too
 * large, input of the wrong kind): the exit status is 1 at least. */
static int input_rejected;

__thread cd_buf *cli_capture;

void
cli_buf_reserve(cd_buf *b, size_t n)
{
	if (b->cap - b->len < n && cd_buf_reserve(b, n) != CD_OK)
		cli_fatal("out of memory");
}

/* Append to a message being captured. */
static void
capture_printf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

static void
capture_vprintf(const char *fmt, va_list ap)
{
	cd_buf *b = cli_capture;
	va_list aq;
	int n;

	va_copy(aq, ap);
	n = vsnprintf(NULL, 0, fmt, aq);
	va_end(aq);
	if (n < 0)
		return;
	cli_buf_reserve(b, (size_t)n + 1);
	vsnprintf(b->data + b->len, (size_t)n + 1, fmt, ap);
	b->len += (size_t)n;
}

static void
capture_printf(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	capture_vprintf(fmt, ap);
	va_end(ap);
}

/*
 * The members of the .zip inputs, for messages: each input's members
 * as the stream tells them (cd_stream_on_member, from the thread that
 * decompresses), kept to the end of the run (a tool may report on an
 * input after it is closed: pgn-sort).
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

void
cli_msg_member(void *ctx, const char *name, unsigned long line)
{
	struct zip_input *z;
	char *copy = strdup(name);

	if (copy == NULL)
		cli_fatal("out of memory");
	pthread_mutex_lock(&zip_lock);
	z = zip_input(ctx, 1);
	cli_grow(&z->m, &z->cap, z->n, sizeof(*z->m), 16);
	z->m[z->n].line = line;
	z->m[z->n++].name = copy;
	pthread_mutex_unlock(&zip_lock);
}

void
cli_msg_members_forget(const char *file)
{
	struct zip_input *z;

	pthread_mutex_lock(&zip_lock);
	if ((z = zip_input(file, 0)) != NULL) {
		while (z->n > 0)
			free(z->m[--z->n].name);
	}
	pthread_mutex_unlock(&zip_lock);
}

static int
input_member(const char *file, unsigned long *line, char *name,
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

/* A message on standard error, or into cli_capture when this thread
 * has one (never for a fatal error: capture 0). */
static void
vwarn_at(int capture, const char *file, unsigned long line,
    unsigned long col, const char *fmt, va_list ap)
{
	char where[48] = "", member[256] = "";

	/* a line of a .zip input: the member's name and its own line */
	if (file != NULL && line > 0 && input_member(file, &line,
	    member + 1, sizeof(member) - 1))
		member[0] = ':';
	if (file != NULL && line > 0 && col > 0)
		snprintf(where, sizeof(where), ":%lu:%lu", line, col);
	else if (file != NULL && line > 0)
		snprintf(where, sizeof(where), ":%lu", line);
	if (capture && cli_capture != NULL) {
		capture_printf("%s: %s%s%s%s", cli_prog, file ? file : "",
		    member, where, file ? ": " : "");
		capture_vprintf(fmt, ap);
		capture_printf("\n");
		return;
	}
	cli_progress_end();
	fprintf(stderr, "%s: %s%s%s%s", cli_prog, file ? file : "", member,
	    where, file ? ": " : "");
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
}

void
cli_warn(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vwarn_at(1, NULL, 0, 0, fmt, ap);
	va_end(ap);
}

void
cli_warn_at(const char *file, unsigned long line, unsigned long col,
    const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vwarn_at(1, file, line, col, fmt, ap);
	va_end(ap);
}

void
cli_usage_error(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vwarn_at(0, NULL, 0, 0, fmt, ap);
	va_end(ap);
	fprintf(stderr, "Try '%s --help' for more information.\n", cli_prog);
	exit(2);
}

void
cli_fatal(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vwarn_at(0, NULL, 0, 0, fmt, ap);
	va_end(ap);
	exit(2);
}

void
cli_grow(void *pp, size_t *cap, size_t n, size_t size, size_t min)
{
	size_t c = *cap ? *cap : min;
	void *p, *q;

	if (n < *cap)
		return;
	while (c <= n) {
		if (c > SIZE_MAX / 2 / size)
			cli_fatal("out of memory");
		c *= 2;
	}
	/* (the pointer copied in and out: any object pointer type) */
	memcpy(&p, pp, sizeof(p));
	if ((q = realloc(p, c * size)) == NULL)
		cli_fatal("out of memory");
	memcpy(pp, &q, sizeof(q));
	*cap = c;
}

void
cli_print_version(void)
{
	printf("%s (chessdata) %s\n", cli_prog, cd_version());
}

double
cli_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

void
cli_progress(uint64_t games, uint64_t bytes)
{
	static int tty = -1;
	double now, el;

	if (cli_quiet)
		return;
	if (tty < 0)
		tty = isatty(2);
	if (!tty)
		return;
	now = cli_now();
	el = now - start_time;
	if (el < 1.0 || now - last_progress < 0.25)
		return;
	last_progress = now;
	fprintf(stderr, "\r%s: %llu %s, %.1f MB, %.0f %s/s ", cli_prog,
	    (unsigned long long)games, cli_unit, bytes / 1e6, games / el,
	    cli_unit);
	fflush(stderr);
	progress_shown = 1;
}

void
cli_progress_end(void)
{
	if (progress_shown) {
		fputs("\r\033[K", stderr);
		progress_shown = 0;
	}
}

void
cli_stats(uint64_t read, uint64_t written, uint64_t rejected)
{
	cli_warn("%llu %s read, %llu written, %llu rejected in %.2f s",
	    (unsigned long long)read, cli_unit, (unsigned long long)written,
	    (unsigned long long)rejected, cli_now() - start_time);
}

void
cli_bad_option(int c, char *const *argv)
{
	if (c == ':')
		cli_usage_error("option '%s' needs a value", argv[optind - 1]);
	if (optopt > 0 && optopt < 256 && optopt != '?')
		cli_usage_error("unknown option '-%c'", optopt);
	cli_usage_error("unknown option '%s'", argv[optind - 1]);
}

void
cli_pgn_refused(void)
{
	__atomic_store_n(&input_rejected, 1, __ATOMIC_RELAXED);
}

int
cli__pgn_refused_any(void)
{
	return __atomic_load_n(&input_rejected, __ATOMIC_RELAXED);
}

void
cli__msg_start(const char *name)
{
	const char *slash = strrchr(name, '/');

	cli_prog = slash ? slash + 1 : name;
	/* libtool wrappers run the real binary as lt-NAME */
	if (strncmp(cli_prog, "lt-", 3) == 0)
		cli_prog += 3;
	/* one write per message line, not one per fragment */
	setvbuf(stderr, NULL, _IOLBF, 0);
	start_time = cli_now();
	last_progress = start_time;
}