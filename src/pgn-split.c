/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * pgn-split: cut PGN archives at game boundaries.
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
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "chessdata.h"
#include "cli/cli.h"

enum mode { M_NONE, M_COUNT, M_GAMES, M_BYTES, M_PLAYER, M_EVENT, M_YEAR,
	M_MONTH, M_DAY };

static enum mode mode = M_NONE;
static uint64_t opt_value;		/* N, GAMES or SIZE */
static const char *opt_dir = ".";
static const char *opt_prefix = "part";
static int opt_append, opt_list;
static uint64_t games_read;
/* The error the input being split ended with, when it is read from a
 * copy (split_file reports it), else NULL. */
static const cd_error *split_damage;

/* ---- inputs ---- */

struct input {
	const char *arg;	/* NULL: standard input */
	const char *name;	/* -n: as cli_open_input named it */
	FILE *spool;		/* -n on a pipe: a copy in a temporary file */
	cd_error damage;	/* what the input the copy was made of
				 * failed with (status CD_OK: it did not) */
	uint64_t size;
	int bad;		/* could not be opened (reported) */
};
static struct input *inputs;
static size_t ninputs;
/* Inputs that are regular files, never to be overwritten. */
static struct { dev_t dev; ino_t ino; } *in_ids;
static size_t nin_ids;

static void
remember_input(int fd)
{
	struct stat st;

	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode))
		return;
	in_ids[nin_ids].dev = st.st_dev;
	in_ids[nin_ids].ino = st.st_ino;
	nin_ids++;
}

static mode_t new_mode;		/* 0666 less the umask */

/*
 * Whether path may be replaced by an output: missing, a regular file
 * that is no input, or a symbolic link (replaced, its target left as
 * it is).  A directory, fifo, device or socket there is refused, as is
 * an input: fatal.  *st gets what lstat says (st_mode 0 when missing).
 */
static void
check_target(const char *path, struct stat *st)
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
	for (i = 0; i < nin_ids; i++)
		if (in_ids[i].dev == st->st_dev && in_ids[i].ino == st->st_ino)
			cli_fatal("%s: is an input file: not overwritten", path);
}

/*
 * A new output for path: a temporary file beside it (*id, see
 * cli_tmp_create) with the mode path has, or 0666 less the umask; with
 * append, it starts as a copy of the regular file at path (never read
 * through a link).  Returns its descriptor, open for appending.
 */
