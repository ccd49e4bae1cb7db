/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * select_moves.c: the selector's conditions on the main line
 * (chessdata/select.h): game numbers, plies, positions, placements,
 * material, move prefixes, endings and events read from text, and
 * matched on a parsed game.
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "data/select_int.h"

static const char *const occ_names[] = {
	"threefold", "fivefold", "fifty", "seventyfive", "check",
	"underpromotion"
};
#define NOCC	(sizeof(occ_names) / sizeof(occ_names[0]))

/* A count of plies: digits only, at most 4294967295. */
static bool
read_count(const char *p, size_t n, uint32_t *out)
{
	uint64_t v = 0;
	size_t i;

	if (n == 0 || n > 10)
		return false;
	for (i = 0; i < n; i++) {
		if (p[i] < '0' || p[i] > '9')
			return false;
		v = v * 10 + (uint64_t)(p[i] - '0');
	}
	if (v > UINT32_MAX)
		return false;
	*out = (uint32_t)v;
	return true;
}

cd_status
cd__sel_read_plies(cd_select *s, const char *text, const char **why)
{
	const char *dots = strstr(text, "..");
	uint32_t lo = 0, hi = UINT32_MAX;
	bool ok;

	if (dots == NULL)
		ok = read_count(text, strlen(text), &lo) && (hi = lo, true);
	else
		ok = (dots == text || read_count(text, (size_t)(dots - text),
		    &lo)) && (dots[2] == '\0' || read_count(dots + 2,
		    strlen(dots + 2), &hi)) && (dots > text || dots[2]);
	if (!ok || lo > hi) {
		*why = "invalid ply range (want MIN..MAX, MIN.., ..MAX or N)";
		return CD_ERR_SYNTAX;
	}
	/* several ranges: all must hold */
	if (s->plies) {
		lo = lo > s->plies_min ? lo : s->plies_min;
		hi = hi < s->plies_max ? hi : s->plies_max;
	}
	s->plies = true;
	s->plies_min = lo;
	s->plies_max = hi;
	return CD_OK;
}

cd_status
cd__sel_read_position(cd_select *s, const char *text, cd_error *err)
{
	cd_board b, *n;

	if (cd_fen_parse(&b, text, strlen(text), CD_FEN_DETECT_960, err) !=
	    CD_OK) {
		if (err != NULL)
			err->status = CD_ERR_SYNTAX;
		return CD_ERR_SYNTAX;
	}
	n = realloc(s->pos, (s->npos + 1) * sizeof(*n));
	if (n == NULL)
		return CD_ERR_NOMEM;
	s->pos = n;
	s->pos[s->npos++] = b;
	return CD_OK;
}

/* The relations of a material after its pieces, ",R>r,L<l" (a
 * letter of each side, either first, of one type, L for the minor
 * pieces), into m; the end of what it read, NULL (*why set) when one
 * does not read. */
static const char *
read_relations(struct material *m, const char *p, const char **why)
{
	static const char types[] = "PNBRQL";

	while (*p == ',') {
		const char *a, *b;
		char op;

		p++;
		a = p[0] ? strchr(types, p[0] >= 'a' ? p[0] - 32 : p[0]) :
		    NULL;
		op = a ? p[1] : 0;
		b = op && p[2] ? strchr(types, p[2] >= 'a' ? p[2] - 32 :
		    p[2]) : NULL;
		if (a == NULL || b == NULL || a != b || (op != '<' &&
		    op != '>' && op != '=') || (p[0] >= 'a') == (p[2] >= 'a')) {
			*why = "invalid material relation (want a piece "
			    "letter of each side, L for the minor pieces, "
			    "with <, > or = between: R>r, L<l)";
			return NULL;
		}
		if (m->nrel == MAT_RELS) {
			*why = "invalid material: more than 8 relations";
			return NULL;
		}
		/* as White's against Black's */
		if (p[0] >= 'a')
			op = op == '<' ? '>' : op == '>' ? '<' : '=';
		m->rel_type[m->nrel] = (uint8_t)(*a == 'L' ? MAT_MINOR :
		    (int)(a - types) + 1);
		m->rel_op[m->nrel++] = op;
		p += 3;
	}
	return p;
}

