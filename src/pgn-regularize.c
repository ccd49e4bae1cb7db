/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * pgn-regularize: PGN in import format in, export format out
 * (pgn(5)), every move checked.  A game that does not
 * read is not written: one message names it, and its original bytes go
 * to the rejects file.  Games read = games written + games rejected.
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
#include "cli/rewrite.h"

static int opt_reduced, opt_verbose, opt_salvage;
static unsigned write_flags;	/* CD_PGN_NO_COMMENTS ... */
/* --notation=san:LANG: the piece letters written (NULL: English) */
static const cd_san_lang *write_lang;
static cd_san_lang write_letters;
static int opt_seven, opt_no_tags, opt_plycount, opt_total_plycount,
    opt_fix_result;
static struct cli_names keep_tags, drop_tags, tag_order;
static bool rewrite_tags_on;	/* one of them asked for */
static unsigned long opt_max_plies, opt_drop_plies;
static unsigned opt_comments;	/* CLI_CUT_FEN_COMMENTS ... */
static int opt_hash_tag;
static bool opt_split, opt_split_position;	/* --split-variations */
/* --stop-at-*: where the game is cut (NULL: nowhere) */
static cd_select *stop_at;

/* A thread's state, kept between games (job->priv). */
struct thread {
	cd_game_walk walk;	/* -v: the replay of check_result */
	cd_game *cut;		/* --max-plies, --drop-plies: the game cut */
	cd_game *line;		/* --split-variations: a line */
	uint32_t *lines;	/* the first moves of the lines */
	size_t lines_cap;
};

static struct thread *
thread_of(struct cli_job *j)
{
	struct thread *t = j->priv;

	if (t == NULL) {
		if ((t = calloc(1, sizeof(*t))) == NULL)
			cli_fatal("out of memory");
		cd_game_walk_init(&t->walk);
		j->priv = t;
	}
	return t;
}
static const char *opt_strip;	/* --strip-commands: names, "" for all */
static const cd_openings *openings;	/* --openings */

static void
usage(void)
{
	printf("Usage: %s [OPTION]... [FILE]...\n", cli_prog);
	fputs(
	    "Read PGN games (lenient import format), check every move, and\n"
	    "write them in the exact export format.\n"
	    "\n"
	    "      --openings=FILE   classify openings by the table FILE (TSV or\n"
	    "                        PGN; repeatable; default: the files\n"
	    "                        $CHESSDATA_OPENINGS names, colon-separated)\n"
	    "                        and write them as ECO and Opening tags\n"
	    "  -w, --width=N         fill movetext lines to N columns (default\n"
	    "                        79, the export format's)\n"
	    "      --notation=NAME   write the moves in san (the default), lan\n"
	    "                        (e2e4), hlan (e2-e4), elan (Ng1f3), uci,\n"
	    "                        san:LANG (SAN with the piece letters of a\n"
	    "                        language, as --lang, or six letters for\n"
	    "                        PNBRQK) or figurine (SAN with figurines)\n"
	    "      --no-comments     leave out comments\n"
	    "      --no-move-numbers leave out move numbers\n"
	    "      --no-nags         leave out NAGs\n"
	    "      --no-results      leave out the termination marker (the\n"
	    "                        Result tag stays)\n"
	    "      --no-variations   leave out variations\n"
	    "  -r, --reduced         write the reduced export format\n"
	    "      --salvage         write a game with a move that does not\n"
	    "                        read up to its last legal move (its\n"
	    "                        bytes still go to the rejects file)\n"
	    "Moves:\n"
	    "      --drop-plies=N    start the game after its first N plies\n"
	    "                        (from a FEN)\n"
	    "      --max-plies=N     keep the first N plies of the main line\n"
	    "      --stop-at-material=SPEC  end the game at the first position\n"
	    "                        with this material (as pgn-select\n"
	    "                        --material: KRPkr, relations, @N)\n"
	    "      --stop-at-occurs=LIST  end it after the first check,\n"
	    "                        underpromotion, ... (as pgn-select --occurs)\n"
	    "      --stop-at-placement=PAT  end it at the first position with\n"
	    "                        this piece placement (as pgn-select\n"
	    "                        --placement)\n"
	    "      --stop-at-position=FEN  end it at this position\n"
	    "      --split-variations[=position|start]  write each line as a\n"
	    "                        game: a variation from its position (a\n"
	    "                        FEN), or from the start\n"
	    "Comments:\n"
	    "      --fen-comments    the FEN after every move as a comment\n"
	    "      --final-fen       the final FEN, quoted, as a comment\n"
	    "      --hash-comments   the Polyglot key after every move\n"
	    "Tags:\n"
	    "      --drop-tags=LIST  remove the tags named (comma-separated)\n"
	    "      --fix-result      the result from a final checkmate or\n"
	    "                        stalemate\n"
	    "      --hash-tag        add a PolyglotKey tag (the final position)\n"
	    "      --keep-tags=LIST  keep only the roster and the tags named\n"
	    "      --no-tags         write no tag section\n"
	    "      --plycount        add a PlyCount tag (main line plies)\n"
	    "      --seven-tags      keep only the seven tag roster\n"
	    "      --tag-order=LIST  write the tags named first after the roster\n"
	    "      --total-plycount  add a TotalPlyCount tag (variations too)\n"
	    "      --strip-commands[=LIST]  remove the [%name ...] commands of\n"
	    "                        comments (LIST: names such as clk,emt,eval;\n"
	    "                        default: every command)\n"
	    "  -v, --verbose         warn about what was normalized, and about\n"
	    "                        results that contradict the final position\n", stdout);
	cli_usage_options(CLI_TAKE_GAMES);
	fputs(
	    "\n"
	    "With no FILE, or when FILE is -, read standard input.\n"
	    "Exit status: 0 success, 1 some game was rejected or salvaged,\n"
	    "2 usage or system error.\n", stdout);
}

