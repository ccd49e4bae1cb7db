/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * pgn-select: grep(1) for PGN games.  Writes the bytes of every game
 * that meets all the conditions (on tags, players, ECO codes, results,
 * main-line length, positions and material reached, FIDE endings) as
 * they came.  Conditions on tags only never parse the movetext;
 * conditions on moves parse every game, every move checked, and reject
 * the games that do not read as pgn-regularize does.  Exit status as
 * grep's: 0 some game selected, 1 none, 2 error.
 */
#include "config.h"

#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "chessdata.h"
#include "cli/cli.h"
#include "cli/games.h"

static int opt_invert, opt_count, opt_icase, opt_has_max;
static int opt_no_filename;
static uint64_t opt_max;

static cd_select *selector;
/* With --openings: --eco and --opening on the computed classification */
static const cd_openings *openings;
static cd_select *osel;
static uint64_t selected;	/* updated atomically: threads share it */
static bool by_number;		/* --games */
static bool numbers_stdin;	/* --games-from=- */
static uint64_t tags_seen;	/* bit i: some game has tag name i
				 * (cd_select_tag_name), updated
				 * atomically */
static uint64_t tags_all;	/* the bits of every name */

/* A --games-from list: the numbers of its lines joined by commas, and
 * where each line's numbers begin in that text. */
struct numlist {
	const char *file;	/* as shown */
	char *text;
	size_t *at;		/* at[i]: the offset of line line[i] */
	unsigned long *line;
	size_t *col;		/* its column of the first number */
	size_t n;
};

/* The conditions as given, read once every option is known (-i). */
static struct cond {
	cd_select_kind kind;
	const char *text, *option;
	const struct numlist *from;	/* --games-from */
} *conds;
static size_t nconds;

static void
usage(void)
{
	printf("Usage: %s [OPTION]... [FILE]...\n", cli_prog);
	fputs(
	    "Write the PGN games that meet every condition, their bytes as\n"
	    "they came (grep for chess games).\n"
	    "\n"
	    "Conditions (all must hold):\n"
	    "  -t, --tag='NAME OP VALUE'  a tag condition; OP: = != < <= > >=\n"
	    "                        ~ !~ (extended regular expression);\n"
	    "                        integers compare as numbers, Date and\n"
	    "                        Round in the collating order\n"
	    "      --where=EXPR      tag conditions joined by and, or, not, ( );\n"
	    "                        a VALUE may be a \"quoted string\"\n"
	    "      --player=REGEX    White or Black matches REGEX\n"
	    "      --white=REGEX     White matches REGEX\n"
	    "      --black=REGEX     Black matches REGEX\n"
	    "      --winner=REGEX    the player who won matches REGEX\n"
	    "      --loser=REGEX     the player who lost matches REGEX\n"
	    "      --eco=RANGES      ECO code in one of RANGES (A00-B99,C42);\n"
	    "                        with --openings the computed code\n"
	    "      --opening=REGEX   the computed opening name matches REGEX\n"
	    "      --result=LIST     result one of LIST (1-0,0-1,1/2-1/2,*)\n"
	    "      --games=LIST      game numbers in the input (1-100,250)\n"
	    "      --games-from=FILE  the game numbers of FILE's lines, each\n"
	    "                        as --games (- standard input)\n"
	    "      --plies=MIN..MAX  main line of MIN to MAX half-moves\n"
	    "      --moves=MOVES     main line begins with MOVES (1. e4 c5)\n"
	    "      --position=FEN    main line reaches FEN (repeatable: any)\n"
	    "      --placement=PLACEMENT  main line reaches this first FEN field,\n"
	    "                        pgn-extract's FENPattern: ? any square,\n"
	    "                        ! occupied, * any squares, A a White piece,\n"
	    "                        a a Black one, m no pawn, M a piece but no\n"
	    "                        pawn, [...] [^...] sets (repeatable: any)\n"
	    "      --material=PIECES  main line reaches exactly this material\n"
	    "                        (KRP*kr; a * after a letter: any number of\n"
	    "                        it; then relations ,R>r ,L<l (L: minor\n"
	    "                        pieces), then @N: held for N plies;\n"
	    "                        repeatable: any)\n"
	    "      --ends=KINDS      final position ends by one of KINDS:\n"
	    "                        checkmate stalemate dead fivefold\n"
	    "                        seventyfive threefold fifty\n"
	    "      --occurs=KINDS    one of KINDS anywhere in the main line:\n"
	    "                        threefold fivefold fifty seventyfive check\n"
	    "                        underpromotion\n"
	    "      --wrong-result    the result contradicts the Laws on the final\n"
	    "                        position\n"
	    "  -i, --ignore-case     regular expressions (any letter) and =\n"
	    "                        (ASCII letters) ignore case\n"
	    "  -v, --invert-match    select the games that fail a condition\n"
	    "\n"
	    "Output:\n"
	    "  -c, --count           print the number of selected games only\n"
	    "                        (FILE:COUNT for each of several files)\n"
	    "      --no-filename     -c: no FILE: before the counts\n"
	    "  -j, --jobs=N          parse with N threads (conditions on moves\n"
	    "                        only; default: one per CPU)\n"
	    "  -m, --max-count=N     stop after N selected games\n"
	    "      --openings=FILE   classify openings by the table FILE (TSV or\n"
	    "                        PGN; repeatable; default: the files\n"
	    "                        $CHESSDATA_OPENINGS names, colon-separated)\n"
	    "  -q, --quiet           no progress line, no warning about text that\n"
	    "                        is not PGN or a tag no game has\n"
	    "  -s, --no-messages     no message about games that do not read\n"
	    "      --rejects=FILE    copy the bytes of every game that does not\n"
	    "                        read to FILE (conditions on moves)\n", stdout);
	cli_usage_options(CLI_TAKE_LANG | CLI_TAKE_OUTPUT | CLI_TAKE_STATS |
	    CLI_TAKE_COMPRESS | CLI_TAKE_MEMLIMIT);
	fputs(
	    "\n"
	    "With no FILE, or when FILE is -, read standard input.\n"
	    "Exit status: 0 some game selected, 1 none, 2 usage or system\n"
	    "error.\n", stdout);
}

