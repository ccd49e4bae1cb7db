/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * epd-validate: check EPD (and FEN) lines, one record a line: the four
 * fields, the position, every operation.  Each finding is reported as
 * "epd-validate: file:line:col: message"; --normalize writes the valid
 * lines in canonical form, --rejects=FILE the invalid ones unchanged.
 */
#include "config.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "chessdata.h"
#include "cli/cli.h"

static bool opt_normalize, opt_strict;
static FILE *out;
static cd_epd *rec;
static uint64_t n_read, n_written, n_rejected, bytes_done;

static void
usage(void)
{
	printf("Usage: %s [OPTION]... [FILE]...\n", cli_prog);
	fputs(
	    "Check EPD lines (FEN lines too): the four fields, the position, and the\n"
	    "syntax and rules of every operation (PGN standard 16.2).\n"
	    "\n"
	    "  -n, --normalize       write the valid lines in canonical form\n"
	    "  -q, --quiet           report errors only: no notes, no progress\n"
	    "                        line\n"
	    "      --rejects=FILE    copy the original bytes of every invalid\n"
	    "                        line to FILE\n"
	    "      --strict          the standard's form only: a missing final\n"
	    "                        ';', a move not in canonical SAN, runs of\n"
	    "                        spaces or tabs, leading or trailing white\n"
	    "                        space, CRLF and a byte order mark make a\n"
	    "                        line invalid\n", stdout);
	cli_usage_options(CLI_TAKE_OUTPUT | CLI_TAKE_STATS | CLI_TAKE_COMPRESS |
	    CLI_TAKE_MEMLIMIT);
	fputs(
	    "\n"
	    "Each finding is reported as 'epd-validate: FILE:LINE:COL: message'; notes\n"
	    "(unknown opcodes, moves not in canonical SAN, a missing final ';', ...)\n"
	    "do not make a line invalid (under --strict some do).\n"
	    "With no FILE, or when FILE is -, read standard input.\n"
	    "Exit status: 0 success, 1 some line was invalid,\n"
	    "2 usage or system error.\n", stdout);
}

/*
 * The unknown opcodes already noted in the current file: a small open
 * addressing hash set of names, so each is noted once per file.
 */
static struct {
	char (*names)[CD_EPD_OPCODE_MAX + 1];
	size_t cap, count;
} seen;

static size_t
hash_name(const char *s)
{
	size_t h = 5381;

	while (*s)
		h = h * 33 + (unsigned char)*s++;
	return h;
}

static void
seen_clear(void)
{
	size_t i;

	for (i = 0; i < seen.cap; i++)
		seen.names[i][0] = '\0';
	seen.count = 0;
}

/* Add name; false if it was there already. */
static bool
seen_add(const char *name)
{
	size_t i;

	if (2 * (seen.count + 1) > seen.cap) {
		size_t ncap = seen.cap ? 2 * seen.cap : 64, j;
		char (*old)[CD_EPD_OPCODE_MAX + 1] = seen.names;
		size_t ocap = seen.cap;

		seen.names = calloc(ncap, sizeof(*seen.names));
		if (seen.names == NULL)
			cli_fatal("out of memory");
		seen.cap = ncap;
		for (j = 0; j < ocap; j++)
			if (old[j][0] != '\0') {
				i = hash_name(old[j]) & (ncap - 1);
				while (seen.names[i][0] != '\0')
					i = (i + 1) & (ncap - 1);
				memcpy(seen.names[i], old[j], sizeof(old[j]));
			}
		free(old);
	}
	i = hash_name(name) & (seen.cap - 1);
	while (seen.names[i][0] != '\0') {
		if (strcmp(seen.names[i], name) == 0)
			return false;
		i = (i + 1) & (seen.cap - 1);
	}
	snprintf(seen.names[i], sizeof(seen.names[i]), "%s", name);
	seen.count++;
	return true;
}

static void
report(const char *name, unsigned long lineno)
{
	size_t i, n = cd_epd_finding_count(rec);

	for (i = 0; i < n; i++) {
		const cd_epd_finding *f = cd_epd_finding_get(rec, i);

		if (!f->error && cli_quiet)
			continue;
		if (f->code == CD_EPD_N_UNKNOWN) {
			if (!seen_add(f->opcode))
				continue;
			cli_warn_at(name, lineno, f->col, "note: %s; noted "
			    "once per file", f->message);
			continue;
		}
		cli_warn_at(name, lineno, f->col, "%s%s",
		    f->error ? "" : "note: ", f->message);
	}
}