/* "KRP*kr": a letter followed by `*`: any number of that piece, none
 * too; each king at most once.  Then relations (",R>r", any pieces
 * when no letter comes before them) and "@N", held for N plies. */
cd_status
cd__sel_read_material(cd_select *s, const char *text, const char **why)
{
	static const char letters[] = "PNBRQK";
	struct material m, *n;
	const char *p;
	int last = -1, k;

	memset(&m, 0, sizeof(m));
	for (p = text; *p && *p != ',' && *p != '@'; p++) {
		const char *l = *p != '*' ? strchr(letters,
		    *p >= 'a' ? *p - 32 : *p) : NULL;
		int piece;

		if (*p == '*' && last >= 0 && CD_PIECE_TYPE(last) != CD_KING) {
			/* the letter before counts any number, none too */
			m.count[last]--;
			m.more |= (uint16_t)(1u << last);
			last = -1;
			continue;
		}
		if (l == NULL || *p == '\0') {
			*why = *p == '*' ? "invalid material: a * after "
			    "nothing, a king or another *" : "invalid material "
			    "(want piece letters like KRPkr, a * after a "
			    "letter for any number of that piece)";
			return CD_ERR_SYNTAX;
		}
		piece = CD_PIECE(*p >= 'a' ? CD_BLACK : CD_WHITE,
		    (int)(l - letters) + 1);
		if (CD_PIECE_TYPE(piece) == CD_KING && m.count[piece] > 0) {
			*why = "invalid material: a king twice";
			return CD_ERR_SYNTAX;
		}
		if (m.count[piece] == 16) {
			*why = "invalid material: more than 16 of one piece";
			return CD_ERR_SYNTAX;
		}
		m.count[piece]++;
		last = piece;
	}
	if (p == text && *p == ',') {
		/* relations alone: any pieces */
		for (k = 0; k < 2; k++) {
			int t;

			for (t = CD_PAWN; t < CD_KING; t++)
				m.more |= (uint16_t)(1u << CD_PIECE(k, t));
		}
	} else if (p == text) {
		*why = "empty material";
		return CD_ERR_SYNTAX;
	}
	if ((p = read_relations(&m, p, why)) == NULL)
		return CD_ERR_SYNTAX;
	if (*p == '@') {
		char *end;
		unsigned long h;

		errno = 0;
		h = p[1] >= '0' && p[1] <= '9' ? strtoul(p + 1, &end, 10) : 0;
		if (h == 0 || *end != '\0' || errno != 0 || h > 0xffffffffUL) {
			*why = "invalid material: want a number of plies "
			    "above 0 after @";
			return CD_ERR_SYNTAX;
		}
		m.hold = (uint32_t)h;
		p = end;
	}
	if (*p != '\0') {
		*why = "invalid material (want piece letters like KRPkr, "
		    "then relations like ,R>r, then @N)";
		return CD_ERR_SYNTAX;
	}
	/* the kings may be left out */
	for (k = 0; k < 2; k++)
		m.count[CD_PIECE(k, CD_KING)] = 1;
	n = realloc(s->mat, (s->nmat + 1) * sizeof(*n));
	if (n == NULL)
		return CD_ERR_NOMEM;
	s->mat = n;
	s->mat[s->nmat++] = m;
	return CD_OK;
}

