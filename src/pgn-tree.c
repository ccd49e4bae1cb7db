/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * pgn-tree: the opening explorer of an archive.  From a position (the
 * start, --fen, --moves), the moves played in it over the games' main
 * lines, by any move order (positions compared by the key of their EPD
 * form, as opening classification compares them), with their games,
 * results, Elo averages, performance, years and latest game; --depth
 * walks the tree.  --polyglot=FILE writes a Polyglot opening book as
 * `polyglot make-book` writes it instead.
 *
 * Memory: a game's positions are counted only where they may be on the
 * tree asked for: within depth - 1 plies of the root (at most 4 bits
 * of the twelve piece boards change a ply, a ply takes at most one
 * piece), so the table holds the positions near the root, not the
 * archive's.  Each thread counts into a table of its own; they are
 * added up at the end.
 */
#include "config.h"

#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "chessdata.h"
#include "cli/cli.h"
#include "cli/games.h"
#include "cli/tree.h"

enum { FMT_TEXT, FMT_TSV, FMT_JSON };

static int opt_format = -1;	/* -1: text (the default) */
static unsigned opt_depth = 1;
static uint64_t opt_min_games = 1;
static const char *opt_fen, *opt_moves, *opt_book, *opt_polyglot;
static const cd_openings *openings;

/* make-book's options and defaults */
static unsigned opt_max_ply = 1024;
static cd_polyglot_make_opts mkopts = { .min_game = 3 };
static cd_polyglot_maker *maker;
static FILE *book_out;		/* --polyglot's file */

/* The root position, its twelve piece boards and its pieces. */
static cd_board root;
static cd_bitboard root_bb[12];
static int root_pieces;
static int max_diff;		/* 4 * (depth - 1) */
static int min_pieces;		/* root_pieces - (depth - 1) */

static struct table total;

static void
priv_free(void *p)
{
	struct table *t = p;
	size_t i;

	for (i = 0; i < t->n; i++)
		tree_table_merge(&total, &t->s[i]);
	tree_table_free(t);
	free(t);
}

/* ---- reading games ---- */

/* A rating tag's value: a positive integer, else 0. */
static unsigned
rating(const cd_game *g, const char *name)
{
	size_t len, i;
	const char *v = cd_game_tag_value(g, name, &len);
	unsigned r = 0;

	if (v == NULL || len == 0 || len > 5)
		return 0;
	for (i = 0; i < len; i++) {
		if (v[i] < '0' || v[i] > '9')
			return 0;
		r = r * 10 + (unsigned)(v[i] - '0');
	}
	return r;
}

static const char *
tag_or(const cd_game *g, const char *name, const char *dflt)
{
	const char *v = cd_game_tag_value(g, name, NULL);

	return v != NULL && v[0] != '\0' ? v : dflt;
}

/* Whether b may be on the tree: within depth - 1 plies of the root. */
static inline bool
near_root(const cd_board *b)
{
	int c, t, diff = 0;

	if (b->side != root.side && opt_depth == 1)
		return false;
	for (c = 0; c < 2; c++)
		for (t = CD_PAWN; t <= CD_KING; t++) {
			diff += __builtin_popcountll((b->by_type[t] &
			    b->by_color[c]) ^ root_bb[c * 6 + t - 1]);
			if (diff > max_diff)
				return false;
		}
	return true;
}

/* The root's pawns on their first rank: a pawn leaves it for good. */
static cd_bitboard root_home;

/* Whether no position after b can be on the tree: fewer pieces than a
 * position of the tree has, or more of the root's pawns gone from
 * their first rank than depth - 1 plies can move. */
static inline bool
past_tree(const cd_board *b)
{
	cd_bitboard home = root_home & ~(b->by_type[CD_PAWN] &
	    ((b->by_color[CD_WHITE] & 0xff00ULL) |
	    (b->by_color[CD_BLACK] & 0x00ff000000000000ULL)));

	return __builtin_popcountll(b->by_type[0]) < min_pieces ||
	    __builtin_popcountll(home) > (int)opt_depth - 1;
}

/*
 * Whether a game must be parsed: its main line read move by move from
 * its tokens (comments, NAGs and variations skipped) until a position
 * near the root (parse it) or past the tree (no: it adds nothing, and is
 * not parsed, so not checked further either).  Parsed whenever in
 * doubt: a FEN or Variant tag, another language, a token or move that
 * does not read.
 */
