/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * pgn-dedup: write each game once, in input order, its bytes as they
 * came.  Games are the same by their main line (--by=moves), by main
 * line, players' surnames and result (--by=game), or by the export text
 * pgn-regularize writes (--by=text), as 128-bit keys (chessdata/dedup.h).
 *
 * --keep=first without --groups and --included is one streaming pass:
 * the games are parsed on every core (games.c), each thread appends a
 * record (key and facts) and the game's bytes, and the records are
 * taken in input order (cli_games.emit): a key met before is a
 * duplicate.  Only the kept games' records stay in memory.  The other
 * modes read the input twice (standard input and pipes spooled to a
 * temporary file): the first pass keeps a record of every game (26
 * bytes, and 8 more: the group links and a check of the game's bytes
 * that the second pass compares) and a hash table of the
 * distinct keys (4 bytes a slot, 70% full at most), decides which
 * copies stay, and (--included) parses the games again to find each
 * game's main-line prefixes among the keys; the second pass reads the
 * games unparsed and writes the ones chosen.
 */
#include "config.h"

#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "chessdata.h"
#include "cli/cli.h"
#include "cli/games.h"

enum by { BY_GAME, BY_MOVES, BY_TEXT };
enum keep { KEEP_FIRST, KEEP_LAST, KEEP_LONGEST, KEEP_MOST_TAGS };
static const char *const by_names[] = { "game", "moves", "text" };
static const char *const keep_names[] = { "first", "last", "longest",
	"most-tags" };

static enum by opt_by = BY_GAME;
static enum keep opt_keep = KEEP_FIRST;
static int opt_dups, opt_count, opt_included;
static const char *opt_groups, *opt_tmpdir;
static bool two_pass;

/* Record flags: the result (cd_pgn_result, 1 to 4) in the low bits. */
enum {
	F_RESULT = 7,
	F_REJECTED = 1 << 3,	/* did not parse: not in any group */
	F_LEADER = 1 << 4,	/* the first game with its key */
	F_KEPT = 1 << 5,	/* the copy of its key that stays */
	F_GROUP = 1 << 6	/* (leader) has copies, or games included */
};

/* A game read: 26 bytes.  Its links and check (two passes) are apart,
 * in links[] (for atomic updates) and checks[]. */
struct rec {
	uint64_t k[2];
	uint32_t size;		/* its bytes (at most UINT32_MAX) */
	uint8_t ntags;		/* its tags (at most 255) */
	uint8_t flags;
} __attribute__((packed));

/* What each() appends for a game, then (one pass) the game's bytes. */
struct wire {
	uint64_t index;		/* in all inputs, from 1 */
	uint64_t k[2];
	uint64_t len;		/* the bytes that follow */
	uint32_t size;
	uint32_t check;		/* two passes: of its bytes (game_check) */
	uint8_t ntags, flags;
};

#define NONE	UINT32_MAX

static struct rec *recs;	/* one pass: the kept games; two: all */
static uint32_t *links;		/* two passes: for a copy its leader; for
				 * a leader, the best copy while choosing,
				 * then the game that includes it (NONE) */
static uint32_t *checks;	/* two passes: each game's game_check, to
				 * know it again in the second pass */
static size_t nrecs, recs_cap;
static uint32_t *slots;		/* record index + 1, 0 empty */
static size_t nslots, nused;
static uint64_t written;
static cd_buf outbuf;

/* ---- the table of distinct keys ---- */

static size_t
slot_of(uint64_t k0)
{
	return (size_t)(((unsigned __int128)k0 * nslots) >> 64);
}

static bool
same(const struct rec *a, const uint64_t k[2], unsigned flags)
{
	return a->k[0] == k[0] && a->k[1] == k[1] && (opt_by != BY_GAME ||
	    (a->flags & F_RESULT) == (flags & F_RESULT));
}

/* The record with key k (and result, --by=game), else NONE. */
static uint32_t
table_find(const uint64_t k[2], unsigned flags, size_t *where)
{
	size_t s = slot_of(k[0]);

	for (; slots[s] != 0; s = s + 1 == nslots ? 0 : s + 1)
		if (same(&recs[slots[s] - 1], k, flags))
			return slots[s] - 1;
	*where = s;
	return NONE;
}

