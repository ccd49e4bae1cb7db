/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * split.c: the split of pgn-split (split.h; pgn-split(1)).
 *
 * Two kinds of split (docs/tools.md, man/pgn-split.1):
 * - into parts (-n N parts of about equal bytes, -l GAMES, -b SIZE),
 *   PREFIXNNN.pgn: every byte of the input goes to some part, in order,
 *   games and the text between them (cd_pgn_reader_on_gap) alike, so the
 *   parts concatenate to the input.  A cut is made only before a game
 *   that starts a line, so each part, read alone, gives exactly the
 *   games the whole input gives;
 * - by the standard's section 11 (--by=player|event|year|month|day):
 *   each game appended to the files its tags name, under portable names.
 *   Open files are kept in a least-recently-used list, so any number of
 *   files works under any descriptor limit.
 *
 * The games are framed by the library's reader (no move is parsed), so
 * a `[Event "` line inside a comment never starts a game here.
 *
 * Every file is written under a temporary name in its directory
 * (cli_tmp_create: removed on a signal or a fatal error) and renamed
 * into place when whole: a part when the next one starts, the --by
 * files at the end.  So a name never leads the writes elsewhere (a
 * symbolic link there is replaced, not followed), and no file is ever
 * seen ending mid-game.
 */
#define _GNU_SOURCE 1	/* fopencookie */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "chessdata.h"
#include "cli.h"
#include "split.h"

struct input {
	const char *arg;	/* NULL: standard input */
	const char *name;	/* -n: as cli_open_input named it */
	FILE *spool;		/* -n on a pipe: a copy in a temporary file */
	cd_error damage;	/* what the input the copy was made of
				 * failed with (status CD_OK: it did not) */
	uint64_t size;
	int bad;		/* could not be opened (reported) */
};

struct cli_split {
	struct cli_split_opts o;
	uint64_t games_read;
	/* The error the input being split ended with, when it is read
	 * from a copy (split_file reports it), else NULL. */
	const cd_error *damage;
	struct input *inputs;
	size_t ninputs;
	/* Inputs that are regular files, never to be overwritten. */
	struct { dev_t dev; ino_t ino; } *in_ids;
	size_t nin_ids;
	mode_t new_mode;	/* 0666 less the umask */
	int dir_made;		/* -d made (dir_ready) */
	/* the parts: -n, -l, -b */
	FILE *part;		/* the part being written, or NULL */
	char *part_buf;		/* its buffer (PART_BUFFER bytes; NULL until
				 * the first part) */
	size_t part_tmp;	/* its temporary file */
	char *part_path;
	uint64_t part_no;	/* its number, from 1 */
	uint64_t part_bytes, part_games;
	unsigned part_width;
	uint64_t total_bytes;	/* -n: of all inputs */
	uint64_t base_offset;	/* of the current input in all inputs */
	/* the files of --by: a hash table, and the open ones */
	struct ofile **table;
	size_t table_size, nfiles;
	struct ofile *lru_head, *lru_tail;
	size_t nopen, max_open;
};

/* ---- inputs ---- */


static void
remember_input(cli_split *sp, int fd)
{
	struct stat st;

	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode))
		return;
	sp->in_ids[sp->nin_ids].dev = st.st_dev;
	sp->in_ids[sp->nin_ids].ino = st.st_ino;
	sp->nin_ids++;
}

/*
 * Whether path may be replaced by an output: missing, a regular file
 * that is no input, or a symbolic link (replaced, its target left as
 * it is).  A directory, fifo, device or socket there is refused, as is
 * an input: fatal.  *st gets what lstat says (st_mode 0 when missing).
 */