/* Order of ranges (lo, hi pairs) by their start. */
static int
range_cmp(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* The ranges of s sorted and joined where they overlap or touch, so
 * that a binary search finds a number's. */
static void
games_join(cd_select *s)
{
	size_t i, k = 0;
	uint64_t *g = s->games;

	qsort(g, s->ngames, 2 * sizeof(*g), range_cmp);
	for (i = 0; i < s->ngames; i++) {
		if (k > 0 && (g[2 * k - 1] == UINT64_MAX ||
		    g[2 * i] <= g[2 * k - 1] + 1)) {
			if (g[2 * i + 1] > g[2 * k - 1])
				g[2 * k - 1] = g[2 * i + 1];
			continue;
		}
		g[2 * k] = g[2 * i];
		g[2 * k + 1] = g[2 * i + 1];
		k++;
	}
	s->ngames = k;
}

/* "1-100,250,300-": game numbers, from 1; the byte offset of an item
 * that does not read in s->err_at */
cd_status
cd__sel_read_games(cd_select *s, const char *text, const char **why)
{
	const char *p = text;
	size_t items = 1, i;
	uint64_t *n;

	for (i = 0; text[i] != '\0'; i++)
		items += text[i] == ',';
	if (items > SIZE_MAX / (2 * sizeof(*n)) - s->ngames)
		return CD_ERR_NOMEM;
	n = realloc(s->games, (s->ngames + items) * 2 * sizeof(*n));
	if (n == NULL)
		return CD_ERR_NOMEM;
	s->games = n;
	for (;;) {
		uint64_t lo = 0, hi;
		bool open = false;
		int digits = 0;

		s->err_at = (size_t)(p - text);
		for (; *p >= '0' && *p <= '9' && digits < 19; p++, digits++)
			lo = lo * 10 + (uint64_t)(*p - '0');
		hi = lo;
		if (digits > 0 && *p == '-') {
			p++;
			if (*p == ',' || *p == '\0')
				open = true;
			for (hi = 0, digits = 0; *p >= '0' && *p <= '9' &&
			    digits < 19; p++, digits++)
				hi = hi * 10 + (uint64_t)(*p - '0');
			if (open) {
				hi = UINT64_MAX;
				digits = 1;
			}
		}
		if (digits == 0 || lo == 0 || lo > hi ||
		    (*p != ',' && *p != '\0')) {
			*why = "invalid game numbers (want numbers from 1 and "
			    "ranges, like 1-100,250,300-)";
			games_join(s);	/* (those read before stay) */
			return CD_ERR_SYNTAX;
		}
		n[2 * s->ngames] = lo;
		n[2 * s->ngames + 1] = hi;
		s->ngames++;
		if (*p == '\0')
			break;
		p++;
	}
	s->err_at = 0;
	games_join(s);
	return CD_OK;
}
/* Square contents as sets: bit 0 empty, bit p piece p. */
#define SET_WHITE	0x007eu		/* pieces 1..6 */
#define SET_BLACK	0x7e00u		/* pieces 9..14 */
#define SET_ALL		(1u | SET_WHITE | SET_BLACK)
#define SET_PAWNS	((1u << CD_PIECE(CD_WHITE, CD_PAWN)) | \
			 (1u << CD_PIECE(CD_BLACK, CD_PAWN)))

/* The set of one letter of a pattern (a piece, A, a, m), 0 for none. */
static uint16_t
letter_set(char c)
{
	static const char letters[] = "PNBRQK";
	const char *l;

	switch (c) {
	case 'A': return SET_WHITE;
	case 'a': return SET_BLACK;
	case 'm': return (uint16_t)(SET_ALL & ~SET_PAWNS);
	case 'M': return (uint16_t)((SET_WHITE | SET_BLACK) & ~SET_PAWNS);
	case '?': return SET_ALL;
	case '!': return SET_WHITE | SET_BLACK;
	}
	if (c == '\0' || (l = strchr(letters, c >= 'a' ? c - 32 : c)) == NULL)
		return 0;
	return (uint16_t)(1u << CD_PIECE(c >= 'a' ? CD_BLACK : CD_WHITE,
	    (int)(l - letters) + 1));
}

/*
 * pgn-extract's FENPattern: eight ranks of digits (empty squares),
 * piece letters, ? (any square), ! (an occupied one), A and a (a White,
 * a Black piece), m (no pawn, empty too), M (a piece, no pawn), [set]
 * and [^set] of those letters, and * (any number of squares of the
 * rank).  Into pl, general; false when it does not read.
 */