static void
write_reject(const char *raw, size_t len)
{
	/* a line: its bytes, with a line end if the file's last lacked one */
	cli_rejects_write(raw, len);
	if (len == 0 || raw[len - 1] != '\n')
		cli_rejects_write("\n", 1);
}

/* Check one input; 2 on a read error, else 0. */
static int
process(FILE *f, const char *name)
{
	cd_epd_reader *r = cli_epd_reader_new(f);
	const char *line, *raw;
	size_t len, rawlen;
	cd_status st;
	uint64_t base = bytes_done;
	int ret;

	if (r == NULL)
		cli_fatal("out of memory");
	if (cli_epd_wrong_kind(r, name)) {
		cd_epd_reader_free(r);
		return 2;
	}
	seen_clear();
	while ((st = cd_epd_reader_next(r, &line, &len)) == CD_OK ||
	    st == CD_ERR_RANGE) {
		unsigned long lineno = cd_epd_reader_lineno(r);
		int kind;

		if (st == CD_ERR_RANGE) {
			/* (read to its end, not kept: not in the rejects) */
			cli_warn_at(name, lineno, CD_EPD_LINE_MAX + 1,
			    "line too long");
			n_read++;
			n_rejected++;
			bytes_done = base + cd_epd_reader_offset(r);
			continue;
		}
		kind = cd_epd_line_kind(line, len);
		if (kind == CD_EPD_LINE_BLANK)
			continue;
		if (kind == CD_EPD_LINE_COMMENT) {
			if (!cli_quiet)
				cli_warn_at(name, lineno, 1, "note: comment "
				    "line skipped (not EPD)");
			continue;
		}
		n_read++;
		if (opt_strict)
			cd_epd_reader_strict_line(r, &line, &len);
		st = cd_epd_parse(rec, line, len,
		    opt_strict ? CD_EPD_STRICT : 0);
		if (st == CD_ERR_NOMEM)
			cli_fatal("out of memory");
		report(name, lineno);
		if (cd_epd_invalid(rec)) {
			n_rejected++;
			raw = cd_epd_reader_raw(r, &rawlen);
			write_reject(raw, rawlen);
		} else if (opt_normalize) {
			const char *text;
			size_t tlen;

			if (cd_epd_write(rec, &text, &tlen) != CD_OK)
				cli_fatal("out of memory");
			fwrite(text, 1, tlen, out);
			putc('\n', out);
			cli_output_check();
			n_written++;
		}
		bytes_done = base + cd_epd_reader_offset(r);
		cli_progress(n_read, bytes_done);
	}
	bytes_done = base + cd_epd_reader_offset(r);
	raw = cd_epd_reader_raw(r, &rawlen);
	if (st == CD_ERR_IO && rawlen > 0) {
		/* the line the damage cut: not checked, kept in the rejects */
		n_read++;
		n_rejected++;
		cli_epd_cut_line(name, r);
		write_reject(raw, rawlen);
	}
	ret = cli_read_end(name, st, cd_epd_reader_error(r),
	    cd_epd_reader_stream(r));
	cd_epd_reader_free(r);
	return ret;
}

int
main(int argc, char **argv)
{
	enum { OPT_STRICT = 256 };
	static const struct option longopts[] = {
		{ "normalize", no_argument, NULL, 'n' },
		{ "strict", no_argument, NULL, OPT_STRICT },
		{ NULL, 0, NULL, 0 }
	};
	int c, status = 0;

	cli_init(argv[0]);
	cli_unit = "lines";
	while ((c = cli_getopt(argc, argv, "n", longopts, CLI_TAKE_OUTPUT | CLI_TAKE_QUIET | CLI_TAKE_REJECTS | CLI_TAKE_STATS | CLI_TAKE_COMPRESS | CLI_TAKE_MEMLIMIT, usage)) != -1) {
		switch (c) {
		case 'n':
			opt_normalize = true;
			break;
		case OPT_STRICT:
			opt_strict = true;
			break;
		}
	}
	if (cli_opts.output != NULL && !opt_normalize)
		cli_usage_error("-o needs --normalize (nothing else is "
		    "written)");
	rec = cd_epd_new();
	if (rec == NULL)
		cli_fatal("out of memory");
	cli_inputs(argc, argv, optind);
	out = cli_output_open(cli_opts.output);
	cli_rejects_open(cli_opts.rejects);
	if (cli_each_input(argc, argv, optind, process) != 0)
		status = 2;
	cd_epd_free(rec);
	free(seen.names);
	cli_progress_end();
	cli_finish(status, n_read, n_written, n_rejected);
}