static void
table_size(size_t want)
{
	size_t i, n = want + want / 2 + 16, s;

	free(slots);
	if ((slots = calloc(n, sizeof(*slots))) == NULL)
		cli_fatal("out of memory");
	nslots = n;
	nused = 0;
	/* (one pass: every record is a distinct key) */
	for (i = 0; i < nrecs && !two_pass; i++) {
		for (s = slot_of(recs[i].k[0]); slots[s] != 0;
		    s = s + 1 == nslots ? 0 : s + 1)
			;
		slots[s] = (uint32_t)i + 1;
		nused++;
	}
}

static void
recs_grow(size_t n)
{
	size_t cap = recs_cap;

	if (n <= cap)
		return;
	if (n >= NONE)
		cli_fatal("more than %lu games", (unsigned long)NONE - 1);
	while (cap < n)
		cap = cap ? 2 * cap : 4096;
	if ((recs = realloc(recs, cap * sizeof(*recs))) == NULL ||
	    (two_pass && (links = realloc(links, cap * sizeof(*links))) ==
	    NULL) || (two_pass && (checks = realloc(checks, cap *
	    sizeof(*checks))) == NULL))
		cli_fatal("out of memory");
	recs_cap = cap;
}

/* ---- pass 1: each game's record ---- */

/* 32 bits of a hash of a game's bytes: the second pass knows by them
 * (and the size) that it reads the games the first pass read. */
static uint32_t
game_check(const cd_pgn_raw_game *raw)
{
	cd_dedup_key k = cd_dedup_bytes((cd_dedup_key){ 0, 0 }, raw->text,
	    raw->len);

	return (uint32_t)(k.a ^ k.b);
}

static void
priv_free(void *p)
{
	cd_buf_free(p);
	free(p);
}

/* The key and facts of a game that parsed, and (one pass) its bytes. */
static const char *
each(struct cli_job *j, const cd_pgn_raw_game *raw)
{
	struct wire w;
	cd_dedup_key k;

	memset(&w, 0, sizeof(w));
	if (opt_by == BY_TEXT) {
		cd_buf *b = j->priv;

		if (b == NULL && (b = j->priv = calloc(1, sizeof(*b))) == NULL)
			cli_fatal("out of memory");
		b->len = 0;
		if (cd_pgn_write_buf(j->game, 0, b) != CD_OK)
			cli_fatal("out of memory");
		k = cd_dedup_bytes((cd_dedup_key){ 0, 0 }, b->data, b->len);
	} else
		k = cd_dedup_mainline(j->game,
		    opt_by == BY_GAME ? CD_DEDUP_PLAYERS : 0, NULL);
	w.index = j->index;
	w.k[0] = k.a;
	w.k[1] = k.b;
	w.size = raw->len > UINT32_MAX ? UINT32_MAX : (uint32_t)raw->len;
	w.ntags = j->game->ntags > 255 ? 255 : (uint8_t)j->game->ntags;
	w.flags = (uint8_t)cd_game_result(j->game);
	w.len = two_pass ? 0 : raw->len;
	w.check = two_pass ? game_check(raw) : 0;
	cli_buf_reserve(j->out, sizeof(w) + w.len);
	memcpy(j->out->data + j->out->len, &w, sizeof(w));
	if (w.len > 0)
		memcpy(j->out->data + j->out->len + sizeof(w), raw->text,
		    w.len);
	j->out->len += sizeof(w) + w.len;
	return NULL;
}

/* One pass: the records of a batch in input order; a key met before is
 * a duplicate. */
static void
emit_one_pass(const char *data, size_t len)
{
	struct wire w;
	size_t off = 0, where = 0;

	outbuf.len = 0;
	while (off < len) {
		bool dup;

		memcpy(&w, data + off, sizeof(w));
		off += sizeof(w);
		dup = table_find(w.k, w.flags, &where) != NONE;
		if (!dup) {
			struct rec *r;

			recs_grow(nrecs + 1);
			r = &recs[nrecs];
			memcpy(r->k, w.k, sizeof(r->k));
			r->size = w.size;
			r->ntags = w.ntags;
			r->flags = w.flags;
			slots[where] = (uint32_t)++nrecs;
			if (++nused > nslots * 7 / 10)
				table_size(2 * nused);
		}
		if (dup == (bool)opt_dups) {
			written++;
			if (!opt_count)
				cli_append_game(&outbuf, data + off, w.len);
		}
		off += w.len;
	}
	cli_output_write(outbuf.data, outbuf.len);
}