static void
warn_cb(void *ctx, unsigned long line, unsigned long col, const char *msg)
{
	const struct cli_job *j = ctx;

	cli_warn_at(j->file, line, col, "warning: game %llu: %s",
	    (unsigned long long)j->number, msg);
}

/* With -v: a game that goes on after an automatic draw (FIDE 9.6: a
 * fivefold repetition or 75 moves), told once at the move that drew;
 * and a result that the final position contradicts. */
static void
check_result(struct cli_job *j, const cd_pgn_raw_game *raw)
{
	cd_game_walk *w = &thread_of(j)->walk;
	cd_pgn_result r = cd_game_result(j->game);
	const cd_game *g = j->game;
	const char *why = NULL;
	unsigned end = 0;
	bool told = false;

	cd_game_walk_start(w, g, true);
	while (!told && g->nodes[w->node].next != 0) {
		int white = w->rules.board.side == CD_WHITE;
		unsigned long num = w->rules.board.fullmove;

		cd_game_walk_next(w);
		if (!w->track || g->nodes[w->node].next == 0)
			break;
		end = cd_game_walk_endings(w) & CD_END_AUTOMATIC;
		if (end != 0) {
			cli_warn_at(j->file, raw->line, raw->col, "warning: game %llu: "
			    "%lu%s %s: %s: the game was drawn (FIDE %s) but "
			    "goes on", (unsigned long long)j->number, num,
			    white ? "." : "...", g->nodes[w->node].san,
			    end & CD_END_FIVEFOLD ? "fivefold repetition" :
			    "75 moves without a pawn move or capture",
			    end & CD_END_FIVEFOLD ? "9.6.1" : "9.6.2");
			told = true;
		}
	}
	while (cd_game_walk_next(w))
		;
	end = cd_game_walk_endings(w);
	/* what pgn-select --wrong-result selects; and a game the Laws
	 * ended whose result is left unknown */
	why = cd_result_contradiction(&w->rules.board, end |
	    (cd_game_lost_on_time(g) ? CD_END_TIME_FORFEIT : 0), r);
	if (r == CD_PGN_RESULT_UNKNOWN && (end & (CD_END_CHECKMATE |
	    CD_END_STALEMATE | CD_END_DEAD | CD_END_AUTOMATIC)))
		why = cd_result_contradiction(&w->rules.board, end,
		    end & CD_END_CHECKMATE ? CD_PGN_RESULT_DRAW :
		    CD_PGN_RESULT_WHITE);
	if (why != NULL)
		cli_warn_at(j->file, raw->line, raw->col, "warning: game %llu: "
		    "the game %s but the result is %s",
		    (unsigned long long)j->number, why, cd_pgn_result_str(r));
}

