/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * chess-perft: count the leaf nodes of the legal move tree, to prove and
 * time the move generator.  Reads FEN/EPD lines carrying ";D1 20 ;D2 400"
 * counts, or "id" / "epd" / "perft DEPTH COUNT" blocks, and checks every
 * expected count.
 */
#include "config.h"

#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "chessdata.h"
#include "cli/cli.h"

#define MAX_DEPTH 32

struct job {
	char *fen;			/* the position text */
	unsigned long line;		/* where it was read */
	int form;			/* 0: EPD line, 1: block */
	char *id;			/* block form: the id line's text */
	int parsed;			/* the position is in rec already */
	int have[MAX_DEPTH + 1];
	uint64_t expect[MAX_DEPTH + 1];
	unsigned long at[MAX_DEPTH + 1];	/* block form: the line of
						 * each "perft" count */
};

static int opt_depth = -1;
static int opt_divide;
static int opt_960;
static uint64_t total_nodes;
static unsigned long positions, checked, mismatches, bad_lines;
static int io_error;
static FILE *out;

static void
usage(void)
{
	printf("Usage: %s [OPTION]... [FILE]...\n", cli_prog);
	fputs(
	    "Count perft leaf nodes for FEN/EPD positions and check expected\n"
	    "counts given as ';D1 20 ;D2 400' or as id/epd/perft blocks.\n"
	    "\n"
	    "  -d, --depth=N         count depths 1..N (check expected ones up to\n"
	    "                        N)\n"
	    "      --divide          print the count below each root move\n"
	    "  -f, --fen=FEN         count this position (repeatable)\n"
	    "      --960             read castling rights as Chess960\n"
	    "  -q, --quiet           no progress line\n", stdout);
	cli_usage_options(CLI_TAKE_OUTPUT | CLI_TAKE_STATS | CLI_TAKE_COMPRESS |
	    CLI_TAKE_MEMLIMIT);
	fputs(
	    "\n"
	    "Without --depth, every depth with an expected count is counted,\n"
	    "and depths 1..3 for positions that carry none.\n"
	    "With no FILE, or when FILE is -, read standard input.\n"
	    "Exit status: 0 success, 1 a count did not match or a line was bad,\n"
	    "2 usage or system error.\n", stdout);
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

/* The record of the line being read (the library's EPD parser). */
static cd_epd *rec;

/* Whether rec's first error is about the position itself (a position
 * cd_fen_parse reads, refused by the rules). */
static bool
position_error(const cd_epd *e)
{
	size_t i, n = cd_epd_finding_count(e);

	for (i = 0; i < n; i++) {
		const cd_epd_finding *f = cd_epd_finding_get(e, i);

		if (f->error)
			return f->code == CD_EPD_E_POSITION;
	}
	return false;
}

/*
 * Parse an EPD or FEN line (len bytes, no NUL) into rec.  Perft suites
 * hold positions no game can reach (a check no last move gives), so
 * only what the generator cannot handle is refused (CD_EPD_NO_VALIDATE:
 * missing or extra kings, the side not to move in check, castling
 * rights without their pieces, whatever else is wrong); errors in operations other than the
 * counts do not matter here.  A position alone (alone: an "epd" line of
 * a block, -f) is what cd_fen_parse reads, and it says what is wrong
 * with one that is not.  On a bad position, its message and -1.
 */
static int
parse_line(const char *text, size_t len, bool alone, const char *file,
    unsigned long line)
{
	size_t i, n;
	cd_status st;

	if (rec == NULL && (rec = cd_epd_new()) == NULL)
		cli_fatal("out of memory");
	st = cd_epd_parse(rec, text, len, CD_EPD_NO_VALIDATE |
	    (opt_960 ? CD_EPD_960 : 0));
	if (st == CD_ERR_NOMEM)
		cli_fatal("out of memory");
	if (alone && (cd_epd_board(rec) == NULL ?
	    !position_error(rec) :
	    strspn(text + cd_epd_fields_end(rec), " \t") <
	    len - cd_epd_fields_end(rec))) {
		cd_board b;
		cd_error err;

		st = cd_fen_parse(&b, text, len, CD_FEN_NO_VALIDATE |
		    (opt_960 ? CD_FEN_960 : CD_FEN_DETECT_960), &err);
		/* (FEN with a halfmove clock alone: the same position) */
		if (st == CD_OK && cd_epd_board(rec) != NULL)
			return 0;
		cli_warn_at(file, line, err.col, "%s",
		    err.msg[0] ? err.msg : "bad FEN");
		return -1;
	}
	if (cd_epd_board(rec) != NULL)
		return 0;
	n = cd_epd_finding_count(rec);
	for (i = 0; i < n; i++) {
		const cd_epd_finding *f = cd_epd_finding_get(rec, i);

		if (f->code == CD_EPD_E_CHAR || f->code == CD_EPD_E_FIELDS ||
		    f->code == CD_EPD_E_POSITION) {
			cli_warn_at(file, line, f->col, "%s", f->message);
			return -1;
		}
	}
	cli_warn_at(file, line, 0, "bad FEN");
	return -1;
}

/* The expected counts of rec's operations "D5 4865609" (D1 to D32,
 * each a count); -1 after a message. */
static int
parse_counts(struct job *j, const char *text, const char *file,
    unsigned long line)
{
	size_t i, n = cd_epd_op_count(rec);

	for (i = 0; i < n; i++) {
		const cd_epd_op *o = cd_epd_op_get(rec, i);
		const char *digits = o->opcode + 1;
		unsigned long d;

		if (o->opcode[0] != 'D' || *digits == '\0' ||
		    strspn(digits, "0123456789") != strlen(digits))
			continue;
		d = strtoul(digits, NULL, 10);
		if (d == 0 || d > MAX_DEPTH || strlen(digits) > 2) {
			cli_warn_at(file, line, 0, "bad depth in '%.20s'",
			    text + o->col - 1);
			return -1;
		}
		if (o->count == 0 || o->operands[0].kind != CD_EPD_INTEGER ||
		    o->operands[0].integer < 0) {
			cli_warn_at(file, line, 0, "D%lu without a count", d);
			return -1;
		}
		j->have[d] = 1;
		j->expect[d] = (uint64_t)o->operands[0].integer;
	}
	return 0;
}

static void
run_job(struct job *j, const char *file)
{
	cd_board b;
	int maxd = 0, d, i;
	uint64_t nodes[MAX_DEPTH + 1];

	if (!j->parsed && parse_line(j->fen, strlen(j->fen), true, file,
	    j->line) != 0) {
		bad_lines++;
		return;
	}
	b = *cd_epd_board(rec);
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
				cli_warn_at(file, j->at[d] ? j->at[d] :
				    j->line, 0,
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

/* The lines of an input, read by the library's EPD line reader; 2
 * after a read error, else 0. */
static int
read_file(FILE *f, const char *file)
{
	cd_epd_reader *r = cli_epd_reader_new(f);
	char *line = NULL;
	size_t cap = 0, n;
	const char *text;
	unsigned long lineno = 0;
	struct job blk;
	int in_block = 0, ret;
	cd_status st;

	if (r == NULL)
		cli_fatal("out of memory");
	if (cli_epd_wrong_kind(r, file)) {
		cd_epd_reader_free(r);
		return 2;
	}
	memset(&blk, 0, sizeof(blk));
	while ((st = cd_epd_reader_next(r, &text, &n)) == CD_OK ||
	    st == CD_ERR_RANGE) {
		char *s;

		lineno = cd_epd_reader_lineno(r);
		if (st == CD_ERR_RANGE) {
			/* (read to its end, not kept) */
			cli_warn_at(file, lineno, CD_EPD_LINE_MAX + 1,
			    "line too long");
			bad_lines++;
			continue;
		}
		/* a C string: the line up to its first NUL byte, without
		 * the CRs before its end */
		n = strnlen(text, n);
		if (n + 1 > cap) {
			cap = n + 1 + n / 2;
			free(line);
			if ((line = malloc(cap)) == NULL)
				cli_fatal("out of memory");
		}
		memcpy(line, text, n);
		while (n > 0 && line[n - 1] == '\r')
			n--;
		line[n] = '\0';
		s = line;
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
			blk.at[d] = lineno;
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

			memset(&j, 0, sizeof(j));
			j.line = lineno;
			if (parse_line(s, strlen(s), false, file, lineno) == 0 &&
			    parse_counts(&j, s, file, lineno) == 0) {
				j.fen = dup_range(s, cd_epd_fields_end(rec));
				j.parsed = 1;
				run_job(&j, file);
			} else {
				bad_lines++;
			}
			free_job(&j);
		}
	}
	if (st == CD_ERR_IO) {
		/* damage ended the input: its cut line is no position, and
		 * the counts of an open block may be lost with the rest */
		size_t rawlen;

		(void)cd_epd_reader_raw(r, &rawlen);
		if (rawlen > 0)
			cli_epd_cut_line(file, r);
		if (in_block && blk.fen)
			cli_warn_at(file, blk.line, 0, "block cut short by the "
			    "read error: not counted");
	} else if (in_block && blk.fen)
		run_job(&blk, file);
	free_job(&blk);
	free(line);
	ret = cli_read_end(file, st, cd_epd_reader_error(r),
	    cd_epd_reader_stream(r));
	cd_epd_reader_free(r);
	return ret;
}

int
main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "depth", required_argument, NULL, 'd' },
		{ "divide", no_argument, NULL, 'D' },
		{ "fen", required_argument, NULL, 'f' },
		{ "960", no_argument, NULL, '9' },
		{ NULL, 0, NULL, 0 }
	};
	char **fens = NULL;
	int nfens = 0, c, i;
	double t0;

	cli_init(argv[0]);
	while ((c = cli_getopt(argc, argv, "d:f:", longopts, CLI_TAKE_OUTPUT | CLI_TAKE_QUIET | CLI_TAKE_STATS | CLI_TAKE_COMPRESS | CLI_TAKE_MEMLIMIT, usage)) != -1) {
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
		}
	}
	if (optind < argc || nfens == 0)
		cli_inputs(argc, argv, optind);
	out = cli_output_open(cli_opts.output);
	t0 = cli_now();
	for (i = 0; i < nfens; i++) {
		struct job j;

		memset(&j, 0, sizeof(j));
		j.fen = dup_range(fens[i], strlen(fens[i]));
		run_job(&j, "<argument>");
		free_job(&j);
	}
	/* (exit 2 after the other files when one cannot be read) */
	if ((optind < argc || nfens == 0) &&
	    cli_each_input(argc, argv, optind, read_file) != 0)
		io_error = 1;
	free(fens);
	if (cli_opts.stats) {
		double el = cli_now() - t0;

		cli_warn("%lu positions, %lu counts checked, %lu mismatches, "
		    "%llu nodes in %.3f s (%.1f Mnps)", positions, checked,
		    mismatches, (unsigned long long)total_nodes, el,
		    el > 0 ? total_nodes / el / 1e6 : 0.0);
	}
	cli_exit(io_error ? 2 : mismatches || bad_lines ? 1 : 0);
}
