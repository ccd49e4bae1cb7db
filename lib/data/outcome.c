/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * outcome.c: what a table row or a JSON line says of a game besides its
 * moves (data/outcome.h): its TimeControl read, how it ended, its speed,
 * its winner, the rating difference.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "common/internal.h"
#include "chessdata/rules.h"
#include "data/outcome.h"

/* The TimeControl tag of g read into tc[TC_MAX]: a count of periods or
 * CD_TC_*; CD_TC_INVALID without the tag too (*present false). */
int
cd__game_tc(const cd_game *g, cd_tc_period *tc, bool *present)
{
	size_t len;
	const char *v = cd_game_tag_value(g, "TimeControl", &len);

	*present = v != NULL;
	return v == NULL ? CD_TC_INVALID : cd_timecontrol_parse(v, len, tc,
	    TC_MAX);
}

/* A number of the TimeControl tag (digits, maybe a point and digits)
 * in nanoseconds; -1 when too large. */
int64_t
cd__tc_ns(const char *s, size_t len)
{
	int64_t v = 0, unit = 1000000000;
	size_t i = 0;

	for (; i < len && s[i] != '.'; i++) {
		if (v > INT64_MAX / 10 / 1000000000)
			return -1;
		v = v * 10 + (s[i] - '0');
	}
	v *= 1000000000;
	for (i++; i < len && unit > 1; i++) {
		unit /= 10;
		v += (s[i] - '0') * unit;
	}
	return v;
}

/* ---- how a game ended, its speed, its winner ---- */

/* Whether s[0..n) ends with the text t (lower case), in any case of
 * ASCII. */
static bool
ends_ci(const char *s, size_t n, const char *t)
{
	size_t k = strlen(t), i;

	if (n < k)
		return false;
	for (i = 0; i < k; i++) {
		char c = s[n - k + i];

		if (c >= 'A' && c <= 'Z')
			c = (char)(c - 'A' + 'a');
		if (c != t[i])
			return false;
	}
	return true;
}

/* chess.com's Termination wording ("Name won by resignation", "Game
 * drawn by repetition"), by its end, and the standard's and lichess's
 * values (the whole value). */
static const struct {
	const char *text, *reason;
	bool whole;
} termination_words[] = {
	{ " won by checkmate", "checkmate", false },
	{ " won by resignation", "resignation", false },
	{ " won on time", "time forfeit", false },
	{ " won - game abandoned", "abandonment", false },
	{ " won by abandonment", "abandonment", false },
	{ " won by adjudication", "adjudication", false },
	{ " drawn by agreement", "agreement", false },
	{ " drawn by repetition", "repetition", false },
	{ " drawn by stalemate", "stalemate", false },
	{ " drawn by insufficient material", "insufficient material",
	    false },
	{ " drawn by timeout vs insufficient material",
	    "time forfeit against insufficient material", false },
	{ " drawn by 50-move rule", "fifty moves", false },
	{ " drawn by adjudication", "adjudication", false },
	{ "abandoned", "abandonment", true },
	{ "adjudication", "adjudication", true },
	{ "insufficient material", "insufficient material", true },
	{ "rules infraction", "unknown", true },
	{ "unterminated", "unknown", true },
	{ "death", "unknown", true },
	{ "emergency", "unknown", true },
	{ NULL, NULL, false }
};

/* How the game ended as its final position tells (endings, the result
 * r); normal: the Termination says the game ended on the board
 * (lichess's "Normal"), so that a decisive result is a resignation and
 * a draw without a rule an agreement. */
static const char *
position_reason(unsigned endings, cd_pgn_result r, bool normal)
{
	bool draw = r == CD_PGN_RESULT_DRAW;

	if (endings & CD_END_CHECKMATE)
		return "checkmate";
	if (endings & CD_END_STALEMATE)
		return "stalemate";
	if (endings & CD_END_DEAD && (draw || normal))
		return "insufficient material";
	if (draw && (endings & (CD_END_FIVEFOLD | CD_END_THREEFOLD)))
		return "repetition";
	if (draw && (endings & (CD_END_SEVENTYFIVE | CD_END_FIFTY)))
		return "fifty moves";
	if (!normal || r == CD_PGN_RESULT_NONE || r == CD_PGN_RESULT_UNKNOWN)
		return "unknown";
	return draw ? "agreement" : "resignation";
}

