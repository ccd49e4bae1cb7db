/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * cli/output.c: the files a tool writes (see cli.h): the output
 * (standard output or -o, compressed when -z or its name asks) and the
 * rejects file, each written to a temporary file beside its target
 * (src/cli/tmp.c) and put in place by cli_exit when the run ends with
 * status 0 or 1; the checks that no output is an input; the write path
 * and its errors; and the one exit of every tool.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/uio.h>
#ifdef __linux__
#include <sys/xattr.h>
#endif
#include <unistd.h>

#include "chessdata.h"
#include "cli.h"

/* A file the tool writes (-o, --rejects): a temporary file beside its
 * target, put in place by cli_exit when the run ends with status 0 or
 * 1 (commit), removed on any other end; or, for a device, a FIFO or a
 * socket, the file itself, written in place. */
struct outfile {
	FILE *f;		/* NULL: not open, or closed */
	const char *name;	/* the name given, for messages */
	char *path;		/* the target: the end of its links */
	int tmp;		/* written to a temporary file (tmp_id) */
	size_t tmp_id;		/* (cli_tmp_create's list) */
	int copy;		/* commit by copying into path, in place */
	int along;		/* on standard error's file: line by line */
	const char *what;	/* in messages: "output", "rejects", ... */
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
static struct outfile out = { .what = "output" },
    rej = { .what = "rejects" };
/* The files a tool's own options name (cli_output_named). */
#define NAMED_MAX	4
static struct outfile named[NAMED_MAX];
static size_t nnamed;
/* Every file a tool writes, with what it is and whether it is open
 * (to refuse two names for one file): out, rej, then named[]. */
static struct outfile *const files[2 + NAMED_MAX] = { &out, &rej,
	&named[0], &named[1], &named[2], &named[3] };
static struct fileid ids[2 + NAMED_MAX];
static int open_now[2 + NAMED_MAX];
#define out_id	ids[0]
#define rej_id	ids[1]
static int opt_format = -1;	/* -z; -1: from the suffix of -o */
static int opt_level = -1;	/* --level; -1: the format's default */
static FILE *zout, *zout_under;	/* a compressed output, the FILE under it */
/* The inputs' identities (cli_inputs): the regular files among them. */
static struct input_id {
	dev_t dev;
	ino_t ino;
	const char *name;
} *inputs;
static size_t ninputs;

static void named_close(void);


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

/* Refuse, before anything is read or written, a rejects file or a
 * file of a tool's own option (--groups) that is an input, standard
 * output that is an input (as cat(1): the tool would read what it
 * writes), and two outputs that are one file (one would be lost).  -o
 * may name an input: it is written to a temporary file. */
static void
files_check(void)
{
	const char *in;
	size_t i, j;

	if (open_now[0] && out.name == NULL &&
	    (in = input_named(&out_id)) != NULL)
		cli_fatal("%s: input file is output file", in);
	for (i = 1; i < 2 + NAMED_MAX; i++) {
		if (!open_now[i])
			continue;
		if ((in = input_named(&ids[i])) != NULL)
			cli_fatal("%s: %s file is input file %s",
			    files[i]->name, files[i]->what, in);
		for (j = 0; j < i; j++)
			if (open_now[j] && file_same(&ids[i], &ids[j]))
				cli_fatal("%s: %s file is %s file %s",
				    files[i]->name, files[i]->what,
				    files[j]->what, files[j]->name ?
				    files[j]->name : "(standard output)");
	}
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
	fd = cli__tmp_mkstemp(tmp, &o->tmp_id);
	e = errno;
	if (fd < 0 && exists) {
		/* a directory we may not write in, a file we may: the
		 * temporary file elsewhere, copied into the file at the end */
		const char *t = getenv("TMPDIR");

		if (t == NULL || *t == '\0')
			t = "/tmp";
		n = strlen(t) + strlen(cli_prog) + 16;
		if ((tmp = malloc(n)) == NULL)
			cli_fatal("out of memory");
		snprintf(tmp, n, "%s/%.32s.XXXXXX", t, cli_prog);
		fd = cli__tmp_mkstemp(tmp, &o->tmp_id);
		o->copy = 1;
	}
	if (fd < 0)
		cli_fatal("%s: %s", o->name, strerror(e));
	o->tmp = 1;
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
#ifndef IOV_MAX
#define IOV_MAX	1024	/* (POSIX: at least 16; Linux: 1024) */
#endif

int
cli_writev_all(int fd, struct iovec *iov, int n)
{
	while (n > 0) {
		ssize_t k;

		if (iov->iov_len == 0) {
			iov++;
			n--;
			continue;
		}
		k = writev(fd, iov, n < IOV_MAX ? n : IOV_MAX);
		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0) {
			if (k == 0)
				errno = EIO;
			return -1;
		}
		while (n > 0 && (size_t)k >= iov->iov_len) {
			k -= (ssize_t)iov->iov_len;
			iov++;
			n--;
		}
		if (n > 0) {
			iov->iov_base = (char *)iov->iov_base + k;
			iov->iov_len -= (size_t)k;
		}
	}
	return 0;
}

int
cli_write_all(int fd, const void *p, size_t n)
{
	struct iovec v = { (void *)p, n };

	return cli_writev_all(fd, &v, 1);
}

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
		if (cli_write_all(fd, p, (size_t)k) != 0)
			e = errno;
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