static bool
need_parse(struct cli_job *j, const cd_pgn_raw_game *raw)
{
	cd_pgn_lexer lx;
	cd_pgn_token t;
	cd_board b;
	int depth = 0;

	(void)j;
	if (cli_opts.lang != NULL || cd_pgn_raw_tag(raw, "FEN") != NULL ||
	    cd_pgn_raw_tag(raw, "Variant") != NULL)
		return true;
	cd_board_init(&b);
	cd_pgn_lex_init(&lx, raw->text + raw->movetext,
	    raw->movetext_end - raw->movetext, raw->movetext_line,
	    raw->movetext_col);
	for (;;) {
		cd_move m;

		if (depth == 0 && near_root(&b))
			return true;
		if (past_tree(&b))
			return false;
		/* the next main-line move */
		for (;;) {
			switch (cd_pgn_lex_next(&lx, &t)) {
			case CD_PGN_TOK_RAV_OPEN:
				depth++;
				continue;
			case CD_PGN_TOK_RAV_CLOSE:
				if (--depth < 0)
					return true;
				continue;
			case CD_PGN_TOK_MOVE:
				if (depth > 0)
					continue;
				break;
			case CD_PGN_TOK_END:
			case CD_PGN_TOK_RESULT:
				/* (a game never near: the end) */
				return depth != 0;
			case CD_PGN_TOK_ERROR:
			case CD_PGN_TOK_TAG:
			case CD_PGN_TOK_STRING:
				return true;
			default:
				continue;
			}
			break;
		}
		if ((t.flags & CD_PGN_TOKF_NULLMOVE) ||
		    cd_san_parse(&b, t.text, t.len, NULL, 0, &m, NULL) !=
		    CD_OK)
			return true;
		cd_board_make(&b, m);
	}
}

/* Count one game's main line where it is near the root. */
static const char *
count_game(struct cli_job *j, const cd_pgn_raw_game *raw)
{
	struct table *t = j->priv;
	const cd_game *g = j->game;
	cd_pgn_result res = cd_game_result(g);
	unsigned welo = rating(g, "WhiteElo"), belo = rating(g, "BlackElo");
	const char *date = tag_or(g, "Date", "????.??.??");
	char d[11];
	int year = 0;
	cd_board b;
	uint32_t i;
	size_t k;

	(void)raw;
	if (!j->parsed)
		return NULL;	/* (never near the root) */
	if (t == NULL) {
		if ((t = j->priv = calloc(1, sizeof(*t))) == NULL)
			cli_fatal("out of memory");
	}
	/* the date as YYYY.MM.DD, `?` where unknown */
	for (k = 0; k < 10; k++)
		d[k] = "????.??.??"[k];
	for (k = 0; k < 10 && date[k] != '\0'; k++)
		if ((k == 4 || k == 7) ? date[k] == '.' :
		    (date[k] >= '0' && date[k] <= '9'))
			d[k] = date[k];
	d[10] = '\0';
	if (d[0] != '?' && d[1] != '?' && d[2] != '?' && d[3] != '?')
		year = (d[0] - '0') * 1000 + (d[1] - '0') * 100 +
		    (d[2] - '0') * 10 + (d[3] - '0');
	t->nseen = 0;
	b = g->start;
	for (i = g->nodes[0].next; i != 0; i = g->nodes[i].next) {
		cd_move m = g->nodes[i].move;
		struct mstat *s;

		if (past_tree(&b))
			break;	/* no later position is near */
		if (m != CD_MOVE_NULL && near_root(&b)) {
			s = tree_table_get(t, b.key, m, true);
			for (k = 0; k < t->nseen; k++)
				if (t->seen[k] == (size_t)(s - t->s))
					break;
			if (k == t->nseen) {
				bool white = b.side == CD_WHITE;
				unsigned own = white ? welo : belo;
				unsigned opp = white ? belo : welo;
				int score = -2;	/* for the side to move:
						 * 1, 0, -1; -2 none */

				cli_grow(&t->seen, &t->seen_cap, t->nseen,
				    sizeof(*t->seen), 16);
				t->seen[t->nseen++] = (size_t)(s - t->s);
				s->games++;
				if (res == CD_PGN_RESULT_WHITE)
					s->white++, score = white ? 1 : -1;
				else if (res == CD_PGN_RESULT_BLACK)
					s->black++, score = white ? -1 : 1;
				else if (res == CD_PGN_RESULT_DRAW)
					s->draws++, score = 0;
				if (own != 0)
					s->elo_sum += own, s->elo_n++;
				if (opp != 0)
					s->opp_sum += opp, s->opp_n++;
				if (opp != 0 && score != -2) {
					s->perf_n++;
					s->perf_opp += opp;
					s->perf_diff += score;
				}
				if (year != 0 && (s->first_year == 0 ||
				    year < s->first_year))
					s->first_year = year;
				if (year > s->last_year)
					s->last_year = year;
				if (tree_more_recent(s, d, j->index))
					tree_set_latest(s, d, j->index,
					    tag_or(g, "White", "?"),
					    tag_or(g, "Black", "?"),
					    tag_or(g, "Event", "?"));
			}
		}
		cd_board_make(&b, m);
	}
	return NULL;
}

