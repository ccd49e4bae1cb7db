/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * pgn/reader.h: the PGN game reader's state (pgn/read.c), which its
 * framer (pgn/frame.c, pgn/frame_tags.c) reads and fills, and the
 * framer's calls.  Not exported.
 */
#ifndef CHESSDATA_PGN_READER_H
#define CHESSDATA_PGN_READER_H

#include "common/internal.h"
#include "stream/input.h"

#define READER_BLOCK	(256 * 1024)

struct cd_pgn_reader {
	struct cd__input in;	/* where the bytes come from (input.h) */
	char *buf;		/* owned buffer (NULL for memory input) */
	size_t cap;
	const char *data;	/* buf or the caller's memory */
	size_t pos, end;	/* unread bytes: data[pos..end) */
	uint64_t base;		/* input offset of data[0] */
	int eof, failed, started;
	int read_errno;		/* a read failed (with this errno, the
				 * input's error in in.err): what came
				 * before is read as the input's end */
	int bol;		/* data[pos] is at the start of a line */
	int keep_bol;		/* the next advance leaves bol as it is (a
				 * piece of a run of blanks) */
	int junk;		/* skipping text that is not PGN: JUNK_* */
	int skipped_nul;	/* a binary byte (has_nul) in the text
				 * skipped before the next game */
	bool narrow;		/* movetext is scanned a byte at a time,
				 * without the wide scan (pgn/frame.c):
				 * CHESSDATA_NARROW_FRAME set and not empty
				 * when the reader was made (for the tests,
				 * which compare the two) */
	size_t max_game;	/* a game is framed within its first
				 * max_game bytes (cd_pgn_reader_set_limit) */
	unsigned read_flags;	/* CD_PGN_READ_* (cd_pgn_reader_set_flags) */
	unsigned long line, col;	/* of data[pos] */
	uint64_t number;

	/* The game being scanned.  Its tags as they are given out, their
	 * names and values pointing into the arena (made to point into
	 * the new one when it grows). */
	cd_pgn_tag *tags;
	size_t nrt, tagcap;
	char *arena;
	size_t alen, acap;
	size_t g_len, g_mt, g_mt_end;
	/* cd__frame_movetext's count of the line ends in the game from its
	 * movetext on, when g_counted: g_nl of them, the last at offset
	 * g_lastnl - 1 (g_lastnl 0: none) */
	int g_counted;
	unsigned long g_nl;
	size_t g_lastnl;
	unsigned long g_mt_line, g_mt_col;	/* where the movetext is */
	cd_pgn_result g_result;
	unsigned g_flags;
	/* every tag read by tag_run (pgn/frame_tags.c), so plain
	 * (cd__raw_tags_note) */
	bool g_plain;
	/* its tag section holds tag pairs and white space only: no
	 * escape line, no tag that does not read, no comment
	 * (cd__raw_section_note) */
	bool g_bare;
	/* the game's first g_clean bytes (or all if fewer) hold no binary
	 * byte (cd__binary_byte): the framer saw each (the usual tag lines
	 * from the first, the wide scan's blocks) */
	size_t g_clean;

	/* The tag section tag_run read last from its first line
	 * (pgn/frame_tags.c, section_again): its first `[` at input offset
	 * memo_off, its memo_n tags (0: none) still the first of tags and
	 * arena, their lines read from its first memo_len bytes (through
	 * the `[` after each, and the bytes looked at after the last); the
	 * run stopped memo_stop bytes in, after a tag when memo_after.
	 * memo_again: the last section looked at was all that one's
	 * bytes (section_whole_run tries the next). */
	uint64_t memo_off;
	size_t memo_n, memo_len, memo_stop;
	int memo_after;
	bool memo_again;

	/* Binary bytes (a NUL, or another that text does not hold:
	 * cd__binary_byte): data[nul_at] is the first from where the last
	 * search began (no earlier than the game being made), SIZE_MAX when
	 * there is none before data[nul_to].  So the input is searched once
	 * (the game's own bytes only after such a byte), but for the bytes
	 * the framer saw (g_clean), which are not searched. */
	size_t nul_at, nul_to;