/* Two passes: the records of a batch, at their games' numbers (a game
 * not there did not parse). */
static void
emit_record(const char *data, size_t len)
{
	struct wire w;
	size_t off;

	for (off = 0; off < len; off += sizeof(w)) {
		struct rec *r;

		memcpy(&w, data + off, sizeof(w));
		recs_grow(w.index);
		while (nrecs < w.index) {
			recs[nrecs].flags = F_REJECTED;
			links[nrecs++] = NONE;
		}
		r = &recs[w.index - 1];
		memcpy(r->k, w.k, sizeof(r->k));
		r->size = w.size;
		r->ntags = w.ntags;
		r->flags = w.flags;
		checks[w.index - 1] = w.check;
	}
}

/* ---- choosing the copies that stay ---- */

/* Whether game i is a better copy to keep than game b (--keep). */
static bool
better(uint32_t i, uint32_t b)
{
	switch (opt_keep) {
	case KEEP_LAST: return true;
	case KEEP_LONGEST: return recs[i].size > recs[b].size;
	case KEEP_MOST_TAGS: return recs[i].ntags > recs[b].ntags;
	default: return false;
	}
}

/* Group the copies of each key under its first game (the leader) and
 * mark the one that stays. */
static void
choose(void)
{
	uint32_t i, l;
	size_t where = 0;

	table_size(nrecs);
	for (i = 0; i < nrecs; i++) {
		struct rec *r = &recs[i];
		uint64_t k[2] = { r->k[0], r->k[1] };

		if (r->flags & F_REJECTED)
			continue;
		l = table_find(k, r->flags, &where);
		if (l == NONE) {
			slots[where] = i + 1;
			r->flags |= F_LEADER;
			links[i] = i;
			continue;
		}
		links[i] = l;
		recs[l].flags |= F_GROUP;
		if (better(i, links[l]))
			links[l] = i;
	}
	for (i = 0; i < nrecs; i++)
		if (recs[i].flags & F_LEADER) {
			recs[links[i]].flags |= F_KEPT;
			links[i] = NONE;
		}
}

/* The leader of game i's copies. */
static uint32_t
leader(uint32_t i)
{
	return (recs[i].flags & F_LEADER) ? i : links[i];
}

/* --included: every prefix of game self's main line (one move or more,
 * not all) that is the key of other games between the same players
 * makes them included in this one (the first such game in input
 * order). */
static void
prefixes(const cd_game *g, uint32_t self)
{
	cd_dedup_key k = cd_dedup_seed(g, CD_DEDUP_PLAYERS);
	uint32_t i;

	for (i = g->nodes[0].next; i != 0 && g->nodes[i].next != 0;
	    i = g->nodes[i].next) {
		size_t s;

		k = cd_dedup_move(k, g->nodes[i].move);
		for (s = slot_of(k.a); slots[s] != 0;
		    s = s + 1 == nslots ? 0 : s + 1) {
			uint32_t l = slots[s] - 1;

			if (recs[l].k[0] == k.a && recs[l].k[1] == k.b &&
			    self < links[l])
				links[l] = self;
		}
	}
}

/* The leader of the group game i ends in: its copies' leader, or the
 * leader of the longest game that includes them.  Compresses the path
 * (links point to longer games: no cycle). */
static uint32_t
root(uint32_t i)
{
	uint32_t l = leader(i), r = l, next;

	while (links[r] != NONE)
		r = leader(links[r]);
	while (links[l] != NONE) {
		next = leader(links[l]);
		links[l] = r;
		l = next;
	}
	return r;
}

