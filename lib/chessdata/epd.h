/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * chessdata/epd.h: Extended Position Description (standard 16.2).
 *
 * A cd_epd is one EPD record: a position (the four FEN fields) and a
 * list of operations, each an opcode with operands.  cd_epd_parse reads
 * one line of any length and checks it: the fields, the position, the
 * syntax of every operation and the rules of the opcodes of 16.2.5.  What
 * it finds (errors and notes, each with its column) stays on the record.
 * cd_epd_write gives the canonical text of a valid record.  The builder
 * calls (cd_epd_reset, cd_epd_op_begin, cd_epd_add_*) make records from
 * scratch.  A cd_epd_reader splits a stream into lines.
 *
 * The record owns all its memory; every pointer it hands out stays valid
 * until the record is changed (parsed, reset, added to) or freed.
 */
#ifndef CHESSDATA_EPD_H
#define CHESSDATA_EPD_H

#include <stdio.h>

#include <chessdata/board.h>
#include <chessdata/stream.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The longest opcode: a letter then up to 14 letters, digits or '_'. */
#define CD_EPD_OPCODE_MAX 15

/* What an operand is. */
typedef enum cd_epd_kind {
	CD_EPD_TOKEN = 0,	/* unquoted text that is no number */
	CD_EPD_STRING,		/* a quoted string; text is unescaped */
	CD_EPD_INTEGER,		/* [+-]digits, in int64_t range */
	CD_EPD_FLOAT,		/* [+-]digits.digits */
	CD_EPD_MOVE		/* a legal move of am, bm, pm, sm or pv */
} cd_epd_kind;

typedef struct cd_epd_operand {	/* ABI: element */
	cd_epd_kind kind;
	size_t col;		/* 1-based column in the line; 0 if built */
	const char *text;	/* NUL-terminated: the operand as written
				 * (strings unescaped, without quotes); a
				 * built move is its canonical SAN */
	size_t len;
	int64_t integer;	/* value of CD_EPD_INTEGER */
	double real;		/* value of CD_EPD_FLOAT */
	cd_move move;		/* CD_EPD_MOVE: legal in the record's
				 * position, or for pv after the moves
				 * before it */
} cd_epd_operand;

typedef struct cd_epd_op {	/* ABI: handed */
	char opcode[CD_EPD_OPCODE_MAX + 1];
	size_t col;		/* column of the opcode, 0 if built */
	size_t count;		/* number of operands */
	const cd_epd_operand *operands;
} cd_epd_op;

/*
 * Findings of cd_epd_parse.  Codes below CD_EPD_N_UNKNOWN and the
 * CD_EPD_S_ codes are errors (the line is invalid); the CD_EPD_N_ codes
 * are notes (the line is valid, and cd_epd_write repairs what the note
 * is about).  Under CD_EPD_STRICT the CD_EPD_S_ codes take the place of
 * the notes of non-canonical SAN and of a missing final ';'.
 */
typedef enum cd_epd_code {
	CD_EPD_E_CHAR = 0,	/* a NUL byte, a control character */
	CD_EPD_E_FIELDS,	/* the four fields or the FEN clocks */
	CD_EPD_E_POSITION,	/* an impossible position */
	CD_EPD_E_OPCODE,	/* opcode syntax */
	CD_EPD_E_STRING,	/* unterminated string, text glued to it */
	CD_EPD_E_DUPLICATE,	/* an opcode given twice */
	CD_EPD_E_OPERAND,	/* operand count, type or range (16.2.5) */
	CD_EPD_E_MOVE,		/* a move that is unreadable or illegal */
	CD_EPD_N_UNKNOWN,	/* a lower-case opcode not in 16.2.5 */
	CD_EPD_N_SAN,		/* a move not in canonical SAN */
	CD_EPD_N_FORMAT,	/* missing final ';', empty operation,
				 * string over 255 bytes, a repeated move,
				 * a backslash escaping nothing */
	/* Errors of CD_EPD_STRICT only: */
	CD_EPD_S_SAN,		/* a move not in canonical SAN */
	CD_EPD_S_FORMAT,	/* missing final ';' */
	CD_EPD_S_SPACE		/* leading, trailing, runs of white
				 * space, a tab, CRLF, byte order mark */
} cd_epd_code;