static void
thread_free(void *p)
{
	struct thread *t = p;

	cd_game_walk_free(&t->walk);
	cd_game_free(t->cut);
	cd_game_free(t->line);
	free(t->lines);
	free(t);
}

/* The game's opening as tags: ECO and Opening, Variation and
 * SubVariation from a PGN table (removed with a TSV table, whose name
 * holds them); with -v, a warning for each the game had with another
 * value.  A game the table does not classify keeps its tags. */
static void
classify(struct cli_job *j, const cd_pgn_raw_game *raw)
{
	static const char *const name[4] = { "ECO", "Opening", "Variation",
	    "SubVariation" };
	static const size_t name_len[4] = { 3, 7, 9, 12 };
	cd_game *g = j->game;
	const char *value[4];
	long at[4] = { -1, -1, -1, -1 };
	cd_opening op;
	size_t i;
	int k;

	if (!cd_openings_classify(openings, g, &op))
		return;
	value[0] = op.eco;
	value[1] = op.opening;
	value[2] = op.variation;
	value[3] = op.subvariation;
	/* the four tags the game has, in one pass */
	for (i = 0; i < g->ntags; i++)
		for (k = 0; k < 4; k++)
			if (g->tags[i].name_len == name_len[k] &&
			    memcmp(cd_game_str(g, g->tags[i].name), name[k],
			    name_len[k]) == 0)
				at[k] = (long)i;
	for (k = 0; k < 4; k++) {
		const char *old = at[k] < 0 ? NULL :
		    cd_game_str(g, g->tags[at[k]].value);
		size_t vlen = strlen(value[k]);

		if (old != NULL && g->tags[at[k]].value_len == vlen &&
		    memcmp(old, value[k], vlen) == 0)
			continue;
		if (opt_verbose && old != NULL)
			cli_warn_at(j->file, raw->line, raw->col, "warning: "
			    "game %llu: %s \"%s\" %s%s%s",
			    (unsigned long long)j->number, name[k], old,
			    vlen > 0 ? "replaced by \"" : "removed", value[k],
			    vlen > 0 ? "\"" : "");
		if (vlen > 0 ? cd_game_add_tag(g, name[k], name_len[k],
		    value[k], vlen) != CD_OK : old != NULL &&
		    !cd_game_remove_tag(g, name[k]))
			cli_fatal("out of memory");
	}
}

/* Set tag name to the count n; with -v, say so when the game had it
 * with another value. */
static void
count_tag(struct cli_job *j, const cd_pgn_raw_game *raw, const char *name,
    unsigned long n)
{
	char v[24];
	size_t len = (size_t)snprintf(v, sizeof(v), "%lu", n), olen;
	const char *old = cd_game_tag_value(j->game, name, &olen);

	if (old != NULL && olen == len && memcmp(old, v, len) == 0)
		return;
	if (opt_verbose && old != NULL)
		cli_warn_at(j->file, raw->line, raw->col, "warning: game %llu: "
		    "%s \"%s\" replaced by \"%s\"",
		    (unsigned long long)j->number, name, old, v);
	if (cd_game_add_tag(j->game, name, strlen(name), v, len) != CD_OK)
		cli_fatal("out of memory");
}

/* The rewrites of the game's tags and result that were asked for. */
static void
rewrite_tags(struct cli_job *j, const cd_pgn_raw_game *raw)
{
	cd_game *g = j->game;

	if (opt_fix_result) {
		const char *why;
		cd_pgn_result r = cli_result_fix(g, &why);

		if (why != NULL && opt_verbose)
			cli_warn_at(j->file, raw->line, raw->col, "warning: "
			    "game %llu: result %s made %s: the game ends in %s",
			    (unsigned long long)j->number, cd_pgn_result_str(r),
			    cd_pgn_result_str(cd_game_result(g)), why);
	}
	if (opt_seven || keep_tags.n > 0)
		cli_tags_keep(g, opt_seven ? NULL : &keep_tags);
	if (drop_tags.n > 0)
		cli_tags_drop(g, &drop_tags);
	if (opt_plycount)
		count_tag(j, raw, "PlyCount", cli_game_plies(g, false));
	if (opt_total_plycount)
		count_tag(j, raw, "TotalPlyCount", cli_game_plies(g, true));
	if (opt_hash_tag) {
		cd_board b;
		char v[24];
		int len;

		cd_game_end_position(g, &b);
		len = snprintf(v, sizeof(v), "%016llx",
		    (unsigned long long)cd_polyglot_key(&b));
		if (cd_game_add_tag(g, "PolyglotKey", 11, v, (size_t)len) !=
		    CD_OK)
			cli_fatal("out of memory");
	}
}