static void
add_cond(cd_select_kind kind, const char *text, const char *option)
{
	struct cond *n = realloc(conds, (nconds + 1) * sizeof(*n));

	if (n == NULL)
		cli_fatal("out of memory");
	conds = n;
	conds[nconds].kind = kind;
	conds[nconds].text = text;
	conds[nconds].option = option;
	conds[nconds].from = NULL;
	nconds++;
}

/*
 * --games-from=FILE ("-": standard input): game numbers, a number, a
 * range or a list as --games takes on each line, blanks around it and
 * blank lines ignored.  Read into one --games condition.
 */
static void
games_from(const char *path)
{
	struct numlist *l = calloc(1, sizeof(*l));
	FILE *f;
	char *line = NULL;
	size_t cap = 0, tlen = 0, tcap = 0, lcap = 0;
	ssize_t len;
	unsigned long ln = 0;

	if (l == NULL)
		cli_fatal("out of memory");
	if ((f = cli_open_input(path, &l->file)) == NULL)
		cli_exit(2);
	numbers_stdin |= f == stdin;
	while ((len = getline(&line, &cap, f)) != -1) {
		size_t b = 0, e = (size_t)len;

		ln++;
		while (b < e && strchr(" \t", line[b]) != NULL)
			b++;
		while (e > b && strchr(" \t\r\n", line[e - 1]) != NULL)
			e--;
		if (b == e)
			continue;
		cli_grow(&l->text, &tcap, tlen + (e - b) + 1, 1, 4096);
		if (l->n == lcap) {
			cli_grow(&l->at, &lcap, l->n, sizeof(*l->at), 256);
			if ((l->line = realloc(l->line, lcap *
			    sizeof(*l->line))) == NULL ||
			    (l->col = realloc(l->col, lcap *
			    sizeof(*l->col))) == NULL)
				cli_fatal("out of memory");
		}
		if (tlen > 0)
			l->text[tlen++] = ',';
		l->at[l->n] = tlen;
		l->line[l->n] = ln;
		l->col[l->n++] = b + 1;
		memcpy(l->text + tlen, line + b, e - b);
		tlen += e - b;
	}
	if (ferror(f))
		cli_fatal("%s: %s", l->file, strerror(errno));
	free(line);
	cli_close_input(f);
	if (l->n == 0)
		cli_usage_error("--games-from: %s: no game numbers", l->file);
	l->text[tlen] = '\0';
	add_cond(CD_SEL_GAMES, l->text, "games-from");
	conds[nconds - 1].from = l;
}

/* A --games-from item that does not read, at offset at of the joined
 * text: "FILE:LINE:COL: why", exit 2. */
static void __attribute__((noreturn))
games_from_error(const struct numlist *l, size_t at, const char *why)
{
	size_t lo = 0, hi = l->n, i;

	while (hi - lo > 1) {
		i = lo + (hi - lo) / 2;
		if (l->at[i] <= at)
			lo = i;
		else
			hi = i;
	}
	cli_warn_at(l->file, l->line[lo], l->col[lo] + (at - l->at[lo]),
	    "%s", why);
	cli_exit(2);
}

