/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * san.c: writing canonical SAN and reading SAN in its strict and lenient
 * forms.  Reading never formats the SAN of every legal move: it parses
 * the token into piece type, origin hints, destination and promotion,
 * then asks the generator for the legal moves of that piece type to that
 * square.
 */
#include "config.h"

#include <string.h>
#include <strings.h>

#include "common/internal.h"
#include "core/movegen.h"


size_t
cd_san_write_bare(const cd_board *b, cd_move m, char *buf)
{
	int from = CD_MOVE_FROM(m), to = CD_MOVE_TO(m), kind = CD_MOVE_KIND(m);
	int type;
	char *p = buf;

	if (kind == CD_MK_NULL) {
		memcpy(buf, "--", 3);
		return 2;
	}
	if (kind == CD_MK_CASTLE) {
		const char *s = cd_castle_is_kingside(m) ? "O-O" : "O-O-O";
		size_t n = strlen(s);

		memcpy(buf, s, n + 1);
		return n;
	}
	type = CD_PIECE_TYPE(b->squares[from]);
	if (type == CD_PAWN) {
		if (CD_FILE(from) != CD_FILE(to)) {
			*p++ = (char)('a' + CD_FILE(from));
			*p++ = 'x';
		}
		*p++ = (char)('a' + CD_FILE(to));
		*p++ = (char)('1' + CD_RANK(to));
		if (CD_MOVE_IS_PROMO(m)) {
			*p++ = '=';
			*p++ = cd__piece_letters[CD_MOVE_PROMO_TYPE(m)];
		}
	} else {
		*p++ = cd__piece_letters[type];
		if (type != CD_KING) {
			cd_move list[CD_MAX_MOVES];
			int n = cd_board_legal_moves_to(b, type, to, list), i;
			int others = 0, same_file = 0, same_rank = 0;

			for (i = 0; i < n; i++) {
				int f = CD_MOVE_FROM(list[i]);

				if (f == from)
					continue;
				others++;
				same_file |= CD_FILE(f) == CD_FILE(from);
				same_rank |= CD_RANK(f) == CD_RANK(from);
			}
			if (others) {
				if (!same_file) {
					*p++ = (char)('a' + CD_FILE(from));
				} else if (!same_rank) {
					*p++ = (char)('1' + CD_RANK(from));
				} else {
					*p++ = (char)('a' + CD_FILE(from));
					*p++ = (char)('1' + CD_RANK(from));
				}
			}
		}
		if (b->squares[to])
			*p++ = 'x';
		*p++ = (char)('a' + CD_FILE(to));
		*p++ = (char)('1' + CD_RANK(to));
	}
	*p = '\0';
	return (size_t)(p - buf);
}

size_t
cd_san_write(const cd_board *b, cd_move m, char *buf)
{
	size_t n = cd_san_write_bare(b, m, buf);
	cd_board after;

	if (CD_MOVE_KIND(m) == CD_MK_NULL)
		return n;
	after = *b;
	cd_board_make(&after, m);
	if (cd_board_in_check(&after)) {
		buf[n++] = cd_board_has_legal_move(&after) ? '+' : '#';
		buf[n] = '\0';
	}
	return n;
}

/* Section 17 of the standard: pawn knight bishop rook queen king.
 * English, the default, is languages[LANG_ENGLISH]. */
enum { LANG_ENGLISH = 3 };
#define ENGLISH	(&languages[LANG_ENGLISH].lang)