static void
check_target(cli_split *sp, const char *path, struct stat *st)
{
	size_t i;

	if (lstat(path, st) != 0) {
		if (errno != ENOENT)
			cli_fatal("%s: %s", path, strerror(errno));
		st->st_mode = 0;
		return;
	}
	if (S_ISLNK(st->st_mode))
		return;
	if (!S_ISREG(st->st_mode))
		cli_fatal("%s: exists and is not a regular file: not replaced",
		    path);
	for (i = 0; i < sp->nin_ids; i++)
		if (sp->in_ids[i].dev == st->st_dev && sp->in_ids[i].ino == st->st_ino)
			cli_fatal("%s: is an input file: not overwritten", path);
}

/*
 * A new output for path: a temporary file beside it (*id, see
 * cli_tmp_create) with the mode path has, or 0666 less the umask; with
 * append, it starts as a copy of the regular file at path (never read
 * through a link).  Returns its descriptor, open for appending.
 */
static int
out_create(cli_split *sp, const char *path, int append, size_t *id, struct stat *tst)
{
	const char *slash = strrchr(path, '/');
	char *dir, prefix[NAME_MAX + 8];
	struct stat st;
	int fd;

	check_target(sp, path, &st);
	if ((dir = strdup(path)) == NULL)
		cli_fatal("out of memory");
	dir[slash - path] = '\0';
	snprintf(prefix, sizeof(prefix), ".%.200s.", slash + 1);
	fd = cli_tmp_create(*dir ? dir : "/", prefix, id);
	free(dir);
	if (fchmod(fd, S_ISREG(st.st_mode) ? st.st_mode & 0777 : sp->new_mode) !=
	    0)
		cli_fatal("%s: %s", cli_tmp_name(*id), strerror(errno));
	if (append && S_ISLNK(st.st_mode))
		cli_fatal("%s: is a symbolic link: not appended to", path);
	if (append && S_ISREG(st.st_mode)) {
		char buf[1 << 16];
		ssize_t n;
		int in = open(path, O_RDONLY | O_NOFOLLOW);

		if (in < 0)
			cli_fatal("%s: %s", path, strerror(errno));
		while ((n = read(in, buf, sizeof(buf))) != 0) {
			if (n < 0 && errno == EINTR)
				continue;
			if (n < 0)
				cli_fatal("%s: read error: %s", path,
				    strerror(errno));
			if (cli_write_all(fd, buf, (size_t)n) != 0)
				cli_fatal("write error on %s: %s",
				    cli_tmp_name(*id), strerror(errno));
		}
		close(in);
	}
	if (fcntl(fd, F_SETFL, O_APPEND) != 0 || fstat(fd, tst) != 0)
		cli_fatal("%s: %s", cli_tmp_name(*id), strerror(errno));
	return fd;
}

/* The temporary file *id (inode *tst) open again for appending after
 * it was closed; -1 with errno set (EMFILE: the caller may close others
 * and retry). */
static int
out_reopen(size_t id, const struct stat *tst)
{
	struct stat st;
	int fd = open(cli_tmp_name(id), O_WRONLY | O_APPEND | O_NOFOLLOW);

	if (fd < 0)
		return -1;
	if (fstat(fd, &st) != 0 || st.st_dev != tst->st_dev ||
	    st.st_ino != tst->st_ino)
		cli_fatal("%s: changed while being written",
		    cli_tmp_name(id));
	return fd;
}

/* Whether out_create finds the two descriptors it may need; if not,
 * errno says why (EMFILE or ENFILE). */
static int
fd_room(void)
{
	int a = open("/dev/null", O_RDONLY);
	int b = a >= 0 ? open("/dev/null", O_RDONLY) : -1;
	int e = errno;

	if (a >= 0)
		close(a);
	if (b >= 0)
		close(b);
	errno = e;
	return b >= 0 || (e != EMFILE && e != ENFILE);
}

/* The output *id is whole: its temporary file becomes path. */
static void
out_commit(size_t id, const char *path)
{
	if (cli_tmp_rename(id, path) != 0)
		cli_fatal("%s: %s", path, strerror(errno));
}