static uint64_t
parse_max(const char *arg)
{
	char *end;
	unsigned long long v;

	if (arg[0] < '0' || arg[0] > '9')
		cli_usage_error("invalid count '%s'", arg);
	v = strtoull(arg, &end, 10);
	if (*end != '\0')
		cli_usage_error("invalid count '%s'", arg);
	return v;
}

/* Whether the game's classification meets --eco and --opening. */
static bool
opening_holds(const cd_game *g)
{
	cd_pgn_raw_game r = { 0 };
	cd_pgn_tag t[2] = { { "ECO", 3, NULL, 0, 0, 0 },
	    { "Opening", 7, NULL, 0, 0, 0 } };
	cd_opening op;

	if (cd_openings_classify(openings, g, &op)) {
		t[0].value = op.eco;
		t[0].value_len = strlen(op.eco);
		t[1].value = op.name;
		t[1].value_len = strlen(op.name);
		r.tags = t;
		r.ntags = 2;
	}
	return cd_select_match_tags(osel, &r);
}

/* Whether the game is selected, and counted: the last of -m sets
 * cli_games.stop.  g: the game parsed, or NULL when it was not (no
 * condition on moves, or a game number decided it). */
static bool
take(const struct cli_job *j, const cd_pgn_raw_game *raw, const cd_game *g)
{
	bool sel;

	/* a game not parsed for conditions on moves was decided
	 * without them: it fails */
	sel = (!by_number || cd_select_match_number(selector, j->index)) &&
	    cd_select_match_tags(selector, raw) &&
	    (g != NULL ? cd_select_match_moves(selector, g) &&
	    (osel == NULL || opening_holds(g)) :
	    cli_games.noparse);
	if (sel == (bool)opt_invert)
		return false;
	if (opt_has_max) {
		/* one thread: games come in order */
		if (selected >= opt_max)
			return false;
		if (++selected == opt_max)
			cli_games.stop = 1;
	} else
		__atomic_add_fetch(&selected, 1, __ATOMIC_RELAXED);
	return true;
}

/* Note the tags the conditions name that this game has, until every
 * one has been seen. */
static void
see_tags(const cd_pgn_raw_game *raw)
{
	uint64_t seen = __atomic_load_n(&tags_seen, __ATOMIC_RELAXED);
	const char *name;
	size_t i;

	if (seen == tags_all)
		return;
	for (i = 0; i < 64 && (name = cd_select_tag_name(selector, i)); i++)
		if (!((seen >> i) & 1) && cd_pgn_raw_tag(raw, name) != NULL)
			__atomic_or_fetch(&tags_seen, (uint64_t)1 << i,
			    __ATOMIC_RELAXED);
}

/* A game outside --games, or whose first moves differ from those of
 * --moves, is decided without parsing it. */
static bool
need_parse(struct cli_job *j, const cd_pgn_raw_game *raw)
{
	return cd_select_match_number(selector, j->index) &&
	    !cd_select_prefix_fails(selector, raw);
}

/* Select or pass one game, parsed when there are conditions on moves
 * (cli_games_file rejects the games that do not parse; the others are
 * never rejected), else as the reader frames it. */
static const char *
each(struct cli_job *j, const cd_pgn_raw_game *raw)
{
	see_tags(raw);
	if (take(j, raw, j->parsed ? j->game : NULL) && !opt_count)
		cli_append_game(j->out, raw->text, raw->len);
	return NULL;
}

static bool many_inputs;

static int
games_file(FILE *f, const char *name)
{
	uint64_t before = __atomic_load_n(&selected, __ATOMIC_ACQUIRE);
	int st = cli_games_file(f, name);
	uint64_t after = __atomic_load_n(&selected, __ATOMIC_ACQUIRE);

	if (opt_count && many_inputs && !opt_no_filename)
		fprintf(cli_output_file(), "%s:%llu\n", name,
		    (unsigned long long)(after - before));
	else if (opt_count && many_inputs)
		fprintf(cli_output_file(), "%llu\n",
		    (unsigned long long)(after - before));
	return st;
}

/* Whether the games to read are all read: -m reached, or the last of
 * --games (no further input is opened: a FIFO would block, a missing
 * file would be an error). */
static int
read_all(void)
{
	return cli_games.stop || (cli_games.limit != 0 &&
	    cli_games.read >= cli_games.limit);
}

/* The long name of option c. */
static const char *
option_name(const struct option *o, int c)
{
	for (; o->name != NULL; o++)
		if (o->val == c)
			return o->name;
	return "?";
}

