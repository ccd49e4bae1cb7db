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

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "chessdata.h"
#include "cli.h"
#include "games.h"

static int opt_invert, opt_count, opt_stats, opt_icase, opt_has_max;
static uint64_t opt_max;
static const char *opt_rejects;
static const cd_san_lang *opt_lang;

static cd_select *selector;
static uint64_t selected;	/* updated atomically: threads share it */

/* The conditions as given, read once every option is known (-i). */
static struct cond {
	cd_select_kind kind;
	const char *text, *option;
} *conds;
static size_t nconds;

static void
usage(void)
{
	printf("Usage: %s [OPTION]... [FILE]...\n"
	    "Write the PGN games that meet every condition, their bytes as\n"
	    "they came (grep for chess games).\n\n"
	    "Conditions (all must hold):\n"
	    "  -t, --tag='NAME OP VALUE'  a tag condition; OP: = != < <= > >=\n"
	    "                        ~ !~ (extended regular expression);\n"
	    "                        integers compare as numbers, Date and\n"
	    "                        Round in the collating order\n"
	    "      --player=REGEX    White or Black matches REGEX\n"
	    "      --white=REGEX     White matches REGEX\n"
	    "      --black=REGEX     Black matches REGEX\n"
	    "      --eco=RANGES      ECO code in one of RANGES (A00-B99,C42)\n"
	    "      --result=LIST     result one of LIST (1-0,0-1,1/2-1/2,*)\n"
	    "      --plies=MIN..MAX  main line of MIN to MAX half-moves\n"
	    "      --position=FEN    main line reaches FEN (repeatable: any)\n"
	    "      --material=PIECES main line reaches exactly this material\n"
	    "                        (KRPkr; a * after a letter: any more)\n"
	    "      --ends=KINDS      final position ends by one of KINDS:\n"
	    "                        checkmate stalemate dead fivefold\n"
	    "                        seventyfive threefold fifty\n"
	    "  -i, --ignore-case     regular expressions and = ignore case\n"
	    "  -v, --invert-match    select the games that fail a condition\n\n"
	    "Output:\n"
	    "  -c, --count           print the number of selected games only\n"
	    "  -j, --jobs=N          parse with N threads (conditions on moves\n"
	    "                        only; default: one per CPU)\n"
	    "      --lang=LANG       read piece letters of language LANG\n"
	    "  -m, --max-count=N     stop after N selected games\n"
	    "  -o, --output=FILE     write to FILE (may be one of the inputs)\n"
	    "  -z, --compress=FORMAT compress the output: zstd, gzip, bzip2, xz\n"
	    "                        (default: from the suffix of -o)\n"
	    "      --level=N         level (zstd 1-19, xz 0-9, else 1-9)\n"
	    "  -q, --quiet           no progress line, no warning about text\n"
	    "                        that is not PGN\n"
	    "      --rejects=FILE    copy the bytes of every game that does not\n"
	    "                        read to FILE (conditions on moves)\n"
	    "      --stats           print counts and time on standard error\n"
	    "  -h, --help            show this help and exit\n"
	    "  -V, --version         show the version and exit\n\n"
	    "With no FILE, or when FILE is -, read standard input.\n"
	    "Exit status: 0 some game selected, 1 none, 2 usage or system\n"
	    "error.\n", cli_prog);
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
	nconds++;
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

/* Whether the game is selected, and counted: the last of -m sets
 * cli_games.stop. */
static bool
take(const cd_pgn_raw_game *raw, const cd_game *g)
{
	bool sel;

	sel = cd_select_match_tags(selector, raw) &&
	    (g == NULL || cd_select_match_moves(selector, g));
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

/* Select or pass one game, parsed when there are conditions on moves
 * (cli_games_file rejects the games that do not parse; the others are
 * never rejected), else as the reader frames it. */
static const char *
each(struct cli_job *j, const cd_pgn_raw_game *raw)
{
	if (take(raw, j->game) && !opt_count)
		cli_append_game(j->out, raw->text, raw->len);
	return NULL;
}

static int
games_file(FILE *f, const char *name)
{
	if (cli_games.stop)
		return 0;
	return cli_games_file(f, name);
}

int
main(int argc, char **argv)
{
	enum {
		OPT_PLAYER = 256, OPT_WHITE, OPT_BLACK, OPT_ECO, OPT_RESULT,
		OPT_PLIES, OPT_POSITION, OPT_MATERIAL, OPT_ENDS, OPT_LANG,
		OPT_REJECTS, OPT_STATS
	};
	static const struct option longopts[] = {
		{ "tag", required_argument, NULL, 't' },
		{ "player", required_argument, NULL, OPT_PLAYER },
		{ "white", required_argument, NULL, OPT_WHITE },
		{ "black", required_argument, NULL, OPT_BLACK },
		{ "eco", required_argument, NULL, OPT_ECO },
		{ "result", required_argument, NULL, OPT_RESULT },
		{ "plies", required_argument, NULL, OPT_PLIES },
		{ "position", required_argument, NULL, OPT_POSITION },
		{ "material", required_argument, NULL, OPT_MATERIAL },
		{ "ends", required_argument, NULL, OPT_ENDS },
		{ "ignore-case", no_argument, NULL, 'i' },
		{ "invert-match", no_argument, NULL, 'v' },
		{ "count", no_argument, NULL, 'c' },
		{ "jobs", required_argument, NULL, 'j' },
		{ "lang", required_argument, NULL, OPT_LANG },
		{ "max-count", required_argument, NULL, 'm' },
		{ "output", required_argument, NULL, 'o' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "rejects", required_argument, NULL, OPT_REJECTS },
		{ "stats", no_argument, NULL, OPT_STATS },
		CLI_COMPRESS_OPTIONS,
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 }
	};
	const char *outpath = NULL;
	cd_error err;
	int c, status = 0;
	size_t i;

	cli_init(argv[0]);
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":t:icj:m:o:qvz:hV", longopts,
	    NULL)) != -1) {
		switch (c) {
		case 't': add_cond(CD_SEL_TAG, optarg, "--tag"); break;
		case OPT_PLAYER:
			add_cond(CD_SEL_PLAYER, optarg, "--player");
			break;
		case OPT_WHITE: add_cond(CD_SEL_WHITE, optarg, "--white"); break;
		case OPT_BLACK: add_cond(CD_SEL_BLACK, optarg, "--black"); break;
		case OPT_ECO: add_cond(CD_SEL_ECO, optarg, "--eco"); break;
		case OPT_RESULT:
			add_cond(CD_SEL_RESULT, optarg, "--result");
			break;
		case OPT_PLIES: add_cond(CD_SEL_PLIES, optarg, "--plies"); break;
		case OPT_POSITION:
			add_cond(CD_SEL_POSITION, optarg, "--position");
			break;
		case OPT_MATERIAL:
			add_cond(CD_SEL_MATERIAL, optarg, "--material");
			break;
		case OPT_ENDS: add_cond(CD_SEL_ENDS, optarg, "--ends"); break;
		case 'i': opt_icase = 1; break;
		case 'v': opt_invert = 1; break;
		case 'c': opt_count = 1; break;
		case 'j': cli_games.jobs = cli_parse_jobs(optarg); break;
		case OPT_LANG:
			opt_lang = cd_san_lang_find(optarg);
			if (opt_lang == NULL)
				cli_usage_error("unknown language '%s'", optarg);
			break;
		case 'm':
			opt_max = parse_max(optarg);
			opt_has_max = 1;
			break;
		case 'o': outpath = optarg; break;
		case 'q': cli_quiet = 1; break;
		case OPT_REJECTS: opt_rejects = optarg; break;
		case OPT_STATS: opt_stats = 1; break;
		case 'z': case CLI_OPT_LEVEL:
			cli_compress_option(c, optarg);
			break;
		case 'h': usage(); cli_exit(0);
		case 'V': cli_print_version(); cli_exit(0);
		default:
			cli_bad_option(c, argv);
		}
	}
	selector = cd_select_new(opt_icase ? CD_SELECT_ICASE : 0);
	if (selector == NULL)
		cli_fatal("out of memory");
	for (i = 0; i < nconds; i++) {
		cd_status st = cd_select_add(selector, conds[i].kind,
		    conds[i].text, &err);

		if (st == CD_ERR_NOMEM)
			cli_fatal("out of memory");
		if (st != CD_OK)
			cli_usage_error("%s '%s': %s", conds[i].option,
			    conds[i].text, err.msg);
	}
	free(conds);
	/* tags alone: the movetext is not parsed */
	cli_games.noparse = !cd_select_needs_moves(selector);
	cli_games.opts.lang = opt_lang;
	cli_games.each = each;
	/* -m needs the games in order */
	if (opt_has_max)
		cli_games.jobs = 1;
	/* -m 0 selects nothing and reads nothing, as grep's */
	if (opt_has_max && opt_max == 0)
		cli_games.stop = 1;
	cli_rejects_open(opt_rejects);
	cli_output_open(outpath);
	if (cli_each_input(argc, argv, optind, games_file) != 0)
		status = 2;
	cli_progress_end();
	cli_games_end();
	cli_rejects_close();
	if (opt_count)
		fprintf(cli_output_file(), "%llu\n",
		    (unsigned long long)selected);
	if (opt_stats) {
		cli_unit = "games";
		cli_stats(cli_games.read, selected, cli_games.rejected);
	}
	cd_select_free(selector);
	if (status == 0)
		status = selected > 0 ? 0 : 1;
	cli_exit(status);
}