	if (!o->tmp)
		return;
	r = o->copy ? copy_into(cli_tmp_name(o->tmp_id), o->path) :
	    cli_tmp_rename(o->tmp_id, o->path);
	if (r != 0) {
		if (o->copy)
			cli_warn("write error on %s: %s", o->name,
			    strerror(errno));
		else
			cli_warn("%s: %s", o->name, strerror(errno));
		exit(2);
	}
	if (o->copy)
		cli_tmp_remove(o->tmp_id);
	o->tmp = 0;
	free(o->path);
	o->path = NULL;
}

void
cli_output_compress(const char *format, const char *level)
{
	char *end;
	long v;

	if (format != NULL) {
		opt_format = cd_stream_format_parse(format);
		if (opt_format < 0)
			cli_usage_error("unknown compression format '%s' "
			    "(zstd, gzip, bzip2, xz or plain)", format);
	}
	if (level == NULL)
		return;
	v = strtol(level, &end, 10);
	if (end == level || *end != '\0' || v < 0 || v > 99)
		cli_usage_error("invalid compression level '%s'", level);
	opt_level = (int)v;
}

/* The output FILE over f: f itself, or a compressing FILE over it when
 * -z or the suffix of path asks for one. */
static FILE *
compress_open(FILE *f, const char *path)
{
	cd_stream_format fmt = CD_STREAM_PLAIN;
	const cd_error *e;
	cd_stream *s;

	if (path != NULL && strcmp(path, "-") != 0)
		fmt = cd_stream_format_suffix(path);
	if (opt_format >= 0 && (cd_stream_format)opt_format != fmt &&
	    fmt != CD_STREAM_PLAIN)
		/* -z wins, but the name will mislead */
		cli_warn("warning: %s is written as %s data, not as its name "
		    "says (%s)", path, cd_stream_format_name(
		    (cd_stream_format)opt_format), cd_stream_format_name(fmt));
	if (opt_format >= 0)
		fmt = (cd_stream_format)opt_format;
	if (fmt == CD_STREAM_PLAIN) {
		if (opt_level >= 0 && opt_format < 0)
			cli_usage_error("--level needs -z or an output file "
			    "named .zst, .gz, .bz2 or .xz");
		return f;
	}
	if ((s = cd_stream_open_write_fd(fileno(f), fmt, opt_level)) == NULL)
		cli_fatal("out of memory");
	e = cd_stream_error(s);
	if (e->status != CD_OK) {
		char msg[sizeof(e->msg)];

		memcpy(msg, e->msg, sizeof(msg));
		cd_stream_free(s);
		cli_usage_error("%s", msg);
	}
	if ((zout = cd_stream_fopen(s, "w")) == NULL)
		cli_fatal("out of memory");
	setvbuf(zout, NULL, _IOFBF, 1 << 17);
	zout_under = f;
	return zout;
}

/* Finish a compressed output: the FILE under it (f itself when not
 * compressed), NULL when finishing failed (errno set). */