static bool
read_pattern(struct placement *pl, const char *p)
{
	int r = 0;

	memset(pl, 0, sizeof(*pl));
	pl->general = true;
	for (;; p++) {
		uint16_t set = 0;
		int n = 1, squares = 0, k;

		for (k = 0; k < pl->ntok[r]; k++)
			squares += pl->tok[r][k] != PL_ANY_RUN;
		if (*p == '/' || *p == '\0') {
			if (*p == '\0' || r == 7)
				break;
			r++;
			continue;
		}
		if (*p >= '1' && *p <= '8') {
			set = 1;
			n = *p - '0';
		} else if (*p == '*') {
			if (pl->ntok[r] > 0 &&
			    pl->tok[r][pl->ntok[r] - 1] == PL_ANY_RUN)
				continue;
			set = PL_ANY_RUN;
			n = 0;
		} else if (*p == '[') {
			bool neg = p[1] == '^';

			for (p += 1 + neg; *p != ']'; p++) {
				uint16_t l = letter_set(*p);

				if (l == 0 || *p == '?' || *p == '!')
					return false;
				set |= l;
			}
			if (neg)
				set = (uint16_t)(SET_ALL & ~set);
		} else if ((set = letter_set(*p)) == 0)
			return false;
		if (squares + n > 8 || pl->ntok[r] + (n > 0 ? n : 1) >
		    PL_TOKENS)
			return false;
		if (n == 0)
			pl->tok[r][pl->ntok[r]++] = set;
		for (k = 0; k < n; k++)
			pl->tok[r][pl->ntok[r]++] = set;
	}
	return *p == '\0' && r == 7;
}

/* Whether the squares sq[0..n) of a rank (a to h) meet the tokens
 * tok[0..nt). */
static bool
rank_is(const uint8_t *sq, int n, const uint16_t *tok, int nt)
{
	for (; nt > 0; tok++, nt--) {
		if (*tok == PL_ANY_RUN) {
			int k;

			for (k = 0; k <= n; k++)
				if (rank_is(sq + k, n - k, tok + 1, nt - 1))
					return true;
			return false;
		}
		if (n == 0 || !((*tok >> sq[0]) & 1))
			return false;
		sq++;
		n--;
	}
	return n == 0;
}


/* "r?????k?/8/...": the first field of a FEN, `?` any content */
cd_status
cd__sel_read_placement(cd_select *s, const char *text, const char **why)
{
	static const char letters[] = "PNBRQK";
	struct placement pl, *n;
	const char *p = text;
	int rank = 7, file = 0;

	memset(&pl, 0, sizeof(pl));
	for (;; p++) {
		const char *l;

		if (*p == '/' || *p == '\0') {
			if (file != 8)
				break;
			if (*p == '\0' || rank == 0)
				break;
			rank--;
			file = 0;
		} else if (*p >= '1' && *p <= '8' && file + (*p - '0') <= 8) {
			for (int k = 0; k < *p - '0'; k++, file++)
				pl.care |= (cd_bitboard)1 << CD_SQ(file, rank);
		} else if (*p == '?' && file < 8) {
			file++;
		} else if (*p != '\0' && file < 8 &&
		    (l = strchr(letters, *p >= 'a' ? *p - 32 : *p)) != NULL) {
			int piece = CD_PIECE(*p >= 'a' ? CD_BLACK : CD_WHITE,
			    (int)(l - letters) + 1);

			pl.care |= (cd_bitboard)1 << CD_SQ(file, rank);
			pl.piece[piece] |= (cd_bitboard)1 << CD_SQ(file, rank);
			file++;
		} else
			break;
	}
	if ((*p != '\0' || rank != 0 || file != 8) &&
	    !read_pattern(&pl, text)) {
		*why = "invalid placement (want the first field of a FEN, "
		    "eight ranks, with ? a square of any content, ! an "
		    "occupied one, * any number of squares, A a White piece, "
		    "a a Black one, m no pawn, M a piece but no pawn, "
		    "[...] and [^...] sets)";
		return CD_ERR_SYNTAX;
	}
	n = realloc(s->place, (s->nplace + 1) * sizeof(*n));
	if (n == NULL)
		return CD_ERR_NOMEM;
	s->place = n;
	s->place[s->nplace++] = pl;
	return CD_OK;
}

/* "1. e4 c5 2. Nf3": moves read as the movetext of a game from the
 * standard start */