typedef struct cd_epd_finding {	/* ABI: handed */
	cd_epd_code code;
	bool error;		/* an error code, not a note */
	size_t col;		/* 1-based column in the line */
	const char *opcode;	/* the operation concerned, "" if none */
	const char *message;	/* lower case, no final period */
} cd_epd_finding;

typedef struct cd_epd cd_epd;

/* A new empty record (the initial position, no operations); NULL when
 * out of memory.  cd_epd_free(NULL) does nothing. */
CD_API cd_epd *cd_epd_new(void);
CD_API void cd_epd_free(cd_epd *e);

/* Flags of cd_epd_parse. */
enum {
	CD_EPD_NO_FEN = 1 << 0,	/* a line with FEN clocks is an error */
	/* Positions no game reaches are accepted (perft suites hold
	 * them); only what move generation cannot handle is an error: a
	 * missing or extra king, the side not to move in check, castling
	 * rights without their king and rook. */
	CD_EPD_NO_VALIDATE = 1 << 1,
	/* Castling rights are read as Chess960 (else as standard chess
	 * unless they can only be Chess960: cd_fen_parse CD_FEN_960). */
	CD_EPD_960 = 1 << 2,
	/* The standard's form only: a missing final ';', a move not in
	 * canonical SAN, white space other than one space between fields
	 * and operations (leading, trailing, runs, tabs), a final CR and
	 * a byte order mark at the start are errors (CD_EPD_S_...). */
	CD_EPD_STRICT = 1 << 3
};

/*
 * Parse one line of len bytes (no line end; a final CR is allowed) into
 * e, replacing what e held.  Lenient where the meaning is clear: runs of
 * spaces or tabs between fields and operations, a missing final ';',
 * empty operations, and the six fields of FEN (whose clocks become hmvc
 * and fmvn operations, checked against any hmvc and fmvn given).  SAN
 * operands are read as the import format of pgn(5) says, with a note when
 * they are not canonical.  hmvc and fmvn set the board's clocks.
 *
 * Returns CD_OK when nothing but notes was found; otherwise the status
 * of the first error (CD_ERR_SYNTAX, CD_ERR_POSITION, CD_ERR_RANGE,
 * CD_ERR_ILLEGAL, CD_ERR_AMBIGUOUS), or CD_ERR_NOMEM.  The findings,
 * errors and notes, are in column order.
 */
CD_API cd_status cd_epd_parse(cd_epd *e, const char *line, size_t len,
    unsigned flags);

/* The first error of the last cd_epd_parse (or cd_epd_read) as a
 * cd_error: status CD_OK when there was none; the column, and the
 * offset of that column in the line (in the stream, with the line
 * number, after cd_epd_read); the message of the finding.  Notes are
 * not errors: they stay in the findings below. */
CD_API const cd_error *cd_epd_error(const cd_epd *e);

/* Where the position of the line last parsed ends: the bytes up to
 * the end of its last field (the FEN fullmove number when the line has
 * FEN clocks); 0 when the fields were unreadable or e was built. */
CD_API size_t cd_epd_fields_end(const cd_epd *e);

CD_API size_t cd_epd_finding_count(const cd_epd *e);
CD_API const cd_epd_finding *cd_epd_finding_get(const cd_epd *e, size_t i);
/* Whether any finding is an error. */
CD_API bool cd_epd_invalid(const cd_epd *e);

/* The position, with the clocks of hmvc and fmvn; NULL when the fields
 * did not give a valid position. */
CD_API const cd_board *cd_epd_board(const cd_epd *e);

/* The operations in the order read (or built). */
CD_API size_t cd_epd_op_count(const cd_epd *e);
CD_API const cd_epd_op *cd_epd_op_get(const cd_epd *e, size_t i);
/* The operation with this opcode, NULL if none. */
CD_API const cd_epd_op *cd_epd_op_find(const cd_epd *e, const char *opcode);

