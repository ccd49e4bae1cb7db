/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * cli.c: the shared command-line plumbing of the tools (see cli.h).
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/stat.h>
#include <unistd.h>

#include "chessdata.h"
#include "cli.h"

const char *cli_prog = "chessdata";
int cli_quiet;
const char *cli_unit = "games";

static FILE *out_file;
static char *out_path;		/* final name with -o */
static char *out_tmp;		/* temporary file being written */
static void (*hooks[8])(void);
static int nhooks;
static FILE *rejects_file;
static const char *rejects_path;
static double start_time;
static double last_progress;
static int progress_shown;

static void
run_hooks(void)
{
	while (nhooks > 0)
		hooks[--nhooks]();
	if (out_tmp != NULL) {
		unlink(out_tmp);
		free(out_tmp);
		out_tmp = NULL;
	}
	free(out_path);
	out_path = NULL;
}

static void
on_signal(int sig)
{
	/* Remove temporary files (no free(): not safe in a handler), then
	 * die of the same signal. */
	while (nhooks > 0)
		hooks[--nhooks]();
	if (out_tmp != NULL)
		unlink(out_tmp);
	signal(sig, SIG_DFL);
	raise(sig);
}

void
cli_init(const char *name)
{
	const char *slash = strrchr(name, '/');

	cli_prog = slash ? slash + 1 : name;
	/* libtool wrappers run the real binary as lt-NAME */
	if (strncmp(cli_prog, "lt-", 3) == 0)
		cli_prog += 3;
	/* one write per message line, not one per fragment */
	setvbuf(stderr, NULL, _IOLBF, 0);
	signal(SIGPIPE, SIG_IGN);
	/* past the file size limit, writes fail with EFBIG instead */
	signal(SIGXFSZ, SIG_IGN);
	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);
	signal(SIGHUP, on_signal);
	start_time = cli_now();
	last_progress = start_time;
}

void
cli_atexit(void (*fn)(void))
{
	if (nhooks < (int)(sizeof(hooks) / sizeof(hooks[0])))
		hooks[nhooks++] = fn;
}

__thread cd_pgn_buf *cli_capture;

void
cli_buf_reserve(cd_pgn_buf *b, size_t n)
{
	size_t cap = b->cap;
	char *d;

	if (cap - b->len >= n)
		return;
	while (cap - b->len < n)
		cap = cap ? 2 * cap : 1 << 16;
	if ((d = realloc(b->data, cap)) == NULL)
		cli_fatal("out of memory");
	b->data = d;
	b->cap = cap;
}

/* Append to a message being captured. */
static void
capture_printf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