/* Write j->game with the rewrites of its tags; its status. */
static cd_status
write_game(struct cli_job *j, const cd_pgn_raw_game *raw)
{
	cd_status st;
	size_t from = j->out->len;

	if (rewrite_tags_on)
		rewrite_tags(j, raw);
	st = cd_pgn_write_buf_lang(j->game, write_flags, write_lang, j->out);
	if (st == CD_OK && tag_order.n > 0)
		cli_tags_order(j->out, from, &tag_order);
	if (st == CD_OK && opt_no_tags)
		cli_tags_none(j->out, from);
	if (st == CD_ERR_NOMEM)
		cli_fatal("out of memory");
	if (st == CD_OK && opt_verbose)
		check_result(j, raw);
	return st;
}

/* --split-variations: each line of j->game as a game; the first
 * status that is not CD_OK. */
static cd_status
write_lines(struct cli_job *j, const cd_pgn_raw_game *raw)
{
	struct thread *t = thread_of(j);
	cd_game *g = j->game;
	cd_status st = CD_OK;
	size_t n, i;

	if (t->line == NULL && (t->line = cd_game_new()) == NULL)
		cli_fatal("out of memory");
	n = cli_game_lines(g, &t->lines, &t->lines_cap);
	for (i = 0; i < n && st == CD_OK; i++) {
		cli_game_line(t->line, g, t->lines[i], opt_split_position,
		    0);
		j->game = t->line;
		st = write_game(j, raw);
		j->game = g;
	}
	return st;
}

/* Write one game that parsed; NULL, or why it is rejected. */
static const char *
regularize(struct cli_job *j, const cd_pgn_raw_game *raw)
{
	cd_status st;
	cd_game *parsed = j->game;
	unsigned long max = opt_max_plies > 0 ? opt_max_plies : CLI_CUT_ALL;
	uint32_t at;

	if (openings != NULL)
		classify(j, raw);
	if (opt_strip != NULL)
		cd_game_strip_commands(j->game, *opt_strip ? opt_strip : NULL);
	if (stop_at != NULL && cd_select_match_ply(stop_at, j->game, &at)) {
		/* (the plies kept after --drop-plies, at most --max-plies) */
		at = at > opt_drop_plies ? at - (uint32_t)opt_drop_plies : 0;
		if (max == CLI_CUT_ALL || at < max)
			max = at;
	}
	if (max != CLI_CUT_ALL || opt_drop_plies > 0 || opt_comments != 0) {
		struct thread *t = thread_of(j);

		if (t->cut == NULL && (t->cut = cd_game_new()) == NULL)
			cli_fatal("out of memory");
		cli_game_cut(t->cut, j->game, opt_drop_plies, max,
		    opt_comments);
		j->game = t->cut;	/* (until the end of this call) */
	}
	st = opt_split ? write_lines(j, raw) : write_game(j, raw);
	j->game = parsed;
	/* (an error is not reachable from the parser: it rejects null
	 * moves in the main line of the reduced form) */
	return st == CD_OK ? NULL : cd_strerror(st);
}

/* Whether an option that regularize or write_game looks at is given:
 * each must be named here. */
static bool
changes_games(void)
{
	return openings != NULL || opt_strip != NULL || stop_at != NULL ||
	    opt_max_plies != 0 || opt_drop_plies != 0 || opt_comments != 0 ||
	    opt_split || rewrite_tags_on || tag_order.n != 0 || opt_no_tags ||
	    opt_verbose;
}