static FILE *
compress_end(FILE *f)
{
	FILE *c = zout;

	if (c == NULL || f != c)
		return f;
	zout = NULL;
	errno = 0;
	if (fclose(c) != 0) {
		if (errno == 0)
			errno = EIO;
		return NULL;
	}
	return zout_under;
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
		open_now[0] = 1;
		files_check();
		setvbuf(stdout, outbuf, _IOFBF, sizeof(outbuf));
		f = stdout;
	} else {
		out.name = path;
		f = out.f = outfile_open(&out, &out_id, &open_now[0]);
		setvbuf(f, NULL, out.along ? _IOLBF : _IOFBF, 1 << 17);
	}
	out_file = compress_open(f, path);
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
		cli_tmp_remove_all();
		signal(SIGPIPE, SIG_DFL);
		sigemptyset(&set);
		sigaddset(&set, SIGPIPE);
		pthread_sigmask(SIG_UNBLOCK, &set, NULL);
		raise(SIGPIPE);
		_exit(128 + SIGPIPE);
	}
	/* (cli_fatal: said at once, even in a thread whose warnings
	 * are captured, as in the games' loop) */
	cli_fatal("write error on %s: %s", name,
	    err ? strerror(err) : "unknown error");
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
cli_output_writev(struct iovec *iov, int n)
{
	FILE *f = out_file ? out_file : stdout;
	int fd = fileno(f), i;

	if (fd < 0) {
		for (i = 0; i < n; i++)
			fwrite(iov[i].iov_base, 1, iov[i].iov_len, f);
		cli_output_check();	/* an error: ferror */
		return;
	}
	/* what stdio holds first, then the blocks from where they lie */
	if (fflush(f) != 0 || cli_writev_all(fd, iov, n) != 0)
		cli_write_error(fd, output_name(), errno);
}

void
cli_output_write(const void *data, size_t n)
{
	struct iovec v = { (void *)data, n };

	if (n < OUTPUT_DIRECT) {
		if (n > 0)
			fwrite(data, 1, n, out_file ? out_file : stdout);
		cli_output_check();
		return;
	}
	cli_output_writev(&v, 1);
}

/* The end of a run ending with status 0 or 1: the files written go
 * in place, unless a signal came (then it is handled, as during the
 * run, and they are not). */
static void
files_commit(void)
{
	sigset_t pending;

	cli_signals_block();
	if (sigpending(&pending) == 0 && cli__signal_pending(&pending))
		cli_tmp_remove_all();		/* the handler then ends the tool */
	else {
		size_t i;

		for (i = 0; i < 2 + NAMED_MAX; i++)
			outfile_commit(files[i]);
	}
	cli_signals_unblock();
}


void
cli_exit(int status)
{
	FILE *f = out_file ? out_file : stdout;
	const char *name = output_name();

	cli_progress_end();
	if (status == 0 && cli__pgn_refused_any())
		status = 1;
	errno = 0;
	/* a compressed output: finish it, then the file under it */
	if ((f = compress_end(f)) == NULL)
		cli_write_error(-1, name, errno);
	if (fflush(f) != 0 || ferror(f))
		cli_write_error(fileno(f), name, errno);
	if (out.f != NULL) {
		out.f = NULL;
		if (fclose(f) != 0)
			cli_write_error(-1, name, errno);
	}
	cli_rejects_close();
	named_close();
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
	cli_tmp_remove_all();
	exit(status);
}


void
cli_rejects_open(const char *path)
{
	if (path == NULL)
		return;
	rej.name = path;
	rej.f = outfile_open(&rej, &rej_id, &open_now[1]);
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


FILE *
cli_output_named(const char *what, const char *path)
{
	struct outfile *o;
	FILE *f;

	if (nnamed == NAMED_MAX)
		cli_fatal("more than %d output files", NAMED_MAX);
	o = &named[nnamed];
	o->name = path;
	o->what = what;
	f = o->f = outfile_open(o, &ids[2 + nnamed], &open_now[2 + nnamed]);
	nnamed++;
	setvbuf(f, NULL, o->along ? _IOLBF : _IOFBF, 1 << 16);
	return f;
}

void
cli_output_named_check(FILE *f)
{
	size_t i;

	for (i = 0; i < nnamed; i++)
		if (named[i].f == f && ferror(f))
			cli_write_error(fileno(f), named[i].name, errno);
}

/* Close the files of cli_output_named: a write error is fatal. */
static void
named_close(void)
{
	size_t i;

	for (i = 0; i < nnamed; i++) {
		FILE *f = named[i].f;

		if (f == NULL)
			continue;
		named[i].f = NULL;
		errno = 0;
		if (fflush(f) != 0 || ferror(f))
			cli_write_error(fileno(f), named[i].name, errno);
		if (fclose(f) != 0)
			cli_write_error(-1, named[i].name, errno);
	}
}
