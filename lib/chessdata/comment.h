/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * chessdata/comment.h: commands inside PGN comments.
 *
 * Online archives carry data in comments as bracketed commands,
 * `[%name arguments]`: lichess and chess.com write the clock
 * (`[%clk 0:03:00]`, chess.com with tenths `0:00:58.6`), the elapsed
 * time of a move (`[%emt 0:00:05]`), the engine evaluation
 * (`[%eval 0.17]`, `[%eval #-3]`, `[%eval 0.17,25]` with the depth:
 * always from White's side), `[%timestamp 18]`, and the highlighted
 * squares and arrows of the board (`[%csl Ra1,Gb2]`, `[%cal Ge2e4]`).
 * These functions read them out of a comment's text into numbers, and
 * write a comment's text without chosen commands.
 *
 * A command is `[%` then a name (letters, digits, `_`), then its
 * arguments up to the next `]` (white space around them is not part of
 * them).  Anything else is text.  A command whose arguments do not read
 * (`[%clk soon]`) is still a command: it can be stripped, but gives no
 * number.  The library keeps no state: everything is values.
 */
#ifndef CHESSDATA_COMMENT_H
#define CHESSDATA_COMMENT_H

#include <chessdata/base.h>
#include <chessdata/pgn.h>

#ifdef __cplusplus
extern "C" {
#endif

/* One command found in a comment (pointers into the text). */
typedef struct cd_comment_cmd {	/* ABI: reserved */
	const char *name;	/* after the `%` */
	size_t name_len;
	const char *args;	/* trimmed */
	size_t args_len;
	size_t start, end;	/* the command's bytes: text[start..end) */
	CD_RESERVED(2);
} cd_comment_cmd;

/*
 * The next command of text[0..len) at or after *pos; advances *pos past
 * it.  false when there is none left.
 */
CD_API bool cd_comment_cmd_next(const char *text, size_t len, size_t *pos,
    cd_comment_cmd *cmd);

/* Kinds of evaluation. */
enum {
	CD_EVAL_NONE = 0,
	CD_EVAL_CP = 1,		/* centipawns, White's side */
	CD_EVAL_MATE = 2	/* mate in N moves: N > 0 White mates,
				 * N < 0 Black mates */
};

/* What a comment's commands say, as numbers. */
typedef struct cd_comment_data {	/* ABI: reserved */
	unsigned has;		/* CD_COMMENT_* of the numbers read */
	int64_t clk_ns;		/* [%clk]: clock left, nanoseconds */
	int64_t emt_ns;		/* [%emt]: time used by the move, ns */
	int eval_kind;		/* CD_EVAL_*: [%eval] */
	int32_t eval;		/* centipawns or N of mate in N */
	int32_t eval_depth;	/* depth after the comma, -1 if none */
	int64_t timestamp;	/* [%timestamp N] */
	CD_RESERVED(2);
} cd_comment_data;

enum {
	CD_COMMENT_CLK = 1 << 0,
	CD_COMMENT_EMT = 1 << 1,
	CD_COMMENT_EVAL = 1 << 2,
	CD_COMMENT_TIMESTAMP = 1 << 3
};

/*
 * Read the commands of text[0..len) into *d (cleared first): the clock
 * and elapsed time as [-]H:MM:SS with an optional fraction (every digit
 * to the nanosecond, the ninth; further digits dropped; also MM:SS and
 * plain seconds; minutes and seconds after a colon have two digits, a
 * point at least one digit after it, else the command gives no time), the evaluation as a
 * pawn value with up to two decimals (rounded half away from zero to
 * centipawns) or #N, optionally followed by `,DEPTH`; the timestamp as
 * an integer.  When a command comes twice, the last that reads wins.
 * The fields of TCEC's engine comments ("d=33, mt=37918, tl=1765082,
 * ..., wv=0.60, ..."; fields separated by commas) fill what no command
 * gave: tl the clock and mt the move's time in milliseconds, wv the
 * evaluation (pawns from White's side, or M12 / -M5 for a mate), d its
 * depth.  Returns d->has.
 */
CD_API unsigned cd_comment_read(const char *text, size_t len,
    cd_comment_data *d);

/* The time value of a [%clk] or [%emt] argument in nanoseconds; false
 * when it does not read. */
CD_API bool cd_comment_parse_time(const char *s, size_t len,
    int64_t *ns);

/* An [%eval] argument: false when it does not read. */
CD_API bool cd_comment_parse_eval(const char *s, size_t len, int *kind,
    int32_t *value, int32_t *depth);

/*
 * Whether a command name is in the list names: a comma-separated list
 * of command names ("clk,emt,eval"); NULL means every command.
 */
CD_API bool cd_comment_name_in(const char *name, size_t name_len,
    const char *names);

/*
 * Write text[0..len) to out without the commands named in names (see
 * cd_comment_name_in; NULL: all), white space folded as the export
 * format wants comments: runs of white space made one space, none at
 * either end.  out needs room for len + 1 bytes and may be text itself
 * (the text only shrinks).  Returns the length written (0: nothing
 * left) and NUL-terminates.
 */
CD_API size_t cd_comment_strip(const char *text, size_t len,
    const char *names, char *out);

/*
 * As cd_comment_strip, but the text kept as written: only the white
 * space around a removed command is made one space (none at either
 * end of the text), and the text trimmed; line ends and tabs elsewhere
 * stay.  "a\n[%clk 1] b\tc" leaves "a b\tc".
 */
CD_API size_t cd_comment_remove(const char *text, size_t len,
    const char *names, char *out);

/*
 * Strip the commands named in names (NULL: all) from every comment of
 * g, main line and variations; a comment left empty is removed.
 * Returns how many commands were removed.
 */
CD_API size_t cd_game_strip_commands(cd_game *g, const char *names);

#ifdef __cplusplus
}
#endif
#endif