cd_status
cd__sel_read_moves(cd_select *s, const char *text, const char **why, char *buf)
{
	cd_pgn_parse_opts o;
	struct prefix pre, *n;
	cd_error err;
	cd_game *g;
	cd_status st;
	uint32_t i;

	memset(&o, 0, sizeof(o));
	o.lang = s->lang;
	if ((g = cd_game_new()) == NULL)
		return CD_ERR_NOMEM;
	st = cd_pgn_parse_text(g, text, strlen(text), &o, &err);
	if (st == CD_OK && g->has_fen)
		st = CD_ERR_SYNTAX, snprintf(err.msg, sizeof(err.msg),
		    "a tag is no move");
	if (st == CD_EOF || (st == CD_OK && g->nodes[0].next == 0)) {
		cd_game_free(g);
		*why = "no move";
		return CD_ERR_SYNTAX;
	}
	if (st != CD_OK) {
		cd_game_free(g);
		if (st == CD_ERR_NOMEM)
			return st;
		snprintf(buf, MSG_MAX, "%s", err.msg[0] ? err.msg :
		    cd_strerror(st));
		*why = buf;
		return CD_ERR_SYNTAX;
	}
	pre.n = 0;
	for (i = g->nodes[0].next; i; i = g->nodes[i].next)
		pre.n++;
	if ((pre.moves = malloc(pre.n * sizeof(*pre.moves))) == NULL) {
		cd_game_free(g);
		return CD_ERR_NOMEM;
	}
	pre.n = 0;
	for (i = g->nodes[0].next; i; i = g->nodes[i].next)
		pre.moves[pre.n++] = g->nodes[i].move;
	cd_game_free(g);
	n = realloc(s->pre, (s->npre + 1) * sizeof(*n));
	if (n == NULL) {
		free(pre.moves);
		return CD_ERR_NOMEM;
	}
	s->pre = n;
	s->pre[s->npre++] = pre;
	return CD_OK;
}

/* "check,underpromotion" */
cd_status
cd__sel_read_occurs(cd_select *s, const char *text, const char **why)
{
	const char *p = text;
	unsigned set = 0, *n;
	size_t i;

	for (;;) {
		size_t len = strcspn(p, ",");

		for (i = 0; i < NOCC; i++)
			if (strlen(occ_names[i]) == len &&
			    memcmp(occ_names[i], p, len) == 0)
				break;
		if (i == NOCC) {
			*why = "unknown event (want threefold, fivefold, "
			    "fifty, seventyfive, check, underpromotion)";
			return CD_ERR_SYNTAX;
		}
		set |= 1u << i;
		if (p[len] == '\0')
			break;
		p += len + 1;
	}
	n = realloc(s->occ, (s->nocc + 1) * sizeof(*n));
	if (n == NULL)
		return CD_ERR_NOMEM;
	s->occ = n;
	s->occ[s->nocc++] = set;
	return CD_OK;
}

cd_status
cd__sel_read_ends(cd_select *s, const char *text, const char **why)
{
	const char *p = text;
	unsigned set = 0, *n;

	for (;;) {
		size_t len = strcspn(p, ",");
		unsigned bit = cd_ending_parse(p, len);

		if (bit == 0) {
			*why = "unknown ending (want checkmate, stalemate, "
			    "dead, fivefold, seventyfive, threefold, fifty)";
			return CD_ERR_SYNTAX;
		}
		set |= bit;
		if (p[len] == '\0')
			break;
		p += len + 1;
	}
	n = realloc(s->ends, (s->nends + 1) * sizeof(*n));
	if (n == NULL)
		return CD_ERR_NOMEM;
	s->ends = n;
	s->ends[s->nends++] = set;
	return CD_OK;
}

/* ---- matching moves ---- */

static bool
same_position(const cd_board *a, const cd_board *b)
{
	return a->key == b->key && a->side == b->side &&
	    memcmp(a->squares, b->squares, sizeof(a->squares)) == 0 &&
	    memcmp(a->castle_rook, b->castle_rook,
	    sizeof(a->castle_rook)) == 0 &&
	    (a->ep_hashed ? a->ep : CD_SQ_NONE) ==
	    (b->ep_hashed ? b->ep : CD_SQ_NONE);
}

