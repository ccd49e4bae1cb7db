/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * chessdata/pgn_read.h: PGN games from a file, a descriptor, a stream
 * or memory, without chess knowledge.
 *
 * cd_pgn_reader splits its input into games, following the import
 * format of pgn(5).  Each game comes back as its ORIGINAL bytes (exact,
 * so a tool can copy it unchanged to a rejects file or write it
 * sorted), the line where it starts, its tag pairs (unescaped) and
 * where its movetext begins and ends.  It reads in large blocks and
 * keeps one game in memory (the buffer grows for big games, up to the
 * limit below; skipped text is never kept).  No move is checked: the
 * tokens of a game are chessdata/pgn_lex.h's, its moves
 * chessdata/pgn.h's (cd_pgn_parse).
 *
 * Input: a reader opens a file itself (cd_pgn_reader_open), or reads a
 * descriptor (cd_pgn_reader_open_fd), a stream (cd_pgn_reader_open_stream),
 * a stdio FILE (cd_pgn_reader_new) or memory (cd_pgn_reader_new_mem).
 * Every input but memory and a FILE without a descriptor is read
 * through a reading stream (chessdata/stream.h): compressed input
 * (zstd, gzip, bzip2, xz, and .zip archives, whose members are read one
 * after the other: cd_stream_on_member tells where each begins) is
 * found by its first bytes and decompressed, and when it is damaged or truncated the reader ends
 * with the stream's own message in cd_pgn_reader_error ("truncated zstd
 * input: it ends inside compressed data at byte 1234"), after the games
 * complete before the damage.  Compressed bytes are never read as text.
 *
 * Game boundaries (layer 1):
 * - A game is a tag section (tag pairs, whitespace, blank lines and `%`
 *   escape lines) followed by movetext.  It ends after its termination
 *   marker, or, when the marker is missing, where the next tag section
 *   begins (a `[` first on a line, after optional spaces, that starts a
 *   tag), or at the end of input.  After the marker the game keeps the
 *   rest of the marker's line when it is blank or comments, the lines
 *   after it that hold only comments (`;`, `{}`, `%`) when the next tag
 *   section or the end of input follows them (engine output puts a
 *   `; {Game Nr. 1 ...}` line there), and the blank lines that follow.
 *   So a game's bytes may hold comments after its termination marker,
 *   and nothing else after it.
 * - Inside a tag section, a tag whose name is already in the section,
 *   or an Event tag, starts a new game when a blank line came before it
 *   (a tag section without movetext followed by the next game).
 *   Without a blank line before it, a repeated name (a second Event tag
 *   too) is the same game's: both are in tags, and cd_pgn_raw_tag and
 *   the parser take the last.
 * - Brace comments, `;` comments, `%` escape lines (a `%` in column one)
 *   and quoted strings in movetext are skipped as units, so a `*`, a
 *   `1-0` or a `[` inside them never ends a game.
 * - A brace comment ends at its `}` (standard, section 5), whatever
 *   lines it holds: lines that look like tag pairs inside it stay in
 *   the game.  A brace comment is never closed when no `}` follows it
 *   up to the end of input (or within the game's first CD_PGN_GAME_MAX
 *   bytes), or when the next game starts inside it before its `}`: a
 *   line that is a complete tag pair starting in column one
 *   (`[Name "value"]`, blanks after it) right after a line of the
 *   comment that is blank or ends with a termination marker.  (So a
 *   missing `}` cannot make the games after it one comment, closed by
 *   a `}` of a later game.)  Then the game ends at the first line
 *   inside the comment that is a complete tag pair starting in column
 *   one, or at the end, and is marked CD_PGN_RAW_UNCLOSED_COMMENT;
 *   reading goes on at that line, so the games after it are read.  Its
 *   bytes are all in the game (never lost); a parser must reject it.
 * - Text before a game that is not PGN (mail headers, a comment before
 *   the first tags, text after a termination marker on its line) is
 *   skipped and counted in skipped_bytes/skipped_line of the next game
 *   (or of the final CD_EOF).  Text is taken for a game without tags
 *   when its first token (after comments) is a move number, a move, a
 *   termination marker, a NAG or a variation; otherwise it is skipped
 *   up to the next blank line or tag section.
 * - A UTF-8 byte order mark at the start of input is skipped (it is in
 *   no game).  Blank lines before the first game are in no game.  CRLF
 *   line ends and control bytes are carried in the game bytes like any
 *   other byte.  A line of text that is not PGN is skipped in pieces,
 *   never kept whole.  So is a run of more than 128 KiB of blanks
 *   without a line end (spaces, tabs, CRs) before a game: in no game,
 *   so a game preceded by such a run on its line begins within the
 *   last 128 KiB of it.
 * - Binary data: a game that holds a NUL byte, or another byte that
 *   text does not hold (DEL and the control bytes but tab, LF, VT, FF,
 *   CR, SUB and ESC: the standard's section 4.1 allows none but tab and
 *   line ends), is marked CD_PGN_RAW_NUL
 *   when its first line starts with a complete tag pair (a game with a
 *   damaged byte: cd_pgn_raw_check rejects it); otherwise it is no
 *   game.  Skipped text or such a game holding such a byte is binary
 *   data, skipped up to the next line that starts with a complete tag
 *   pair in column one (blank lines do not end it), and the next game
 *   (or the final CD_EOF) is marked CD_PGN_RAW_SKIPPED_BINARY.  So a
 *   run of binary data is one skipped run, however long.
 *
 * Limits: a game is framed within its first CD_PGN_GAME_MAX bytes (the
 * reader reads them as if the input ended there).  A game that still
 * reaches their end is too large: it comes back with those bytes only,
 * marked CD_PGN_RAW_TOO_LARGE (cd_pgn_raw_check rejects it), and the
 * rest of it is skipped text up to the next line that starts with a
 * complete tag pair in column one (counted in skipped_bytes, given to
 * cd_pgn_reader_on_gap).
 * Skipped text is never kept.  So the reader holds at most about
 * CD_PGN_GAME_MAX bytes, whatever the input.  Its time is linear in
 * the input however little each read gives (a pipe, a decompressor):
 * holding more than 128 KiB of a game not yet complete, it reads at
 * least as many bytes again before it looks at them (so such a game
 * from a pipe may be given only once more bytes follow it, or the
 * input ends).
 *
 */