static const struct {
	const char *name, *code;
	cd_san_lang lang;
} languages[] = {
	{ "Czech", "cs", { { 'P', 'J', 'S', 'V', 'D', 'K' } } },
	{ "Danish", "da", { { 'B', 'S', 'L', 'T', 'D', 'K' } } },
	{ "Dutch", "nl", { { 'O', 'P', 'L', 'T', 'D', 'K' } } },
	{ "English", "en", { { 'P', 'N', 'B', 'R', 'Q', 'K' } } },
	{ "Estonian", "et", { { 'P', 'R', 'O', 'V', 'L', 'K' } } },
	{ "Finnish", "fi", { { 'P', 'R', 'L', 'T', 'D', 'K' } } },
	{ "French", "fr", { { 'P', 'C', 'F', 'T', 'D', 'R' } } },
	{ "German", "de", { { 'B', 'S', 'L', 'T', 'D', 'K' } } },
	{ "Hungarian", "hu", { { 'G', 'H', 'F', 'B', 'V', 'K' } } },
	{ "Icelandic", "is", { { 'P', 'R', 'B', 'H', 'D', 'K' } } },
	{ "Italian", "it", { { 'P', 'C', 'A', 'T', 'D', 'R' } } },
	{ "Norwegian", "no", { { 'B', 'S', 'L', 'T', 'D', 'K' } } },
	{ "Polish", "pl", { { 'P', 'S', 'G', 'W', 'H', 'K' } } },
	{ "Portuguese", "pt", { { 'P', 'C', 'B', 'T', 'D', 'R' } } },
	{ "Romanian", "ro", { { 'P', 'C', 'N', 'T', 'D', 'R' } } },
	{ "Spanish", "es", { { 'P', 'C', 'A', 'T', 'D', 'R' } } },
	{ "Swedish", "sv", { { 'B', 'S', 'L', 'T', 'D', 'K' } } },
};

const cd_san_lang *
cd_san_lang_find(const char *name)
{
	size_t i;

	for (i = 0; i < sizeof(languages) / sizeof(languages[0]); i++)
		if (strcasecmp(name, languages[i].name) == 0 ||
		    strcasecmp(name, languages[i].code) == 0)
			return &languages[i].lang;
	return NULL;
}

/* A parsed move token, before it is matched to a legal move. */
struct san_parts {
	int type;		/* piece type, CD_NO_TYPE when not given */
	int from_file, from_rank;	/* -1 when not given */
	int to;
	int promo;		/* promotion piece type, 0 if none */
};

#define BUF_MAX 24

static int promo_type(int ch, const cd_san_lang *lang);

/*
 * Copy the token to ASCII: figurines become letters, en and em dashes
 * become '-', check/mate marks and an "e.p."/"ep" suffix are dropped.
 * Returns the length, or -1 if the token cannot be a move.
 */
static int
normalize(const char *s, size_t len, char *out)
{
	size_t i = 0;
	int n = 0;
	const unsigned char *u = (const unsigned char *)s;

	while (i < len) {
		if (n >= BUF_MAX - 1)
			return -1;
		if (u[i] < 0x80) {
			out[n++] = (char)u[i++];
		} else if (i + 2 < len && u[i] == 0xe2 && u[i + 1] == 0x99 &&
		    u[i + 2] >= 0x94 && u[i + 2] <= 0x9f) {
			/* U+2654..U+265F: white then black K Q R B N P */
			out[n++] = "KQRBNP"[(u[i + 2] - 0x94) % 6];
			i += 3;
		} else if (i + 2 < len && u[i] == 0xe2 && u[i + 1] == 0x80 &&
		    (u[i + 2] == 0x93 || u[i + 2] == 0x94)) {
			out[n++] = '-';
			i += 3;
		} else {
			return -1;
		}
	}
	while (n > 0 && (out[n - 1] == '+' || out[n - 1] == '#'))
		n--;
	if (n > 4 && memcmp(out + n - 4, "e.p.", 4) == 0)
		n -= 4;
	else if (n > 4 && out[n - 2] == 'e' && out[n - 1] == 'p' &&
	    out[n - 3] >= '1' && out[n - 3] <= '8')
		n -= 2;
	while (n > 0 && (out[n - 1] == '+' || out[n - 1] == '#'))
		n--;
	out[n] = '\0';
	return n;
}

/* Castling written with O, o or 0 and dashes: 2 or 3 for O-O / O-O-O. */
static int
castling_count(const char *s, int n)
{
	int i, count = 0, dash = 1;

	for (i = 0; i < n; i++) {
		if (s[i] == 'O' || s[i] == 'o' || s[i] == '0') {
			count++;
			dash = 0;
		} else if (s[i] == '-' && !dash) {
			dash = 1;
		} else {
			return 0;
		}
	}
	if (dash)
		return 0;
	return count == 2 || count == 3 ? count : 0;
}