/* How game g ended, endings those of its final position (see
 * chessdata/json.h, "reason"). */
const char *
cd__game_reason(const cd_game *g, unsigned endings)
{
	size_t n, i;
	const char *v = cd_game_tag_value(g, "Termination", &n);
	cd_pgn_result r = cd_game_result(g);

	while (v != NULL && n > 0 && (v[n - 1] == ' ' || v[n - 1] == '\t'))
		n--;
	while (v != NULL && n > 0 && (*v == ' ' || *v == '\t'))
		v++, n--;
	if (v == NULL)
		return position_reason(endings, r, false);
	if (n == strlen("normal") && ends_ci(v, n, "normal"))
		return position_reason(endings, r, true);
	if (n == strlen("time forfeit") && ends_ci(v, n, "time forfeit"))
		return r == CD_PGN_RESULT_DRAW ?
		    "time forfeit against insufficient material" :
		    "time forfeit";
	for (i = 0; termination_words[i].text != NULL; i++)
		if ((!termination_words[i].whole ||
		    n == strlen(termination_words[i].text)) &&
		    ends_ci(v, n, termination_words[i].text))
			return termination_words[i].reason;
	return position_reason(endings, r, false);
}

/* Seconds of 24 hours: a period of one move and a day or more is
 * correspondence (chess.com's "1/86400"). */
#define DAY_NS	(INT64_C(86400) * 1000000000)

/* The speed of g by lichess's rule (see chessdata/json.h, "speed"),
 * NULL without a time control that reads. */
const char *
cd__game_speed(const cd_game *g)
{
	static const struct {
		int64_t below;	/* seconds */
		const char *name;
	} speeds[] = {
		{ 30, "ultrabullet" }, { 180, "bullet" }, { 480, "blitz" },
		{ 1500, "rapid" }, { INT64_MAX, "classical" }
	};
	cd_tc_period tc[TC_MAX];
	bool present;
	int np = cd__game_tc(g, tc, &present), i;
	int64_t base, inc = 0, est;

	if (np == CD_TC_NONE)
		return "correspondence";
	if (np <= 0)
		return NULL;
	base = cd__tc_ns(tc[0].seconds, tc[0].seconds_len);
	if (tc[0].moves == 1 && (base < 0 || base >= DAY_NS))
		return "correspondence";
	if (tc[0].increment != NULL)
		inc = cd__tc_ns(tc[0].increment, tc[0].increment_len);
	if (base < 0 || inc < 0 || inc > INT64_MAX / 41 ||
	    base > INT64_MAX - 40 * inc)
		return "classical";
	est = (base + 40 * inc) / 1000000000;
	for (i = 0; speeds[i].below != INT64_MAX && est >= speeds[i].below;
	    i++)
		;
	return speeds[i].name;
}

/* The winner of g: "white", "black", "none" (a draw), NULL (no
 * result). */
const char *
cd__game_winner(const cd_game *g)
{
	switch (cd_game_result(g)) {
	case CD_PGN_RESULT_WHITE: return "white";
	case CD_PGN_RESULT_BLACK: return "black";
	case CD_PGN_RESULT_DRAW: return "none";
	default: return NULL;
	}
}

/* A rating tag's value as a number (1 to 5 digits), -1 else. */
static long
elo_tag(const cd_game *g, const char *name)
{
	size_t n, i;
	const char *v = cd_game_tag_value(g, name, &n);
	long e = 0;

	if (v == NULL || n == 0 || n > 5)
		return -1;
	for (i = 0; i < n; i++) {
		if (v[i] < '0' || v[i] > '9')
			return -1;
		e = e * 10 + (v[i] - '0');
	}
	return e;
}

/* WhiteElo less BlackElo into *d: false when either is missing or not
 * a number. */
bool
cd__game_elo_diff(const cd_game *g, long *d)
{
	long w = elo_tag(g, "WhiteElo"), b = elo_tag(g, "BlackElo");

	if (w < 0 || b < 0)
		return false;
	*d = w - b;
	return true;
}