/* --polyglot: each main-line move of the first max-ply, as a record
 * of 12 bytes (key, book move, side, result + 1 for the side to move)
 * for book_emit, which counts them in the order of the games. */
static const char *
book_game(struct cli_job *j, const cd_pgn_raw_game *raw)
{
	const cd_game *g = j->game;
	const char *r = cd_game_tag_value(g, "Result", NULL);
	int result = 0;
	unsigned ply = 0;
	cd_board b;
	uint32_t i;

	(void)raw;
	/* make-book reads the Result tag, not the termination marker */
	if (r != NULL && strcmp(r, "1-0") == 0)
		result = 1;
	else if (r != NULL && strcmp(r, "0-1") == 0)
		result = -1;
	b = g->start;
	for (i = g->nodes[0].next; i != 0 && ply < opt_max_ply;
	    i = g->nodes[i].next, ply++) {
		cd_move m = g->nodes[i].move;
		uint64_t key;
		uint16_t pm;
		unsigned char *p;

		if (m == CD_MOVE_NULL)
			break;	/* (make-book cannot read one) */
		key = cd_polyglot_key(&b);
		pm = cd_polyglot_move(m);
		cli_buf_reserve(j->out, 12);
		p = (unsigned char *)j->out->data + j->out->len;
		memcpy(p, &key, 8);
		memcpy(p + 8, &pm, 2);
		p[10] = b.side;
		p[11] = (unsigned char)(result + 1);
		j->out->len += 12;
		cd_board_make(&b, m);
		result = -result;
	}
	return NULL;
}

static void
book_emit(const char *data, size_t len)
{
	size_t i;

	for (i = 0; i + 12 <= len; i += 12) {
		uint64_t key;
		uint16_t pm;

		memcpy(&key, data + i, 8);
		memcpy(&pm, data + i + 8, 2);
		if (cd_polyglot_maker_add(maker, key, pm,
		    (unsigned char)data[i + 10],
		    (unsigned char)data[i + 11] - 1) != CD_OK)
			cli_fatal("out of memory");
	}
}

/* ---- the tree ---- */

/* --book: the book's bytes */
static unsigned char *book;
static size_t book_len;

/* One row: a move of a position of the tree. */
struct row {
	cd_move move;
	char san[CD_SAN_MAX];
	const struct mstat *s;	/* NULL: a book move no game played */
	int book_weight;	/* -1: not in the book */
};

static int
row_cmp(const void *a, const void *b)
{
	const struct row *x = a, *y = b;
	uint64_t gx = x->s ? x->s->games : 0, gy = y->s ? y->s->games : 0;

	if (gx != gy)
		return gx > gy ? -1 : 1;
	if (x->book_weight != y->book_weight)
		return x->book_weight > y->book_weight ? -1 : 1;
	return strcmp(x->san, y->san);
}

/* The rows of position b: the moves played (at least --min-games
 * games) and, with --book, the book's moves. */
static size_t
position_rows(const cd_board *b, struct row *rows)
{
	cd_move moves[CD_MAX_MOVES];
	int n = cd_board_legal_moves(b, moves), i;
	size_t nr = 0, first = 0, nb = 0, k;

	if (book != NULL)
		nb = cd_polyglot_find(book, book_len, cd_polyglot_key(b),
		    &first);
	for (i = 0; i < n; i++) {
		const struct mstat *s = tree_table_get(&total, b->key, moves[i],
		    false);
		int weight = -1;

		for (k = 0; k < nb; k++) {
			cd_polyglot_entry e;

			cd_polyglot_entry_unpack(book + 16 * (first + k), &e);
			if (cd_polyglot_move_legal(b, e.move) == moves[i]) {
				weight = e.weight;
				break;
			}
		}
		if (s != NULL && s->games < opt_min_games)
			s = NULL;
		if (s == NULL && weight < 0)
			continue;
		rows[nr].move = moves[i];
		rows[nr].s = s;
		rows[nr].book_weight = weight;
		cd_san_write(b, moves[i], rows[nr].san);
		nr++;
	}
	qsort(rows, nr, sizeof(*rows), row_cmp);
	return nr;
}

static cd_buf out;

static void
put(const char *s, size_t n)
{
	cli_buf_reserve(&out, n);
	memcpy(out.data + out.len, s, n);
	out.len += n;
}