static int
type_of_letter(int ch, const cd_san_lang *lang)
{
	int t;

	for (t = 0; t < 6; t++)
		if (lang->letters[t] == ch)
			return t + 1;
	return CD_NO_TYPE;
}

static int
promo_type(int ch, const cd_san_lang *lang)
{
	int t = type_of_letter(ch, lang);

	if (t == CD_NO_TYPE && lang == ENGLISH) {
		/* English promotions may be lower case: e8=q, e8q */
		switch (ch) {
		case 'n': t = CD_KNIGHT; break;
		case 'b': t = CD_BISHOP; break;
		case 'r': t = CD_ROOK; break;
		case 'q': t = CD_QUEEN; break;
		}
	}
	return t >= CD_KNIGHT && t <= CD_QUEEN ? t : CD_NO_TYPE;
}

/*
 * Parse s (what follows any piece letter) into parts: optional origin
 * file and rank, an optional 'x', ':' or '-', the destination square,
 * and an optional promotion (=Q, Q, q, (Q), /Q).  Covers SAN ("Nbd2",
 * "R1e2", "exd5", "e8=Q") and coordinate forms ("e2e4", "Ng1-f3",
 * "e7e8q").  0 on success, -1 if s is not of that form.
 */
static int
parse_hints(const char *s, int n, const cd_san_lang *lang,
    struct san_parts *p)
{
	int i = 0;

	p->from_file = p->from_rank = -1;
	p->promo = 0;
	/* find the destination: the last "file rank" pair before any
	 * promotion suffix */
	{
		int end = n, k, t;

		/* strip a promotion suffix */
		if (end >= 2 && s[end - 1] == ')' ) {
			if (end < 5 || s[end - 3] != '(')
				return -1;
			if ((t = promo_type((unsigned char)s[end - 2], lang)) == 0)
				return -1;
			p->promo = t;
			end -= 3;
		} else if (end >= 3 && (s[end - 2] == '=' || s[end - 2] == '/')) {
			if ((t = promo_type((unsigned char)s[end - 1], lang)) == 0)
				return -1;
			p->promo = t;
			end -= 2;
		} else if (end >= 3 && !(s[end - 1] >= '1' && s[end - 1] <= '8')) {
			if ((t = promo_type((unsigned char)s[end - 1], lang)) == 0)
				return -1;
			p->promo = t;
			end -= 1;
		}
		if (end < 2)
			return -1;
		if (!(s[end - 2] >= 'a' && s[end - 2] <= 'h') ||
		    !(s[end - 1] >= '1' && s[end - 1] <= '8'))
			return -1;
		p->to = CD_SQ(s[end - 2] - 'a', s[end - 1] - '1');
		k = end - 2;
		/* optional capture or dash before the destination */
		if (k > 0 && (s[k - 1] == 'x' || s[k - 1] == ':' ||
		    s[k - 1] == '-'))
			k--;
		/* origin hints: [file][rank] */
		if (i < k && s[i] >= 'a' && s[i] <= 'h')
			p->from_file = s[i++] - 'a';
		if (i < k && s[i] >= '1' && s[i] <= '8')
			p->from_rank = s[i++] - '1';
		if (i != k)
			return -1;
	}
	return 0;
}

/* Match parts against the legal moves: *out and 1, 0 none, 2+ many. */
static int
match(const cd_board *b, const struct san_parts *p, int allow_castle,
    cd_move *out, int *promo_missing)
{
	cd_move list[CD_MAX_MOVES];
	int n, i, found = 0, type = p->type;

	*promo_missing = 0;
	n = cd_board_legal_moves_to(b, type, p->to, list);
	for (i = 0; i < n; i++) {
		cd_move m = list[i];
		int from = CD_MOVE_FROM(m);

		if (CD_MOVE_KIND(m) == CD_MK_CASTLE && !allow_castle)
			continue;
		if (p->from_file >= 0 && CD_FILE(from) != p->from_file)
			continue;
		if (p->from_rank >= 0 && CD_RANK(from) != p->from_rank)
			continue;
		if (CD_MOVE_IS_PROMO(m)) {
			if (!p->promo) {
				*promo_missing = 1;
				continue;
			}
			if (CD_MOVE_PROMO_TYPE(m) != p->promo)
				continue;
		} else if (p->promo) {
			continue;
		}
		if (found++ == 0)
			*out = m;
	}
	return found;
}

