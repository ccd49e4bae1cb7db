/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * pgn2epd: one EPD line per position of each game (pgn2epd(1)): the
 * start position and the position after every main-line move, and with
 * --variations the positions of the variations too.
 *
 * Games are read and parsed by cli_games_file, in batches on as many
 * threads as there are CPUs (one with --unique: the set of positions
 * written is one, filled in input order); a game that does not parse
 * is reported and copied to the rejects file.  The lines are written in
 * the canonical form of cd_epd_write (the four fields of
 * cd_fen_write_epd, then the operations in ASCII order of opcode,
 * strings quoted by cd_epd_quote), formatted here straight from the
 * game's nodes: the SAN of every move is already in the node, so no
 * position is looked at twice (a cd_epd record per position, built and
 * sorted by cd_epd_write, would cost more than the rest of the work).  The test suite checks that epd-validate
 * -n leaves the output unchanged.
 *
 * Memory stays flat (a batch, its output and a game per thread) except
 * with --unique, which keeps a set of 16-byte keys, one per distinct
 * position written: the Zobrist key of the position and a 64-bit hash
 * of its four EPD fields, in an open addressing table at most half
 * full.
 */
#include "config.h"

#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "chessdata.h"
#include "cli/cli.h"
#include "cli/games.h"

/* The operations pgn2epd can write, in ASCII order of opcode. */
enum {
	OP_KEY = 1 << 6,	/* "Key": upper case, so first */
	OP_C0 = 1 << 0,
	OP_C1 = 1 << 1,
	OP_FMVN = 1 << 2,
	OP_HMVC = 1 << 3,
	OP_ID = 1 << 4,
	OP_SM = 1 << 5,
	OP_ALL = (1 << 6) - 1
};
static const struct {
	const char *name;
	unsigned bit;
} op_names[] = {
	{ "c0", OP_C0 }, { "c1", OP_C1 }, { "fmvn", OP_FMVN },
	{ "hmvc", OP_HMVC }, { "id", OP_ID }, { "sm", OP_SM },
	{ "Key", OP_KEY }
};
#define N_OPS	(sizeof(op_names) / sizeof(op_names[0]))

/* The longest string operand written (standard 16.2.4: 255 bytes). */
#define STRING_MAX	255

static unsigned opt_ops = OP_ALL;
static bool opt_unique, opt_variations;
static bool opt_nofauxep;	/* --nofauxep: en passant only when legal */
static long opt_first = -1, opt_last = -1;	/* -1: not given */
static long opt_plies_from = -1, opt_plies_to;	/* --plies=N..M */
static bool opt_select;		/* --first, --last or --plies given */

/* The walk's stack of lines still to write. */
struct pending {
	cd_board before;	/* the position node's move is made in */
	uint32_t node;		/* first move to write */
	uint32_t line;		/* its line's number; 0 = main line */
	uint32_t end;		/* the ply of its line's last move (set
				 * when a variation is begun) */
	bool variation;		/* node starts a variation: number it
				 * and queue its next sibling first */
};

/* What one thread needs to write a game's lines (struct cli_job's
 * priv). */
struct epd {
	const cd_game *game;	/* the game being written */
	struct cli_job *job;	/* its job (cli_games_flush) */
	cd_buf *ob;		/* where (this thread's output) */
	uint64_t index;		/* its number in all inputs */
	/* what every line of the game has after its four fields: c0 and
	 * c1, and " fmvn " (the operations asked for), ready to write */
	char head[2 * STRING_MAX + 96];	/* 32 bytes of slack, and
					 * 128 bytes to read */
	size_t head_len;
	/* and " id \"N." (N: index; 26 bytes at most, 32 to read) */
	char id[48];
	size_t id_len;
	struct pending *stack;
	size_t stack_len, stack_cap;
};

