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
#ifdef __linux__
#include <sys/xattr.h>
#endif
#include <unistd.h>

#include "chessdata.h"
#include "cli.h"

const char *cli_prog = "chessdata";
int cli_quiet;
const char *cli_unit = "games";

/* A file the tool writes (-o, --rejects): a temporary file beside its
 * target, put in place by cli_exit when the run ends with status 0 or
 * 1 (commit), removed on any other end; or, for a device, a FIFO or a
 * socket, the file itself, written in place. */
struct outfile {
	FILE *f;		/* NULL: not open, or closed */
	const char *name;	/* the name given, for messages */
	char *path;		/* the target: the end of its links */
	char *tmp;		/* the temporary file; NULL: in place */
	int copy;		/* commit by copying into path, in place */
	int along;		/* on standard error's file: line by line */
};
/* What a file is, to tell when two names are one file: a regular file
 * by its device and inode; a file yet to be made by its directory's
 * and its name (base); known 0: neither (a device, a FIFO). */
struct fileid {
	dev_t dev;
	ino_t ino;
	const char *base;	/* NULL: the file exists */
	int known;
};
static FILE *out_file;		/* the output (over out.f when compressed) */
static struct outfile out, rej;
static struct fileid out_id, rej_id;
static int out_opened, rej_opened;
/* The inputs' identities (cli_inputs): the regular files among them. */
static struct input_id {
	dev_t dev;
	ino_t ino;
	const char *name;
} *inputs;
static size_t ninputs;
/* Temporary files to remove on every exit and on a signal: an array
 * the signal handler reads, changed only with the signals blocked. */
static char **tmp_paths;	/* NULL entries: removed or kept */
static size_t ntmp, tmp_cap;
static double start_time;
static double last_progress;
static int progress_shown;

/* Remove a file's temporary file: the run failed, its target stays as
 * it was. */
static void
outfile_discard(struct outfile *o)
{
	char *tmp;

	cli_signals_block();
	tmp = o->tmp;
	o->tmp = NULL;
	cli_signals_unblock();
	if (tmp != NULL) {
		unlink(tmp);
		free(tmp);
	}
	free(o->path);
	o->path = NULL;
}

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
	outfile_discard(&out);
	outfile_discard(&rej);
}

/* SIGINT, SIGTERM, SIGHUP: remove the temporary files, those of -o and
 * --rejects too (only unlink(2): async-signal-safe; the lists change
 * with these signals blocked), then die of the same signal. */
