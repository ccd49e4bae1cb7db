/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * cli/kind.c: what an input held besides games (see cli.h): text
 * skipped before a game or at the end, binary data, a game refused
 * unparsed, a last game without its termination marker; input of the
 * wrong kind: one message that says what the input looks like and which
 * tool reads it, instead of one for every line or none at all; and the
 * last line of an EPD input cut by damage.
 */
#include "config.h"

#include <string.h>

#include "chessdata.h"
#include "cli.h"

int
cli_epd_wrong_kind(cd_epd_reader *r, const char *name)
{
	const char *bytes;
	size_t len;

	if (cd_epd_reader_peek(r, CD_SNIFF_SAMPLE, &bytes, &len) != CD_OK)
		cli_fatal("out of memory");
	switch (cd_sniff(bytes, len < CD_SNIFF_SAMPLE ? len :
	    CD_SNIFF_SAMPLE)) {
	case CD_SNIFF_PGN:
		cli_warn_at(name, 0, 0, "looks like PGN, not EPD (use pgn2epd "
		    "to get its positions); not read");
		return 1;
	case CD_SNIFF_BINARY:
		cli_warn_at(name, 0, 0, "binary data, not EPD; not read");
		return 1;
	default:
		return 0;
	}
}

void
cli_epd_cut_line(const char *name, const cd_epd_reader *r)
{
	size_t len;

	(void)cd_epd_reader_raw(r, &len);
	cli_warn_at(name, cd_epd_reader_lineno(r), 0, "last line cut short "
	    "by the read error (%zu bytes): not read as a record", len);
}

static void
pgn_wrong_kind(const char *file)
{
	cli_warn_at(file, 0, 0, "looks like EPD, not PGN (use epd-validate "
	    "or chess-perft)");
	cli_pgn_refused();
}

void
cli_pgn_wrong_kind(const char *file, const cd_pgn_raw_game *raw)
{
	size_t n = raw->len < CD_SNIFF_SAMPLE ? raw->len : CD_SNIFF_SAMPLE;

	if (raw->number == 1 && raw->ntags == 0 &&
	    cd_sniff(raw->text, n) == CD_SNIFF_EPD)
		pgn_wrong_kind(file);
}

/* The first bytes of the input the reader passes over (cli_pgn_watch):
 * all of the input's start when it holds no game. */
static struct {
	char buf[CD_SNIFF_SAMPLE];
	size_t len;
} head;

static void
head_gap(void *ctx, const char *bytes, size_t len)
{
	size_t n = sizeof(head.buf) - head.len;

	if (n > len)
		n = len;
	memcpy(head.buf + head.len, bytes, n);
	head.len += n;
	if (head.len == sizeof(head.buf))
		cd_pgn_reader_on_gap(ctx, NULL, NULL);
}

void
cli_pgn_watch(cd_pgn_reader *r)
{
	head.len = 0;
	cd_pgn_reader_on_gap(r, head_gap, r);
}

void
cli_pgn_wrong_kind_end(const char *file, const cd_pgn_raw_game *end)
{
	unsigned long line = 1;
	size_t i;

	if (end->skipped_bytes == 0)
		return;
	/* no game before the text skipped: only blank lines before its
	 * first line in the head */
	for (i = 0; i < head.len && strchr(" \t\r\n", head.buf[i]) != NULL &&
	    head.buf[i] != '\0'; i++)
		line += head.buf[i] == '\n';
	if (i < head.len && line == end->skipped_line &&
	    cd_sniff(head.buf, head.len) == CD_SNIFF_EPD)
		pgn_wrong_kind(file);
}

/* Binary data skipped before a game (number > 0) or at the end. */
static int
binary_skipped(const char *file, const cd_pgn_raw_game *raw,
    unsigned long long number)
{
	if (!(raw->flags & CD_PGN_RAW_SKIPPED_BINARY))
		return 0;
	cli_pgn_refused();
	if (number > 0)
		cli_warn_at(file, raw->skipped_line, 1, "not PGN text: binary "
		    "data (%llu bytes skipped before game %llu)",
		    (unsigned long long)raw->skipped_bytes, number);
	else
		cli_warn_at(file, raw->skipped_line, 1, "not PGN text: binary "
		    "data (%llu bytes skipped at the end of the input)",
		    (unsigned long long)raw->skipped_bytes);
	return 1;
}