static void
usage(void)
{
	printf("Usage: %s [OPTION]... [FILE]...\n", cli_prog);
	fputs(
	    "Write one EPD line per position of each PGN game: the start position and\n"
	    "the position after each main-line move.\n"
	    "\n"
	    "      --first=N         write the first N positions of each line\n"
	    "                        (plies 0 to N-1 from the game's start)\n"
	    "  -j, --jobs=N          convert with N threads (default: one per\n"
	    "                        CPU, one with --unique; the output is the\n"
	    "                        same)\n"
	    "      --last=N          write the last N positions of each line\n"
	    "                        (with --first: the positions either one\n"
	    "                        selects)\n"
	    "      --plies=N..M      write the positions after plies N to M of\n"
	    "                        each line (0: the start; N.., ..M or N alone\n"
	    "                        too)\n"
	    "      --ops=LIST        the operations to write, comma-separated,\n"
	    "                        from c0,c1,fmvn,hmvc,id,sm (the default: all\n"
	    "                        of them) and Key; empty: the four fields\n"
	    "                        only\n"
	    "      --key             add Key to the operations\n"
	    "  -u, --unique          write each position (the four fields) only\n"
	    "                        the first time it occurs\n"
	    "      --nofauxep        an en passant square only where the capture\n"
	    "                        is legal (so that -u meets transpositions)\n"
	    "      --variations      also write the positions of the variations\n", stdout);
	cli_usage_options(CLI_TAKE_LANG | CLI_TAKE_OUTPUT | CLI_TAKE_QUIET |
	    CLI_TAKE_REJECTS | CLI_TAKE_STATS | CLI_TAKE_COMPRESS |
	    CLI_TAKE_MEMLIMIT);
	fputs(
	    "\n"
	    "The operations: c0 \"White - Black, Event, Site, Date\", c1 the result,\n"
	    "fmvn and hmvc the clocks, id \"GAME.PLY\" (\"GAME.PLYvN\" in the Nth\n"
	    "variation of a game), sm the move played from the position (none at the\n"
	    "end of a line), Key the position's Polyglot key (16 hex digits).\n"
	    "With no FILE, or when FILE is -, read standard input.\n"
	    "Exit status: 0 success, 1 some game was rejected,\n"
	    "2 usage or system error.\n", stdout);
}

/* ---- the output line ---- */

/* The line is written at d (emit reserved its room); each of these
 * returns where the line goes on. */

/* n bytes of s, which has room to read n rounded up to 32 bytes, as
 * d has to write them: thirty-two bytes a copy, no call. */
static inline char *
put32(char *d, const char *s, size_t n)
{
	size_t i;

	for (i = 0; i < n; i += 32)
		memcpy(d + i, s + i, 32);
	return d + n;
}

/* The same for a game's head (struct epd), which can be read to 128
 * bytes and to n rounded up to 32, and d written as far: most heads
 * are 128 bytes or fewer, copied at once with no loop (and the compiler
 * is told so: it laid out the loop as the path most taken). */
static inline char *
put_head(char *d, const char *s, size_t n)
{
	if (__builtin_expect(n <= 128, 1)) {
		memcpy(d, s, 128);
		return d + n;
	}
	return put32(d, s, n);
}

/* The numbers below 1000 (every clock and ply but a few): the digits,
 * then zeros, and in the last byte the number of digits. */
static char small_uints[1000][4];

static void small_uints_init(void) __attribute__((constructor));

static void
small_uints_init(void)
{
	unsigned v;

	/* by arithmetic: a thousand calls of snprintf were most of the
	 * program's start */
	for (v = 0; v < 1000; v++) {
		char *d = small_uints[v];
		unsigned x = v;
		int n = v >= 100 ? 3 : v >= 10 ? 2 : 1, i;

		for (i = n - 1; i >= 0; i--, x /= 10)
			d[i] = (char)('0' + x % 10);
		d[3] = (char)n;
	}
}

/* A decimal number (at most 20 digits); d has room for 4 bytes more
 * than it takes, which the line's next bytes overwrite.  A number
 * below 1000 is the case to lay out as the one most taken (the
 * compiler had made the division loop that). */