/* A -t value in quotes: the quotes are compared as part of it. */
static void
warn_quoted(const char *text)
{
	const char *v = text + strcspn(text, "=!<>~");
	size_t n;

	v += strspn(v, "=!<>~ \t");
	n = strlen(v);
	while (n > 0 && (v[n - 1] == ' ' || v[n - 1] == '\t'))
		n--;
	if (n >= 2 && v[0] == '"' && v[n - 1] == '"')
		cli_warn("warning: -t '%s': the quotes are part of the value "
		    "(--where reads quoted strings)", text);
}

/* The options of pgn-select. */
enum {
	OPT_WRONG = 256, OPT_NO_FILENAME, OPT_OPENING, OPT_OPENINGS,
	OPT_GAMES_FROM,
	OPT_COND = 512	/* + the cd_select_kind of a condition */
};
static const struct option longopts[] = {
	{ "tag", required_argument, NULL, OPT_COND + CD_SEL_TAG },
	{ "where", required_argument, NULL, OPT_COND + CD_SEL_WHERE },
	{ "player", required_argument, NULL, OPT_COND + CD_SEL_PLAYER },
	{ "white", required_argument, NULL, OPT_COND + CD_SEL_WHITE },
	{ "black", required_argument, NULL, OPT_COND + CD_SEL_BLACK },
	{ "winner", required_argument, NULL, OPT_COND + CD_SEL_WINNER },
	{ "loser", required_argument, NULL, OPT_COND + CD_SEL_LOSER },
	{ "eco", required_argument, NULL, OPT_COND + CD_SEL_ECO },
	{ "opening", required_argument, NULL, OPT_OPENING },
	{ "openings", required_argument, NULL, OPT_OPENINGS },
	{ "result", required_argument, NULL, OPT_COND + CD_SEL_RESULT },
	{ "games", required_argument, NULL, OPT_COND + CD_SEL_GAMES },
	{ "games-from", required_argument, NULL, OPT_GAMES_FROM },
	{ "plies", required_argument, NULL, OPT_COND + CD_SEL_PLIES },
	{ "moves", required_argument, NULL, OPT_COND + CD_SEL_MOVES },
	{ "position", required_argument, NULL,
	    OPT_COND + CD_SEL_POSITION },
	{ "placement", required_argument, NULL,
	    OPT_COND + CD_SEL_PLACEMENT },
	{ "material", required_argument, NULL,
	    OPT_COND + CD_SEL_MATERIAL },
	{ "ends", required_argument, NULL, OPT_COND + CD_SEL_ENDS },
	{ "occurs", required_argument, NULL, OPT_COND + CD_SEL_OCCURS },
	{ "wrong-result", no_argument, NULL, OPT_WRONG },
	{ "no-filename", no_argument, NULL, OPT_NO_FILENAME },
	{ "no-messages", no_argument, NULL, 's' },
	{ "ignore-case", no_argument, NULL, 'i' },
	{ "invert-match", no_argument, NULL, 'v' },
	{ "count", no_argument, NULL, 'c' },
	{ "max-count", required_argument, NULL, 'm' },
	{ NULL, 0, NULL, 0 }
};

/* Read the options: the conditions into conds, the rest into the
 * opt_* flags. */
static void
options(int argc, char **argv)
{
	int c;
	size_t i;

	while ((c = cli_getopt(argc, argv, "t:icm:sv", longopts, CLI_TAKE_GAMES,
	    usage)) != -1) {
		switch (c) {
		case 't':
			c = OPT_COND + CD_SEL_TAG;
			/* FALLTHROUGH */
		case OPT_COND + CD_SEL_TAG:
			add_cond(CD_SEL_TAG, optarg, "tag");
			warn_quoted(optarg);
			break;
		case OPT_WRONG:
			add_cond(CD_SEL_WRONG_RESULT, "", "wrong-result");
			break;
		case OPT_OPENING: add_cond(CD_SEL_TAG, optarg, "opening");
			break;
		case OPT_OPENINGS: cli_openings_add(optarg);
			break;
		case OPT_GAMES_FROM: games_from(optarg);
			break;
		case OPT_NO_FILENAME: opt_no_filename = 1; break;
		case 's': cli_games.no_messages = 1; break;
		case 'i': opt_icase = 1; break;
		case 'v': opt_invert = 1; break;
		case 'c': opt_count = 1; break;
		case 'm':
			opt_max = parse_max(optarg);
			opt_has_max = 1;
			break;
		default:	/* (a condition: OPT_COND + its kind) */
			add_cond((cd_select_kind)(c - OPT_COND), optarg,
			    option_name(longopts, c));
			break;
		}
	}
	for (i = (size_t)optind; numbers_stdin && i <= (size_t)argc; i++)
		if (i == (size_t)argc ? optind == argc :
		    strcmp(argv[i], "-") == 0)
			cli_usage_error("--games-from=- reads standard input: "
			    "name the PGN files");
}