/* regularize when !changes_games() (most runs): the game written as it
 * parsed. */
static const char *
regularize_plain(struct cli_job *j, const cd_pgn_raw_game *raw)
{
	cd_status st = cd_pgn_write_buf_lang(j->game, write_flags,
	    write_lang, j->out);

	(void)raw;
	if (st == CD_ERR_NOMEM)
		cli_fatal("out of memory");
	return st == CD_OK ? NULL : cd_strerror(st);
}

/* The writer's flag of a --notation value; write_lang for
 * san:LANG, a language of the standard's section 17 (--lang) or six
 * upper-case letters for P N B R Q K. */
static unsigned
notation_arg(const char *arg)
{
	static const struct { const char *name; unsigned flag; } n[] = {
		{ "san", 0 }, { "lan", CD_PGN_LAN }, { "hlan", CD_PGN_HLAN },
		{ "elan", CD_PGN_ELAN }, { "uci", CD_PGN_UCI },
		{ "figurine", CD_PGN_FIGURINE }
	};
	size_t i;

	write_lang = NULL;
	if (strncmp(arg, "san:", 4) == 0) {
		const char *l = arg + 4;

		if ((write_lang = cd_san_lang_find(l)) != NULL)
			return 0;
		for (i = 0; i < 6 && l[i] >= 'A' && l[i] <= 'Z'; i++)
			write_letters.letters[i] = l[i];
		if (i == 6 && l[6] == '\0') {
			write_lang = &write_letters;
			return 0;
		}
		cli_usage_error("--notation: '%s' is neither a language nor "
		    "six upper-case letters for P N B R Q K", l);
	}
	for (i = 0; i < sizeof(n) / sizeof(n[0]); i++)
		if (strcmp(arg, n[i].name) == 0)
			return n[i].flag;
	cli_usage_error("--notation: '%s' is none of san, san:LANG, lan, "
	    "hlan, elan, uci, figurine", arg);
}

/* Add a --stop-at-* condition of kind k. */
static void
stop_at_add(const char *option, cd_select_kind k, const char *arg)
{
	cd_error err;
	cd_status st;

	if (stop_at == NULL && (stop_at = cd_select_new(0)) == NULL)
		cli_fatal("out of memory");
	st = cd_select_add(stop_at, k, arg, &err);
	if (st == CD_ERR_NOMEM)
		cli_fatal("out of memory");
	if (st != CD_OK)
		cli_usage_error("%s '%s': %s", option, arg, err.msg);
}

/* The value of a ply count option, at least min. */
static unsigned long
plies_arg(const char *option, const char *arg, unsigned long min)
{
	char *end;
	unsigned long n;

	errno = 0;
	n = strtoul(arg, &end, 10);
	if (end == arg || *end != '\0' || *arg == '-' || errno != 0 ||
	    n < min || n > 0xffffffffUL)
		cli_usage_error("%s: '%s' is not a number of plies%s", option,
		    arg, min > 0 ? " above 0" : "");
	return n;
}

/* The value of --width: a line length of 1 .. CD_PGN_WIDTH_MAX. */
static unsigned long
width_arg(const char *arg)
{
	char *end;
	unsigned long n;

	errno = 0;
	n = strtoul(arg, &end, 10);
	if (end == arg || *end != '\0' || *arg == '-' || errno != 0 ||
	    n < 1 || n > CD_PGN_WIDTH_MAX)
		cli_usage_error("--width: '%s' is not a line length of 1 to "
		    "%u", arg, CD_PGN_WIDTH_MAX);
	return n;
}