static cd_status
resolve(const cd_board *b, const char *s, int n, const cd_san_lang *lang,
    int type, cd_move *out, const char **why)
{
	struct san_parts p;
	int found, missing;
	int coord;

	memset(&p, 0, sizeof(p));
	p.type = type;
	if (parse_hints(s, n, lang, &p) != 0) {
		*why = "unreadable move";
		return CD_ERR_SYNTAX;
	}
	coord = p.from_file >= 0 && p.from_rank >= 0;
	if (type == CD_NO_TYPE) {
		/* a full origin square names any piece; else a pawn */
		if (!coord)
			p.type = CD_PAWN;
		else
			p.type = CD_PIECE_TYPE(b->squares[CD_SQ(p.from_file,
			    p.from_rank)]);
		if (p.type == CD_NO_TYPE) {
			*why = "no piece on the origin square";
			return CD_ERR_ILLEGAL;
		}
	}
	found = match(b, &p, coord, out, &missing);
	if (found == 0 && coord && !b->chess960 && p.type == CD_KING &&
	    CD_RANK(p.to) == p.from_rank &&
	    (p.to - CD_SQ(p.from_file, p.from_rank) == 2 ||
	    CD_SQ(p.from_file, p.from_rank) - p.to == 2)) {
		/* e1g1: castling by the king's two-square move */
		cd_move list[CD_MAX_MOVES];
		int k = cd_board_legal_moves_to(b, CD_KING, -1, list), i;

		for (i = 0; i < k; i++)
			if (CD_MOVE_KIND(list[i]) == CD_MK_CASTLE &&
			    cd_castle_king_to(list[i]) == p.to) {
				*out = list[i];
				return CD_OK;
			}
	}
	if (found == 1)
		return CD_OK;
	if (found > 1) {
		*why = "ambiguous move";
		return CD_ERR_AMBIGUOUS;
	}
	if (missing) {
		*why = "promotion piece missing";
		return CD_ERR_SYNTAX;
	}
	*why = "illegal move";
	return CD_ERR_ILLEGAL;
}