static void
puts_(const char *s)
{
	put(s, strlen(s));
}

static void
putf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void
putf(const char *fmt, ...)
{
	va_list ap;
	int n;

	cli_buf_reserve(&out, 64);
	va_start(ap, fmt);
	n = vsnprintf(out.data + out.len, out.cap - out.len, fmt, ap);
	va_end(ap);
	if (n < 0)
		cli_fatal("output error");
	if ((size_t)n >= out.cap - out.len) {
		cli_buf_reserve(&out, (size_t)n + 1);
		va_start(ap, fmt);
		vsnprintf(out.data + out.len, out.cap - out.len, fmt, ap);
		va_end(ap);
	}
	out.len += (size_t)n;
}

/* The columns, in TSV and JSON alike. */
enum {
	C_LINE, C_MOVE, C_GAMES, C_WHITE, C_DRAWS, C_BLACK, C_SCORE, C_ELO,
	C_OPP, C_PERF, C_FIRST, C_LAST, C_LWHITE, C_LBLACK, C_LEVENT,
	C_LDATE, C_ECO, C_OPENING, C_BOOK, C_N
};
static const char *const col_names[C_N] = {
	"line", "move", "games", "white", "draws", "black", "score", "elo",
	"opponent_elo", "performance", "first_year", "last_year",
	"last_white", "last_black", "last_event", "last_date", "eco",
	"opening", "book"
};
/* numbers (JSON without quotes, right-aligned in the table) */
static const bool col_number[C_N] = {
	false, false, true, true, true, true, true, true, true, true, true,
	true, false, false, false, false, false, false, true
};

static bool
col_on(int c)
{
	if (c == C_ECO || c == C_OPENING)
		return openings != NULL;
	if (c == C_BOOK)
		return opt_book != NULL;
	return true;
}

/* The cells of a row, as text (NULL: no value). */
struct cells {
	const char *v[C_N];
	char buf[C_N][32];
};

static void
fill_cells(struct cells *c, const char *line, const struct row *r,
    const cd_board *after)
{
	const struct mstat *s = r->s;
	int i;

	for (i = 0; i < C_N; i++)
		c->v[i] = NULL;
	c->v[C_LINE] = line;
	c->v[C_MOVE] = r->san;
#define NUM(col, fmt, val) \
	(snprintf(c->buf[col], sizeof(c->buf[col]), fmt, val), \
	    c->v[col] = c->buf[col])
	NUM(C_GAMES, "%llu", (unsigned long long)(s ? s->games : 0));
	if (s != NULL) {
		uint64_t decided = s->white + s->draws + s->black;
		/* the side to move's wins: the side of the position */
		uint64_t wins = after->side == CD_BLACK ? s->white : s->black;

		NUM(C_WHITE, "%llu", (unsigned long long)s->white);
		NUM(C_DRAWS, "%llu", (unsigned long long)s->draws);
		NUM(C_BLACK, "%llu", (unsigned long long)s->black);
		if (decided > 0)
			NUM(C_SCORE, "%.1f", 100.0 * ((double)wins +
			    (double)s->draws / 2) / (double)decided);
		if (s->elo_n > 0)
			NUM(C_ELO, "%llu", (unsigned long long)((s->elo_sum +
			    s->elo_n / 2) / s->elo_n));
		if (s->opp_n > 0)
			NUM(C_OPP, "%llu", (unsigned long long)((s->opp_sum +
			    s->opp_n / 2) / s->opp_n));
		if (s->perf_n > 0) {
			double p = (double)s->perf_opp / (double)s->perf_n +
			    400.0 * (double)s->perf_diff / (double)s->perf_n;

			NUM(C_PERF, "%.0f", p);
		}
		if (s->first_year != 0) {
			NUM(C_FIRST, "%d", s->first_year);
			NUM(C_LAST, "%d", s->last_year);
		}
		if (s->index != 0) {
			c->v[C_LWHITE] = s->white_name;
			c->v[C_LBLACK] = s->black_name;
			c->v[C_LEVENT] = s->event;
			c->v[C_LDATE] = s->date;
		}
	} else {
		NUM(C_WHITE, "%d", 0);
		NUM(C_DRAWS, "%d", 0);
		NUM(C_BLACK, "%d", 0);
	}
	if (openings != NULL) {
		cd_opening op;

		if (cd_openings_find(openings, after, &op)) {
			c->v[C_ECO] = op.eco;
			c->v[C_OPENING] = op.name;
		}
	}
	if (r->book_weight >= 0)
		NUM(C_BOOK, "%d", r->book_weight);
#undef NUM
}