static inline char *
put_uint(char *d, uint64_t v)
{
	char tmp[24];
	size_t n = sizeof(tmp);

	if (__builtin_expect(v < 1000, 1)) {
		memcpy(d, small_uints[v], 4);
		return d + small_uints[v][3];
	}
	do {
		tmp[--n] = (char)('0' + v % 10);
		v /= 10;
	} while (v > 0);
	memcpy(d, tmp + n, sizeof(tmp) - n);
	return d + sizeof(tmp) - n;
}

/* ---- the operations of a game ---- */

/*
 * Append s to the text of a string operand being built in buf, while
 * its length *used stays within STRING_MAX; a cut falls before a UTF-8
 * continuation byte, never inside a character.
 */
static void
string_add(char *buf, size_t *used, const char *s, size_t n)
{
	size_t room = STRING_MAX - *used;

	if (n > room) {
		n = room;
		while (n > 0 && ((unsigned char)s[n] & 0xc0) == 0x80)
			n--;
	}
	memcpy(buf + *used, s, n);
	*used += n;
}

/* The value of tag name, "?" (def) when it is missing or empty. */
static const char *
tag_or(const cd_game *g, const char *name, const char *def, size_t *len)
{
	const char *v = cd_game_tag_value(g, name, len);

	if (v == NULL || *len == 0) {
		*len = strlen(def);
		return def;
	}
	return v;
}

/* Prepare head and id for the current game. */
static void
game_ops(struct epd *e)
{
	static const struct {
		const char *tag, *def, *sep;
		size_t sep_len;
	} parts[] = {
		{ "White", "?", "", 0 }, { "Black", "?", " - ", 3 },
		{ "Event", "?", ", ", 2 }, { "Site", "?", ", ", 2 },
		{ "Date", "????.??.??", ", ", 2 }
	};
	size_t i, pos = 0, used = 0, len;
	const char *v;
	char c0[STRING_MAX], *d;

	if (opt_ops & OP_C0) {
		for (i = 0; i < sizeof(parts) / sizeof(parts[0]); i++) {
			string_add(c0, &used, parts[i].sep, parts[i].sep_len);
			v = tag_or(e->game, parts[i].tag, parts[i].def, &len);
			string_add(c0, &used, v, len);
		}
		memcpy(e->head, " c0 ", 4);
		pos = 4 + cd_epd_quote(e->head + 4, c0, used);
		e->head[pos++] = ';';
	}
	if (opt_ops & OP_C1) {
		v = cd_pgn_result_str(cd_game_result(e->game));
		len = strlen(v);
		memcpy(e->head + pos, " c1 \"", 5);
		memcpy(e->head + pos + 5, v, len);
		memcpy(e->head + pos + 5 + len, "\";", 2);
		pos += 5 + len + 2;
	}
	if (opt_ops & OP_FMVN) {
		memcpy(e->head + pos, " fmvn ", 6);
		pos += 6;
	}
	e->head_len = pos;
	memcpy(e->id, " id \"", 5);
	d = put_uint(e->id + 5, e->index);
	*d++ = '.';
	e->id_len = (size_t)(d - e->id);
}

/* ---- --unique: the set of positions written ---- */

static struct key {
	uint64_t a, b;		/* (0, 0): an empty slot */
} *keys;
static size_t keys_cap, keys_count;

static uint64_t
mix64(uint64_t x)
{
	x ^= x >> 32;
	x *= 0xd6e8feb86659fd93ULL;
	x ^= x >> 32;
	x *= 0xd6e8feb86659fd93ULL;
	x ^= x >> 32;
	return x;
}

/* A 64-bit hash of the four fields' text, independent of the Zobrist
 * key. */