static FILE *
out_file(int fd, size_t id)
{
	FILE *f = fdopen(fd, "ab");

	if (f == NULL)
		cli_fatal("%s: %s", cli_tmp_name(id), strerror(errno));
	return f;
}

static void
close_out(FILE *f, size_t id)
{
	if (ferror(f) | (fclose(f) != 0))
		cli_fatal("write error on %s: %s", cli_tmp_name(id),
		    strerror(errno));
}

static void
write_out(FILE *f, size_t id, const void *p, size_t n)
{
	if (n > 0 && fwrite(p, 1, n, f) != n)
		cli_fatal("write error on %s: %s", cli_tmp_name(id),
		    strerror(errno));
}

/* mkdir -p path (its last component too): -d, followed where it is a
 * link (the user named it). */
static void
make_dirs(const char *path)
{
	char *p = strdup(path), *s;
	struct stat st;

	if (p == NULL)
		cli_fatal("out of memory");
	for (s = p + 1;; s++) {
		if (*s != '/' && *s != '\0')
			continue;
		char c = *s;

		*s = '\0';
		if (mkdir(p, 0777) != 0 && errno != EEXIST)
			cli_fatal("%s: %s", p, strerror(errno));
		if (c == '\0')
			break;
		*s = c;
	}
	if (stat(p, &st) != 0 || !S_ISDIR(st.st_mode))
		cli_fatal("%s: not a directory", p);
	free(p);
}

/* -d, made when the first file is written (so a run that writes none
 * makes none). */
static void
dir_ready(cli_split *sp)
{
	if (!sp->dir_made)
		make_dirs(sp->o.dir);
	sp->dir_made = 1;
}

/* The YYYY/ and YYYY/YYYYMM/ directories of --by=month and day: path's
 * directories below -d (its first skip bytes), made when missing, and
 * never a symbolic link (one planted there is refused, not followed). */
static void
make_subdirs(char *path, size_t skip)
{
	char *s;
	struct stat st;

	for (s = path + skip + 1; (s = strchr(s, '/')) != NULL; s++) {
		*s = '\0';
		if (mkdir(path, 0777) != 0 && errno != EEXIST)
			cli_fatal("%s: %s", path, strerror(errno));
		if (lstat(path, &st) != 0)
			cli_fatal("%s: %s", path, strerror(errno));
		if (S_ISLNK(st.st_mode))
			cli_fatal("%s: is a symbolic link: not followed", path);
		if (!S_ISDIR(st.st_mode))
			cli_fatal("%s: not a directory", path);
		*s = '/';
	}
}

static char *
join(const char *dir, const char *name)
{
	size_t a = strlen(dir), b = strlen(name);
	char *p = malloc(a + b + 2);

	if (p == NULL)
		cli_fatal("out of memory");
	memcpy(p, dir, a);
	p[a] = '/';
	memcpy(p + a + 1, name, b + 1);
	return p;
}

/* ---- parts: -n, -l, -b ---- */

char *
cli_split_part_name(const char *prefix, unsigned width, uint64_t n)
{
	char num[64], *name;
	unsigned w = width, nines = 0;
	uint64_t lim;
	size_t len;

	for (;;) {
		unsigned k;

		for (lim = 9, k = 1; k < w && lim < UINT64_MAX / 10; k++)
			lim *= 10;
		if (n < lim)
			break;
		n -= lim;
		nines++;
		w++;
	}
	memset(num, '9', nines);
	snprintf(num + nines, sizeof(num) - nines, "%0*llu", (int)w,
	    (unsigned long long)n);
	len = strlen(prefix) + strlen(num) + 5;
	if ((name = malloc(len)) == NULL)
		cli_fatal("out of memory");
	snprintf(name, len, "%s%s.pgn", prefix, num);
	return name;
}

/* The part being written is whole: under its name. */
static void
part_close(cli_split *sp)
{
	if (sp->part == NULL)
		return;
	close_out(sp->part, sp->part_tmp);
	sp->part = NULL;
	out_commit(sp->part_tmp, sp->part_path);
	if (sp->o.list) {
		printf("%s\n", sp->part_path);
		fflush(stdout);
		cli_output_check();
	}
	free(sp->part_path);
	sp->part_path = NULL;
}