/*
 * The canonical line of a valid record, without a line end: the four
 * fields as cd_fen_write_epd writes them, then the operations in ASCII
 * order of opcode, one space before each, each ended by ';'; am and bm
 * moves in ASCII order without repeats, all moves in canonical SAN,
 * the integer of acn, acs, ce, dm, fmvn, hmvc, rc, tcgs in plain
 * decimal, strings quoted with \" and \\ escapes, other operands as
 * written.  *text stays valid
 * until e changes.  CD_ERR_ARG when e has errors or no position.
 */
CD_API cd_status cd_epd_write(cd_epd *e, const char **text, size_t *len);

/*
 * Building: cd_epd_reset makes e the position b (NULL: the initial
 * position) with no operations and no findings.  cd_epd_op_begin
 * appends an operation (replacing one with the same opcode); the add
 * calls append an operand to the last operation begun.  A move must be
 * legal (for pv, after the pv moves before it).  Strings take any bytes
 * but NUL and other control characters; tokens are non-empty, without
 * white space, ';' or a leading '"'.  Adding an integer to hmvc or fmvn
 * sets the board's clock.  Errors: CD_ERR_ARG (bad opcode or text, no
 * operation begun, a record with errors: reset it first),
 * CD_ERR_ILLEGAL, CD_ERR_RANGE, CD_ERR_POSITION (cd_epd_reset of an
 * impossible position), CD_ERR_NOMEM.
 */
CD_API cd_status cd_epd_reset(cd_epd *e, const cd_board *b);
CD_API cd_status cd_epd_op_begin(cd_epd *e, const char *opcode);
CD_API cd_status cd_epd_add_string(cd_epd *e, const char *s, size_t len);
CD_API cd_status cd_epd_add_token(cd_epd *e, const char *s, size_t len);
CD_API cd_status cd_epd_add_integer(cd_epd *e, int64_t v);
CD_API cd_status cd_epd_add_move(cd_epd *e, cd_move m);
/* Remove the operation with this opcode; CD_EOF if there was none. */
CD_API cd_status cd_epd_op_remove(cd_epd *e, const char *opcode);

/* Write len bytes s as an EPD string operand into out (room for 2 *
 * len + 2 bytes): in double quotes, with `"` and `\` escaped by a
 * backslash, as cd_epd_write writes strings.  Returns the bytes
 * written (no NUL is added). */
CD_API size_t cd_epd_quote(char *out, const char *s, size_t len);

/* Whether len bytes are a valid opcode (letter, then up to 14 letters,
 * digits or underscores). */
CD_API bool cd_epd_opcode_valid(const char *s, size_t len);
/* Whether an opcode is one of the standard's list (16.2.5). */
CD_API bool cd_epd_opcode_known(const char *opcode);

/* What a line is: a record, blank (only white space), or a comment
 * ('#' or '%' in the first column: not EPD, skipped by cd_epd_read). */
enum {
	CD_EPD_LINE_RECORD = 0,
	CD_EPD_LINE_BLANK,
	CD_EPD_LINE_COMMENT
};
CD_API int cd_epd_line_kind(const char *line, size_t len);

/*
 * A line reader: lines up to CD_EPD_LINE_MAX bytes, LF or CRLF
 * ends, a last line without an end, NUL bytes kept, a UTF-8 byte order
 * mark at the start dropped.  Its input is opened and read as
 * cd_pgn_reader's (chessdata/pgn_read.h): a file it opens and closes
 * (cd_epd_reader_open), a descriptor it does not close
 * (cd_epd_reader_open_fd), a stream it takes and frees
 * (cd_epd_reader_open_stream), or a stdio FILE the caller keeps and
 * closes (cd_epd_reader_new: its descriptor read directly with read(2)
 * from its offset, so bytes f has buffered already are not seen; do not
 * read f otherwise while the reader is in use).  Compressed input (zstd,
 * gzip, bzip2, xz) is found by its first bytes and decompressed, by a
 * thread of its own when the reader opened the stream.  A FILE without
 * a descriptor (fmemopen, fopencookie) is read with fread(3); one whose
 * first bytes are compressed fails at once (CD_ERR_IO, the error
 * CD_ERR_UNSUPPORTED), never read as lines.  NULL only when out of
 * memory (or f NULL): a file that cannot be opened fails at the first
 * cd_epd_reader_next.
 */