static bool
material_is(const cd_board *b, const struct material *m)
{
	int c, t;

	for (c = 0; c < 2; c++)
		for (t = CD_PAWN; t < CD_KING; t++) {
			int p = CD_PIECE(c, t);
			int n = cd__popcount(b->by_type[t] & b->by_color[c]);

			if (n < m->count[p] ||
			    (n > m->count[p] && !((m->more >> p) & 1)))
				return false;
		}
	for (c = 0; c < m->nrel; c++) {
		cd_bitboard of = m->rel_type[c] == MAT_MINOR ?
		    b->by_type[CD_KNIGHT] | b->by_type[CD_BISHOP] :
		    b->by_type[m->rel_type[c]];
		int w = cd__popcount(of & b->by_color[CD_WHITE]);
		int k = cd__popcount(of & b->by_color[CD_BLACK]);

		if (m->rel_op[c] == '<' ? w >= k : m->rel_op[c] == '>' ?
		    w <= k : w != k)
			return false;
	}
	return true;
}

/* Whether a position with the pieces of b can still come after b:
 * pieces are never added, and a pawn that left its first square never
 * comes back to it. */
static bool
may_follow(const cd_board *b, const cd_board *target)
{
	const cd_bitboard home_w = 0xff00ULL, home_b = 0xff000000000000ULL;
	cd_bitboard wp = b->by_type[CD_PAWN] & b->by_color[CD_WHITE];
	cd_bitboard bp = b->by_type[CD_PAWN] & b->by_color[CD_BLACK];
	cd_bitboard twp = target->by_type[CD_PAWN] &
	    target->by_color[CD_WHITE];
	cd_bitboard tbp = target->by_type[CD_PAWN] &
	    target->by_color[CD_BLACK];

	return cd__popcount(b->by_type[0]) >=
	    cd__popcount(target->by_type[0]) &&
	    !(twp & home_w & ~wp) && !(tbp & home_b & ~bp);
}

/* The number of pieces a material condition asks for at least. */
static int
material_min(const struct material *m)
{
	int p, n = 0;

	for (p = 0; p < 16; p++)
		n += m->count[p];
	return n;
}

static bool
placement_is(const cd_board *b, const struct placement *pl)
{
	int c, t;

	if (pl->general) {
		for (c = 0; c < 8; c++)
			if (!rank_is(&b->squares[CD_SQ(0, 7 - c)], 8,
			    pl->tok[c], pl->ntok[c]))
				return false;
		return true;
	}

	for (c = 0; c < 2; c++)
		for (t = CD_PAWN; t <= CD_KING; t++)
			if ((b->by_type[t] & b->by_color[c] & pl->care) !=
			    pl->piece[CD_PIECE(c, t)])
				return false;
	return true;
}

/* Whether g's main line begins with one of the prefixes. */
static bool
prefix_holds(const cd_select *s, const cd_game *g)
{
	cd_board start;
	size_t k;

	cd_board_init(&start);
	if (!same_position(&g->start, &start))
		return false;
	for (k = 0; k < s->npre; k++) {
		const struct prefix *p = &s->pre[k];
		uint32_t i = g->nodes[0].next, n = 0;

		while (n < p->n && i != 0 && g->nodes[i].move == p->moves[n]) {
			i = g->nodes[i].next;
			n++;
		}
		if (n == p->n)
			return true;
	}
	return false;
}

bool
cd_select_prefix_fails(const cd_select *s, const cd_pgn_raw_game *raw)
{
	uint64_t alive = 0;
	uint32_t n = 0, most = 0;
	cd_pgn_lexer lx;
	cd_pgn_token t;
	cd_board b;
	cd_move m;
	int depth = 0;
	size_t k;

	/* another start position, another game: the parser decides */
	if (s->npre == 0 || s->npre > 64 || cd_pgn_raw_tag(raw, "FEN") ||
	    cd_pgn_raw_tag(raw, "Variant"))
		return false;
	for (k = 0; k < s->npre; k++) {
		alive |= (uint64_t)1 << k;
		most = s->pre[k].n > most ? s->pre[k].n : most;
	}
	cd_board_init(&b);
	cd_pgn_lex_init(&lx, raw->text + raw->movetext,
	    raw->movetext_end - raw->movetext, raw->movetext_line,
	    raw->movetext_col);
	while (alive != 0 && n < most) {
		switch (cd_pgn_lex_next(&lx, &t)) {
		case CD_PGN_TOK_RAV_OPEN:
			depth++;
			continue;
		case CD_PGN_TOK_RAV_CLOSE:
			if (depth-- == 0)
				return false;
			continue;
		case CD_PGN_TOK_MOVE:
			if (depth > 0)
				continue;
			break;
		case CD_PGN_TOK_END: case CD_PGN_TOK_RESULT:
		case CD_PGN_TOK_ERROR: case CD_PGN_TOK_TAG:
			return false;	/* in doubt: parsed */
		case CD_PGN_TOK_COMMENT:
			/* (one with a `{` may hold others, read with
			 * CD_PGN_PARSE_NESTED_COMMENTS: in doubt) */
			if (memchr(t.text, '{', t.len) != NULL)
				return false;
			continue;
		default:
			continue;
		}
		if (cd_san_parse(&b, t.text, t.len, s->lang, 0, &m, NULL) !=
		    CD_OK || m == CD_MOVE_NULL)
			return false;
		for (k = 0; k < s->npre; k++)
			if (((alive >> k) & 1) && s->pre[k].moves[n] != m)
				alive &= ~((uint64_t)1 << k);
		cd_board_make(&b, m);
		n++;
		for (k = 0; k < s->npre; k++)
			if (((alive >> k) & 1) && s->pre[k].n == n)
				return false;	/* a whole prefix matched */
	}
	return alive == 0;
}

