/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * chess-perft: count the leaf nodes of the legal move tree, to prove and
 * time the move generator.  Reads FEN/EPD lines carrying ";D1 20 ;D2 400"
 * counts, or "id" / "epd" / "perft DEPTH COUNT" blocks, and checks every
 * expected count.
 */
#include "config.h"

#include <ctype.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "chessdata.h"
#include "cli.h"

#define MAX_DEPTH 32

struct job {
	char *fen;			/* the position text */
	unsigned long line;		/* where it was read */
	int form;			/* 0: EPD line, 1: block */
	char *id;			/* block form: the id line's text */
	int have[MAX_DEPTH + 1];
	uint64_t expect[MAX_DEPTH + 1];
};

static int opt_depth = -1;
static int opt_divide;
static int opt_960;
static int opt_stats;
static uint64_t total_nodes;
static unsigned long positions, checked, mismatches, bad_lines;
static int io_error;
static FILE *out;

static void
usage(void)
{
	printf("Usage: %s [OPTION]... [FILE]...\n"
	    "Count perft leaf nodes for FEN/EPD positions and check expected\n"
	    "counts given as ';D1 20 ;D2 400' or as id/epd/perft blocks.\n\n"
	    "  -d, --depth=N     count depths 1..N (check expected ones up to N)\n"
	    "      --divide      print the count below each root move\n"
	    "  -f, --fen=FEN     count this position (repeatable)\n"
	    "      --960         read castling rights as Chess960\n"
	    "  -o, --output=FILE write results to FILE\n"
	    "  -z, --compress=FMT compress the output (zstd, gzip, bzip2, xz)\n"
	    "                    (default: from the suffix of -o)\n"
	    "      --level=N     level (zstd 1-19, xz 0-9, else 1-9)\n"
	    "  -q, --quiet       no progress line\n"
	    "      --stats       print totals and speed on standard error\n"
	    "  -h, --help        show this help and exit\n"
	    "  -V, --version     show the version and exit\n\n"
	    "Without --depth, every depth with an expected count is counted,\n"
	    "and depths 1..3 for positions that carry none.\n"
	    "Exit status: 0 all counts match, 1 a mismatch or a bad line,\n"
	    "2 usage or system error.\n", cli_prog);
}

static void
free_job(struct job *j)
{
	free(j->fen);
	free(j->id);
	memset(j, 0, sizeof(*j));
}

static char *
dup_range(const char *s, size_t n)
{
	char *d = malloc(n + 1);

	if (d == NULL)
		cli_fatal("out of memory");
	memcpy(d, s, n);
	d[n] = '\0';
	return d;
}

/*
 * Parse the position, trying standard chess first, then Chess960.  Perft
 * suites hold positions no game can reach (a check no last move gives),
 * so only what the generator cannot handle is refused: missing or extra
 * kings, and the side not to move in check.
 */
static int
parse_position(const char *fen, size_t len, cd_board *b, const char **why,
    size_t *col)
{
	unsigned flags = CD_FEN_NO_VALIDATE |
	    (opt_960 ? CD_FEN_960 : CD_FEN_DETECT_960);
	cd_position_error pe;
	cd_status st;

	st = cd_fen_parse(b, fen, len, flags, why, col);
	if (st != CD_OK)
		return st;
	pe = cd_board_validate(b);
	switch (pe) {
	case CD_POS_NO_WHITE_KING:
	case CD_POS_NO_BLACK_KING:
	case CD_POS_TOO_MANY_KINGS:
	case CD_POS_OPPOSITE_CHECK:
	case CD_POS_BAD_CASTLING:
		*why = cd_position_strerror(pe);
		*col = 1;
		return CD_ERR_POSITION;
	default:
		return CD_OK;
	}
}