/* The text table: rows kept until the end, to align them. */
static struct cells *trows;
static size_t ntrows, trows_cap;

static void
emit_row(struct cells *c)
{
	int i;
	bool first = true;

	if (opt_format == FMT_TEXT) {
		size_t k;

		cli_grow(&trows, &trows_cap, ntrows, sizeof(*trows), 64);
		trows[ntrows] = *c;
		/* own the strings (the cells point into buffers) */
		for (k = 0; k < C_N; k++)
			if (c->v[k] != NULL)
				trows[ntrows].v[k] = c->v[k] == c->buf[k] ?
				    trows[ntrows].buf[k] : tree_xstrdup(c->v[k]);
		ntrows++;
		return;
	}
	if (opt_format == FMT_JSON)
		put("{", 1);
	for (i = 0; i < C_N; i++) {
		const char *v = c->v[i];

		if (!col_on(i))
			continue;
		if (opt_format == FMT_TSV) {
			if (!first)
				put("\t", 1);
			if (v != NULL && cd_field_append(&out, v, strlen(v),
			    CD_FIELD_TSV) != CD_OK)
				cli_fatal("out of memory");
		} else {
			if (!first)
				put(",", 1);
			putf("\"%s\":", col_names[i]);
			if (v == NULL)
				puts_("null");
			else if (col_number[i])
				puts_(v);
			else if (cd_json_append_string(&out, v, strlen(v)) !=
			    CD_OK)
				cli_fatal("out of memory");
		}
		first = false;
	}
	put(opt_format == FMT_JSON ? "}\n" : "\n", opt_format == FMT_JSON ?
	    2 : 1);
	if (out.len >= (1u << 16)) {
		cli_output_write(out.data, out.len);
		out.len = 0;
	}
}

/* The move text of move number (b's fullmove, side): "12." or "12..." */
static void
move_number(char *buf, size_t n, const cd_board *b, bool always)
{
	if (b->side == CD_WHITE)
		snprintf(buf, n, "%u. ", (unsigned)b->fullmove);
	else if (always)
		snprintf(buf, n, "%u... ", (unsigned)b->fullmove);
	else
		buf[0] = '\0';
}

/* Walk the tree from b (depth plies left), line: the moves so far. */
static void
walk(const cd_board *b, unsigned depth, cd_buf *line, unsigned level)
{
	struct row *rows = malloc(CD_MAX_MOVES * sizeof(*rows));
	size_t nr, i, keep = line->len;

	if (rows == NULL)
		cli_fatal("out of memory");
	nr = position_rows(b, rows);
	for (i = 0; i < nr; i++) {
		struct cells c;
		cd_board after = *b;
		char num[32], indent[2 * 64 + 1];

		cd_board_make(&after, rows[i].move);
		cli_buf_reserve(line, 1);
		line->data[line->len] = '\0';
		if (opt_format == FMT_TEXT) {
			/* the move with its number, indented by level */
			char *text = malloc(strlen(rows[i].san) + 2 * 64 + 40);
			unsigned l = level < 64 ? level : 64;

			if (text == NULL)
				cli_fatal("out of memory");
			memset(indent, ' ', 2 * l);
			indent[2 * l] = '\0';
			move_number(num, sizeof(num), b, true);
			sprintf(text, "%s%s%s", indent, num, rows[i].san);
			fill_cells(&c, line->data, &rows[i], &after);
			c.v[C_MOVE] = text;
			emit_row(&c);
			free(text);
		} else {
			fill_cells(&c, line->data, &rows[i], &after);
			emit_row(&c);
		}
		if (depth > 1 && rows[i].s != NULL) {
			move_number(num, sizeof(num), b, line->len == 0);
			cli_buf_reserve(line, strlen(num) + CD_SAN_MAX + 2);
			line->len += (size_t)sprintf(line->data + line->len,
			    "%s%s%s", line->len > 0 ? " " : "", num,
			    rows[i].san);
			walk(&after, depth - 1, line, level + 1);
			line->len = keep;
		}
	}
	free(rows);
}

/* The text table: aligned columns (no line column: the moves are
 * indented), the latest game in one. */