static int
out_create(const char *path, int append, size_t *id, struct stat *tst)
{
	const char *slash = strrchr(path, '/');
	char *dir, prefix[NAME_MAX + 8];
	struct stat st;
	int fd;

	check_target(path, &st);
	if ((dir = strdup(path)) == NULL)
		cli_fatal("out of memory");
	dir[slash - path] = '\0';
	snprintf(prefix, sizeof(prefix), ".%.200s.", slash + 1);
	fd = cli_tmp_create(*dir ? dir : "/", prefix, id);
	free(dir);
	if (fchmod(fd, S_ISREG(st.st_mode) ? st.st_mode & 0777 : new_mode) !=
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
dir_ready(void)
{
	static int done;

	if (!done)
		make_dirs(opt_dir);
	done = 1;
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

static FILE *part;		/* the part being written, or NULL */
static size_t part_tmp;		/* its temporary file */
static char *part_path;
static uint64_t part_no;	/* its number, from 1 */
static uint64_t part_bytes, part_games;
static unsigned part_width = 3;

/*
 * The name of part n: n in part_width digits while the first digit is
 * not 9 (001 ... 899 for three), then a 9 and one digit more (90000 ...
 * 98999), and so on, so that names sort in part order however many
 * there are, as split(1) -d numbers its files.
 */
static char *
part_name(uint64_t n)
{
	char num[64], *name;
	unsigned w = part_width, nines = 0;
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
	len = strlen(opt_prefix) + strlen(num) + 5;
	if ((name = malloc(len)) == NULL)
		cli_fatal("out of memory");
	snprintf(name, len, "%s%s.pgn", opt_prefix, num);
	return name;
}

/* The part being written is whole: under its name. */
static void
part_close(void)
{
	if (part == NULL)
		return;
	close_out(part, part_tmp);
	part = NULL;
	out_commit(part_tmp, part_path);
	if (opt_list) {
		printf("%s\n", part_path);
		fflush(stdout);
		cli_output_check();
	}
	free(part_path);
	part_path = NULL;
}

/* Close the part being written and open the next one. */
static void
part_next(void)
{
	struct stat st;
	char *name;

	part_close();
	dir_ready();
	part_no++;
	name = part_name(part_no);
	part_path = join(opt_dir, name);
	free(name);
	part = out_file(out_create(part_path, 0, &part_tmp, &st), part_tmp);
	setvbuf(part, NULL, _IOFBF, 1 << 20);
	part_bytes = part_games = 0;
}

static void
part_write(const char *p, size_t n)
{
	if (part == NULL)
		part_next();
	write_out(part, part_tmp, p, n);
	part_bytes += n;
}

/* Text between games: into the part being written. */
static void
on_gap(void *ctx, const char *bytes, size_t len)
{
	(void)ctx;
	part_write(bytes, len);
}

static uint64_t total_bytes;	/* -n: of all inputs */
static uint64_t base_offset;	/* of the current input in all inputs */

/* Where game g goes: a new part or the one being written. */
static void
part_game(const cd_pgn_raw_game *g)
{
	/* Only before a game that starts a line: a part read alone then
	 * frames its games as the whole input does. */
	int may_cut = g->col == 1 && part != NULL;

	switch (mode) {
	case M_COUNT:
		if (may_cut && total_bytes > 0) {
			uint64_t off = base_offset + g->offset;
			/* part p (from 1) holds games starting in
			 * [(p-1)T/N, pT/N) */
			uint64_t p = (uint64_t)((unsigned __int128)off *
			    opt_value / total_bytes) + 1;

			if (p > opt_value)
				p = opt_value;
			while (part_no < p)
				part_next();
		}
		break;
	case M_GAMES:
		if (may_cut && part_games >= opt_value)
			part_next();
		break;
	case M_BYTES:
		if (may_cut && part_games > 0 &&
		    part_bytes + g->len > opt_value)
			part_next();
		break;
	default:
		break;
	}
	part_write(g->text, g->len);
	part_games++;
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
static struct ofile **table;
static size_t table_size, nfiles;
static struct ofile *lru_head, *lru_tail;
static size_t nopen, max_open;

static uint64_t
hash_str(const char *s)
{
	uint64_t h = 1469598103934665603ULL;

	while (*s)
		h = (h ^ (unsigned char)*s++) * 1099511628211ULL;
	return h;
}

static void
lru_unlink(struct ofile *o)
{
	if (o->prev)
		o->prev->next = o->next;
	else
		lru_head = o->next;
	if (o->next)
		o->next->prev = o->prev;
	else
		lru_tail = o->prev;
	o->prev = o->next = NULL;
}

static void
lru_push(struct ofile *o)
{
	o->next = lru_head;
	o->prev = NULL;
	if (lru_head)
		lru_head->prev = o;
	lru_head = o;
	if (lru_tail == NULL)
		lru_tail = o;
}

static void
evict(void)
{
	struct ofile *o = lru_tail;

	lru_unlink(o);
	close_out(o->f, o->tmp);
	o->f = NULL;
	nopen--;
}

/* The open file for path (relative to -d), created (or truncated, or
 * appended to with --append) the first time in this run and appended
 * to after. */
static struct ofile *
ofile_get(const char *rel)
{
	struct ofile *o;
	uint64_t h;
	int first = 0;

	if (table == NULL || nfiles >= table_size) {
		size_t ns = table_size ? table_size * 2 : 1024, i;
		struct ofile **nt = calloc(ns, sizeof(*nt));

		if (nt == NULL)
			cli_fatal("out of memory");
		for (i = 0; i < table_size; i++)
			while (table[i] != NULL) {
				o = table[i];
				table[i] = o->hnext;
				h = hash_str(o->path) & (ns - 1);
				o->hnext = nt[h];
				nt[h] = o;
			}
		free(table);
		table = nt;
		table_size = ns;
	}
	{
		char *path = join(opt_dir, rel);

		h = hash_str(path) & (table_size - 1);
		for (o = table[h]; o != NULL; o = o->hnext)
			if (strcmp(o->path, path) == 0)
				break;
		if (o == NULL) {
			if ((o = calloc(1, sizeof(*o))) == NULL)
				cli_fatal("out of memory");
			o->path = path;
			o->hnext = table[h];
			table[h] = o;
			nfiles++;
			first = 1;
		} else {
			free(path);
		}
	}
	if (o->f != NULL) {
		lru_unlink(o);
		lru_push(o);
		return o;
	}
	if (first) {
		dir_ready();
		if (strchr(rel, '/') != NULL)
			make_subdirs(o->path, strlen(opt_dir));
	}
	while (nopen >= max_open)
		evict();
	for (;;) {
		int fd;

		if (first) {
			fd = fd_room() ? out_create(o->path, opt_append,
			    &o->tmp, &o->tst) : -1;
		} else {
			fd = out_reopen(o->tmp, &o->tst);
		}
		if (fd >= 0) {
			o->f = out_file(fd, o->tmp);
			break;
		}
		if ((errno == EMFILE || errno == ENFILE) && nopen > 0) {
			/* fewer descriptors than the limit said */
			evict();
			max_open = nopen > 1 ? nopen : 1;
			continue;
		}
		cli_fatal("%s: %s", first ? o->path : cli_tmp_name(o->tmp),
		    strerror(errno));
	}
	nopen++;
	lru_push(o);
	return o;
}

static void
ofiles_close(void)
{
	size_t i;

	while (lru_tail != NULL)
		evict();
	for (i = 0; i < table_size; i++)
		while (table[i] != NULL) {
			struct ofile *o = table[i];

			table[i] = o->hnext;
			out_commit(o->tmp, o->path);
			free(o->path);
			free(o);
		}
	free(table);
	table = NULL;
	table_size = nfiles = 0;
}

static void
by_write(const char *rel, const cd_pgn_raw_game *g)
{
	struct ofile *o = ofile_get(rel);

	write_out(o->f, o->tmp, g->text, g->len);
	/* the next game appended must not follow on the same line */
	if (g->len > 0 && g->text[g->len - 1] != '\n')
		write_out(o->f, o->tmp, "\n", 1);
}

static void
by_game(const cd_pgn_raw_game *g)
{
	char a[CD_COLLATE_ROOT_SIZE], b[CD_COLLATE_ROOT_SIZE];
	char d[CD_COLLATE_DATE_PATH_SIZE];
	char rel[2 * CD_COLLATE_ROOT_SIZE + 32];
	const cd_pgn_tag *t;

	switch (mode) {
	case M_PLAYER:
		t = cd_pgn_raw_tag(g, "White");
		cd_collate_player_root(t ? t->value : NULL, t ? t->value_len : 0,
		    a);
		t = cd_pgn_raw_tag(g, "Black");
		cd_collate_player_root(t ? t->value : NULL, t ? t->value_len : 0,
		    b);
		snprintf(rel, sizeof(rel), "%s.pgn", a);
		by_write(rel, g);
		if (strcmp(a, b) != 0) {
			snprintf(rel, sizeof(rel), "%s.pgn", b);
			by_write(rel, g);
		}
		return;
	case M_EVENT:
		t = cd_pgn_raw_tag(g, "Event");
		cd_collate_file_root(t ? t->value : "", t ? t->value_len : 0,
		    a);
		snprintf(rel, sizeof(rel), "%s.pgn", a);
		break;
	default:
		t = cd_pgn_raw_tag(g, "Date");
		cd_collate_date_path(t ? t->value : NULL, t ? t->value_len : 0,
		    mode == M_YEAR ? 1 : mode == M_MONTH ? 2 : 3, d);
		snprintf(rel, sizeof(rel), "%s.pgn", d);
		break;
	}
	by_write(rel, g);
}

/* ---- the run ---- */

static int
split_file(FILE *f, const char *name)
{
	cd_pgn_reader *r = cli_pgn_reader_new(f);
	cd_pgn_raw_game g;
	cd_status st;
	int by = mode >= M_PLAYER, ret;

	if (!by)
		cd_pgn_reader_on_gap(r, on_gap, NULL);
	while ((st = cd_pgn_reader_next(r, &g)) == CD_OK) {
		games_read++;
		/* (the bytes all go to the parts: binary data is
		 * reported, not left out) */
		if (by || (g.flags & CD_PGN_RAW_SKIPPED_BINARY))
			cli_pgn_skipped(name, &g);
		(void)cli_pgn_check(name, &g);
		if (by)
			by_game(&g);
		else
			part_game(&g);
		cli_progress(games_read, base_offset +
		    cd_pgn_reader_tell(r));
	}
	if (st == CD_EOF && (by || (g.flags & CD_PGN_RAW_SKIPPED_BINARY)))
		cli_pgn_skipped(name, &g);
	base_offset += cd_pgn_reader_tell(r);
	ret = cli_read_end(name, st, split_damage != NULL ? split_damage :
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

static void
usage(void)
{
	printf("Usage: %s [OPTION]... [FILE]...\n", cli_prog);
	fputs(
	    "Cut PGN archives between games: into parts whose concatenation\n"
	    "is the input, or into the files of PGN standard section 11.\n"
	    "\n"
	    "  -b, --bytes=SIZE      parts of at most SIZE bytes (an integer with\n"
	    "                        b, K, M, G, T, P, E: of 1024; KB, MB, ...:\n"
	    "                        of 1000)\n"
	    "      --by=KEY          a file per player, event, year, month or day\n"
	    "                        (KEY: player, event, year, month, day)\n"
	    "  -d, --directory=DIR   write the files into DIR (created; default:\n"
	    "                        the current directory)\n"
	    "  -l, --games=GAMES     parts of GAMES games\n"
	    "      --append          --by: append to files that exist\n"
	    "      --list            print each part's name once it is written\n"
	    "  -n, --number=N        N parts of about equal size\n"
	    "      --prefix=PREFIX   parts are PREFIXNNN.pgn (default: part)\n", stdout);
	cli_usage_options(CLI_TAKE_QUIET | CLI_TAKE_STATS | CLI_TAKE_MEMLIMIT);
	fputs(
	    "\n"
	    "With no FILE, or when FILE is -, read standard input.\n"
	    "Exit status: 0 success, 1 binary data was met, 2 usage or\n"
	    "system error.\n", stdout);
}

static void
set_mode(enum mode m)
{
	if (mode != M_NONE && mode != m)
		cli_usage_error("-n, -l, -b and --by exclude each other");
	mode = m;
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

int
main(int argc, char **argv)
{
	enum { OPT_APPEND = 256, OPT_BY, OPT_LIST, OPT_PREFIX };
	static const struct option longopts[] = {
		{ "append", no_argument, NULL, OPT_APPEND },
		{ "by", required_argument, NULL, OPT_BY },
		{ "bytes", required_argument, NULL, 'b' },
		{ "directory", required_argument, NULL, 'd' },
		{ "games", required_argument, NULL, 'l' },
		{ "list", no_argument, NULL, OPT_LIST },
		{ "number", required_argument, NULL, 'n' },
		{ "prefix", required_argument, NULL, OPT_PREFIX },
		{ NULL, 0, NULL, 0 }
	};
	static const struct { const char *name; enum mode m; } keys[] = {
		{ "player", M_PLAYER }, { "event", M_EVENT },
		{ "year", M_YEAR }, { "month", M_MONTH }, { "day", M_DAY }
	};
	struct rlimit rl;
	int c, status = 0;
	size_t i;

	cli_init(argv[0]);
	while ((c = cli_getopt(argc, argv, "b:d:l:n:", longopts,
	    CLI_TAKE_QUIET | CLI_TAKE_STATS | CLI_TAKE_MEMLIMIT, usage)) !=
	    -1) {
		switch (c) {
		case 'b':
			set_mode(M_BYTES);
			opt_value = cli_parse_size("-b", optarg, 1, 0);
			if (opt_value == 0)
				cli_usage_error("-b: must be at least 1");
			break;
		case 'l':
		case 'n': {
			char *end;
			unsigned long long v;

			set_mode(c == 'l' ? M_GAMES : M_COUNT);
			errno = 0;
			v = strtoull(optarg, &end, 10);
			if (*optarg < '0' || *optarg > '9' || *end != '\0' ||
			    errno != 0 || v == 0 ||
			    (c == 'n' && v > 1000000))
				cli_usage_error("-%c: invalid number '%s'", c,
				    optarg);
			opt_value = v;
			break;
		}
		case OPT_BY:
			for (i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
				if (strcmp(optarg, keys[i].name) == 0)
					break;
			if (i == sizeof(keys) / sizeof(keys[0]))
				cli_usage_error("--by: unknown key '%s' "
				    "(player, event, year, month, day)",
				    optarg);
			set_mode(keys[i].m);
			break;
		case 'd': opt_dir = optarg; break;
		case OPT_APPEND: opt_append = 1; break;
		case OPT_LIST: opt_list = 1; break;
		case OPT_PREFIX:
			if (strchr(optarg, '/') != NULL)
				cli_usage_error("--prefix: no '/' (use -d)");
			opt_prefix = optarg;
			break;
		}
	}
	if (mode == M_NONE)
		cli_usage_error("say how to split: -n, -l, -b or --by");
	if (opt_list && mode >= M_PLAYER)
		cli_usage_error("--list goes with -n, -l and -b");
	if (opt_append && mode < M_PLAYER)
		cli_usage_error("--append goes with --by");
	if (*opt_dir == '\0')
		cli_usage_error("-d: empty directory name");
	/* (standard output, for --list, may not be an input) */
	cli_inputs(argc, argv, optind);
	cli_output_open(NULL);

	ninputs = optind < argc ? (size_t)(argc - optind) : 1;
	inputs = calloc(ninputs, sizeof(*inputs));
	in_ids = calloc(ninputs, sizeof(*in_ids));
	if (inputs == NULL || in_ids == NULL)
		cli_fatal("out of memory");
	for (i = 0; i < ninputs; i++) {
		struct stat st;

		inputs[i].arg = optind < argc ? argv[optind + i] : NULL;
		if (inputs[i].arg != NULL && strcmp(inputs[i].arg, "-") == 0)
			inputs[i].arg = NULL;
		if (inputs[i].arg == NULL)
			remember_input(0);
		else if (stat(inputs[i].arg, &st) == 0 &&
		    S_ISREG(st.st_mode)) {
			in_ids[nin_ids].dev = st.st_dev;
			in_ids[nin_ids].ino = st.st_ino;
			nin_ids++;
		}
	}
	new_mode = umask(0);
	umask(new_mode);
	new_mode = 0666 & ~new_mode;

	if (mode == M_COUNT) {
		/* the sizes of all inputs, pipes copied to know theirs */
		for (i = 0; i < ninputs; i++) {
			const char *name;
			FILE *f = cli_open_input(inputs[i].arg, &name);
			struct stat st;

			if (f == NULL) {
				inputs[i].bad = 1;
				status = 2;
				continue;
			}
			inputs[i].name = name;
			if (!cli_input_compressed(f) && fstat(fileno(f),
			    &st) == 0 && S_ISREG(st.st_mode)) {
				off_t at = ftello(f);

				inputs[i].size = (uint64_t)st.st_size -
				    (at > 0 ? (uint64_t)at : 0);
			} else {
				/* damage is reported when its games are
				 * split, as in the other modes */
				if (spool(f, name, &inputs[i].spool,
				    &inputs[i].size, &inputs[i].damage) != 0 &&
				    inputs[i].damage.status == CD_OK)
					status = 2;
			}
			total_bytes += inputs[i].size;
			cli_close_input(f);
		}
		part_width = digits(opt_value) > 3 ? digits(opt_value) : 3;
	} else if (mode == M_BYTES) {
		/* room for every part when the sizes are known: a part and
		 * the next hold more than SIZE bytes together */
		uint64_t total = 0;

		for (i = 0; i < ninputs; i++) {
			struct stat st;

			if (inputs[i].arg == NULL || stat(inputs[i].arg,
			    &st) != 0 || !S_ISREG(st.st_mode))
				break;
			total += (uint64_t)st.st_size;
		}
		if (i == ninputs) {
			unsigned d = digits(2 * (total / opt_value) + 1);

			part_width = d > 3 ? d : 3;
		}
	} else if (mode >= M_PLAYER) {
		max_open = 1000;
		if (getrlimit(RLIMIT_NOFILE, &rl) == 0 &&
		    rl.rlim_cur != RLIM_INFINITY) {
			/* stdio, inputs and a few for the system */
			size_t room = rl.rlim_cur > 12 ?
			    (size_t)rl.rlim_cur - 8 : 4;

			if (room < max_open)
				max_open = room;
		}
	}

	for (i = 0; i < ninputs; i++) {
		const char *name;
		FILE *f;

		if (inputs[i].spool != NULL) {
			name = inputs[i].name;
			f = inputs[i].spool;
			if (inputs[i].damage.status != CD_OK) {
				f = damaged_open(f);
				split_damage = &inputs[i].damage;
			}
		} else {
			if (inputs[i].bad)
				continue;	/* reported above */
			f = cli_open_input(inputs[i].arg, &name);
			if (f == NULL) {
				status = 2;
				continue;
			}
		}
		if (split_file(f, name) != 0)
			status = 2;
		if (split_damage != NULL) {
			fclose(f);
			split_damage = NULL;
		}
		if (inputs[i].spool != NULL)
			fclose(inputs[i].spool);
		else
			cli_close_input(f);
	}
	cli_progress_end();
	/* Only a run that read every input whole adds empty parts. */
	if (mode == M_COUNT && status == 0)
		while (part_no < opt_value)
			part_next();	/* empty parts: always N */
	else if (mode < M_PLAYER && part == NULL && part_no == 0 &&
	    status == 0)
		part_next();		/* an empty input: one empty part */
	part_close();
	ofiles_close();
	if (cli_opts.stats)
		cli_stats(games_read, games_read, 0);
	free(inputs);
	free(in_ids);
	cli_exit(status);
}