/* The parts are written a MiB a write() call. */
#define PART_BUFFER	(1 << 20)

/* Close the part being written and open the next one. */
static void
part_next(cli_split *sp)
{
	struct stat st;
	char *name;

	part_close(sp);
	dir_ready(sp);
	sp->part_no++;
	name = cli_split_part_name(sp->o.prefix, sp->part_width, sp->part_no);
	sp->part_path = join(sp->o.dir, name);
	free(name);
	sp->part = out_file(out_create(sp, sp->part_path, 0, &sp->part_tmp, &st), sp->part_tmp);
	/* (glibc takes setvbuf's size only with a buffer given: without
	 * one the part was written 4 KiB a write() call, st_blksize) */
	if (sp->part_buf == NULL && (sp->part_buf = malloc(PART_BUFFER)) ==
	    NULL)
		cli_fatal("out of memory");
	setvbuf(sp->part, sp->part_buf, _IOFBF, PART_BUFFER);
	sp->part_bytes = sp->part_games = 0;
}

static void
part_write(cli_split *sp, const char *p, size_t n)
{
	if (sp->part == NULL)
		part_next(sp);
	write_out(sp->part, sp->part_tmp, p, n);
	sp->part_bytes += n;
}

/* Text between games: into the part being written. */
static void
on_gap(void *ctx, const char *bytes, size_t len)
{
	part_write(ctx, bytes, len);
}

/* Where game g goes: a new part or the one being written. */
static void
part_game(cli_split *sp, const cd_pgn_raw_game *g)
{
	/* Only before a game that starts a line: a part read alone then
	 * frames its games as the whole input does. */
	int may_cut = g->col == 1 && sp->part != NULL;

	switch (sp->o.mode) {
	case CLI_SPLIT_COUNT:
		if (may_cut && sp->total_bytes > 0) {
			uint64_t off = sp->base_offset + g->offset;
			/* part p (from 1) holds games starting in
			 * [(p-1)T/N, pT/N) */
			uint64_t p = (uint64_t)((unsigned __int128)off *
			    sp->o.value / sp->total_bytes) + 1;

			if (p > sp->o.value)
				p = sp->o.value;
			while (sp->part_no < p)
				part_next(sp);
		}
		break;
	case CLI_SPLIT_GAMES:
		if (may_cut && sp->part_games >= sp->o.value)
			part_next(sp);
		break;
	case CLI_SPLIT_BYTES:
		if (may_cut && sp->part_games > 0 &&
		    sp->part_bytes + g->len > sp->o.value)
			part_next(sp);
		break;
	default:
		break;
	}
	part_write(sp, g->text, g->len);
	sp->part_games++;
}

/* ---- section 11 files: --by ---- */

struct ofile {
	char *path;
	FILE *f;			/* NULL when closed */
	size_t tmp;			/* its temporary file */
	struct stat tst;		/* (which is this one) */
	struct ofile *hnext;		/* hash chain */
	struct ofile *prev, *next;	/* open files, most recent first */
};

static uint64_t
hash_str(const char *s)
{
	uint64_t h = 1469598103934665603ULL;

	while (*s)
		h = (h ^ (unsigned char)*s++) * 1099511628211ULL;
	return h;
}

static void
lru_unlink(cli_split *sp, struct ofile *o)
{
	if (o->prev)
		o->prev->next = o->next;
	else
		sp->lru_head = o->next;
	if (o->next)
		o->next->prev = o->prev;
	else
		sp->lru_tail = o->prev;
	o->prev = o->next = NULL;
}

static void
lru_push(cli_split *sp, struct ofile *o)
{
	o->next = sp->lru_head;
	o->prev = NULL;
	if (sp->lru_head)
		sp->lru_head->prev = o;
	sp->lru_head = o;
	if (sp->lru_tail == NULL)
		sp->lru_tail = o;
}

