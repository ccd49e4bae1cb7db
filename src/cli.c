/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * cli.c: the shared command-line plumbing of the tools (see cli.h).
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <pthread.h>
#include <limits.h>
#include <poll.h>
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
static char *out_path;		/* final name with -o (a link's target) */
static const char *out_name;	/* the name -o gave, for messages */
static char *out_tmp;		/* temporary file being written */
/* Temporary files to remove on every exit and on a signal: an array
 * the signal handler reads, changed only with the signals blocked. */
static char **tmp_paths;	/* NULL entries: removed or kept */
static size_t ntmp, tmp_cap;
static FILE *rejects_file;
static const char *rejects_path;
static double start_time;
static double last_progress;
static int progress_shown;

static void
run_hooks(void)
{
	size_t i;

	cli_signals_block();
	for (i = 0; i < ntmp; i++)
		if (tmp_paths[i] != NULL) {
			unlink(tmp_paths[i]);
			free(tmp_paths[i]);
			tmp_paths[i] = NULL;
		}
	cli_signals_unblock();
	if (out_tmp != NULL) {
		unlink(out_tmp);
		free(out_tmp);
		out_tmp = NULL;
	}
	free(out_path);
	out_path = NULL;
}

/* SIGINT, SIGTERM, SIGHUP: remove the temporary files and the -o file
 * being written (only unlink(2): async-signal-safe; the lists change
 * with these signals blocked), then die of the same signal. */
static void
on_signal(int sig)
{
	size_t i;

	for (i = 0; i < ntmp; i++)
		if (tmp_paths[i] != NULL)
			unlink(tmp_paths[i]);
	if (out_tmp != NULL)
		unlink(out_tmp);
	signal(sig, SIG_DFL);
	raise(sig);
}

static sigset_t blocked_old;
static int blocked_depth;

void
cli_signals_block(void)
{
	sigset_t s, old;

	sigemptyset(&s);
	sigaddset(&s, SIGINT);
	sigaddset(&s, SIGTERM);
	sigaddset(&s, SIGHUP);
	pthread_sigmask(SIG_BLOCK, &s, &old);
	if (blocked_depth++ == 0)
		blocked_old = old;
}

void
cli_signals_unblock(void)
{
	if (blocked_depth > 0 && --blocked_depth == 0)
		pthread_sigmask(SIG_SETMASK, &blocked_old, NULL);
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

int
cli_tmp_create(const char *dir, const char *prefix, size_t *id)
{
	size_t n;
	char *name;
	int fd;

	if (dir == NULL || *dir == '\0')
		dir = getenv("TMPDIR");
	if (dir == NULL || *dir == '\0')
		dir = "/tmp";
	n = strlen(dir) + strlen(prefix) + 16;
	name = malloc(n);
	if (name == NULL)
		cli_fatal("out of memory");
	snprintf(name, n, "%s/%sXXXXXX", dir, prefix);
	cli_signals_block();
	if (ntmp == tmp_cap) {
		size_t nc = tmp_cap ? 2 * tmp_cap : 64;
		char **nn = malloc(nc * sizeof(*nn));

		if (nn == NULL)
			cli_fatal("out of memory");
		if (ntmp > 0)
			memcpy(nn, tmp_paths, ntmp * sizeof(*nn));
		free(tmp_paths);
		tmp_paths = nn;
		tmp_cap = nc;
	}
	fd = mkstemp(name);
	if (fd >= 0)
		tmp_paths[ntmp++] = name;
	cli_signals_unblock();
	if (fd < 0) {
		int e = errno;

		free(name);
		cli_fatal("cannot create a temporary file in %s: %s", dir,
		    strerror(e));
	}
	*id = ntmp - 1;
	return fd;
}

const char *
cli_tmp_name(size_t id)
{
	return id < ntmp && tmp_paths[id] != NULL ? tmp_paths[id] : "?";
}

void
cli_tmp_remove(size_t id)
{
	char *name;

	if (id >= ntmp)
		return;
	cli_signals_block();
	name = tmp_paths[id];
	tmp_paths[id] = NULL;
	cli_signals_unblock();
	if (name != NULL) {
		unlink(name);
		free(name);
	}
}

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
	struct stat st;
	FILE *f;

	if (name == NULL || strcmp(name, "-") == 0) {
		*display = "<stdin>";
		f = stdin;
	} else {
		*display = name;
		f = fopen(name, "rb");
		if (f == NULL) {
			cli_warn("%s: %s", name, strerror(errno));
			return NULL;
		}
	}
	/* A directory opens but cannot be read: say so the one way, before
	 * any reader gets an errno that something else overwrote. */
	if (fstat(fileno(f), &st) == 0 && S_ISDIR(st.st_mode)) {
		cli_warn("%s: read error: %s", *display, strerror(EISDIR));
		cli_close_input(f);
		return NULL;
	}
	if (f == stdin)
		return cli__input_open(f, *display);
	/* Large buffer: inputs are read sequentially in big blocks. */
	setvbuf(f, NULL, _IOFBF, 1 << 18);
#ifdef HAVE_POSIX_FADVISE
	posix_fadvise(fileno(f), 0, 0, POSIX_FADV_SEQUENTIAL);
#endif
	return cli__input_open(f, *display);
}