static void
text_table(void)
{
	static const int cols[] = { C_MOVE, C_GAMES, C_WHITE, C_DRAWS,
	    C_BLACK, C_SCORE, C_ELO, C_OPP, C_PERF, C_FIRST, C_LAST, C_ECO,
	    C_OPENING, C_BOOK, C_LDATE };
	static const char *const heads[] = { "move", "games", "white",
	    "draws", "black", "score%", "elo", "opp", "perf", "first",
	    "last", "eco", "opening", "book", "latest game" };
	size_t ncols = sizeof(cols) / sizeof(cols[0]), i, k;
	size_t width[sizeof(cols) / sizeof(cols[0])];
	char *latest;

	/* the latest game: "White - Black, Event, Date" */
	for (i = 0; i < ntrows; i++) {
		struct cells *c = &trows[i];
		size_t n;

		if (c->v[C_LDATE] == NULL)
			continue;
		n = strlen(c->v[C_LWHITE]) + strlen(c->v[C_LBLACK]) +
		    strlen(c->v[C_LEVENT]) + 20;
		if ((latest = malloc(n)) == NULL)
			cli_fatal("out of memory");
		snprintf(latest, n, "%s - %s, %s, %s", c->v[C_LWHITE],
		    c->v[C_LBLACK], c->v[C_LEVENT], c->v[C_LDATE]);
		free((char *)c->v[C_LDATE]);
		c->v[C_LDATE] = latest;	/* (freed below) */
	}
	for (k = 0; k < ncols; k++) {
		width[k] = strlen(heads[k]);
		for (i = 0; i < ntrows; i++)
			if (trows[i].v[cols[k]] != NULL &&
			    strlen(trows[i].v[cols[k]]) > width[k])
				width[k] = strlen(trows[i].v[cols[k]]);
	}
	for (i = 0; i <= ntrows; i++) {
		size_t lastcol = 0;

		for (k = 0; k < ncols; k++)
			if (col_on(cols[k]))
				lastcol = k;
		for (k = 0; k < ncols; k++) {
			const char *v = i == 0 ? heads[k] :
			    trows[i - 1].v[cols[k]];
			int w = (int)width[k];

			if (!col_on(cols[k]))
				continue;
			if (v == NULL)
				v = i == 0 ? "" : "-";
			if (k > 0)
				put("  ", 2);
			if (col_number[cols[k]])
				putf("%*s", w, v);
			else if (k == lastcol)
				puts_(v);
			else
				putf("%-*s", w, v);
		}
		put("\n", 1);
	}
	for (i = 0; i < ntrows; i++)
		for (k = 0; k < C_N; k++)
			if (trows[i].v[k] != NULL &&
			    trows[i].v[k] != trows[i].buf[k])
				free((char *)trows[i].v[k]);
	free(trows);
}

/* ---- options ---- */

static void
usage(void)
{
	printf("Usage: %s [OPTION]... [FILE]...\n", cli_prog);
	fputs(
	    "Show the moves played from a position over the games' main lines\n"
	    "(by any move order), with their results, Elo averages,\n"
	    "performance, years and latest game; or write a Polyglot book.\n"
	    "\n"
	    "      --fen=FEN         from this position (default: the start)\n"
	    "      --moves=MOVES     from the position after MOVES (1. e4 c5)\n"
	    "  -d, --depth=N         walk the tree N plies deep (default 1)\n"
	    "      --min-games=N     only moves played in N games or more\n"
	    "      --tsv             write tab-separated values\n"
	    "      --json            write JSON lines\n"
	    "      --openings=FILE   name the positions by the table FILE\n"
	    "                        (repeatable; default: $CHESSDATA_OPENINGS)\n"
	    "      --book=FILE       show the moves of the Polyglot book FILE\n"
	    "      --polyglot=FILE   write a Polyglot book to FILE instead, as\n"
	    "                        polyglot make-book does, with its options:\n"
	    "      --max-ply=N       the first N plies of each game (1024)\n"
	    "      --min-game=N      moves played N times or more (3)\n"
	    "      --min-score=N     moves scoring N%% or more (0)\n"
	    "      --only-white      White's moves only\n"
	    "      --only-black      Black's moves only\n"
	    "      --uniform         every move of weight 1\n", stdout);
	cli_usage_options(CLI_TAKE_GAMES);
	fputs(
	    "\n"
	    "With no FILE, or when FILE is -, read standard input.\n"
	    "Exit status: 0 success, 1 some game was rejected,\n"
	    "2 usage or system error.\n", stdout);
}

static unsigned long
number(const char *opt, const char *arg, unsigned long min,
    unsigned long max)
{
	char *end;
	unsigned long v;

	if (arg[0] < '0' || arg[0] > '9')
		cli_usage_error("%s: not a number: '%s'", opt, arg);
	v = strtoul(arg, &end, 10);
	if (*end != '\0' || v < min || v > max)
		cli_usage_error("%s: want a number from %lu to %lu, not '%s'",
		    opt, min, max, arg);
	return v;
}