static void
run_job(struct job *j, const char *file)
{
	cd_board b;
	const char *why = NULL;
	size_t col = 0;
	int maxd = 0, d, i;
	uint64_t nodes[MAX_DEPTH + 1];

	if (parse_position(j->fen, strlen(j->fen), &b, &why, &col) != CD_OK) {
		cli_warn_at(file, j->line, col, "%s", why ? why : "bad FEN");
		bad_lines++;
		return;
	}
	positions++;
	for (d = 1; d <= MAX_DEPTH; d++)
		if (j->have[d])
			maxd = d;
	if (opt_depth >= 0)
		maxd = opt_depth;
	else if (maxd == 0)
		maxd = 3;
	for (d = 1; d <= maxd; d++) {
		nodes[d] = cd_perft(&b, d);
		total_nodes += nodes[d];
		if (j->have[d]) {
			checked++;
			if (nodes[d] != j->expect[d]) {
				mismatches++;
				cli_warn_at(file, j->line, 0,
				    "D%d: %llu nodes, expected %llu", d,
				    (unsigned long long)nodes[d],
				    (unsigned long long)j->expect[d]);
			}
		}
		cli_progress(positions, 0);
	}
	if (j->form == 1) {
		if (j->id)
			fprintf(out, "id %s\n", j->id);
		fprintf(out, "epd %s\n", j->fen);
		for (d = 1; d <= maxd; d++)
			fprintf(out, "perft %d %llu\n", d,
			    (unsigned long long)nodes[d]);
		fputc('\n', out);
	} else {
		fputs(j->fen, out);
		for (d = 1; d <= maxd; d++)
			fprintf(out, " ;D%d %llu", d, (unsigned long long)nodes[d]);
		fputc('\n', out);
	}
	if (opt_divide && maxd >= 1) {
		cd_move list[CD_MAX_MOVES];
		int n = cd_board_legal_moves(&b, list);

		for (i = 0; i < n; i++) {
			cd_board c = b;
			char uci[8];

			cd_move_to_uci(&b, list[i], uci);
			cd_board_make(&c, list[i]);
			fprintf(out, "%s: %llu\n", uci,
			    (unsigned long long)cd_perft(&c, maxd - 1));
		}
		fputc('\n', out);
	}
	cli_output_check();
}

/* "D5 4865609" pairs after the four or six FEN fields. */
static int
parse_counts(struct job *j, const char *s, const char *file,
    unsigned long line)
{
	while (*s) {
		char *end;
		unsigned long d;
		unsigned long long v;

		while (*s == ' ' || *s == '\t' || *s == ';' || *s == '\r')
			s++;
		if (!*s)
			break;
		if (*s == 'D' && isdigit((unsigned char)s[1])) {
			d = strtoul(s + 1, &end, 10);
			if (d == 0 || d > MAX_DEPTH || (*end != ' ' && *end != '\t')) {
				cli_warn_at(file, line, 0, "bad depth in '%.20s'", s);
				return -1;
			}
			s = end;
			while (*s == ' ' || *s == '\t')
				s++;
			if (!isdigit((unsigned char)*s)) {
				cli_warn_at(file, line, 0, "D%lu without a count", d);
				return -1;
			}
			v = strtoull(s, &end, 10);
			j->have[d] = 1;
			j->expect[d] = v;
			s = end;
		} else {
			/* another operation: skip to the next ';' */
			while (*s && *s != ';')
				s++;
		}
	}
	return 0;
}

/* The position part of an EPD line: four fields and numeric clocks. */
static size_t
fen_part(const char *s)
{
	size_t i = 0, end = 0;
	int field = 0;

	while (s[i] && field < 6) {
		size_t start;

		while (s[i] == ' ' || s[i] == '\t')
			i++;
		if (!s[i] || s[i] == ';')
			break;
		start = i;
		while (s[i] && s[i] != ' ' && s[i] != '\t' && s[i] != ';')
			i++;
		if (field >= 4) {
			size_t k;

			for (k = start; k < i; k++)
				if (!isdigit((unsigned char)s[k]))
					return end;
		}
		field++;
		end = i;
	}
	return end;
}