static void
evict(cli_split *sp)
{
	struct ofile *o = sp->lru_tail;

	lru_unlink(sp, o);
	close_out(o->f, o->tmp);
	o->f = NULL;
	sp->nopen--;
}

/* The open file for path (relative to -d), created (or truncated, or
 * appended to with --append) the first time in this run and appended
 * to after. */
static struct ofile *
ofile_get(cli_split *sp, const char *rel)
{
	struct ofile *o;
	uint64_t h;
	int first = 0;

	if (sp->table == NULL || sp->nfiles >= sp->table_size) {
		size_t ns = sp->table_size ? sp->table_size * 2 : 1024, i;
		struct ofile **nt = calloc(ns, sizeof(*nt));

		if (nt == NULL)
			cli_fatal("out of memory");
		for (i = 0; i < sp->table_size; i++)
			while (sp->table[i] != NULL) {
				o = sp->table[i];
				sp->table[i] = o->hnext;
				h = hash_str(o->path) & (ns - 1);
				o->hnext = nt[h];
				nt[h] = o;
			}
		free(sp->table);
		sp->table = nt;
		sp->table_size = ns;
	}
	{
		char *path = join(sp->o.dir, rel);

		h = hash_str(path) & (sp->table_size - 1);
		for (o = sp->table[h]; o != NULL; o = o->hnext)
			if (strcmp(o->path, path) == 0)
				break;
		if (o == NULL) {
			if ((o = calloc(1, sizeof(*o))) == NULL)
				cli_fatal("out of memory");
			o->path = path;
			o->hnext = sp->table[h];
			sp->table[h] = o;
			sp->nfiles++;
			first = 1;
		} else {
			free(path);
		}
	}
	if (o->f != NULL) {
		lru_unlink(sp, o);
		lru_push(sp, o);
		return o;
	}
	if (first) {
		dir_ready(sp);
		if (strchr(rel, '/') != NULL)
			make_subdirs(o->path, strlen(sp->o.dir));
	}
	while (sp->nopen >= sp->max_open)
		evict(sp);
	for (;;) {
		int fd;

		if (first) {
			fd = fd_room() ? out_create(sp, o->path, sp->o.append,
			    &o->tmp, &o->tst) : -1;
		} else {
			fd = out_reopen(o->tmp, &o->tst);
		}
		if (fd >= 0) {
			o->f = out_file(fd, o->tmp);
			break;
		}
		if ((errno == EMFILE || errno == ENFILE) && sp->nopen > 0) {
			/* fewer descriptors than the limit said */
			evict(sp);
			sp->max_open = sp->nopen > 1 ? sp->nopen : 1;
			continue;
		}
		cli_fatal("%s: %s", first ? o->path : cli_tmp_name(o->tmp),
		    strerror(errno));
	}
	sp->nopen++;
	lru_push(sp, o);
	return o;
}

static void
ofiles_close(cli_split *sp)
{
	size_t i;

	while (sp->lru_tail != NULL)
		evict(sp);
	for (i = 0; i < sp->table_size; i++)
		while (sp->table[i] != NULL) {
			struct ofile *o = sp->table[i];

			sp->table[i] = o->hnext;
			out_commit(o->tmp, o->path);
			free(o->path);
			free(o);
		}
	free(sp->table);
	sp->table = NULL;
	sp->table_size = sp->nfiles = 0;
}

static void
by_write(cli_split *sp, const char *rel, const cd_pgn_raw_game *g)
{
	struct ofile *o = ofile_get(sp, rel);

	write_out(o->f, o->tmp, g->text, g->len);
	/* the next game appended must not follow on the same line */
	if (g->len > 0 && g->text[g->len - 1] != '\n')
		write_out(o->f, o->tmp, "\n", 1);
}