/* The root: --fen, then --moves played from it. */
static void
set_root(void)
{
	cd_buf text = { 0 };
	cd_error err;
	cd_game *g;
	cd_status st;
	uint32_t i;
	int c, t;

	if (opt_fen != NULL && cd_fen_parse(&root, opt_fen, strlen(opt_fen),
	    CD_FEN_DETECT_960, &err) != CD_OK)
		cli_usage_error("--fen: %s", err.msg);
	if (opt_fen == NULL)
		cd_board_init(&root);
	if (opt_moves != NULL) {
		size_t n = strlen(opt_moves) + (opt_fen ? strlen(opt_fen) : 0);

		cli_buf_reserve(&text, n + 64);
		text.len = (size_t)sprintf(text.data, "%s%s%s%s\n\n%s *\n",
		    opt_fen ? "[SetUp \"1\"]\n[FEN \"" : "", opt_fen ? opt_fen :
		    "", opt_fen ? "\"]" : "", "", opt_moves);
		if ((g = cd_game_new()) == NULL)
			cli_fatal("out of memory");
		st = cd_pgn_parse_text(g, text.data, text.len, NULL, &err);
		if (st != CD_OK)
			cli_usage_error("--moves: %s", st == CD_EOF ?
			    "no move" : err.msg[0] ? err.msg :
			    cd_strerror(st));
		if (opt_fen == NULL && g->has_fen)
			cli_usage_error("--moves: a tag is no move");
		if (g->nodes[0].next == 0)
			cli_usage_error("--moves: no move");
		root = g->start;
		for (i = g->nodes[0].next; i != 0; i = g->nodes[i].next)
			cd_board_make(&root, g->nodes[i].move);
		cd_game_free(g);
		free(text.data);
	}
	for (c = 0; c < 2; c++)
		for (t = CD_PAWN; t <= CD_KING; t++)
			root_bb[c * 6 + t - 1] = root.by_type[t] &
			    root.by_color[c];
	root_pieces = __builtin_popcountll(root.by_type[0]);
	root_home = root.by_type[CD_PAWN] &
	    ((root.by_color[CD_WHITE] & 0xff00ULL) |
	    (root.by_color[CD_BLACK] & 0x00ff000000000000ULL));
	max_diff = 4 * (int)(opt_depth - 1);
	min_pieces = root_pieces - (int)(opt_depth - 1);
}

static void
read_book(void)
{
	FILE *f;
	size_t cap = 0;
	const char *name;

	if ((f = cli_open_input(opt_book, &name)) == NULL)
		cli_exit(2);
	for (;;) {
		size_t n;

		cli_grow(&book, &cap, book_len + 65536, 1, 65536);
		n = fread(book + book_len, 1, cap - book_len, f);
		book_len += n;
		if (n == 0)
			break;
	}
	if (ferror(f))
		cli_fatal("%s: read error", name);
	if (book_len % 16 != 0)
		cli_warn("warning: %s: %zu bytes, not a whole number of "
		    "16-byte entries: the last %zu ignored", name, book_len,
		    book_len % 16);
	cli_close_input(f);
}

/* The TSV header line: the names of the columns written. */
static void
tsv_header(void)
{
	int i;
	bool first = true;

	for (i = 0; i < C_N; i++)
		if (col_on(i)) {
			if (!first)
				put("\t", 1);
			puts_(col_names[i]);
			first = false;
		}
	put("\n", 1);
}