void
cli_close_input(FILE *f)
{
	f = cli__input_close(f);
	if (f != NULL && f != stdin)
		fclose(f);
}

static FILE *output_open(const char *path);

/* The file a -o path names: the end of its chain of symbolic links
 * (which need not exist, as with a dangling link), in malloc'd
 * memory, or NULL (errno set: ELOOP after 40 links). */
static char *
link_target(const char *path)
{
	char *cur, *next, buf[PATH_MAX];
	struct stat st;
	int hops;

	if ((cur = strdup(path)) == NULL)
		return NULL;
	for (hops = 0; lstat(cur, &st) == 0 && S_ISLNK(st.st_mode); hops++) {
		ssize_t k;
		const char *slash;
		size_t dlen;

		if (hops == 40) {
			free(cur);
			errno = ELOOP;
			return NULL;
		}
		k = readlink(cur, buf, sizeof(buf) - 1);
		if (k < 0) {
			free(cur);
			return NULL;
		}
		buf[k] = '\0';
		/* a relative target is relative to the link's directory */
		slash = strrchr(cur, '/');
		dlen = buf[0] == '/' || slash == NULL ? 0 :
		    (size_t)(slash - cur) + 1;
		if ((next = malloc(dlen + (size_t)k + 1)) == NULL) {
			free(cur);
			return NULL;
		}
		memcpy(next, cur, dlen);
		memcpy(next + dlen, buf, (size_t)k + 1);
		free(cur);
		cur = next;
	}
	return cur;
}

FILE *
cli_output_open(const char *path)
{
	out_file = cli__output_open(output_open(path), path);
	return out_file;
}

static FILE *
output_open(const char *path)
{
	static char outbuf[1 << 17];
	struct stat st;
	mode_t mode;
	int fd, exists;
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
		out_name = path;
		setvbuf(out_file, NULL, _IOFBF, 1 << 17);
		return out_file;
	}
	/* As sort(1): write through a symbolic link to the file it names;
	 * a new file gets 0666 less the umask, an existing one keeps its
	 * mode and, where we may, its owner.  The temporary file lies
	 * beside the target, so the rename stays on one file system. */
	out_name = path;
	if ((out_path = link_target(path)) == NULL)
		cli_fatal("%s: %s", path, errno == ENOMEM ? "out of memory" :
		    strerror(errno));
	exists = stat(out_path, &st) == 0;
	if (exists && access(out_path, W_OK) != 0)
		cli_fatal("%s: %s", path, strerror(errno));
	n = strlen(out_path);
	if ((out_tmp = malloc(n + 16)) == NULL)
		cli_fatal("out of memory");
	snprintf(out_tmp, n + 16, "%s.tmpXXXXXX", out_path);
	fd = mkstemp(out_tmp);
	if (fd < 0) {
		free(out_tmp);
		out_tmp = NULL;
		cli_fatal("%s: %s", path, strerror(errno));
	}
	if (exists) {
		/* the owner first: fchown may clear set-id bits */
		if (fchown(fd, st.st_uid, st.st_gid) != 0 &&
		    fchown(fd, (uid_t)-1, st.st_gid) != 0) {
			/* not ours to give: the file becomes ours */
		}
		mode = st.st_mode & 07777;
	} else {
		mode = umask(0);
		umask(mode);
		mode = 0666 & ~mode;
	}
	if (fchmod(fd, mode) != 0)
		cli_fatal("%s: %s", path, strerror(errno));
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

/* Whether writing to fd failed because nobody reads it any more: errno
 * says EPIPE, or (errno being overwritten since) a pipe or socket with
 * no reader, which poll reports as an error. */
static int
broken_pipe(int fd, int err)
{
	struct pollfd p;
	struct stat st;

	if (err == EPIPE)
		return 1;
	if (fd < 0 || fstat(fd, &st) != 0 || !(S_ISFIFO(st.st_mode) ||
	    S_ISSOCK(st.st_mode)))
		return 0;
	p.fd = fd;
	p.events = POLLOUT;
	p.revents = 0;
	return poll(&p, 1, 0) == 1 && (p.revents & (POLLERR | POLLHUP));
}