/* After --included: every group that took games in is a group. */
static void
mark_roots(void)
{
	uint32_t i;

	for (i = 0; i < nrecs; i++)
		if ((recs[i].flags & F_LEADER) && links[i] != NONE)
			recs[root(i)].flags |= F_GROUP;
}

/* ---- the inputs, read twice ---- */

static struct input {
	char *path;		/* to open again, or NULL: spooled */
	char *name;		/* as messages name it */
	FILE *spool;		/* the spooled copy */
	size_t spool_id;
	uint64_t games;		/* read in the first pass */
	struct stat st;		/* the file when the first pass began */
} *inputs;
static size_t ninputs;

/* An input read from its name that is not as it was when the first
 * pass began (another file now, another size, written or its status
 * changed: size, inode, times to the nanosecond) is an error: the
 * games the first pass chose are not the ones the second would write. */
static void
input_check(const struct input *in, FILE *f)
{
	struct stat st;

	if (fstat(fileno(f), &st) != 0)
		cli_fatal("%s: %s", in->name, strerror(errno));
	if (st.st_dev != in->st.st_dev || st.st_ino != in->st.st_ino ||
	    st.st_size != in->st.st_size ||
	    st.st_mtim.tv_sec != in->st.st_mtim.tv_sec ||
	    st.st_mtim.tv_nsec != in->st.st_mtim.tv_nsec ||
	    st.st_ctim.tv_sec != in->st.st_ctim.tv_sec ||
	    st.st_ctim.tv_nsec != in->st.st_ctim.tv_nsec)
		cli_fatal("%s: changed while it was read", in->name);
}

/* Copy f to a temporary file, open for reading at its start. */
static FILE *
spool(FILE *f, const char *name, size_t *id)
{
	int fd = cli_tmp_create(opt_tmpdir, "pgn-dedup", id);
	char buf[1 << 16];
	size_t n;
	FILE *s;

	while ((n = fread(buf, 1, sizeof(buf), f)) > 0)
		if (cli_write_all(fd, buf, n) != 0)
			cli_fatal("write error on %s: %s", cli_tmp_name(*id),
			    strerror(errno));
	if (ferror(f))
		cli_fatal("%s: read error: %s", name, strerror(errno));
	if (lseek(fd, 0, SEEK_SET) < 0 || (s = fdopen(fd, "r")) == NULL)
		cli_fatal("%s: %s", cli_tmp_name(*id), strerror(errno));
	return s;
}

static int
first_pass(FILE *f, const char *name)
{
	struct input *in;
	struct stat st;
	uint64_t before = cli_games.read;
	int r;

	if (!two_pass)
		return cli_games_file(f, name);
	if ((in = realloc(inputs, (ninputs + 1) * sizeof(*in))) == NULL)
		cli_fatal("out of memory");
	inputs = in;
	in = &inputs[ninputs++];
	memset(in, 0, sizeof(*in));
	if ((in->name = strdup(name)) == NULL)
		cli_fatal("out of memory");
	if (strcmp(name, "<stdin>") != 0 && fstat(fileno(f), &st) == 0 &&
	    S_ISREG(st.st_mode)) {
		if ((in->path = strdup(name)) == NULL)
			cli_fatal("out of memory");
		in->st = st;
		r = cli_games_file(f, name);
		input_check(in, f);
	} else {
		in->spool = spool(f, name, &in->spool_id);
		r = cli_games_file(in->spool, name);
	}
	in->games = cli_games.read - before;
	return r;
}

/* The input again: the spooled copy from its start, or the file. */
static FILE *
input_again(struct input *in)
{
	const char *display;
	FILE *f;

	if (in->spool != NULL) {
		if (lseek(fileno(in->spool), 0, SEEK_SET) < 0)
			cli_fatal("%s: %s", cli_tmp_name(in->spool_id),
			    strerror(errno));
		return in->spool;
	}
	if ((f = cli_open_input(in->path, &display)) == NULL)
		cli_fatal("%s: cannot read it again", in->name);
	input_check(in, f);
	return f;
}

static void
input_done(struct input *in, FILE *f)
{
	if (in->spool == NULL)
		cli_close_input(f);
}

/* Read the inputs again, the games of the first pass only, and call fn
 * with each game that parsed then and its number in all inputs (from
 * 0). */