static cd_status
san_parse(const cd_board *b, const char *text, size_t len,
    const cd_san_lang *lang, unsigned flags, cd_move *out, const char **why)
{
	char s[BUF_MAX];
	const char *dummy;
	int n, count, type;
	cd_status st;

	if (why == NULL)
		why = &dummy;
	*why = NULL;
	if (lang == NULL)
		lang = ENGLISH;
	if (flags & CD_SAN_STRICT) {
		char canon[CD_SAN_MAX];
		cd_status r = san_parse(b, text, len, lang, 0, out, why);

		if (r != CD_OK)
			return r;
		if (*out == CD_MOVE_NULL) {
			if (len == 2 && memcmp(text, "--", 2) == 0)
				return CD_OK;	/* the only null form */
			*why = "not canonical SAN";
			return CD_ERR_SYNTAX;
		}
		if (cd_san_write(b, *out, canon) != len ||
		    memcmp(canon, text, len) != 0) {
			*why = "not canonical SAN";
			return CD_ERR_SYNTAX;
		}
		return CD_OK;
	}
	if (len == 0) {
		*why = "empty move";
		return CD_ERR_SYNTAX;
	}
	if ((len == 2 && memcmp(text, "--", 2) == 0) ||
	    (len == 2 && memcmp(text, "Z0", 2) == 0) ||
	    (len == 4 && memcmp(text, "0000", 4) == 0) ||
	    (len == 4 && memcmp(text, "@@@@", 4) == 0)) {
		*out = CD_MOVE_NULL;
		return CD_OK;
	}
	n = normalize(text, len, s);
	if (n <= 0) {
		*why = "unreadable move";
		return CD_ERR_SYNTAX;
	}
	if ((count = castling_count(s, n)) != 0) {
		cd_move list[CD_MAX_MOVES];
		int k = cd_board_legal_moves_to(b, CD_KING, -1, list), i;

		for (i = 0; i < k; i++)
			if (CD_MOVE_KIND(list[i]) == CD_MK_CASTLE &&
			    cd_castle_is_kingside(list[i]) == (count == 2)) {
				*out = list[i];
				return CD_OK;
			}
		*why = "castling is not legal here";
		return CD_ERR_ILLEGAL;
	}
	/* a piece letter */
	type = type_of_letter((unsigned char)s[0], lang);
	if (type != CD_NO_TYPE)
		return resolve(b, s + 1, n - 1, lang, type, out, why);
	if (lang == ENGLISH) {
		switch (s[0]) {
		case 'n': type = CD_KNIGHT; break;
		case 'r': type = CD_ROOK; break;
		case 'q': type = CD_QUEEN; break;
		case 'k': type = CD_KING; break;
		case 'p': type = CD_PAWN; break;
		}
		if (type != CD_NO_TYPE)
			return resolve(b, s + 1, n - 1, lang, type, out, why);
		if (s[0] == 'b' && n >= 3 && ((s[1] >= 'a' && s[1] <= 'h') ||
		    (n >= 4 && (s[1] == 'x' || s[1] == ':') &&
		    s[2] >= 'a' && s[2] <= 'h'))) {
			/* "bc4", "bxc4": a pawn capture from the b-file, or
			 * a bishop in lower case.  "bxc4" is SAN's pawn
			 * capture, so when that is legal it is meant; "bc4"
			 * is no SAN at all, so when both are legal it is
			 * ambiguous. */
			int written_x = s[1] == 'x' || s[1] == ':';
			cd_move pawn_m = 0, bishop_m = 0;
			const char *w1 = NULL, *w2 = NULL;
			cd_status sp = resolve(b, s, n, lang, CD_NO_TYPE, &pawn_m, &w1);
			cd_status sb = resolve(b, s + 1, n - 1, lang, CD_BISHOP,
			    &bishop_m, &w2);

			if (sp == CD_OK && sb == CD_OK && !written_x) {
				*why = "ambiguous move: both a pawn and a bishop move";
				return CD_ERR_AMBIGUOUS;
			}
			if (sp == CD_OK) {
				*out = pawn_m;
				return CD_OK;
			}
			if (sb == CD_OK) {
				*out = bishop_m;
				return CD_OK;
			}
			if (sb == CD_ERR_AMBIGUOUS || sp == CD_ERR_AMBIGUOUS) {
				*why = "ambiguous move";
				return CD_ERR_AMBIGUOUS;
			}
			*why = sp == CD_ERR_SYNTAX && sb == CD_ERR_SYNTAX ?
			    "unreadable move" : "illegal move";
			return sp == CD_ERR_SYNTAX && sb == CD_ERR_SYNTAX ?
			    CD_ERR_SYNTAX : CD_ERR_ILLEGAL;
		}
	}
	if (!(s[0] >= 'a' && s[0] <= 'h')) {
		*why = (s[0] >= 'A' && s[0] <= 'Z') ?
		    "not a piece letter" : "unreadable move";
		return CD_ERR_SYNTAX;
	}
	st = resolve(b, s, n, lang, CD_NO_TYPE, out, why);
	return st;
}

cd_status
cd_san_parse(const cd_board *b, const char *text, size_t len,
    const cd_san_lang *lang, unsigned flags, cd_move *out, cd_error *err)
{
	const char *why = NULL;
	cd_status st = san_parse(b, text, len, lang, flags, out, &why);

	if (err != NULL) {
		if (st == CD_OK)
			cd__error_set(err, st, 0, 0, 0, NULL);
		else
			cd__error_set(err, st, 0, 0, 0, "%s",
			    why ? why : cd_strerror(st));
	}
	return st;
}