int
main(int argc, char **argv)
{
	enum { OPT_FEN = 256, OPT_MOVES, OPT_MIN_GAMES, OPT_TSV, OPT_JSON,
	    OPT_OPENINGS, OPT_BOOK, OPT_POLYGLOT, OPT_MAX_PLY, OPT_MIN_GAME,
	    OPT_MIN_SCORE, OPT_ONLY_WHITE, OPT_ONLY_BLACK, OPT_UNIFORM };
	static const struct option longopts[] = {
		{ "fen", required_argument, NULL, OPT_FEN },
		{ "moves", required_argument, NULL, OPT_MOVES },
		{ "depth", required_argument, NULL, 'd' },
		{ "min-games", required_argument, NULL, OPT_MIN_GAMES },
		{ "tsv", no_argument, NULL, OPT_TSV },
		{ "json", no_argument, NULL, OPT_JSON },
		{ "openings", required_argument, NULL, OPT_OPENINGS },
		{ "book", required_argument, NULL, OPT_BOOK },
		{ "polyglot", required_argument, NULL, OPT_POLYGLOT },
		{ "max-ply", required_argument, NULL, OPT_MAX_PLY },
		{ "min-game", required_argument, NULL, OPT_MIN_GAME },
		{ "min-score", required_argument, NULL, OPT_MIN_SCORE },
		{ "only-white", no_argument, NULL, OPT_ONLY_WHITE },
		{ "only-black", no_argument, NULL, OPT_ONLY_BLACK },
		{ "uniform", no_argument, NULL, OPT_UNIFORM },
		{ NULL, 0, NULL, 0 }
	};
	int c, status = 0;
	bool book_opts = false;

	cli_init(argv[0]);
	while ((c = cli_getopt(argc, argv, "d:", longopts, CLI_TAKE_GAMES,
	    usage)) != -1) {
		switch (c) {
		case OPT_FEN: opt_fen = optarg; break;
		case OPT_MOVES: opt_moves = optarg; break;
		case 'd':
			opt_depth = (unsigned)number("--depth", optarg, 1, 64);
			break;
		case OPT_MIN_GAMES:
			opt_min_games = number("--min-games", optarg, 1,
			    0xffffffffUL);
			break;
		case OPT_TSV: opt_format = FMT_TSV; break;
		case OPT_JSON: opt_format = FMT_JSON; break;
		case OPT_OPENINGS: cli_openings_add(optarg); break;
		case OPT_BOOK: opt_book = optarg; break;
		case OPT_POLYGLOT: opt_polyglot = optarg; break;
		case OPT_MAX_PLY:
			opt_max_ply = (unsigned)number("--max-ply", optarg, 0,
			    0xffffffffUL);
			book_opts = true;
			break;
		case OPT_MIN_GAME:
			mkopts.min_game = (unsigned)number("--min-game",
			    optarg, 1, 65535);
			book_opts = true;
			break;
		case OPT_MIN_SCORE: {
			char *end;
			double v = strtod(optarg, &end);

			if (*end != '\0' || end == optarg || !(v >= 0) ||
			    v > 100)
				cli_usage_error("--min-score: want a number "
				    "from 0 to 100, not '%s'", optarg);
			/* (as make-book: its value / 100) */
			mkopts.min_score = v / 100.0;
			book_opts = true;
			break;
		}
		case OPT_ONLY_WHITE:
			mkopts.no_white = false, mkopts.no_black = true;
			book_opts = true;
			break;
		case OPT_ONLY_BLACK:
			mkopts.no_white = true, mkopts.no_black = false;
			book_opts = true;
			break;
		case OPT_UNIFORM:
			mkopts.uniform = true;
			book_opts = true;
			break;
		}
	}
	if (book_opts && opt_polyglot == NULL)
		cli_usage_error("--max-ply, --min-game, --min-score, "
		    "--only-white, --only-black and --uniform go with "
		    "--polyglot");
	if (opt_polyglot != NULL) {
		if (opt_format != -1 || opt_fen || opt_moves || opt_book ||
		    opt_depth != 1)
			cli_usage_error("--polyglot writes a book: no --fen, "
			    "--moves, --depth, --book, --tsv nor --json");
		if ((maker = cd_polyglot_maker_new()) == NULL)
			cli_fatal("out of memory");
		cli_games.each = book_game;
		cli_games.emit = book_emit;
	} else {
		if (opt_format == -1)
			opt_format = FMT_TEXT;
		openings = cli_openings_load(argc, argv, optind);
		set_root();
		cli_games.each = count_game;
		cli_games.need_parse = need_parse;
		cli_games.priv_free = priv_free;
	}
	cli_games.opts.lang = cli_opts.lang;
	cli_files_open(argc, argv, optind);
	/* (written as -o is: put in place when the run ends well) */
	if (opt_polyglot != NULL && strcmp(opt_polyglot, "-") != 0)
		book_out = cli_output_named("polyglot book", opt_polyglot);
	if (opt_book != NULL)
		read_book();
	if (cli_each_input(argc, argv, optind, cli_games_file) != 0)
		status = 2;
	cli_games_end();
	if (maker != NULL) {
		if (cd_polyglot_maker_write(maker, &mkopts, &out) != CD_OK)
			cli_fatal("out of memory");
		cd_polyglot_maker_free(maker);
		if (book_out != NULL) {
			fwrite(out.data, 1, out.len, book_out);
			cli_output_named_check(book_out);
			out.len = 0;
		}
	} else {
		cd_buf line = { 0 };

		if (opt_format == FMT_TSV)
			tsv_header();
		walk(&root, opt_depth, &line, 0);
		if (opt_format == FMT_TEXT)
			text_table();
		free(line.data);
		tree_table_free(&total);
	}
	cli_output_write(out.data, out.len);
	free(out.data);
	free(book);
	cli_rejects_close();
	cli_finish(status, cli_games.read, cli_games.written,
	    cli_games.rejected);
}