static void
inputs_again(void (*fn)(const cd_pgn_raw_game *raw, uint32_t index,
    const char *name))
{
	uint64_t index = 0;
	size_t i;

	for (i = 0; i < ninputs; i++) {
		struct input *in = &inputs[i];
		FILE *f = input_again(in);
		cd_pgn_reader *r = cli_pgn_reader_new(f);
		cd_pgn_raw_game raw;
		cd_status st = CD_OK;
		uint64_t n;

		for (n = 0; n < in->games &&
		    (st = cd_pgn_reader_next(r, &raw)) == CD_OK; n++) {
			uint32_t g = (uint32_t)index++;

			if (recs[g].flags & F_REJECTED)
				continue;
			if ((raw.len != recs[g].size &&
			    recs[g].size != UINT32_MAX) ||
			    game_check(&raw) != checks[g])
				cli_fatal("%s: changed while it was read "
				    "(game %lu)", in->name,
				    (unsigned long)n + 1);
			fn(&raw, g, in->name);
		}
		if (st == CD_ERR_NOMEM)
			cli_fatal("out of memory");
		if (n < in->games)
			cli_fatal("%s: changed while it was read", in->name);
		if (in->spool == NULL)
			input_check(in, f);
		cd_pgn_reader_free(r);
		input_done(in, f);
	}
}

static cd_game *walk_game;

/* --included: a game parsed again, its prefixes looked up. */
static void
walk(const cd_pgn_raw_game *raw, uint32_t index, const char *name)
{
	cd_pgn_parse_opts opts = { .lang = cli_opts.lang,
	    .flags = (cli_pgn_flags & CD_PGN_READ_NESTED_COMMENTS) ?
	    CD_PGN_PARSE_NESTED_COMMENTS : 0 };
	cd_status st = cd_pgn_parse(walk_game, raw, &opts, NULL);

	if (st == CD_ERR_NOMEM)
		cli_fatal("out of memory");
	if (st != CD_OK)
		cli_fatal("%s: changed while it was read", name);
	prefixes(walk_game, index);
}

static FILE *groups;

/* The second pass: a game written if chosen, its --groups row. */
static void
write_game(const cd_pgn_raw_game *raw, uint32_t g, const char *name)
{
	uint32_t l = leader(g), rt = root(g);
	bool drop = rt != l || !(recs[g].flags & F_KEPT);
	const char *rule = rt != l ? "included" : drop ? by_names[opt_by] :
	    keep_names[opt_keep];

	(void)name;
	if (groups != NULL && (recs[rt].flags & F_GROUP)) {
		fprintf(groups, "%lu\t%lu\t%s\t%s\n", (unsigned long)rt + 1,
		    (unsigned long)g + 1, drop ? "dropped" : "kept", rule);
		cli_output_named_check(groups);
	}
	if (drop != (bool)opt_dups)
		return;
	written++;
	if (opt_count)
		return;
	outbuf.len = 0;
	cli_append_game(&outbuf, raw->text, raw->len);
	cli_output_write(outbuf.data, outbuf.len);
}

/* ---- options ---- */

static void
usage(void)
{
	printf("Usage: %s [OPTION]... [FILE]...\n", cli_prog);
	fputs(
	    "Write each PGN game once, in input order, its bytes as they\n"
	    "came.\n"
	    "\n"
	    "      --by=WHAT         what makes games the same:\n"
	    "                          game   main line, players' surnames and\n"
	    "                                 result (default)\n"
	    "                          moves  start position and main line\n"
	    "                          text   the export text (pgn-regularize)\n"
	    "      --included        a game whose main line begins a longer\n"
	    "                        game's between the same players is a copy of\n"
	    "                        it (with --by=game)\n"
	    "      --keep=WHICH      the copy that stays: first (default), last,\n"
	    "                        longest (most bytes), most-tags\n"
	    "  -d, --duplicates      write the games dropped instead\n"
	    "      --groups=FILE     write a TSV row for each game that has\n"
	    "                        copies: group, game, kept or dropped, rule\n"
	    "  -c, --count           print the number of games written only\n"
	    "  -T, --temporary-directory=DIR  spool standard input in DIR\n", stdout);
	cli_usage_options(CLI_TAKE_GAMES);
	fputs(
	    "\n"
	    "With no FILE, or when FILE is -, read standard input.\n"
	    "Exit status: 0 all games read, 1 some game rejected, 2 usage or\n"
	    "system error.\n", stdout);
}