static void
capture_vprintf(const char *fmt, va_list ap)
{
	cd_pgn_buf *b = cli_capture;
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

/* A message on standard error, or into cli_capture when this thread
 * has one (never for a fatal error: capture 0). */
static void
vwarn_at(int capture, const char *file, unsigned long line,
    unsigned long col, const char *fmt, va_list ap)
{
	char where[48] = "";

	if (file != NULL && line > 0 && col > 0)
		snprintf(where, sizeof(where), ":%lu:%lu", line, col);
	else if (file != NULL && line > 0)
		snprintf(where, sizeof(where), ":%lu", line);
	if (capture && cli_capture != NULL) {
		capture_printf("%s: %s%s%s", cli_prog, file ? file : "",
		    where, file ? ": " : "");
		capture_vprintf(fmt, ap);
		capture_printf("\n");
		return;
	}
	cli_progress_end();
	fprintf(stderr, "%s: %s%s%s", cli_prog, file ? file : "", where,
	    file ? ": " : "");
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
	run_hooks();
	exit(2);
}

void
cli_fatal(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vwarn_at(0, NULL, 0, 0, fmt, ap);
	va_end(ap);
	run_hooks();
	exit(2);
}

void
cli_print_version(void)
{
	printf("%s (chessdata) %s\n", cli_prog, cd_version());
}

FILE *
cli_open_input(const char *name, const char **display)
{
	FILE *f;

	if (name == NULL || strcmp(name, "-") == 0) {
		*display = "<stdin>";
		return stdin;
	}
	*display = name;
	f = fopen(name, "rb");
	if (f == NULL) {
		cli_warn("%s: %s", name, strerror(errno));
		return NULL;
	}
	/* Large buffer: inputs are read sequentially in big blocks. */
	setvbuf(f, NULL, _IOFBF, 1 << 18);
#ifdef HAVE_POSIX_FADVISE
	posix_fadvise(fileno(f), 0, 0, POSIX_FADV_SEQUENTIAL);
#endif
	return f;
}

void
cli_close_input(FILE *f)
{
	if (f != NULL && f != stdin)
		fclose(f);
}

FILE *
cli_output_open(const char *path)
{
	static char outbuf[1 << 17];
	struct stat st;
	int fd;
	size_t n;

	if (path == NULL || strcmp(path, "-") == 0) {
		out_file = stdout;
		setvbuf(stdout, outbuf, _IOFBF, sizeof(outbuf));
		return out_file;
	}
	/* a device, fifo or socket is written in place: never replaced */
	if (stat(path, &st) == 0 && !S_ISREG(st.st_mode)) {
		out_file = fopen(path, "wb");
		if (out_file == NULL)
			cli_fatal("%s: %s", path, strerror(errno));
		out_path = strdup(path);
		if (out_path == NULL)
			cli_fatal("out of memory");
		setvbuf(out_file, NULL, _IOFBF, 1 << 17);
		return out_file;
	}
	n = strlen(path);
	out_path = malloc(n + 1);
	out_tmp = malloc(n + 16);
	if (out_path == NULL || out_tmp == NULL)
		cli_fatal("out of memory");
	memcpy(out_path, path, n + 1);
	snprintf(out_tmp, n + 16, "%s.tmpXXXXXX", path);
	fd = mkstemp(out_tmp);
	if (fd < 0) {
		free(out_tmp);
		out_tmp = NULL;
		cli_fatal("%s: %s", path, strerror(errno));
	}
	out_file = fdopen(fd, "wb");
	if (out_file == NULL)
		cli_fatal("%s: %s", path, strerror(errno));
	setvbuf(out_file, NULL, _IOFBF, 1 << 17);
	return out_file;
}

FILE *
cli_output_file(void)
{
	return out_file ? out_file : stdout;
}

void
cli_output_check(void)
{
	FILE *f = out_file ? out_file : stdout;

	if (ferror(f))
		cli_fatal("write error on %s: %s",
		    out_path ? out_path : "standard output", strerror(errno));
}

void
cli_exit(int status)
{
	FILE *f = out_file ? out_file : stdout;
	const char *name = out_path ? out_path : "standard output";

	cli_progress_end();
	errno = 0;
	if (fflush(f) != 0 || ferror(f)) {
		cli_warn("write error on %s: %s", name,
		    errno ? strerror(errno) : "unknown error");
		run_hooks();
		exit(2);
	}
	if (f != stdout || out_path != NULL) {
		if (fclose(f) != 0) {
			cli_warn("write error on %s: %s", name, strerror(errno));
			run_hooks();
			exit(2);
		}
		if (out_tmp != NULL) {
			if (rename(out_tmp, out_path) != 0) {
				cli_warn("%s: %s", out_path, strerror(errno));
				run_hooks();
				exit(2);
			}
			free(out_tmp);
			out_tmp = NULL;
		}
	}
	if (f != stdout && fclose(stdout) != 0 && status == 0) {
		cli_warn("write error on standard output: %s", strerror(errno));
		status = 2;
	} else if (f == stdout && fclose(stdout) != 0) {
		cli_warn("write error on standard output: %s", strerror(errno));
		run_hooks();
		exit(2);
	}
	run_hooks();
	exit(status);
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

int
cli_each_input(int argc, char **argv, int first,
    int (*fn)(FILE *f, const char *name))
{
	int status = 0, i = first;

	do {
		const char *name;
		FILE *f = cli_open_input(i < argc ? argv[i] : NULL, &name);

		if (f == NULL) {
			status = 2;
			continue;
		}
		if (fn(f, name) != 0)
			status = 2;
		cli_close_input(f);
	} while (++i < argc);
	return status;
}

void
cli_rejects_open(const char *path)
{
	if (path == NULL)
		return;
	rejects_path = path;
	rejects_file = fopen(path, "wb");
	if (rejects_file == NULL)
		cli_fatal("%s: %s", path, strerror(errno));
	setvbuf(rejects_file, NULL, _IOFBF, 1 << 16);
}

void
cli_rejects_write(const void *bytes, size_t len)
{
	if (rejects_file == NULL)
		return;
	if (fwrite(bytes, 1, len, rejects_file) != len ||
	    ferror(rejects_file))
		cli_fatal("write error on %s: %s", rejects_path,
		    strerror(errno));
}

void
cli_rejects_close(void)
{
	if (rejects_file != NULL && fclose(rejects_file) != 0)
		cli_fatal("write error on %s: %s", rejects_path,
		    strerror(errno));
	rejects_file = NULL;
}

void
cli_pgn_skipped(const char *file, const cd_pgn_raw_game *raw)
{
	/* (the reader skips whole lines: the text starts in column 1) */
	if (raw->skipped_bytes > 0 && !cli_quiet)
		cli_warn_at(file, raw->skipped_line, 1, "warning: game %llu: "
		    "skipped %llu bytes of text that is not PGN before it",
		    (unsigned long long)raw->number,
		    (unsigned long long)raw->skipped_bytes);
}

void
cli_pgn_skipped_end(const char *file, const cd_pgn_raw_game *raw)
{
	if (raw->skipped_bytes > 0 && !cli_quiet)
		cli_warn_at(file, raw->skipped_line, 1, "warning: skipped %llu "
		    "bytes of text that is not PGN at the end of the input",
		    (unsigned long long)raw->skipped_bytes);
}

void
cli_pgn_end_note(const char *file, const cd_pgn_raw_game *raw, int st)
{
	static const char *last_file;
	static unsigned long long last_number;
	static unsigned long last_line, last_col;
	static int last_open;

	if (st == CD_OK) {
		last_file = file;
		last_number = (unsigned long long)raw->number;
		last_line = (unsigned long)raw->line;
		last_col = (unsigned long)raw->col;
		/* (an unclosed comment is rejected with its own message) */
		last_open = (raw->flags & (CD_PGN_RAW_NO_RESULT |
		    CD_PGN_RAW_UNCLOSED_COMMENT)) == CD_PGN_RAW_NO_RESULT;
	} else {
		if (st == CD_EOF && last_open && last_file == file)
			cli_warn_at(file, last_line, last_col, "warning: game "
			    "%llu: no termination marker at the end of the "
			    "input (truncated?)", last_number);
		last_open = 0;
	}
}

void
cli_pgn_notes(const char *file, const cd_pgn_raw_game *raw, int st)
{
	if (st == CD_OK)
		cli_pgn_skipped(file, raw);
	else
		cli_pgn_skipped_end(file, raw);
	cli_pgn_end_note(file, raw, st);
}

int
cli_read_end(const char *name, cd_status st)
{
	if (st == CD_ERR_NOMEM)
		cli_fatal("out of memory");
	if (st == CD_ERR_IO) {
		cli_warn("%s: read error: %s", name, strerror(errno));
		return 2;
	}
	return 0;
}