/* The selectors of the conditions (osel for those on the computed
 * opening), a usage error for one that does not read. */
static void
build(int argc, char **argv)
{
	cd_error err;
	size_t i;

	selector = cd_select_new(opt_icase ? CD_SELECT_ICASE : 0);
	if (selector == NULL)
		cli_fatal("out of memory");
	cd_select_set_lang(selector, cli_opts.lang);
	openings = cli_openings_load(argc, argv, optind);
	for (i = 0; i < nconds; i++) {
		bool op = strcmp(conds[i].option, "opening") == 0;
		char *text = NULL;
		cd_status st;

		if (op && openings == NULL)
			cli_usage_error("--opening needs opening tables "
			    "(--openings or CHESSDATA_OPENINGS)");
		if (openings != NULL && (op || conds[i].kind == CD_SEL_ECO) &&
		    osel == NULL &&
		    (osel = cd_select_new(opt_icase ? CD_SELECT_ICASE : 0)) ==
		    NULL)
			cli_fatal("out of memory");
		if (op) {
			size_t n = strlen(conds[i].text) + 9;

			if ((text = malloc(n)) == NULL)
				cli_fatal("out of memory");
			snprintf(text, n, "Opening~%s", conds[i].text);
		}
		st = cd_select_add(openings != NULL && (op ||
		    conds[i].kind == CD_SEL_ECO) ? osel : selector,
		    conds[i].kind, op ? text : conds[i].text, &err);
		free(text);

		if (st == CD_ERR_NOMEM)
			cli_fatal("out of memory");
		if (st != CD_OK && conds[i].from != NULL)
			games_from_error(conds[i].from, (size_t)err.offset,
			    err.msg);
		if (st != CD_OK)
			cli_usage_error("--%s '%s': %s", conds[i].option,
			    conds[i].text, err.msg);
	}
	for (i = 0; i < nconds; i++)
		if (conds[i].kind == CD_SEL_GAMES)
			by_number = true;
	free(conds);
	for (i = 0; i < 64 && cd_select_tag_name(selector, i) != NULL; i++)
		tags_all |= (uint64_t)1 << i;
}

int
main(int argc, char **argv)
{
	int status = 0;
	size_t i;

	cli_init(argv[0]);
	options(argc, argv);
	build(argc, argv);
	/* tags alone: the movetext is not parsed */
	cli_games.noparse = !cd_select_needs_moves(selector) && osel == NULL;
	cli_games.opts.lang = cli_opts.lang;
	if (osel != NULL)	/* (classifying makes fewer moves again) */
		cli_games.opts.flags |= CD_PGN_PARSE_MAIN_KEYS;
	cli_games.each = each;
	cli_games.need_parse = need_parse;
	if (by_number) {
		/* no game past the last listed is read */
		uint64_t last = cd_select_last_number(selector);

		if (!opt_invert && last != UINT64_MAX)
			cli_games.limit = last;
	}
	/* -m needs the games in order */
	if (opt_has_max)
		cli_games.jobs = 1;
	/* -m 0 selects nothing and reads nothing, as grep's */
	if (opt_has_max && opt_max == 0)
		cli_games.stop = 1;
	cli_files_open(argc, argv, optind);
	many_inputs = argc - optind > 1;
	cli_inputs_done = read_all;
	if (cli_each_input(argc, argv, optind, games_file) != 0)
		status = 2;
	cli_progress_end();
	cli_games_end();
	cli_rejects_close();
	if (opt_count && !many_inputs)
		fprintf(cli_output_file(), "%llu\n",
		    (unsigned long long)selected);
	for (i = 0; i < 64 && cd_select_tag_name(selector, i) != NULL; i++)
		if (cli_games.read > 0 && !((tags_seen >> i) & 1) && !cli_quiet)
			cli_warn("warning: no game has a tag %s: the "
			    "conditions on it never hold (or always, for != "
			    "and !~)", cd_select_tag_name(selector, i));
	if (cli_opts.stats) {
		cli_unit = "games";
		cli_stats(cli_games.read, selected, cli_games.rejected);
	}
	cd_select_free(selector);
	cd_select_free(osel);
	if (status == 0)
		status = selected > 0 ? 0 : 1;
	cli_exit(status);
}
