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
 */
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
#include "cli.h"

enum mode { M_NONE, M_COUNT, M_GAMES, M_BYTES, M_PLAYER, M_EVENT, M_YEAR,
	M_MONTH, M_DAY };

static enum mode mode = M_NONE;
static uint64_t opt_value;		/* N, GAMES or SIZE */
static const char *opt_dir = ".";
static const char *opt_prefix = "part";
static int opt_append, opt_list, opt_stats;
static uint64_t games_read;

/* ---- inputs ---- */

struct input {
	const char *arg;	/* NULL: standard input */
	FILE *spool;		/* -n on a pipe: a copy in a temporary file */
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

/* Open path for writing (truncated, or appended to), refusing an input
 * file; NULL with errno set on failure (EMFILE lets the caller close
 * others and retry). */
static FILE *
open_out(const char *path, int append)
{
	struct stat st;
	FILE *f;
	size_t i;
	int fd;

	fd = open(path, O_WRONLY | O_CREAT | (append ? O_APPEND : 0), 0666);
	if (fd < 0)
		return NULL;
	if (fstat(fd, &st) == 0)
		for (i = 0; i < nin_ids; i++)
			if (in_ids[i].dev == st.st_dev &&
			    in_ids[i].ino == st.st_ino)
				cli_fatal("%s: is an input file: not "
				    "overwritten", path);
	if (!append && S_ISREG(st.st_mode) && ftruncate(fd, 0) != 0)
		cli_fatal("%s: %s", path, strerror(errno));
	f = fdopen(fd, append ? "ab" : "wb");
	if (f == NULL) {
		int e = errno;

		close(fd);
		errno = e;
	}
	return f;
}

static void
close_out(FILE *f, const char *path)
{
	if (ferror(f) | (fclose(f) != 0))
		cli_fatal("write error on %s: %s", path, strerror(errno));
}

static void
write_out(FILE *f, const char *path, const void *p, size_t n)
{
	if (n > 0 && fwrite(p, 1, n, f) != n)
		cli_fatal("write error on %s: %s", path, strerror(errno));
}

/* mkdir -p path (its last component too). */
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

static void
part_close(void)
{
	if (part == NULL)
		return;
	close_out(part, part_path);
	part = NULL;
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
	char *name;

	part_close();
	part_no++;
	name = part_name(part_no);
	part_path = join(opt_dir, name);
	free(name);
	part = open_out(part_path, 0);
	if (part == NULL)
		cli_fatal("%s: %s", part_path, strerror(errno));
	setvbuf(part, NULL, _IOFBF, 1 << 20);
	part_bytes = part_games = 0;
}

static void
part_write(const char *p, size_t n)
{
	if (part == NULL)
		part_next();
	write_out(part, part_path, p, n);
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
	close_out(o->f, o->path);
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
	if (first && strchr(rel, '/') != NULL) {
		/* YYYY/ and YYYY/YYYYMM/ for --by=month and day */
		char *slash = strrchr(o->path, '/');

		*slash = '\0';
		make_dirs(o->path);
		*slash = '/';
	}
	while (nopen >= max_open)
		evict();
	for (;;) {
		o->f = open_out(o->path, opt_append || !first);
		if (o->f != NULL)
			break;
		if ((errno == EMFILE || errno == ENFILE) && nopen > 0) {
			/* fewer descriptors than the limit said */
			evict();
			max_open = nopen > 1 ? nopen : 1;
			continue;
		}
		cli_fatal("%s: %s", o->path, strerror(errno));
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
			free(o->path);
			free(o);
		}
	free(table);
	table = NULL;
	table_size = nfiles = 0;
}

/*
 * A tag value as a portable file name root (man/pgn-split.1 says the
 * rule): ASCII letters folded to lower case and digits kept, `-` and
 * `.` kept inside the name; Latin-1 letters (in UTF-8 or as Latin-1
 * bytes) spelled in ASCII (é e, ß ss, Æ ae); the bytes of any other
 * UTF-8 character, and any other byte from 0x80 up, two hex digits
 * each; every other run of bytes (spaces, punctuation, `/`, control
 * bytes) one `_`; `_`, `-` and `.` trimmed at both ends; at most 120
 * bytes; "_unknown" when nothing is left; Windows' device names get a
 * `_`.
 */
#define NAME_MAX_LEN	120

/* The length of the well-formed UTF-8 sequence of two bytes or more at
 * p, or 0. */
static int
utf8_seq(const unsigned char *p, const unsigned char *e)
{
	int n, i;

	if (*p >= 0xc2 && *p <= 0xdf)
		n = 2;
	else if (*p >= 0xe0 && *p <= 0xef)
		n = 3;
	else if (*p >= 0xf0 && *p <= 0xf4)
		n = 4;
	else
		return 0;
	if (e - p < n)
		return 0;
	for (i = 1; i < n; i++)
		if ((p[i] & 0xc0) != 0x80)
			return 0;
	return n;
}

static void
portable(const char *v, size_t n, char *out)
{
	static const char *const latin1[64] = {
		"a", "a", "a", "a", "a", "a", "ae", "c",
		"e", "e", "e", "e", "i", "i", "i", "i",
		"d", "n", "o", "o", "o", "o", "o", "_",
		"o", "u", "u", "u", "u", "y", "th", "ss",
		"a", "a", "a", "a", "a", "a", "ae", "c",
		"e", "e", "e", "e", "i", "i", "i", "i",
		"d", "n", "o", "o", "o", "o", "o", "_",
		"o", "u", "u", "u", "u", "y", "th", "y"
	};
	static const char *const devices[] = { "con", "prn", "aux", "nul",
		"com1", "com2", "com3", "com4", "com5", "com6", "com7", "com8",
		"com9", "lpt1", "lpt2", "lpt3", "lpt4", "lpt5", "lpt6", "lpt7",
		"lpt8", "lpt9" };
	const unsigned char *p = (const unsigned char *)v, *e = p + n;
	size_t len = 0, i;

	while (p < e && len < NAME_MAX_LEN) {
		unsigned c = *p;
		const char *s;
		char hex[3];
		int k;

		if ((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
		    c == '-' || c == '.') {
			out[len++] = (char)c;
			p++;
			continue;
		}
		if (c >= 'A' && c <= 'Z') {
			out[len++] = (char)(c - 'A' + 'a');
			p++;
			continue;
		}
		if (c >= 0x80 && (k = utf8_seq(p, e)) > 0) {
			if (c == 0xc3) {
				s = latin1[p[1] - 0x80];  /* U+00C0..U+00FF */
				p += 2;
			} else {
				/* another character: its bytes in hex */
				while (k-- > 0 && len + 2 <= NAME_MAX_LEN) {
					snprintf(out + len, 3, "%02x", *p++);
					len += 2;
				}
				p += k + 1;
				continue;
			}
		} else if (c >= 0xc0) {
			s = latin1[c - 0xc0];
			p++;
		} else if (c >= 0x80) {
			snprintf(hex, sizeof(hex), "%02x", c);
			s = hex;
			p++;
		} else {
			s = "_";
			p++;
		}
		if (*s == '_' && len > 0 && out[len - 1] == '_')
			continue;
		while (*s && len < NAME_MAX_LEN)
			out[len++] = *s++;
	}
	while (len > 0 && strchr("_-.", out[len - 1]) != NULL)
		len--;
	for (i = 0; i < len && strchr("_-.", out[i]) != NULL; i++)
		;
	memmove(out, out + i, len - i);
	len -= i;
	out[len] = '\0';
	if (len == 0) {
		strcpy(out, "_unknown");
		return;
	}
	for (i = 0; i < sizeof(devices) / sizeof(devices[0]); i++)
		if (strcmp(out, devices[i]) == 0) {
			strcat(out, "_");
			break;
		}
}

/* The last name of a player tag value: up to its first comma. */
static void
player_name(const cd_pgn_raw_game *g, const char *tag, char *out)
{
	const cd_pgn_tag *t = cd_pgn_raw_tag(g, tag);
	const char *comma;
	size_t n;

	if (t == NULL) {
		portable("", 0, out);
		return;
	}
	comma = memchr(t->value, ',', t->value_len);
	n = comma ? (size_t)(comma - t->value) : t->value_len;
	portable(t->value, n, out);
}

/* YYYY.MM.DD (or YYYY.MM, YYYY), digits or `?`, `?` read as 0: the
 * eight digits into d; 0 if the date is not of that form. */
static int
date_digits(const cd_pgn_raw_game *g, char d[9])
{
	const cd_pgn_tag *t = cd_pgn_raw_tag(g, "Date");
	const char *v;
	size_t n, i, k = 0;

	if (t == NULL)
		return 0;
	v = t->value;
	n = t->value_len;
	if (n != 4 && n != 7 && n != 10)
		return 0;
	memset(d, '0', 8);
	d[8] = '\0';
	for (i = 0; i < n; i++) {
		if (i == 4 || i == 7) {
			if (v[i] != '.')
				return 0;
			continue;
		}
		if (v[i] == '?')
			d[k++] = '0';
		else if (v[i] >= '0' && v[i] <= '9')
			d[k++] = v[i];
		else
			return 0;
	}
	return 1;
}

static void
by_write(const char *rel, const cd_pgn_raw_game *g)
{
	struct ofile *o = ofile_get(rel);

	write_out(o->f, o->path, g->text, g->len);
	/* the next game appended must not follow on the same line */
	if (g->len > 0 && g->text[g->len - 1] != '\n')
		write_out(o->f, o->path, "\n", 1);
}

static void
by_game(const cd_pgn_raw_game *g)
{
	char a[NAME_MAX_LEN + 8], b[NAME_MAX_LEN + 8], d[9];
	char rel[2 * NAME_MAX_LEN + 32];

	switch (mode) {
	case M_PLAYER:
		player_name(g, "White", a);
		player_name(g, "Black", b);
		snprintf(rel, sizeof(rel), "%s.pgn", a);
		by_write(rel, g);
		if (strcmp(a, b) != 0) {
			snprintf(rel, sizeof(rel), "%s.pgn", b);
			by_write(rel, g);
		}
		return;
	case M_EVENT: {
		const cd_pgn_tag *t = cd_pgn_raw_tag(g, "Event");

		if (t != NULL)
			portable(t->value, t->value_len, a);
		else
			portable("", 0, a);
		snprintf(rel, sizeof(rel), "%s.pgn", a);
		break;
	}
	default:
		if (!date_digits(g, d))
			snprintf(rel, sizeof(rel), "_unknown.pgn");
		else if (mode == M_YEAR)
			snprintf(rel, sizeof(rel), "%.4s.pgn", d);
		else if (mode == M_MONTH)
			snprintf(rel, sizeof(rel), "%.4s/%.6s.pgn", d, d);
		else
			snprintf(rel, sizeof(rel), "%.4s/%.6s/%s.pgn", d, d,
			    d);
		break;
	}
	by_write(rel, g);
}

/* ---- the run ---- */

static int
split_file(FILE *f, const char *name)
{
	cd_pgn_reader *r = cd_pgn_reader_new(f);
	cd_pgn_raw_game g;
	cd_status st;
	int by = mode >= M_PLAYER;

	if (r == NULL)
		cli_fatal("out of memory");
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
	cd_pgn_reader_free(r);
	return cli_read_end(name, st);
}

/* -n on input that is not a regular file: copy it to a temporary file
 * (in $TMPDIR), removed at once, to know its size. */
static FILE *
spool(FILE *in, const char *name, uint64_t *size)
{
	char buf[1 << 16];
	FILE *f;
	size_t n, id;
	int fd;

	fd = cli_tmp_create(NULL, "pgn-split", &id);
	if ((f = fdopen(fd, "w+b")) == NULL)
		cli_fatal("%s: %s", cli_tmp_name(id), strerror(errno));
	*size = 0;
	while ((n = fread(buf, 1, sizeof(buf), in)) > 0) {
		if (fwrite(buf, 1, n, f) != n)
			cli_fatal("write error on %s: %s", cli_tmp_name(id),
			    strerror(errno));
		*size += n;
	}
	if (ferror(in))
		cli_fatal("%s: read error: %s", name, strerror(errno));
	if (fflush(f) != 0 || fseeko(f, 0, SEEK_SET) != 0)
		cli_fatal("write error on %s: %s", cli_tmp_name(id),
		    strerror(errno));
	cli_tmp_remove(id);
	return f;
}

/* A size: digits and an optional K, M, G, T (powers of 1024) or KB,
 * MB, GB, TB (of 1000). */
static uint64_t
parse_size(const char *s, const char *opt)
{
	char *end;
	unsigned long long v;
	uint64_t mul = 1;
	const char *units = "KMGT";
	const char *u;

	errno = 0;
	if (*s < '0' || *s > '9')
		cli_usage_error("%s: invalid size '%s'", opt, s);
	v = strtoull(s, &end, 10);
	if (errno != 0)
		cli_usage_error("%s: size too large '%s'", opt, s);
	if (*end != '\0') {
		char c = *end == 'k' ? 'K' : *end;
		int k;

		u = strchr(units, c);
		if (u == NULL || c == '\0')
			cli_usage_error("%s: invalid size '%s'", opt, s);
		for (k = 0; k <= u - units; k++)
			mul *= strcmp(end + 1, "B") == 0 ? 1000 : 1024;
		if (end[1] != '\0' && strcmp(end + 1, "B") != 0 &&
		    strcmp(end + 1, "iB") != 0)
			cli_usage_error("%s: invalid size '%s'", opt, s);
	}
	if (v == 0)
		cli_usage_error("%s: must be at least 1", opt);
	if (v > UINT64_MAX / mul)
		cli_usage_error("%s: size too large '%s'", opt, s);
	return (uint64_t)v * mul;
}

static void
usage(void)
{
	printf("Usage: %s [OPTION]... [FILE]...\n"
	    "Cut PGN archives between games: into parts whose concatenation\n"
	    "is the input, or into the files of PGN standard section 11.\n\n"
	    "  -b, --bytes=SIZE      parts of at most SIZE bytes (K, M, G: of\n"
	    "                        1024; KB, MB, GB: of 1000)\n"
	    "      --by=KEY          a file per player, event, year, month or\n"
	    "                        day (KEY: player, event, year, month, day)\n"
	    "  -d, --directory=DIR   write the files into DIR (created;\n"
	    "                        default: the current directory)\n"
	    "  -l, --games=GAMES     parts of GAMES games\n"
	    "      --append          --by: append to files that exist\n"
	    "      --list            print each part's name once it is written\n"
	    "  -n, --number=N        N parts of about equal size\n"
	    "      --prefix=PREFIX   parts are PREFIXNNN.pgn (default: part)\n"
	    "  -q, --quiet           no progress line, no warning about text\n"
	    "                        that is not PGN\n"
	    "      --stats           print counts and time on standard error\n"
	    "  -h, --help            show this help and exit\n"
	    "  -V, --version         show the version and exit\n\n"
	    "With no FILE, or when FILE is -, read standard input.\n"
	    "Exit status: 0 success, 1 binary data was met, 2 usage or\n"
	    "system error.\n", cli_prog);
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
	enum { OPT_APPEND = 256, OPT_BY, OPT_LIST, OPT_PREFIX, OPT_STATS };
	static const struct option longopts[] = {
		{ "append", no_argument, NULL, OPT_APPEND },
		{ "by", required_argument, NULL, OPT_BY },
		{ "bytes", required_argument, NULL, 'b' },
		{ "directory", required_argument, NULL, 'd' },
		{ "games", required_argument, NULL, 'l' },
		{ "list", no_argument, NULL, OPT_LIST },
		{ "number", required_argument, NULL, 'n' },
		{ "prefix", required_argument, NULL, OPT_PREFIX },
		{ "quiet", no_argument, NULL, 'q' },
		{ "stats", no_argument, NULL, OPT_STATS },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
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
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":b:d:l:n:qhV", longopts,
	    NULL)) != -1) {
		switch (c) {
		case 'b':
			set_mode(M_BYTES);
			opt_value = parse_size(optarg, "-b");
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
		case 'q': cli_quiet = 1; break;
		case OPT_STATS: opt_stats = 1; break;
		case 'h': usage(); cli_exit(0);
		case 'V': cli_print_version(); cli_exit(0);
		default:
			cli_bad_option(c, argv);
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
	make_dirs(opt_dir);

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
			if (fstat(fileno(f), &st) == 0 && S_ISREG(st.st_mode)) {
				off_t at = ftello(f);

				inputs[i].size = (uint64_t)st.st_size -
				    (at > 0 ? (uint64_t)at : 0);
			} else {
				inputs[i].spool = spool(f, name,
				    &inputs[i].size);
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
			name = inputs[i].arg ? inputs[i].arg : "<stdin>";
			f = inputs[i].spool;
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
		if (inputs[i].spool != NULL)
			fclose(inputs[i].spool);
		else
			cli_close_input(f);
	}
	cli_progress_end();
	if (mode == M_COUNT)
		while (part_no < opt_value)
			part_next();	/* empty parts: always N */
	else if (mode < M_PLAYER && part == NULL && part_no == 0)
		part_next();		/* an empty input: one empty part */
	part_close();
	ofiles_close();
	if (opt_stats)
		cli_stats(games_read, games_read, 0);
	free(inputs);
	free(in_ids);
	cli_exit(status);
}