static uint64_t
text_hash(const char *s, size_t n)
{
	uint64_t h = 0x9e3779b97f4a7c15ULL ^ n, w;

	while (n >= 8) {
		memcpy(&w, s, 8);
		h = mix64(h ^ w) + 0x632be59bd9b4e019ULL;
		s += 8;
		n -= 8;
	}
	w = 0;
	memcpy(&w, s, n);
	return mix64(h ^ w ^ ((uint64_t)n << 59));
}

static void
keys_insert(struct key k)
{
	size_t i = (size_t)(k.a ^ (k.b >> 7)) & (keys_cap - 1);

	while (keys[i].a != 0 || keys[i].b != 0)
		i = (i + 1) & (keys_cap - 1);
	keys[i] = k;
}

/* Add a position; false if it was in the set already. */
static bool
keys_add(uint64_t a, uint64_t b)
{
	struct key k = { a, b };
	size_t i;

	if (a == 0 && b == 0)
		k.b = 1;
	if (2 * (keys_count + 1) > keys_cap) {
		struct key *old = keys;
		size_t ocap = keys_cap, j;

		keys_cap = ocap ? 2 * ocap : 1 << 12;
		if ((keys = calloc(keys_cap, sizeof(*keys))) == NULL)
			cli_fatal("out of memory");
		for (j = 0; j < ocap; j++)
			if (old[j].a != 0 || old[j].b != 0)
				keys_insert(old[j]);
		free(old);
	}
	i = (size_t)(k.a ^ (k.b >> 7)) & (keys_cap - 1);
	while (keys[i].a != 0 || keys[i].b != 0) {
		if (keys[i].a == k.a && keys[i].b == k.b)
			return false;
		i = (i + 1) & (keys_cap - 1);
	}
	keys[i] = k;
	keys_count++;
	return true;
}

/* ---- writing positions ---- */

/* The output of one game kept at most (about) before it is written. */
#define FLUSH_BYTES	((size_t)1 << 20)

/* The most a line takes, with what the copies write past its end (128
 * bytes of a short head): the fields, c0 and c1, the numbers of fmvn,
 * hmvc and id (at most 20 digits each), sm, Key, the line end. */
static size_t
line_max(const struct epd *e)
{
	return CD_FEN_MAX + e->head_len + 128 + 160 + 32 + 24;
}

/*
 * The end of the thread's output, where the next line goes, with room
 * for it: d, or where d's offset lies after the output has grown (*lim
 * then set again).  A walk keeps the end in d and the last place a line
 * may start in *lim, and sets the output's length once it is done.
 */
static inline char *
line_room(struct epd *e, char *d, char **lim)
{
	cd_buf *o = e->ob;
	size_t need = line_max(e);

	if (d > *lim) {
		o->len = (size_t)(d - o->data);
		/* a long game's lines are written as they come, in the
		 * batch's turn: never all kept (forty times the game) */
		if (o->len >= FLUSH_BYTES)
			cli_games_flush(e->job);
		cli_buf_reserve(o, need);
		d = o->data + o->len;
		*lim = o->data + o->cap - need;
	}
	return d;
}

/* The start of a walk: the end of the output, and in *lim the last place
 * a line may start without more room. */
static char *
walk_start(struct epd *e, char **lim)
{
	cd_buf *o = e->ob;
	size_t need = line_max(e);

	cli_buf_reserve(o, need);
	*lim = o->data + o->cap - need;
	return o->data + o->len;
}

/*
 * Write the position b at ply (from the game's start) of line number
 * line (0: the main line), the move sm played from it (NULL: none), if
 * the selection keeps it: plies 0..first-1, and the plies after
 * last_ply - last (last_ply: the ply of the line's final position).
 * The line goes at d, which has room for it (line_room); returns its
 * end (d when it is not written).  ops, select and unique are opt_ops,
 * opt_select and opt_unique, given as arguments so that a caller may
 * give them as constants.
 */