typedef struct cd_epd_reader cd_epd_reader;

CD_API cd_epd_reader *cd_epd_reader_open(const char *path);
CD_API cd_epd_reader *cd_epd_reader_open_fd(int fd);
CD_API cd_epd_reader *cd_epd_reader_open_stream(cd_stream *s);
CD_API cd_epd_reader *cd_epd_reader_new(FILE *f);
/* Free the reader, its stream and a file it opened; NULL does
 * nothing. */
CD_API void cd_epd_reader_free(cd_epd_reader *r);
/* The stream read (NULL: a FILE without a descriptor, a file that did
 * not open), for its format, memory and warning. */
CD_API const cd_stream *cd_epd_reader_stream(const cd_epd_reader *r);
/* Why the input ended in CD_ERR_IO (status CD_OK before): the input's
 * own message and status (the stream's, as "truncated xz input: ...",
 * or "cannot open: REASON"), the line it cut (line, or the one after
 * the last when it came at a line start) and the offset of that
 * line. */
CD_API const cd_error *cd_epd_reader_error(const cd_epd_reader *r);
/* The longest line the reader gives (without its end).  A longer line
 * is read to its end without being kept: cd_epd_reader_next gives
 * CD_ERR_RANGE for it, its number in cd_epd_reader_lineno, no bytes
 * (cd_epd_reader_raw's length 0), and reading goes on after it.  So
 * the reader holds at most about this many bytes, whatever the
 * input. */
#define CD_EPD_LINE_MAX	((size_t)1 << 20)

/* The next line without its end: CD_OK, CD_EOF, CD_ERR_RANGE (a line
 * longer than CD_EPD_LINE_MAX, skipped), CD_ERR_IO or CD_ERR_NOMEM.  *line stays valid until the next call.  A last line
 * without a line end is a line when the stream ended cleanly; when a
 * read error ended it (a damaged or truncated compressed input), the
 * line is cut: CD_ERR_IO, with its bytes in cd_epd_reader_raw and its
 * number in cd_epd_reader_lineno (raw length 0 when the error came
 * at the start of a line). */
CD_API cd_status cd_epd_reader_next(cd_epd_reader *r, const char **line,
    size_t *len);
/* The next bytes of the stream, not yet taken by any line: at least
 * want of them unless the stream ends (or fails) before; *bytes stays
 * valid until the next call.  For cd_sniff (want CD_SNIFF_SAMPLE)
 * before the first line.  CD_OK or CD_ERR_NOMEM; a read error is
 * reported by the cd_epd_reader_next that reaches it. */
CD_API cd_status cd_epd_reader_peek(cd_epd_reader *r, size_t want,
    const char **bytes, size_t *len);
/* The last line's bytes exactly as read, its line end included. */
CD_API const char *cd_epd_reader_raw(const cd_epd_reader *r, size_t *len);
/* The last line as cd_epd_parse with CD_EPD_STRICT wants it: without
 * its LF, with any CR before it and the byte order mark of the first
 * line kept (cd_epd_read with CD_EPD_STRICT passes it so). */
CD_API void cd_epd_reader_strict_line(const cd_epd_reader *r,
    const char **line, size_t *len);
/* The last line's number (from 1), and the bytes consumed so far. */
CD_API unsigned long cd_epd_reader_lineno(const cd_epd_reader *r);
CD_API uint64_t cd_epd_reader_offset(const cd_epd_reader *r);
/*
 * The next record, skipping blank and comment lines, parsed into e:
 * the status of cd_epd_parse (CD_OK, or an error: see e's findings),
 * CD_EOF at the end, CD_ERR_RANGE for a line longer than
 * CD_EPD_LINE_MAX (skipped), CD_ERR_IO on a read error (errno set), or
 * CD_ERR_NOMEM.  CD_ERR_IO and CD_ERR_NOMEM are the only statuses that
 * end the stream; after any other, read on.
 */
CD_API cd_status cd_epd_read(cd_epd_reader *r, cd_epd *e, unsigned flags);

#ifdef __cplusplus
}
#endif
#endif