/* The index of arg in names[0..n), else a usage error. */
static int
choice(const char *option, const char *arg, const char *const *names,
    int n)
{
	int i;

	for (i = 0; i < n; i++)
		if (strcmp(arg, names[i]) == 0)
			return i;
	cli_usage_error("%s: unknown value '%s'", option, arg);
}

int
main(int argc, char **argv)
{
	enum {
		OPT_BY = 256, OPT_INCLUDED, OPT_KEEP, OPT_GROUPS
	};
	static const struct option longopts[] = {
		{ "by", required_argument, NULL, OPT_BY },
		{ "included", no_argument, NULL, OPT_INCLUDED },
		{ "keep", required_argument, NULL, OPT_KEEP },
		{ "duplicates", no_argument, NULL, 'd' },
		{ "groups", required_argument, NULL, OPT_GROUPS },
		{ "count", no_argument, NULL, 'c' },
		{ "temporary-directory", required_argument, NULL, 'T' },
		{ NULL, 0, NULL, 0 }
	};
	size_t i;
	int c, status;

	cli_init(argv[0]);
	while ((c = cli_getopt(argc, argv, "dcT:", longopts, CLI_TAKE_GAMES,
	    usage)) != -1) {
		switch (c) {
		case OPT_BY:
			opt_by = (enum by)choice("--by", optarg, by_names, 3);
			break;
		case OPT_INCLUDED: opt_included = 1; break;
		case OPT_KEEP:
			opt_keep = (enum keep)choice("--keep", optarg,
			    keep_names, 4);
			break;
		case 'd': opt_dups = 1; break;
		case OPT_GROUPS: opt_groups = optarg; break;
		case 'c': opt_count = 1; break;
		case 'T': opt_tmpdir = optarg; break;
		}
	}
	if (opt_included && opt_by != BY_GAME)
		cli_usage_error("--included compares players: it needs "
		    "--by=game");
	two_pass = opt_keep != KEEP_FIRST || opt_groups != NULL ||
	    opt_included;
	cli_games.opts.lang = cli_opts.lang;
	cli_games.each = each;
	cli_games.priv_free = priv_free;
	cli_games.emit = two_pass ? emit_record : emit_one_pass;
	if (!two_pass)
		table_size(1 << 12);
	cli_files_open(argc, argv, optind);
	/* (written as -o is: put in place when the run ends well) */
	if (opt_groups != NULL)
		groups = cli_output_named("groups", opt_groups);
	status = cli_each_input(argc, argv, optind, first_pass);
	cli_progress_end();
	if (two_pass) {
		uint64_t read = cli_games.read;

		recs_grow(read);
		while (nrecs < read) {
			recs[nrecs].flags = F_REJECTED;
			links[nrecs++] = NONE;
		}
		choose();
		if (opt_included) {
			if ((walk_game = cd_game_new()) == NULL)
				cli_fatal("out of memory");
			inputs_again(walk);
			cd_game_free(walk_game);
			mark_roots();
		}
		inputs_again(write_game);
		for (i = 0; i < ninputs; i++) {
			if (inputs[i].spool != NULL) {
				fclose(inputs[i].spool);
				cli_tmp_remove(inputs[i].spool_id);
			}
			free(inputs[i].path);
			free(inputs[i].name);
		}
		free(inputs);
	}
	cli_games_end();
	cli_rejects_close();
	if (opt_count)
		fprintf(cli_output_file(), "%llu\n",
		    (unsigned long long)written);
	if (cli_opts.stats) {
		cli_unit = "games";
		cli_stats(cli_games.read, written, cli_games.rejected);
	}
	free(recs);
	free(links);
	free(checks);
	free(slots);
	free(outbuf.data);
	if (status == 0 && cli_games.rejected > 0)
		status = 1;
	cli_exit(status);
}