#ifndef CHESSDATA_PGN_READ_H
#define CHESSDATA_PGN_READ_H

#include <stdio.h>
#include <chessdata/base.h>
#include <chessdata/pgn_lex.h>
#include <chessdata/stream.h>

#ifdef __cplusplus
extern "C" {
#endif

/* One tag pair of a game.  name and value are NUL-terminated copies
 * (value unescaped); they may contain NUL bytes, hence the lengths.
 * The reader keeps a game's copies one after the other in tag order
 * (name, NUL, value, NUL, next name...), so they can be copied as one
 * block, from tags[0].name to the NUL after the last value. */
typedef struct cd_pgn_tag {	/* ABI: element */
	const char *name;
	size_t name_len;
	const char *value;
	size_t value_len;
	unsigned long line, col;	/* of its `[` */
} cd_pgn_tag;

/* Flags of a raw game. */
enum {
	CD_PGN_RAW_NO_RESULT = 1 << 0,	/* no termination marker */
	CD_PGN_RAW_UNCLOSED_COMMENT = 1 << 1,	/* a `{` never closed */
	CD_PGN_RAW_BAD_TAG = 1 << 2,	/* a tag pair that does not read */
	CD_PGN_RAW_NUL = 1 << 3,	/* a NUL or other binary byte somewhere
					 * in the game */
	CD_PGN_RAW_TOO_LARGE = 1 << 4,	/* longer than the limit: only its
					 * first CD_PGN_GAME_MAX bytes */
	CD_PGN_RAW_SKIPPED_BINARY = 1 << 5	/* the text skipped before it
						 * held a binary byte */
};

/* The most bytes of one game the reader keeps and frames (64 MiB; see
 * cd_pgn_reader_set_limit). */
#define CD_PGN_GAME_MAX	((size_t)64 << 20)

/*
 * One game as read.  Everything points into the reader and stays valid
 * until the next call of cd_pgn_reader_next() or cd_pgn_reader_free().
 */
typedef struct cd_pgn_raw_game {	/* ABI: reserved */
	const char *text;	/* the game's original bytes */
	size_t len;
	uint64_t offset;	/* of text[0] in the input (after a BOM too) */
	uint64_t number;	/* 1 for the first game of the input */
	unsigned long line, col;	/* of text[0], counted from 1 */
	const cd_pgn_tag *tags;	/* in input order, duplicates kept */
	size_t ntags;
	/* The movetext: from its first token (after the tag section and
	 * whitespace) to the end of its termination marker, or to its
	 * last byte that is not white space when the marker is missing
	 * (the end of its last token, blanks ending a `;` comment left
	 * out).  Offsets into text; movetext == movetext_end when there
	 * is none. */
	size_t movetext, movetext_end;
	unsigned long movetext_line, movetext_col;
	cd_pgn_result result;	/* the termination marker */
	unsigned flags;		/* CD_PGN_RAW_* */
	/* Text that was skipped since the previous game (see above). */
	uint64_t skipped_bytes;
	unsigned long skipped_line;	/* its first line; 0 if none */
	CD_RESERVED(4);
} cd_pgn_raw_game;

typedef struct cd_pgn_reader cd_pgn_reader;

/*
 * A reader of the file at path, which it opens and closes (at
 * cd_pgn_reader_free).  Compressed input is decompressed by a thread
 * of its own (CD_STREAM_THREAD), with the stream's default memory
 * limit.  NULL only when out of memory: a file that cannot be opened
 * gives a reader whose first cd_pgn_reader_next fails (CD_ERR_IO,
 * cd_pgn_reader_error: "cannot open: No such file or directory").
 */
CD_API cd_pgn_reader *cd_pgn_reader_open(const char *path);
/*
 * The same on the open descriptor fd, read from its offset; the reader
 * does not close it (as libarchive's archive_read_open_fd).  The first
 * bytes are read at once to know the format (a pipe blocks until they
 * come).
 */
CD_API cd_pgn_reader *cd_pgn_reader_open_fd(int fd);
/*
 * The same on the reading stream s (cd_stream_open_fd_limit: for other
 * flags or another memory limit), which the reader takes: it frees it
 * at cd_pgn_reader_free (the stream's descriptor stays open).  NULL
 * when s is NULL or out of memory (s freed).
 */
CD_API cd_pgn_reader *cd_pgn_reader_open_stream(cd_stream *s);
/*
 * A reader of the open stdio stream f (not closed by the reader).  NULL
 * when out of memory.  As cd_pgn_reader_open_fd on fileno(f): the
 * descriptor is read directly, in large blocks, bypassing stdio, from
 * its offset, so bytes f has already buffered (after an fread, fgets
 * or ungetc on f) are not seen, and f's own position and error and
 * end-of-file flags do not change; compressed input is decompressed.
 * Do not read f otherwise while the reader is in use.  A stream without
 * a descriptor (fmemopen, fopencookie, cd_stream_fopen) is read with
 * fread(3) as it is: when its first bytes are those of a compressed
 * format, the reader fails at once (CD_ERR_IO, cd_pgn_reader_error
 * with CD_ERR_UNSUPPORTED: "zstd compressed input in a stream without
 * a file descriptor: it is not read"), never giving them as text.
 */
CD_API cd_pgn_reader *cd_pgn_reader_new(FILE *f);
/* A reader of len bytes at buf, which must stay valid and unchanged
 * while the reader is used; games point into buf. */
CD_API cd_pgn_reader *cd_pgn_reader_new_mem(const void *buf, size_t len);
/* Free the reader, its stream, and a file it opened.  NULL does
 * nothing. */
CD_API void cd_pgn_reader_free(cd_pgn_reader *r);
/*
 * The stream the reader reads (its format, cd_stream_memory, the
 * warning cd_stream_warning keeps for the end of the input), or NULL
 * for memory, a FILE without a descriptor, or a file that did not
 * open.
 */
CD_API const cd_stream *cd_pgn_reader_stream(const cd_pgn_reader *r);

/*
 * The next game into *g.  CD_OK; CD_EOF at the end of input (g's
 * skipped_bytes/skipped_line then tell about text skipped at the end,
 * other fields are zero); CD_ERR_IO when the input cannot be read
 * further (errno is set; cd_pgn_reader_error says why); CD_ERR_NOMEM.
 * The games complete before a read error or damage in a compressed
 * input come first; a last game cut short by it (no termination
 * marker) is not given.  After an error the reader is at its end.
 */
CD_API cd_status cd_pgn_reader_next(cd_pgn_reader *r, cd_pgn_raw_game *g);

/*
 * Have fn called with every run of input bytes that is in no game: a
 * byte order mark, blank lines before or between games, skipped text
 * (see above).  The calls come in input order, as the reader passes the
 * bytes, so each run is reported before the game that follows it is
 * returned, and the runs after the last game before CD_EOF.  The games'
 * bytes and these runs, in that order, are the input byte for byte.
 * bytes is valid only during the call.  fn NULL turns it off.
 */
CD_API void cd_pgn_reader_on_gap(cd_pgn_reader *r,
    void (*fn)(void *ctx, const char *bytes, size_t len), void *ctx);

/*
 * Frame each game within its first max_game bytes (at least 256;
 * CD_PGN_GAME_MAX unless set): see "Limits" above.  So the reader never
 * holds more than about max_game bytes, whatever the input.
 */
CD_API void cd_pgn_reader_set_limit(cd_pgn_reader *r, size_t max_game);

/* Reader flags. */
enum {
	/* A brace comment in movetext may hold others, `{ a { b } c }`:
	 * it ends at the `}` that closes its `{` (pgn-extract
	 * --nestedcomments), when there is one before the input ends and
	 * no game starts inside it; otherwise at its first `}` as usual.
	 * Parse such games with CD_PGN_PARSE_NESTED_COMMENTS. */
	CD_PGN_READ_NESTED_COMMENTS = 1 << 0
};

/* Set the reader flags (CD_PGN_READ_*; none unless set), before the
 * first cd_pgn_reader_next(). */
CD_API void cd_pgn_reader_set_flags(cd_pgn_reader *r, unsigned flags);

/*
 * Whether a raw game may be taken as a game: CD_OK; CD_ERR_CORRUPT for
 * a game with a NUL byte (CD_PGN_RAW_NUL: "binary data (NUL byte)", at
 * the line and column of the first); CD_ERR_RANGE for a game too large
 * (CD_PGN_RAW_TOO_LARGE).  err (may be NULL) gets the message and
 * place.  cd_pgn_parse checks this first; a tool that takes games
 * without parsing them calls it.
 */
CD_API cd_status cd_pgn_raw_check(const cd_pgn_raw_game *g, cd_error *err);

/*
 * After a raw game g was copied to c (its text and tags elsewhere, the
 * tags' names and values copied whole as the one block the reader
 * keeps them in): c is parsed as fast as g would be (the reader's note
 * that g's tags are plain goes with it).  c's tags must be g's, each
 * name and value as long and as far from the first name as in g; when
 * one is not (each is compared), c is parsed as any game is.  For a
 * tool that keeps games past the next read.
 */
CD_API void cd_pgn_raw_copied(cd_pgn_raw_game *c, const cd_pgn_raw_game *g);

/* Bytes consumed so far (for progress lines). */
CD_API uint64_t cd_pgn_reader_tell(const cd_pgn_reader *r);

/*
 * The reader's error after CD_ERR_IO or CD_ERR_NOMEM (status CD_OK
 * before), or why the game cd_pgn_reader_read (pgn.h) gave last does
 * not read (cd_pgn_parse's error).  The offset, line and column where
 * reading stopped, and the input's own message and status: the stream's ("truncated zstd input:
 * it ends inside compressed data at byte N", CD_ERR_CORRUPT; "read
 * error: Input/output error", CD_ERR_IO; a memory limit, CD_ERR_RANGE;
 * a format left out of the build, CD_ERR_UNSUPPORTED), or "cannot
 * open: REASON".
 */
CD_API const cd_error *cd_pgn_reader_error(const cd_pgn_reader *r);

/* Look up a tag of a raw game by name (the last one of that name);
 * NULL if absent. */
CD_API const cd_pgn_tag *cd_pgn_raw_tag(const cd_pgn_raw_game *g,
    const char *name);

/* The game's result, the one every tool reads (cd_game_result gives
 * the same for the parsed game): the termination marker; when there is
 * none, the Result tag read by cd_pgn_result_parse (so "1/2" is a
 * draw); when neither reads, CD_PGN_RESULT_UNKNOWN (`*`). */
CD_API cd_pgn_result cd_pgn_raw_result(const cd_pgn_raw_game *g);

#ifdef __cplusplus
}
#endif
#endif