static void
read_file(FILE *f, const char *file)
{
	char *line = NULL;
	size_t cap = 0;
	ssize_t n;
	unsigned long lineno = 0;
	struct job blk;
	int in_block = 0;

	memset(&blk, 0, sizeof(blk));
	while ((n = getline(&line, &cap, f)) >= 0) {
		char *s = line;

		lineno++;
		while (n > 0 && (line[n - 1] == '\n' || line[n - 1] == '\r'))
			line[--n] = '\0';
		while (*s == ' ' || *s == '\t')
			s++;
		if (*s == '\0' || *s == '#')
			continue;
		if (strncmp(s, "id ", 3) == 0 || strncmp(s, "epd ", 4) == 0) {
			if (strncmp(s, "id ", 3) == 0 || (in_block && blk.fen)) {
				if (in_block && blk.fen)
					run_job(&blk, file);
				free_job(&blk);
			}
			in_block = 1;
			blk.form = 1;
			if (s[0] == 'i') {
				blk.id = dup_range(s + 3, strlen(s + 3));
				blk.line = lineno;
			} else {
				blk.fen = dup_range(s + 4, strlen(s + 4));
				if (!blk.line)
					blk.line = lineno;
			}
			continue;
		}
		if (strncmp(s, "perft ", 6) == 0 && in_block) {
			unsigned long d;
			unsigned long long v;

			if (sscanf(s + 6, "%lu %llu", &d, &v) != 2 || d == 0 ||
			    d > MAX_DEPTH) {
				cli_warn_at(file, lineno, 1, "bad perft line");
				bad_lines++;
				continue;
			}
			blk.have[d] = 1;
			blk.expect[d] = v;
			continue;
		}
		if (in_block) {
			if (blk.fen)
				run_job(&blk, file);
			free_job(&blk);
			in_block = 0;
		}
		{
			struct job j;
			size_t fl = fen_part(s);

			memset(&j, 0, sizeof(j));
			j.line = lineno;
			j.fen = dup_range(s, fl);
			if (parse_counts(&j, s + fl, file, lineno) == 0)
				run_job(&j, file);
			else
				bad_lines++;
			free_job(&j);
		}
	}
	if (in_block && blk.fen)
		run_job(&blk, file);
	free_job(&blk);
	free(line);
	if (ferror(f) && cli_read_end(file, CD_ERR_IO) != 0)
		io_error = 1;
}

int
main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "depth", required_argument, NULL, 'd' },
		{ "divide", no_argument, NULL, 'D' },
		{ "fen", required_argument, NULL, 'f' },
		{ "960", no_argument, NULL, '9' },
		{ "output", required_argument, NULL, 'o' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "stats", no_argument, NULL, 's' },
		CLI_COMPRESS_OPTIONS,
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 }
	};
	const char *outpath = NULL;
	char **fens = NULL;
	int nfens = 0, c, i;
	double t0;

	cli_init(argv[0]);
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":d:f:o:qz:hV", longopts, NULL)) != -1) {
		switch (c) {
		case 'd': {
			char *end;
			long v = strtol(optarg, &end, 10);

			if (*end || v < 0 || v > MAX_DEPTH)
				cli_usage_error("bad depth '%s' (0 to %d)", optarg,
				    MAX_DEPTH);
			opt_depth = (int)v;
			break;
		}
		case 'D': opt_divide = 1; break;
		case 'f':
			fens = realloc(fens, (size_t)(nfens + 1) * sizeof(*fens));
			if (fens == NULL)
				cli_fatal("out of memory");
			fens[nfens++] = optarg;
			break;
		case '9': opt_960 = 1; break;
		case 'o': outpath = optarg; break;
		case 'q': cli_quiet = 1; break;
		case 's': opt_stats = 1; break;
		case 'z': case CLI_OPT_LEVEL:
			cli_compress_option(c, optarg);
			break;
		case 'h': usage(); cli_exit(0);
		case 'V': cli_print_version(); cli_exit(0);
		default: cli_bad_option(c, argv);
		}
	}
	out = cli_output_open(outpath);
	t0 = cli_now();
	for (i = 0; i < nfens; i++) {
		struct job j;

		memset(&j, 0, sizeof(j));
		j.fen = dup_range(fens[i], strlen(fens[i]));
		run_job(&j, "<argument>");
		free_job(&j);
	}
	for (i = optind; i < argc || (i == optind && nfens == 0); i++) {
		const char *name;
		FILE *f = cli_open_input(i < argc ? argv[i] : "-", &name);

		if (f == NULL) {
			io_error = 1;	/* exit 2 after the other files */
			continue;
		}
		read_file(f, name);
		cli_close_input(f);
	}
	free(fens);
	if (opt_stats) {
		double el = cli_now() - t0;

		cli_warn("%lu positions, %lu counts checked, %lu mismatches, "
		    "%llu nodes in %.3f s (%.1f Mnps)", positions, checked,
		    mismatches, (unsigned long long)total_nodes, el,
		    el > 0 ? total_nodes / el / 1e6 : 0.0);
	}
	cli_exit(io_error ? 2 : mismatches || bad_lines ? 1 : 0);
}