int
cli_pgn_check(const char *file, const cd_pgn_raw_game *raw)
{
	cd_error err;

	if (cd_pgn_raw_check(raw, &err) == CD_OK) {
		/* the game is kept, read without the tag that does not */
		if (cd_pgn_raw_check_text(raw, &err) != CD_OK)
			cli_warn_at(file, err.line, err.col, "warning: game "
			    "%llu: %s", (unsigned long long)raw->number,
			    err.msg);
		return 0;
	}
	cli_pgn_refused();
	cli_warn_at(file, err.line, err.col, "game %llu: %s",
	    (unsigned long long)raw->number, err.msg);
	return 1;
}

/* Whether cli_pgn_skipped has nothing to say of raw: nothing skipped
 * before it, and not a first game without tags (most games). */
static inline bool
starts_plain(const cd_pgn_raw_game *raw)
{
	return raw->skipped_bytes == 0 &&
	    !(raw->flags & CD_PGN_RAW_SKIPPED_BINARY) &&
	    (raw->number != 1 || raw->ntags != 0);
}

void
cli_pgn_skipped(const char *file, const cd_pgn_raw_game *raw)
{
	if (starts_plain(raw))
		return;
	if (binary_skipped(file, raw, (unsigned long long)raw->number))
		return;
	cli_pgn_wrong_kind(file, raw);
	/* (the reader skips whole lines: the text starts in column 1) */
	if (raw->skipped_bytes > 0 && !cli_quiet)
		cli_warn_at(file, raw->skipped_line, 1, "warning: game %llu: "
		    "skipped %llu bytes of text that is not PGN before it",
		    (unsigned long long)raw->number,
		    (unsigned long long)raw->skipped_bytes);
}

void
cli_pgn_skipped_end(const char *file, const cd_pgn_raw_game *raw)
{
	if (binary_skipped(file, raw, 0))
		return;
	cli_pgn_wrong_kind_end(file, raw);
	if (raw->skipped_bytes > 0 && !cli_quiet)
		cli_warn_at(file, raw->skipped_line, 1, "warning: skipped %llu "
		    "bytes of text that is not PGN at the end of the input",
		    (unsigned long long)raw->skipped_bytes);
}

/* The last game read, for cli_pgn_end_note: open (no termination
 * marker, no unclosed comment), and its file, number and place. */
static const char *last_file;
static unsigned long long last_number;
static unsigned long last_line, last_col;
static int last_open;

void
cli_pgn_end_note(const char *file, const cd_pgn_raw_game *raw, int st)
{
	if (st == CD_OK) {
		/* (an unclosed comment is rejected with its own message;
		 * the rest is read only of an open game) */
		last_open = (raw->flags & (CD_PGN_RAW_NO_RESULT |
		    CD_PGN_RAW_UNCLOSED_COMMENT)) == CD_PGN_RAW_NO_RESULT;
		if (last_open) {
			last_file = file;
			last_number = (unsigned long long)raw->number;
			last_line = (unsigned long)raw->line;
			last_col = (unsigned long)raw->col;
		}
	} else {
		if (st == CD_EOF && last_open && last_file == file)
			cli_warn_at(file, last_line, last_col, "warning: game "
			    "%llu: no termination marker at the end of the "
			    "input (truncated?)", last_number);
		last_open = 0;
	}
}

/* cli_pgn_notes of a game that may have something to say, out of line:
 * the call of every other game saves no registers for it. */
static __attribute__((noinline)) void
notes_slow(const char *file, const cd_pgn_raw_game *raw, int st)
{
	if (st == CD_OK)
		cli_pgn_skipped(file, raw);
	else
		cli_pgn_skipped_end(file, raw);
	cli_pgn_end_note(file, raw, st);
}

void
cli_pgn_notes(const char *file, const cd_pgn_raw_game *raw, int st)
{
	/* most games: nothing for cli_pgn_skipped, and a termination
	 * marker (cli_pgn_end_note: not open) */
	if (st == CD_OK && starts_plain(raw) &&
	    !(raw->flags & CD_PGN_RAW_NO_RESULT)) {
		last_open = 0;
		return;
	}
	notes_slow(file, raw, st);
}