static inline __attribute__((always_inline)) char *
emit(struct epd *e, char *d, const cd_board *b, uint32_t ply,
    uint32_t line, uint32_t last_ply, const cd_game_node *sm, unsigned ops,
    bool select, bool unique)
{
	size_t n;

	if (select) {
		bool keep = false;

		if (opt_first >= 0 && (uint64_t)ply < (uint64_t)opt_first)
			keep = true;
		if (opt_last >= 0 &&
		    (uint64_t)ply + (uint64_t)opt_last > (uint64_t)last_ply)
			keep = true;
		if (opt_plies_from >= 0 && (long)ply >= opt_plies_from &&
		    (long)ply <= opt_plies_to)
			keep = true;
		if (!keep)
			return d;
	}
	n = cd_fen_write_epd(b, d);
	if (opt_nofauxep && b->ep != CD_SQ_NONE && !cd_board_ep_legal(b)) {
		/* the en passant square, the last field, made "-" */
		d[n - 2] = '-';
		n--;
	}
	if (unique && !keys_add(b->key, text_hash(d, n)))
		return d;
	d += n;
	if (ops & OP_KEY) {
		/* a private opcode (16.2.4.2), first in ASCII order */
		memcpy(d, " Key \"", 6);
		cli_put_key(d + 6, cd_polyglot_key(b));
		memcpy(d + 22, "\";", 2);
		d += 24;
	}
	d = put_head(d, e->head, e->head_len);
	if (ops & OP_FMVN) {
		/* its ';' with the next operation's start in one store */
		d = put_uint(d, b->fullmove);
		if (ops & OP_HMVC) {
			memcpy(d, "; hmvc ", 8);
			d = put_uint(d + 7, b->halfmove);
		}
		*d++ = ';';
	} else if (ops & OP_HMVC) {
		memcpy(d, " hmvc ", 6);
		d = put_uint(d + 6, b->halfmove);
		*d++ = ';';
	}
	if (ops & OP_ID) {
		/* (id: at most 26 bytes) */
		memcpy(d, e->id, 32);
		d = put_uint(d + e->id_len, ply);
		if (line > 0) {
			*d++ = 'v';
			d = put_uint(d, line);
		}
		memcpy(d, "\";", 2);
		d += 2;
	}
	/* a null move is no legal move for sm: left out */
	if ((ops & OP_SM) && sm != NULL && sm->move != CD_MOVE_NULL) {
		memcpy(d, " sm ", 4);
		memcpy(d + 4, sm->san, 8);	/* san: 8 bytes, <= 7 used */
		d += 4 + sm->san_len;
		memcpy(d, ";\n", 2);
		return d + 2;
	}
	*d++ = '\n';
	return d;
}

static void
push(struct epd *e, const cd_board *before, uint32_t node, uint32_t line,
    uint32_t end, bool variation)
{
	struct pending *p;

	cli_grow(&e->stack, &e->stack_cap, e->stack_len, sizeof(*e->stack),
	    64);
	p = &e->stack[e->stack_len++];
	p->before = *before;
	p->node = node;
	p->line = line;
	p->end = end;
	p->variation = variation;
}

/* The ply of the last move of the line that goes on from node n (each
 * line is walked once: a line resumed after its variations keeps its
 * end); only --last needs it (0 without). */
static uint32_t
line_end(const cd_game_node *nodes, uint32_t n)
{
	if (opt_last < 0)
		return 0;
	while (nodes[n].next != 0)
		n = nodes[n].next;
	return nodes[n].ply;
}

/* The main line alone, with the options given as arguments. */
static inline __attribute__((always_inline)) void
write_main(struct epd *e, uint32_t end, unsigned ops, bool select,
    bool unique)
{
	const cd_game_node *nodes = e->game->nodes;
	cd_board b = e->game->start;
	uint32_t n = 0;
	char *d, *lim;

	d = walk_start(e, &lim);
	for (;;) {
		uint32_t next = nodes[n].next;

		d = emit(e, d, &b, nodes[n].ply, 0, end,
		    next ? &nodes[next] : NULL, ops, select, unique);
		if ((n = next) == 0)
			break;
		cd_board_make(&b, nodes[n].move);
		d = line_room(e, d, &lim);
	}
	e->ob->len = (size_t)(d - e->ob->data);
}