int
main(int argc, char **argv)
{
	enum { OPT_OPENINGS = 256, OPT_STRIP, OPT_NO_COMMENTS,
		OPT_NO_NAGS, OPT_NO_VARIATIONS, OPT_NO_RESULTS,
		OPT_NO_MOVE_NUMBERS, OPT_SEVEN, OPT_KEEP_TAGS, OPT_DROP_TAGS,
		OPT_TAG_ORDER, OPT_NO_TAGS, OPT_PLYCOUNT, OPT_TOTAL_PLYCOUNT,
		OPT_FIX_RESULT, OPT_MAX_PLIES, OPT_DROP_PLIES, OPT_FEN_COMMENTS,
		OPT_FINAL_FEN, OPT_HASH_TAG, OPT_HASH_COMMENTS, OPT_SPLIT,
		OPT_NOTATION, OPT_SALVAGE, OPT_STOP_MATERIAL, OPT_STOP_OCCURS,
		OPT_STOP_PLACEMENT, OPT_STOP_POSITION };
	static const struct option longopts[] = {
		{ "drop-plies", required_argument, NULL, OPT_DROP_PLIES },
		{ "drop-tags", required_argument, NULL, OPT_DROP_TAGS },
		{ "fen-comments", no_argument, NULL, OPT_FEN_COMMENTS },
		{ "final-fen", no_argument, NULL, OPT_FINAL_FEN },
		{ "fix-result", no_argument, NULL, OPT_FIX_RESULT },
		{ "hash-comments", no_argument, NULL, OPT_HASH_COMMENTS },
		{ "hash-tag", no_argument, NULL, OPT_HASH_TAG },
		{ "keep-tags", required_argument, NULL, OPT_KEEP_TAGS },
		{ "max-plies", required_argument, NULL, OPT_MAX_PLIES },
		{ "no-comments", no_argument, NULL, OPT_NO_COMMENTS },
		{ "no-tags", no_argument, NULL, OPT_NO_TAGS },
		{ "plycount", no_argument, NULL, OPT_PLYCOUNT },
		{ "seven-tags", no_argument, NULL, OPT_SEVEN },
		{ "split-variations", optional_argument, NULL, OPT_SPLIT },
		{ "stop-at-material", required_argument, NULL,
		    OPT_STOP_MATERIAL },
		{ "stop-at-occurs", required_argument, NULL, OPT_STOP_OCCURS },
		{ "stop-at-placement", required_argument, NULL,
		    OPT_STOP_PLACEMENT },
		{ "stop-at-position", required_argument, NULL,
		    OPT_STOP_POSITION },
		{ "tag-order", required_argument, NULL, OPT_TAG_ORDER },
		{ "total-plycount", no_argument, NULL, OPT_TOTAL_PLYCOUNT },
		{ "no-move-numbers", no_argument, NULL, OPT_NO_MOVE_NUMBERS },
		{ "no-nags", no_argument, NULL, OPT_NO_NAGS },
		{ "no-results", no_argument, NULL, OPT_NO_RESULTS },
		{ "no-variations", no_argument, NULL, OPT_NO_VARIATIONS },
		{ "notation", required_argument, NULL, OPT_NOTATION },
		{ "openings", required_argument, NULL, OPT_OPENINGS },
		{ "reduced", no_argument, NULL, 'r' },
		{ "salvage", no_argument, NULL, OPT_SALVAGE },
		{ "strip-commands", optional_argument, NULL, OPT_STRIP },
		{ "verbose", no_argument, NULL, 'v' },
		{ "width", required_argument, NULL, 'w' },
		{ NULL, 0, NULL, 0 }
	};
	int c, status = 0;

	cli_init(argv[0]);
	while ((c = cli_getopt(argc, argv, "rvw:", longopts, CLI_TAKE_GAMES,
	    usage)) != -1) {
		switch (c) {
		case OPT_OPENINGS: cli_openings_add(optarg); break;
		case OPT_NO_COMMENTS: write_flags |= CD_PGN_NO_COMMENTS; break;
		case OPT_NO_MOVE_NUMBERS:
			write_flags |= CD_PGN_NO_MOVE_NUMBERS;
			break;
		case OPT_NO_NAGS: write_flags |= CD_PGN_NO_NAGS; break;
		case OPT_NO_RESULTS: write_flags |= CD_PGN_NO_RESULT; break;
		case OPT_NO_VARIATIONS:
			write_flags |= CD_PGN_NO_VARIATIONS;
			break;
		case OPT_SEVEN: opt_seven = 1; break;
		case OPT_KEEP_TAGS:
			cli_names_add(&keep_tags, optarg, "--keep-tags");
			break;
		case OPT_DROP_TAGS:
			cli_names_add(&drop_tags, optarg, "--drop-tags");
			break;
		case OPT_TAG_ORDER:
			cli_names_add(&tag_order, optarg, "--tag-order");
			break;
		case OPT_NO_TAGS: opt_no_tags = 1; break;
		case OPT_PLYCOUNT: opt_plycount = 1; break;
		case OPT_TOTAL_PLYCOUNT: opt_total_plycount = 1; break;
		case OPT_FIX_RESULT: opt_fix_result = 1; break;
		case OPT_FEN_COMMENTS: opt_comments |= CLI_CUT_FEN_COMMENTS; break;
		case OPT_HASH_COMMENTS:
			opt_comments |= CLI_CUT_KEY_COMMENTS;
			break;
		case OPT_FINAL_FEN: opt_comments |= CLI_CUT_FINAL_FEN; break;
		case OPT_HASH_TAG: opt_hash_tag = 1; break;
		case OPT_NOTATION:
			write_flags &= ~(unsigned)CD_PGN_NOTATION_MASK;
			write_flags |= notation_arg(optarg);
			break;
		case OPT_SPLIT:
			opt_split = true;
			if (optarg == NULL || strcmp(optarg, "position") == 0)
				opt_split_position = true;
			else if (strcmp(optarg, "start") != 0)
				cli_usage_error("--split-variations: '%s' is "
				    "neither position nor start", optarg);
			break;
		case OPT_MAX_PLIES:
			opt_max_plies = plies_arg("--max-plies", optarg, 1);
			break;
		case OPT_DROP_PLIES:
			opt_drop_plies = plies_arg("--drop-plies", optarg, 0);
			break;
		case OPT_STOP_MATERIAL:
			stop_at_add("--stop-at-material", CD_SEL_MATERIAL,
			    optarg);
			break;
		case OPT_STOP_OCCURS:
			stop_at_add("--stop-at-occurs", CD_SEL_OCCURS, optarg);
			break;
		case OPT_STOP_PLACEMENT:
			stop_at_add("--stop-at-placement", CD_SEL_PLACEMENT,
			    optarg);
			break;
		case OPT_STOP_POSITION:
			stop_at_add("--stop-at-position", CD_SEL_POSITION,
			    optarg);
			break;
		case 'r': opt_reduced = 1; break;
		case OPT_SALVAGE: opt_salvage = 1; break;
		case OPT_STRIP: opt_strip = optarg ? optarg : ""; break;
		case 'v': opt_verbose = 1; break;
		case 'w':
			write_flags &= ~(unsigned)CD_PGN_WIDTH_MASK;
			write_flags |= CD_PGN_WIDTH(width_arg(optarg));
			break;
		}
	}
	if (opt_reduced)
		write_flags |= CD_PGN_REDUCED;
	/* the comments added are written, the game's not */
	if (opt_comments != 0 && (write_flags & CD_PGN_NO_COMMENTS)) {
		write_flags &= ~(unsigned)CD_PGN_NO_COMMENTS;
		opt_comments |= CLI_CUT_NO_COMMENTS;
	}
	rewrite_tags_on = opt_fix_result || opt_seven || keep_tags.n > 0 ||
	    drop_tags.n > 0 || opt_plycount || opt_total_plycount ||
	    opt_hash_tag;
	openings = cli_openings_load(argc, argv, optind);
	cli_games.opts.lang = cli_opts.lang;
	cli_games.opts.flags = opt_reduced ? CD_PGN_PARSE_NO_NULL_MAIN : 0;
	if (openings != NULL)	/* (classifying makes fewer moves again) */
		cli_games.opts.flags |= CD_PGN_PARSE_MAIN_KEYS;
	if (opt_verbose)
		cli_games.opts.warn = warn_cb;
	cli_games.each = changes_games() ? regularize : regularize_plain;
	if (opt_salvage)
		cli_games.salvage = cli_salvage;
	cli_games.priv_free = thread_free;
	cli_files_open(argc, argv, optind);
	if (cli_each_input(argc, argv, optind, cli_games_file) != 0)
		status = 2;
	cli_games_end();
	if (status == 0 && cli_games.salvaged > 0)
		status = 1;	/* (as for a game rejected) */
	cli_finish(status, cli_games.read, cli_games.written,
	    cli_games.rejected);
}