static void
by_game(cli_split *sp, const cd_pgn_raw_game *g)
{
	char a[CD_COLLATE_ROOT_SIZE], b[CD_COLLATE_ROOT_SIZE];
	char d[CD_COLLATE_DATE_PATH_SIZE];
	char rel[2 * CD_COLLATE_ROOT_SIZE + 32];
	const cd_pgn_tag *t;

	switch (sp->o.mode) {
	case CLI_SPLIT_PLAYER:
		t = cd_pgn_raw_tag(g, "White");
		cd_collate_player_root(t ? t->value : NULL, t ? t->value_len : 0,
		    a);
		t = cd_pgn_raw_tag(g, "Black");
		cd_collate_player_root(t ? t->value : NULL, t ? t->value_len : 0,
		    b);
		snprintf(rel, sizeof(rel), "%s.pgn", a);
		by_write(sp, rel, g);
		if (strcmp(a, b) != 0) {
			snprintf(rel, sizeof(rel), "%s.pgn", b);
			by_write(sp, rel, g);
		}
		return;
	case CLI_SPLIT_EVENT:
		t = cd_pgn_raw_tag(g, "Event");
		cd_collate_file_root(t ? t->value : "", t ? t->value_len : 0,
		    a);
		snprintf(rel, sizeof(rel), "%s.pgn", a);
		break;
	default:
		t = cd_pgn_raw_tag(g, "Date");
		cd_collate_date_path(t ? t->value : NULL, t ? t->value_len : 0,
		    sp->o.mode == CLI_SPLIT_YEAR ? 1 : sp->o.mode == CLI_SPLIT_MONTH ? 2 : 3, d);
		snprintf(rel, sizeof(rel), "%s.pgn", d);
		break;
	}
	by_write(sp, rel, g);
}

/* ---- the run ---- */

static int
split_file(cli_split *sp, FILE *f, const char *name)
{
	cd_pgn_reader *r = cli_pgn_reader_new(f);
	cd_pgn_raw_game g;
	cd_status st;
	int by = sp->o.mode >= CLI_SPLIT_PLAYER, ret;

	if (!by)
		cd_pgn_reader_on_gap(r, on_gap, sp);
	while ((st = cd_pgn_reader_next(r, &g)) == CD_OK) {
		sp->games_read++;
		/* (the bytes all go to the parts: binary data is
		 * reported, not left out) */
		if (by || (g.flags & CD_PGN_RAW_SKIPPED_BINARY))
			cli_pgn_skipped(name, &g);
		(void)cli_pgn_check(name, &g);
		if (by)
			by_game(sp, &g);
		else
			part_game(sp, &g);
		cli_progress(sp->games_read, sp->base_offset +
		    cd_pgn_reader_tell(r));
	}
	if (st == CD_EOF && (by || (g.flags & CD_PGN_RAW_SKIPPED_BINARY)))
		cli_pgn_skipped(name, &g);
	sp->base_offset += cd_pgn_reader_tell(r);
	ret = cli_read_end(name, st, sp->damage != NULL ? sp->damage :
	    cd_pgn_reader_error(r), cd_pgn_reader_stream(r));
	cd_pgn_reader_free(r);
	return ret;
}

/* A copy of an input that failed: its bytes, then the read error it
 * ended with, so that its games are framed as when it is read
 * directly (the one before the damage is not taken whole). */
static ssize_t
damaged_read(void *cookie, char *buf, size_t size)
{
	size_t n = fread(buf, 1, size, cookie);

	if (n == 0) {
		errno = EIO;
		return -1;
	}
	return (ssize_t)n;
}

static FILE *
damaged_open(FILE *copy)
{
	cookie_io_functions_t io = { damaged_read, NULL, NULL, NULL };
	FILE *f = fopencookie(copy, "rb", io);

	if (f == NULL)
		cli_fatal("out of memory");
	return f;
}