/*
 * Write the positions of the current game in the order of its PGN text:
 * the start, each move's position, and (with --variations) after a
 * move the positions of its variations, depth first, before the line
 * goes on.  An explicit stack: no depth of nesting overflows anything.
 * The positions are made from the moves as the walk goes (the parser
 * keeps none: a board per move was most of the memory of a long game),
 * each pending line with the position it starts from.
 */
static void
write_game(struct epd *e)
{
	const cd_game *g = e->game;
	const cd_game_node *nodes = g->nodes;
	uint32_t nvar = 0, n, end;
	char *d, *lim;
	cd_board b, before;

	end = line_end(nodes, 0);
	if (!opt_variations) {
		/* the default operations and no selection, the common case,
		 * with the options as constants: no test of them per line */
		if (opt_ops == OP_ALL && !opt_select && !opt_unique)
			write_main(e, end, OP_ALL, false, false);
		else
			write_main(e, end, opt_ops, opt_select, opt_unique);
		return;
	}
	d = walk_start(e, &lim);
	d = emit(e, d, &g->start, 0, 0, end,
	    nodes[0].next ? &nodes[nodes[0].next] : NULL, opt_ops, opt_select,
	    opt_unique);
	e->stack_len = 0;
	if (nodes[0].next != 0)
		push(e, &g->start, nodes[0].next, 0, end, false);
	while (e->stack_len > 0) {
		struct pending p = e->stack[--e->stack_len];

		n = p.node;
		if (p.variation) {
			/* its next sibling after it (and all its
			 * subvariations), from the same position */
			if (nodes[n].var_next != 0)
				push(e, &p.before, nodes[n].var_next, 0, 0,
				    true);
			p.line = ++nvar;
			p.end = line_end(nodes, n);
		}
		end = p.end;
		b = p.before;
		for (; n != 0; n = nodes[n].next) {
			const cd_game_node *nd = &nodes[n];

			before = b;
			cd_board_make(&b, nd->move);
			d = line_room(e, d, &lim);
			d = emit(e, d, &b, nd->ply, p.line, end,
			    nd->next ? &nodes[nd->next] : NULL, opt_ops,
			    opt_select, opt_unique);
			if (nd->var != 0) {
				/* the variations replace this move */
				if (nd->next != 0) {
					push(e, &b, nd->next, p.line, end,
					    false);
					push(e, &before, nd->var, 0, 0, true);
					break;
				}
				push(e, &before, nd->var, 0, 0, true);
			}
		}
	}
	e->ob->len = (size_t)(d - e->ob->data);
}

/* ---- games ---- */

/* Write the positions of one game that parsed. */
static const char *
convert(struct cli_job *j, const cd_pgn_raw_game *raw)
{
	struct epd *e = j->priv;

	(void)raw;
	if (e == NULL && (e = j->priv = calloc(1, sizeof(*e))) == NULL)
		cli_fatal("out of memory");
	e->game = j->game;
	e->job = j;
	e->ob = j->out;
	e->index = j->index;
	game_ops(e);
	write_game(e);
	return NULL;
}

static void
epd_free(void *p)
{
	struct epd *e = p;

	free(e->stack);
	free(e);
}

/* ---- options ---- */

static long
parse_count(const char *opt, const char *arg)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(arg, &end, 10);
	if (end == arg || *end != '\0' || arg[0] == '-' || arg[0] == '+' ||
	    errno == ERANGE || v > (long)UINT32_MAX)
		cli_usage_error("invalid number '%s' for --%s", arg, opt);
	return v;
}

/* --plies=N..M (N.., ..M, or N alone): the positions after plies N
 * to M of each line, counted from the game's start (0: the start). */