void
cli_write_error(int fd, const char *name, int err)
{
	sigset_t set;

	if (broken_pipe(fd, err)) {
		/* as sort(1) and grep(1): die of SIGPIPE, quietly */
		run_hooks();
		signal(SIGPIPE, SIG_DFL);
		sigemptyset(&set);
		sigaddset(&set, SIGPIPE);
		pthread_sigmask(SIG_UNBLOCK, &set, NULL);
		raise(SIGPIPE);
		_exit(128 + SIGPIPE);
	}
	cli_warn("write error on %s: %s", name,
	    err ? strerror(err) : "unknown error");
	run_hooks();
	exit(2);
}

/* The name of the output in messages. */
static const char *
output_name(void)
{
	return out_name != NULL ? out_name : "standard output";
}

void
cli_output_check(void)
{
	FILE *f = out_file ? out_file : stdout;

	if (ferror(f))
		cli_write_error(fileno(f), output_name(), errno);
}

void
cli_output_write(const void *data, size_t n)
{
	FILE *f = out_file ? out_file : stdout;
	const char *p = data;
	int fd;

	if (n < OUTPUT_DIRECT || (fd = fileno(f)) < 0) {
		if (n > 0)
			fwrite(p, 1, n, f);	/* an error: ferror */
		cli_output_check();
		return;
	}
	/* what stdio holds first, then the block from where it lies */
	if (fflush(f) != 0)
		cli_write_error(fd, output_name(), errno);
	while (n > 0) {
		ssize_t k = write(fd, p, n);

		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0)
			cli_write_error(fd, output_name(), k < 0 ? errno : EIO);
		p += k;
		n -= (size_t)k;
	}
}

/* Input rejected outside the games' count (binary data): the exit
 * status is 1 at least. */
static int input_rejected;

void
cli_exit(int status)
{
	FILE *f = out_file ? out_file : stdout;
	const char *name = output_name();

	cli_progress_end();
	if (status == 0 && __atomic_load_n(&input_rejected, __ATOMIC_RELAXED))
		status = 1;
	errno = 0;
	/* a compressed output: finish it, then the file under it */
	if ((f = cli__output_end(f)) == NULL)
		cli_write_error(-1, name, errno);
	if (fflush(f) != 0 || ferror(f))
		cli_write_error(fileno(f), name, errno);
	if (f != stdout || out_path != NULL) {
		if (fclose(f) != 0)
			cli_write_error(-1, name, errno);
		if (out_tmp != NULL) {
			if (rename(out_tmp, out_path) != 0) {
				cli_warn("%s: %s", name, strerror(errno));
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
	} else if (f == stdout) {
		int fd = dup(fileno(stdout));

		errno = 0;
		if (fclose(stdout) != 0)
			cli_write_error(fd, name, errno);
		if (fd >= 0)
			close(fd);
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
cli_pgn_refused(void)
{
	__atomic_store_n(&input_rejected, 1, __ATOMIC_RELAXED);
}

/* Binary data skipped before a game (number > 0) or at the end. */
static int
binary_skipped(const char *file, const cd_pgn_raw_game *raw,
    unsigned long long number)
{
	if (!(raw->flags & CD_PGN_RAW_SKIPPED_BINARY))
		return 0;
	cli_pgn_refused();
	if (number > 0)
		cli_warn_at(file, raw->skipped_line, 1, "not PGN text: binary "
		    "data (%llu bytes skipped before game %llu)",
		    (unsigned long long)raw->skipped_bytes, number);
	else
		cli_warn_at(file, raw->skipped_line, 1, "not PGN text: binary "
		    "data (%llu bytes skipped at the end of the input)",
		    (unsigned long long)raw->skipped_bytes);
	return 1;
}

int
cli_pgn_check(const char *file, const cd_pgn_raw_game *raw)
{
	cd_error err;

	if (cd_pgn_raw_check(raw, &err) == CD_OK)
		return 0;
	cli_pgn_refused();
	cli_warn_at(file, err.line, err.col, "game %llu: %s",
	    (unsigned long long)raw->number, err.msg);
	return 1;
}

void
cli_pgn_skipped(const char *file, const cd_pgn_raw_game *raw)
{
	if (binary_skipped(file, raw, (unsigned long long)raw->number))
		return;
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
	if (binary_skipped(file, raw, 0))
		return;
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
	if (st == CD_ERR_IO && cli__input_error(name))
		return 2;
	if (st == CD_ERR_IO) {
		cli_warn("%s: read error: %s", name, strerror(errno));
		return 2;
	}
	return 0;
}