/* -n on input that is not a regular file of text: copy its text
 * (decompressed) to a temporary file (in $TMPDIR), removed at once, to
 * know its size.  Returns 0, or 2 when in fails, its error in *damage
 * (the copy holds what was read before), or when members of a .zip
 * were passed over (said here). */
static int
spool(FILE *in, const char *name, FILE **out, uint64_t *size,
    cd_error *damage)
{
	char buf[1 << 16];
	cd_stream *zs = cli_input_stream(in);
	cd_status st;
	FILE *f;
	size_t n, id;
	int fd, ret;

	fd = cli_tmp_create(NULL, "pgn-split", &id);
	if ((f = fdopen(fd, "w+b")) == NULL)
		cli_fatal("%s: %s", cli_tmp_name(id), strerror(errno));
	*size = 0;
	while ((st = cd_stream_read(zs, buf, sizeof(buf), &n)) == CD_OK) {
		if (fwrite(buf, 1, n, f) != n)
			cli_fatal("write error on %s: %s", cli_tmp_name(id),
			    strerror(errno));
		*size += n;
	}
	if (fflush(f) != 0 || fseeko(f, 0, SEEK_SET) != 0)
		cli_fatal("write error on %s: %s", cli_tmp_name(id),
		    strerror(errno));
	cli_tmp_remove(id);
	*out = f;
	*damage = *cd_stream_error(zs);
	/* (.zip members passed over: said here, 2) */
	ret = st == CD_EOF ? cli_read_end(name, st, NULL, zs) : 2;
	cd_stream_free(zs);
	return ret;
}

static unsigned
digits(uint64_t n)
{
	unsigned d = 1;

	while (n >= 10) {
		n /= 10;
		d++;
	}
	return d;
}

/* -n: the sizes of all inputs, pipes copied to know theirs; 2 when one
 * could not be opened or copied whole, else 0. */
static int
sizes_count(cli_split *sp)
{
	int status = 0;
	size_t i;

	for (i = 0; i < sp->ninputs; i++) {
		const char *name;
		FILE *f = cli_open_input(sp->inputs[i].arg, &name);
		struct stat st;

		if (f == NULL) {
			sp->inputs[i].bad = 1;
			status = 2;
			continue;
		}
		sp->inputs[i].name = name;
		if (!cli_input_compressed(f) && fstat(fileno(f), &st) == 0 &&
		    S_ISREG(st.st_mode)) {
			off_t at = ftello(f);

			sp->inputs[i].size = (uint64_t)st.st_size -
			    (at > 0 ? (uint64_t)at : 0);
		} else {
			/* damage is reported when its games are split, as
			 * in the other modes */
			if (spool(f, name, &sp->inputs[i].spool,
			    &sp->inputs[i].size, &sp->inputs[i].damage) != 0 &&
			    sp->inputs[i].damage.status == CD_OK)
				status = 2;
		}
		sp->total_bytes += sp->inputs[i].size;
		cli_close_input(f);
	}
	sp->part_width = digits(sp->o.value) > 3 ? digits(sp->o.value) : 3;
	return status;
}

/* -b: room for every part when the sizes are known: a part and the
 * next hold more than SIZE bytes together. */
static void
sizes_bytes(cli_split *sp)
{
	uint64_t total = 0;
	size_t i;

	for (i = 0; i < sp->ninputs; i++) {
		struct stat st;

		if (sp->inputs[i].arg == NULL || stat(sp->inputs[i].arg,
		    &st) != 0 || !S_ISREG(st.st_mode))
			return;
		total += (uint64_t)st.st_size;
	}
	{
		unsigned d = digits(2 * (total / sp->o.value) + 1);

		sp->part_width = d > 3 ? d : 3;
	}
}

/* --by: how many files may be open at once. */
static void
open_limit(cli_split *sp)
{
	struct rlimit rl;

	sp->max_open = 1000;
	if (getrlimit(RLIMIT_NOFILE, &rl) == 0 &&
	    rl.rlim_cur != RLIM_INFINITY) {
		/* stdio, inputs and a few for the system */
		size_t room = rl.rlim_cur > 12 ? (size_t)rl.rlim_cur - 8 : 4;

		if (room < sp->max_open)
			sp->max_open = room;
	}
}