static void
parse_plies(const char *arg)
{
	const char *dots = strstr(arg, "..");
	char *num;

	if (dots == NULL) {
		opt_plies_from = opt_plies_to = parse_count("plies", arg);
		return;
	}
	if ((num = strndup(arg, (size_t)(dots - arg))) == NULL)
		cli_fatal("out of memory");
	opt_plies_from = *num != '\0' ? parse_count("plies", num) : 0;
	free(num);
	opt_plies_to = dots[2] != '\0' ? parse_count("plies", dots + 2) :
	    (long)UINT32_MAX;
	if (opt_plies_to < opt_plies_from)
		cli_usage_error("--plies=%s: the first ply is after the last",
		    arg);
}

static unsigned
parse_ops(const char *arg)
{
	unsigned set = 0;
	const char *p = arg, *q;
	size_t i, n;

	while (*p != '\0') {
		q = strchr(p, ',');
		n = q ? (size_t)(q - p) : strlen(p);
		for (i = 0; i < N_OPS; i++)
			if (strlen(op_names[i].name) == n &&
			    memcmp(op_names[i].name, p, n) == 0)
				break;
		if (i == N_OPS)
			cli_usage_error("unknown operation '%.*s' in --ops "
			    "(c0, c1, fmvn, hmvc, id, sm and Key are known)",
			    (int)n, p);
		set |= op_names[i].bit;
		p += n;
		if (*p == ',')
			p++;
	}
	return set;
}

int
main(int argc, char **argv)
{
	enum {
		OPT_FIRST = 256, OPT_LAST, OPT_OPS, OPT_VARIATIONS, OPT_PLIES,
		OPT_KEY, OPT_NOFAUXEP
	};
	bool key = false;
	static const struct option longopts[] = {
		{ "first", required_argument, NULL, OPT_FIRST },
		{ "last", required_argument, NULL, OPT_LAST },
		{ "plies", required_argument, NULL, OPT_PLIES },
		{ "ops", required_argument, NULL, OPT_OPS },
		{ "key", no_argument, NULL, OPT_KEY },
		{ "unique", no_argument, NULL, 'u' },
		{ "nofauxep", no_argument, NULL, OPT_NOFAUXEP },
		{ "variations", no_argument, NULL, OPT_VARIATIONS },
		{ NULL, 0, NULL, 0 }
	};
	int c, status = 0;

	cli_init(argv[0]);
	while ((c = cli_getopt(argc, argv, "u", longopts, CLI_TAKE_GAMES,
	    usage)) != -1) {
		switch (c) {
		case OPT_FIRST:
			opt_first = parse_count("first", optarg);
			break;
		case OPT_LAST:
			opt_last = parse_count("last", optarg);
			break;
		case OPT_PLIES:
			parse_plies(optarg);
			break;
		case OPT_OPS:
			opt_ops = parse_ops(optarg);
			break;
		case OPT_KEY:
			key = true;
			break;
		case 'u':
			opt_unique = true;
			break;
		case OPT_NOFAUXEP:
			opt_nofauxep = true;
			break;
		case OPT_VARIATIONS:
			opt_variations = true;
			break;
		}
	}
	if (key)
		opt_ops |= OP_KEY;
	cli_games.each = convert;
	/* (the positions are made again from the moves, not kept by the
	 * parser: CD_PGN_PARSE_POSITIONS takes a board per move) */
	cli_games.opts.flags = 0;
	cli_games.opts.lang = cli_opts.lang;
	cli_games.priv_free = epd_free;
	opt_select = opt_first >= 0 || opt_last >= 0 || opt_plies_from >= 0;
	if (opt_unique)		/* one set of positions, in input order */
		cli_games.jobs = 1;
	cli_inputs(argc, argv, optind);
	cli_output_open(cli_opts.output);
	cli_rejects_open(cli_opts.rejects);
	if (cli_each_input(argc, argv, optind, cli_games_file) != 0)
		status = 2;
	cli_games_end();
	free(keys);
	cli_rejects_close();
	cli_progress_end();
	cli_finish(status, cli_games.read, cli_games.written,
	    cli_games.rejected);
}