	uint64_t skipped;
	unsigned long skipped_line;
	cd_error err;		/* why the reader failed, or why the game
				 * cd_pgn_reader_read gave last is not read */
	cd_game *game;		/* cd_pgn_reader_read's game */

	/* cd_pgn_reader_on_gap */
	void (*gap_fn)(void *ctx, const char *bytes, size_t len);
	void *gap_ctx;
};

enum { S_MORE, S_GAME, S_JUNK, S_BLANK, S_END, S_NOMEM };

/* Skipping text (r->junk): no, up to a blank line or a line that starts
 * a tag section (text that is not PGN), up to a line that starts with a
 * complete tag pair in column one (binary data, the rest of a game too
 * large to keep). */
enum { JUNK_NO, JUNK_TEXT, JUNK_TO_TAGS };

/* A line of text that is not PGN is skipped in pieces of at most this
 * many bytes (never kept whole). */
#define JUNK_PIECE	(READER_BLOCK / 2)

/* The game cd_pgn_reader_read parses into (NULL until then; freed with
 * the reader) and the reader's error, for pgn/parse.c (pgn/read.c). */
cd_game **cd__pgn_reader_game(cd_pgn_reader *r, cd_error **err);

/* ---- the framer (pgn/frame.c) ---- */

/* Find what comes next at data[pos]: a game (S_GAME, r's g_* and tags
 * filled), *n bytes of text to skip (S_JUNK) or of blank lines
 * (S_BLANK), the end (S_END), the need for more input (S_MORE), out of
 * memory (S_NOMEM); decided within the first max_game bytes (a larger
 * game gets CD_PGN_RAW_TOO_LARGE). */
int cd__frame(cd_pgn_reader *r, size_t *n);
/* Whether the game just framed at data[pos], which holds a binary byte,
 * is binary data rather than a game. */
int cd__frame_binary(const cd_pgn_reader *r);

/* The framer's inner calls, down from pgn/frame_scan.c through
 * pgn/frame_tags.c to pgn/frame.c (never back). */
/* Whether p (a `[`) starts a tag: 1 yes, 0 no, -1 more input needed. */
int cd__frame_tag_start(const char *p, const char *e, int eof);
/* The end of the line at p (the `\n` or e); NULL if more input is
 * needed. */
const char *cd__frame_line_end(const char *p, const char *e, int eof);
/* Whether the line at p starts with one complete tag pair in column
 * one (with blanks only after it when whole): 1 yes, 0 no, -1 more
 * input needed. */
int cd__frame_tag_pair_line(const char *p, const char *e, int eof,
    int whole);
/* The end of the brace comment at p (a `{`) in *out: 1 closed, 0 never
 * closed (see pgn/frame.c), -1 more input needed. */
int cd__frame_comment_end(const char *p, const char *e, int eof,
    const char **out);
/* The end of a word (a move, a number, a marker) starting at p. */
const char *cd__frame_word_end(const char *p, const char *e);
/* Movetext from m to the end of the game that starts at s (see
 * pgn/frame.c). */
int cd__frame_movetext(cd_pgn_reader *r, const char *s, const char *m,
    const char *ls, int blank);
/* A game that starts with a tag section at p (a `[`); s is its start
 * (pgn/frame_tags.c). */
int cd__frame_tagged(cd_pgn_reader *r, const char *s, const char *p);

/* Set *l, *c to the line and column of p in the game that starts at s,
 * from the line ends before p and the start of p's line (NULL: the
 * game's first line). */
static inline void
cd__frame_place(const cd_pgn_reader *r, const char *s, const char *p,
    unsigned long lines, const char *line, unsigned long *l,
    unsigned long *c)
{
	*l = r->line + lines;
	*c = line != NULL ? (unsigned long)(p - line) + 1 :
	    r->col + (unsigned long)(p - s);
}

#endif