cli_split *
cli_split_new(const struct cli_split_opts *o, int argc, char **argv,
    int first)
{
	cli_split *sp = calloc(1, sizeof(*sp));
	size_t i;

	if (sp == NULL)
		cli_fatal("out of memory");
	sp->o = *o;
	sp->part_width = 3;
	sp->ninputs = first < argc ? (size_t)(argc - first) : 1;
	sp->inputs = calloc(sp->ninputs, sizeof(*sp->inputs));
	sp->in_ids = calloc(sp->ninputs, sizeof(*sp->in_ids));
	if (sp->inputs == NULL || sp->in_ids == NULL)
		cli_fatal("out of memory");
	for (i = 0; i < sp->ninputs; i++) {
		struct input *in = &sp->inputs[i];
		struct stat st;

		in->arg = first < argc ? argv[first + i] : NULL;
		if (in->arg != NULL && strcmp(in->arg, "-") == 0)
			in->arg = NULL;
		if (in->arg == NULL)
			remember_input(sp, 0);
		else if (stat(in->arg, &st) == 0 && S_ISREG(st.st_mode)) {
			sp->in_ids[sp->nin_ids].dev = st.st_dev;
			sp->in_ids[sp->nin_ids].ino = st.st_ino;
			sp->nin_ids++;
		}
	}
	sp->new_mode = umask(0);
	umask(sp->new_mode);
	sp->new_mode = 0666 & ~sp->new_mode;
	return sp;
}

/* Split input i: 2 when it could not be opened or read whole, else
 * 0. */
static int
split_input(cli_split *sp, size_t i)
{
	struct input *in = &sp->inputs[i];
	const char *name;
	FILE *f;
	int ret;

	if (in->spool != NULL) {
		name = in->name;
		f = in->spool;
		if (in->damage.status != CD_OK) {
			f = damaged_open(f);
			sp->damage = &in->damage;
		}
	} else {
		if (in->bad)
			return 0;	/* reported before */
		f = cli_open_input(in->arg, &name);
		if (f == NULL)
			return 2;
	}
	ret = split_file(sp, f, name);
	if (sp->damage != NULL) {
		fclose(f);
		sp->damage = NULL;
	}
	if (in->spool != NULL)
		fclose(in->spool);
	else
		cli_close_input(f);
	return ret;
}

int
cli_split_run(cli_split *sp)
{
	int status = 0;
	size_t i;

	if (sp->o.mode == CLI_SPLIT_COUNT)
		status = sizes_count(sp);
	else if (sp->o.mode == CLI_SPLIT_BYTES)
		sizes_bytes(sp);
	else if (sp->o.mode >= CLI_SPLIT_PLAYER)
		open_limit(sp);
	for (i = 0; i < sp->ninputs; i++)
		if (split_input(sp, i) != 0)
			status = 2;
	cli_progress_end();
	/* Only a run that read every input whole adds empty parts. */
	if (sp->o.mode == CLI_SPLIT_COUNT && status == 0)
		while (sp->part_no < sp->o.value)
			part_next(sp);	/* empty parts: always N */
	else if (sp->o.mode < CLI_SPLIT_PLAYER && sp->part == NULL &&
	    sp->part_no == 0 && status == 0)
		part_next(sp);		/* an empty input: one empty part */
	part_close(sp);
	ofiles_close(sp);
	return status;
}

uint64_t
cli_split_games(const cli_split *sp)
{
	return sp->games_read;
}

void
cli_split_free(cli_split *sp)
{
	if (sp == NULL)
		return;
	free(sp->inputs);
	free(sp->in_ids);
	free(sp->part_buf);	/* (cli_split_run closed the part) */
	free(sp);
}