static void
on_signal(int sig)
{
	size_t i;

	for (i = 0; i < ntmp; i++)
		if (tmp_paths[i] != NULL)
			unlink(tmp_paths[i]);
	if (out.tmp != NULL)
		unlink(out.tmp);
	if (rej.tmp != NULL)
		unlink(rej.tmp);
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

/* Descriptors 0, 1 and 2 closed at start (tool >&-) are opened on
 * /dev/null, as coreutils does, so that no file the tool opens takes
 * their place (a rejects file getting the output); opened the wrong
 * way round (standard input for writing, the others for reading), so
 * that using them fails with EBADF as the closed descriptor would:
 * output to a closed standard output is a write error, exit 2. */
static void
std_fds_open(void)
{
	int fd;

	for (fd = 0; fd <= 2; fd++) {
		int nfd;

		if (fcntl(fd, F_GETFD) >= 0 || errno != EBADF)
			continue;
		nfd = open("/dev/null", fd == 0 ? O_WRONLY : O_RDONLY);
		if (nfd != fd) {
			/* (0 to 2 are free below it: cannot happen) */
			if (nfd >= 0)
				close(nfd);
			_exit(2);
		}
	}
}

void
cli_init(const char *name)
{
	const char *slash = strrchr(name, '/');

	std_fds_open();

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

int
cli_tmp_rename(size_t id, const char *path)
{
	char *name;
	int r = -1;

	if (id >= ntmp || tmp_paths[id] == NULL) {
		errno = ENOENT;
		return -1;
	}
	/* no signal between the rename and forgetting the name */
	cli_signals_block();
	name = tmp_paths[id];
	if ((r = rename(name, path)) == 0)
		tmp_paths[id] = NULL;
	cli_signals_unblock();
	if (r == 0)
		free(name);
	return r;
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
			int e = errno;

			cli_warn("%s: %s%s", name, strerror(e),
			    cli__option_hint(name));
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
		return f;
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

/* The directory of path (malloc'd: "." for a bare name). */
static char *
dir_of(const char *path)
{
	const char *slash = strrchr(path, '/');
	size_t n = slash == NULL ? 1 : slash == path ? 1 :
	    (size_t)(slash - path);
	char *d = malloc(n + 1);

	if (d == NULL)
		cli_fatal("out of memory");
	memcpy(d, slash == NULL ? "." : path, n);
	d[n] = '\0';
	return d;
}

/* What target (a link's end) is: a regular file, a file yet to be
 * made, or something else (known 0). */
static void
file_id(const char *target, struct fileid *id)
{
	struct stat st;
	const char *slash;
	char *dir;

	memset(id, 0, sizeof(*id));
	if (stat(target, &st) == 0) {
		id->dev = st.st_dev;
		id->ino = st.st_ino;
		id->known = S_ISREG(st.st_mode);
		return;
	}
	if (errno != ENOENT)
		return;
	dir = dir_of(target);
	if (stat(dir, &st) == 0) {
		slash = strrchr(target, '/');
		id->dev = st.st_dev;
		id->ino = st.st_ino;
		id->base = slash ? slash + 1 : target;
		id->known = 1;
	}
	free(dir);
}

static int
file_same(const struct fileid *a, const struct fileid *b)
{
	return a->known && b->known && a->dev == b->dev &&
	    a->ino == b->ino && (a->base == NULL) == (b->base == NULL) &&
	    (a->base == NULL || strcmp(a->base, b->base) == 0);
}

void
cli_inputs(int argc, char **argv, int first)
{
	int i = first;

	if ((inputs = calloc((size_t)(argc > first ? argc - first : 1),
	    sizeof(*inputs))) == NULL)
		cli_fatal("out of memory");
	do {
		const char *a = i < argc ? argv[i] : "-";
		struct stat st;
		int r;

		r = strcmp(a, "-") == 0 ? fstat(0, &st) : stat(a, &st);
		if (r != 0 || !S_ISREG(st.st_mode))
			continue;	/* reported when it is opened */
		inputs[ninputs].dev = st.st_dev;
		inputs[ninputs].ino = st.st_ino;
		inputs[ninputs].name = strcmp(a, "-") == 0 ? "<stdin>" : a;
		ninputs++;
	} while (++i < argc);
}

/* The input that id is, or NULL. */
static const char *
input_named(const struct fileid *id)
{
	size_t i;

	for (i = 0; id->known && id->base == NULL && i < ninputs; i++)
		if (inputs[i].dev == id->dev && inputs[i].ino == id->ino)
			return inputs[i].name;
	return NULL;
}

/* Refuse, before anything is read or written, a rejects file that is
 * an input or the output, and standard output that is an input (as
 * cat(1): the tool would read what it writes).  -o may name an input:
 * it is written to a temporary file. */
static void
files_check(void)
{
	const char *in;

	if (rej_opened && (in = input_named(&rej_id)) != NULL)
		cli_fatal("%s: rejects file is input file %s", rej.name, in);
	if (out_opened && out.name == NULL &&
	    (in = input_named(&out_id)) != NULL)
		cli_fatal("%s: input file is output file", in);
	if (rej_opened && out_opened && file_same(&rej_id, &out_id))
		cli_fatal("%s: rejects file is output file %s", rej.name,
		    out.name ? out.name : "(standard output)");
}

/* Whether the file has extended attributes (an ACL, a security label)
 * that a new inode would not have. */
static int
has_xattrs(const char *path)
{
#ifdef __linux__
	return listxattr(path, NULL, 0) > 0;
#else
	(void)path;
	return 0;
#endif
}

/* Open o->name for writing: a device, a FIFO or a socket in place;
 * else, as sort(1), write through a symbolic link to the file it
 * names: a temporary file DIR/.PROG.XXXXXX beside the target (a short
 * name, whatever the target's length), put in place by outfile_commit;
 * the file standard error goes to, in place.
 * A new file gets 0666 less the umask; an existing one keeps its mode
 * and, where we may, its owner. */
static FILE *
outfile_open(struct outfile *o, struct fileid *id, int *opened)
{
	struct stat st, tst;
	mode_t mode;
	int fd, exists, e;
	size_t n;
	char *dir, *tmp;
	FILE *f;

	if (stat(o->name, &st) == 0 && !S_ISREG(st.st_mode)) {
		*opened = 1;
		files_check();
		if ((f = fopen(o->name, "wb")) == NULL)
			cli_fatal("%s: %s", o->name, strerror(errno));
		return f;
	}
	if ((o->path = link_target(o->name)) == NULL)
		cli_fatal("%s: %s", o->name, errno == ENOMEM ?
		    "out of memory" : strerror(errno));
	file_id(o->path, id);
	*opened = 1;
	files_check();
	exists = stat(o->path, &st) == 0;
	if (exists && fstat(2, &tst) == 0 && st.st_dev == tst.st_dev &&
	    st.st_ino == tst.st_ino) {
		/* the file standard error goes to (--rejects=/dev/stderr
		 * 2>log): written along with the messages, not replaced */
		if ((fd = dup(2)) < 0 || (f = fdopen(fd, "wb")) == NULL)
			cli_fatal("%s: %s", o->name, strerror(errno));
		o->along = 1;
		return f;
	}
	if (exists && access(o->path, W_OK) != 0)
		cli_fatal("%s: %s", o->name, strerror(errno));
	dir = dir_of(o->path);
	n = strlen(dir) + strlen(cli_prog) + 16;
	if ((tmp = malloc(n)) == NULL)
		cli_fatal("out of memory");
	snprintf(tmp, n, "%s/.%.32s.XXXXXX", dir, cli_prog);
	free(dir);
	cli_signals_block();
	fd = mkstemp(tmp);
	e = errno;
	if (fd >= 0)
		o->tmp = tmp;
	cli_signals_unblock();
	if (fd < 0 && exists) {
		/* a directory we may not write in, a file we may: the
		 * temporary file elsewhere, copied into the file at the end */
		const char *t = getenv("TMPDIR");

		if (t == NULL || *t == '\0')
			t = "/tmp";
		free(tmp);
		n = strlen(t) + strlen(cli_prog) + 16;
		if ((tmp = malloc(n)) == NULL)
			cli_fatal("out of memory");
		snprintf(tmp, n, "%s/%.32s.XXXXXX", t, cli_prog);
		cli_signals_block();
		fd = mkstemp(tmp);
		if (fd >= 0)
			o->tmp = tmp;
		cli_signals_unblock();
		o->copy = 1;
	}
	if (fd < 0) {
		free(tmp);
		cli_fatal("%s: %s", o->name, strerror(e));
	}
	if (exists) {
		/* the owner first: fchown may clear set-id bits */
		if (fchown(fd, st.st_uid, st.st_gid) != 0 &&
		    fchown(fd, (uid_t)-1, st.st_gid) != 0) {
			/* not ours to give: copied in place at the end */
		}
		mode = st.st_mode & 07777;
	} else {
		mode = umask(0);
		umask(mode);
		mode = 0666 & ~mode;
	}
	if (fchmod(fd, mode) != 0)
		cli_fatal("%s: %s", o->name, strerror(errno));
	/* A rename would lose another hard link, an owner or mode we could
	 * not give the new file, an ACL: then the file is written over in
	 * place at the end instead, as sort(1) writes it. */
	if (exists && (st.st_nlink != 1 || fstat(fd, &tst) != 0 ||
	    tst.st_uid != st.st_uid || tst.st_gid != st.st_gid ||
	    (tst.st_mode & 07777) != mode || has_xattrs(o->path)))
		o->copy = 1;
	if ((f = fdopen(fd, "wb")) == NULL)
		cli_fatal("%s: %s", o->name, strerror(errno));
	return f;
}

/* Copy the finished temporary file into the target, in place (its
 * inode, links, owner, mode and ACL stay): room for all of it is
 * allocated first, so a full disk leaves the target as it was. */
static int
copy_into(const char *from, const char *to)
{
	static char buf[1 << 16];
	struct stat st;
	int in, fd, e;
	ssize_t k;

	if ((in = open(from, O_RDONLY)) < 0)
		return -1;
	if (fstat(in, &st) != 0 || (fd = open(to, O_WRONLY | O_NOCTTY |
	    O_CREAT, 0666)) < 0) {
		e = errno;
		close(in);
		errno = e;
		return -1;
	}
	e = st.st_size > 0 ? posix_fallocate(fd, 0, st.st_size) : 0;
	/* (a file system that cannot allocate ahead is written as is) */
	if (e == EINVAL || e == EOPNOTSUPP || e == ENOSYS || e == ENODEV)
		e = 0;
	while (e == 0 && (k = read(in, buf, sizeof(buf))) != 0) {
		char *p = buf;

		if (k < 0) {
			if (errno != EINTR)
				e = errno;
			continue;
		}
		while (e == 0 && k > 0) {
			ssize_t w = write(fd, p, (size_t)k);

			if (w < 0 && errno == EINTR)
				continue;
			if (w <= 0)
				e = w < 0 ? errno : EIO;
			else {
				p += w;
				k -= w;
			}
		}
	}
	if (e == 0 && ftruncate(fd, st.st_size) != 0)
		e = errno;
	if (close(fd) != 0 && e == 0)
		e = errno;
	close(in);
	errno = e;
	return e == 0 ? 0 : -1;
}

/* Put the finished temporary file in place: a rename, or a copy into
 * the target (o->copy).  On failure, the message and exit 2. */
static void
outfile_commit(struct outfile *o)
{
	int r;

	if (o->tmp == NULL)
		return;
	r = o->copy ? copy_into(o->tmp, o->path) : rename(o->tmp, o->path);
	if (r != 0) {
		if (o->copy)
			cli_warn("write error on %s: %s", o->name,
			    strerror(errno));
		else
			cli_warn("%s: %s", o->name, strerror(errno));
		run_hooks();
		exit(2);
	}
	if (o->copy)
		unlink(o->tmp);
	cli_signals_block();
	free(o->tmp);
	o->tmp = NULL;
	cli_signals_unblock();
	free(o->path);
	o->path = NULL;
}

FILE *
cli_output_open(const char *path)
{
	static char outbuf[1 << 17];
	struct stat st;
	FILE *f;

	if (path == NULL || strcmp(path, "-") == 0) {
		memset(&out_id, 0, sizeof(out_id));
		if (fstat(1, &st) == 0 && S_ISREG(st.st_mode)) {
			out_id.dev = st.st_dev;
			out_id.ino = st.st_ino;
			out_id.known = 1;
		}
		out_opened = 1;
		files_check();
		setvbuf(stdout, outbuf, _IOFBF, sizeof(outbuf));
		f = stdout;
	} else {
		out.name = path;
		f = out.f = outfile_open(&out, &out_id, &out_opened);
		setvbuf(f, NULL, out.along ? _IOLBF : _IOFBF, 1 << 17);
	}
	out_file = cli__output_open(f, path);
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
	return out.name != NULL ? out.name : "standard output";
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

/* The end of a run ending with status 0 or 1: the files written go
 * in place, unless a signal came (then it is handled, as during the
 * run, and they are not). */
static void
files_commit(void)
{
	sigset_t pending;

	cli_signals_block();
	if (sigpending(&pending) == 0 && (sigismember(&pending, SIGINT) ||
	    sigismember(&pending, SIGTERM) || sigismember(&pending, SIGHUP)))
		run_hooks();		/* the handler then ends the tool */
	else {
		outfile_commit(&out);
		outfile_commit(&rej);
	}
	cli_signals_unblock();
}

/* Input rejected outside the games' count (binary data, a game too
 * large, input of the wrong kind): the exit status is 1 at least. */
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
	if (out.f != NULL) {
		out.f = NULL;
		if (fclose(f) != 0)
			cli_write_error(-1, name, errno);
	}
	cli_rejects_close();
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
	/* A failed run (a missing or damaged input, a system error) leaves
	 * -o and --rejects as they were. */
	if (status < 2)
		files_commit();
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

int (*cli_inputs_done)(void);

int
cli_each_input(int argc, char **argv, int first,
    int (*fn)(FILE *f, const char *name))
{
	int status = 0, i = first;

	do {
		const char *name;
		FILE *f;

		if (cli_inputs_done != NULL && cli_inputs_done())
			break;
		f = cli_open_input(i < argc ? argv[i] : NULL, &name);
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
	rej.name = path;
	rej.f = outfile_open(&rej, &rej_id, &rej_opened);
	/* (with the messages: whole lines between them) */
	setvbuf(rej.f, NULL, rej.along ? _IOLBF : _IOFBF, 1 << 16);
}

void
cli_rejects_write(const void *bytes, size_t len)
{
	if (rej.f == NULL)
		return;
	if (fwrite(bytes, 1, len, rej.f) != len || ferror(rej.f))
		cli_fatal("write error on %s: %s", rej.name, strerror(errno));
}

void
cli_rejects_close(void)
{
	FILE *f = rej.f;

	rej.f = NULL;
	if (f != NULL && fclose(f) != 0)
		cli_fatal("write error on %s: %s", rej.name, strerror(errno));
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
	cli_pgn_wrong_kind(file, raw);
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
	cli_pgn_wrong_kind_end(file, raw);
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
cli_read_end(const char *name, cd_status st, const cd_error *err,
    const cd_stream *s)
{
	if (st == CD_ERR_NOMEM)
		cli_fatal("out of memory");
	if (st == CD_ERR_IO && err != NULL && err->status != CD_OK) {
		cli_warn("%s: %s%s", name, err->msg, err->status ==
		    CD_ERR_RANGE ? " (--memlimit)" : "");
		return 2;
	}
	if (st == CD_ERR_IO) {
		cli_warn("%s: read error: %s", name, strerror(errno));
		return 2;
	}
	/* input read past (zeros after bzip2 data), said at its end */
	if (s != NULL && cd_stream_warning(s)->status != CD_OK)
		cli_warn("%s: %s", name, cd_stream_warning(s)->msg);
	return 0;
}