/* The events of --occurs at b, just reached by move m (h: the line's
 * positions, NULL when no repetition is asked). */
static unsigned
occurs_at(const cd_board *b, cd_move m, const cd_history *h, unsigned want)
{
	unsigned set = 0;
	int reps;

	if ((want & OCC_CHECK) && cd_board_in_check(b))
		set |= OCC_CHECK;
	if (CD_MOVE_IS_PROMO(m) && CD_MOVE_PROMO_TYPE(m) != CD_QUEEN)
		set |= OCC_UNDERPROMOTION;
	if (b->halfmove >= 100)
		set |= OCC_FIFTY;
	if (b->halfmove >= 150)
		set |= OCC_SEVENTYFIVE;
	/* a third occurrence needs 8 reversible half-moves at least */
	if (h != NULL && b->halfmove >= 8) {
		reps = cd_history_repetitions(h, b);
		if (reps >= 3)
			set |= OCC_THREEFOLD;
		if (reps >= 5)
			set |= OCC_FIVEFOLD;
	}
	return set & want;
}

/* Whether every --occurs set has an event of found. */
static bool
occurs_met(const cd_select *s, unsigned found)
{
	size_t k;

	for (k = 0; k < s->nocc; k++)
		if (!(s->occ[k] & found))
			return false;
	return true;
}

/* cd_select_match_moves; with at, the ply of the main line (0: its
 * start) at which the conditions on positions (CD_SEL_POSITION,
 * CD_SEL_MATERIAL, CD_SEL_PLACEMENT, CD_SEL_OCCURS) had all held into
 * *at. */
static bool
match_moves(const cd_select *s, const cd_game *g, uint32_t *at)
{
	bool want_rep = false, pos_left = s->npos > 0, track;
	bool mat_left = s->nmat > 0, pl_left = s->nplace > 0, occ_left;
	int mat_need = 64;	/* fewest pieces a material needs */
	unsigned occ_want = 0, occ_found = 0;
	cd_game_walk w;
	const cd_board *b = &w.rules.board;
	cd_board end;
	uint32_t i, last = 0, plies = 0;
	unsigned endings = 0;
	size_t k;
	/* run[k]: 1 + the ply from which material k has held, 0 when it
	 * does not; ply: the plies walked */
	uint32_t run_small[16], *run = run_small, ply = 0;

	/* the main line's length, and its final position from the
	 * parser when it left its cursor there */
	for (i = g->nodes[0].next; i; i = g->nodes[i].next) {
		last = i;
		plies++;
	}
	if (s->plies && (plies < s->plies_min || plies > s->plies_max))
		return false;
	if (s->npre > 0 && !prefix_holds(s, g))
		return false;
	if (cd_game_depth(g) == 0 && cd_game_cursor(g) == last)
		end = *cd_game_board(g);
	else
		cd_game_end_position(g, &end);
	for (k = 0; k < s->nends; k++)
		if (s->ends[k] & (CD_END_THREEFOLD | CD_END_FIVEFOLD))
			want_rep = true;
	if (s->wrong)
		want_rep = true;	/* a fivefold draws */
	/* a threefold repetition needs 8 reversible half-moves at least
	 * (the clock counts them, whatever a FEN start said) */
	if (want_rep && end.halfmove < 8)
		want_rep = false;
	for (k = 0; k < s->nocc; k++)
		occ_want |= s->occ[k];
	occ_left = s->nocc > 0;
	for (k = 0; k < s->nmat; k++) {
		int n = material_min(&s->mat[k]);

		mat_need = n < mat_need ? n : mat_need;
	}
	if (s->nmat > 16 && (run = malloc(s->nmat * sizeof(*run))) == NULL)
		return false;	/* (out of memory) */
	if (s->nmat > 0)
		memset(run, 0, s->nmat * sizeof(*run));
	/* the positions since the last pawn move or capture (the walk
	 * keeps no others) */
	track = want_rep || (occ_want & (OCC_THREEFOLD | OCC_FIVEFOLD));
	cd_game_walk_init(&w);
	cd_game_walk_start(&w, g, track);
	if (occ_left) {
		/* a FEN start may be past fifty moves already */
		if (b->halfmove >= 100)
			occ_found |= OCC_FIFTY & occ_want;
		if (b->halfmove >= 150)
			occ_found |= OCC_SEVENTYFIVE & occ_want;
		occ_left = !occurs_met(s, occ_found);
	}
	/* replay while something is still to be found */
	for (;;) {
		if (pos_left) {
			bool may = false;

			for (k = 0; k < s->npos; k++) {
				if (same_position(b, &s->pos[k])) {
					pos_left = false;
					break;
				}
				may = may || may_follow(b, &s->pos[k]);
			}
			if (pos_left && !may)
				break;	/* never reached */
		}
		for (k = 0; pl_left && k < s->nplace; k++)
			if (placement_is(b, &s->place[k]))
				pl_left = false;
		/* material changes only with a capture or promotion,
		 * which reset the clock; one held for N plies (@N) is
		 * found N plies after it was reached */
		if (mat_left && (w.node == 0 || b->halfmove == 0)) {
			if (cd__popcount(b->by_type[0]) < mat_need)
				break;	/* never reached */
			for (k = 0; k < s->nmat; k++)
				if (!material_is(b, &s->mat[k]))
					run[k] = 0;
				else if (run[k] == 0)
					run[k] = ply + 1;
		}
		for (k = 0; mat_left && k < s->nmat; k++)
			if (run[k] != 0 && ply - (run[k] - 1) >= s->mat[k].hold)
				mat_left = false;
		if (!pos_left && !mat_left && !pl_left && !occ_left) {
			if (at != NULL) {
				*at = ply;
				at = NULL;
			}
			if (!want_rep)
				break;
		}
		if (!cd_game_walk_next(&w))
			break;
		ply++;
		if (occ_left) {
			occ_found |= occurs_at(b, g->nodes[w.node].move,
			    w.track ? &w.rules.history : NULL, occ_want);
			occ_left = !occurs_met(s, occ_found);
		}
	}
	if (run != run_small)
		free(run);
	if (pos_left || mat_left || pl_left || occ_left) {
		cd_game_walk_free(&w);
		return false;
	}
	/* with a repetition asked, the walk went to the end */
	if (s->nends > 0 || s->wrong)
		endings = want_rep ? cd_game_walk_endings(&w) :
		    cd_board_endings(&end, NULL);
	cd_game_walk_free(&w);
	if (want_rep && !w.track)
		return false;	/* out of memory */
	for (k = 0; k < s->nends; k++)
		if (!(endings & s->ends[k]))
			return false;
	if (s->wrong && cd_result_contradiction(&end, endings |
	    (cd_game_lost_on_time(g) ? CD_END_TIME_FORFEIT : 0),
	    cd_game_result(g)) == NULL)
		return false;
	return true;
}

bool
cd_select_match_moves(const cd_select *s, const cd_game *g)
{
	return match_moves(s, g, NULL);
}

bool
cd_select_match_ply(const cd_select *s, const cd_game *g, uint32_t *ply)
{
	uint32_t at = 0;
	bool r = match_moves(s, g, &at);

	*ply = r ? at : 0;
	return r;
}
