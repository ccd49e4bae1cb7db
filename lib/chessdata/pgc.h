/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * chessdata/pgc.h: PGC, the binary coding of PGN (standard section 20),
 * as man/pgc.5 specifies it.
 *
 * Move ordinals: the index of a move in the list of the position's legal
 * moves written in canonical SAN (check and mate marks included) and
 * sorted in ascending byte order.  The library computes that order
 * without writing or sorting strings (see cd_pgc_keys and lib/pgc/ordinal.c):
 * moves group by their first character (B K N O Q R a..h), groups are
 * counted with bitboards, and only the group of the move is keyed.
 *
 * The encoder turns a cd_game (as the PGN parser builds it) into PGC
 * records; the decoder reads records from a stream and builds the same
 * game with the game builder, so that the PGN writer writes it exactly
 * as pgn-regularize writes the game it came from.
 */
#ifndef CHESSDATA_PGC_H
#define CHESSDATA_PGC_H

#include <stdio.h>
#include <chessdata/board.h>
#include <chessdata/pgn.h>
#include <chessdata/stream.h>

#ifdef __cplusplus
extern "C" {
#endif

/*
 * The sort keys of n legal moves of b.  moves[] must be the complete
 * list of b's legal moves (as cd_board_legal_moves gives it, in any
 * order), because the disambiguation of a move depends on the others.
 * keys[i] orders moves[i] exactly as the canonical SAN strings with
 * check and mate marks order in ascending byte order: a smaller key is
 * a smaller string, and different legal moves have different keys.
 * (The key is the move's SAN without its mark, one byte per character,
 * read as a big-endian number; man/pgc.5 shows why the marks never
 * change the order.)
 */
CD_API void cd_pgc_keys(const cd_board *b, const cd_move *moves, int n,
    uint64_t *keys);

/* The ordinal of the move m in b (0 .. number of legal moves - 1), or
 * -1 if m is not a legal move of b. */
CD_API int cd_pgc_ordinal(const cd_board *b, cd_move m);

/* The legal move of b with ordinal ord, or CD_MOVE_NONE if b has no
 * more than ord legal moves. */
CD_API cd_move cd_pgc_move(const cd_board *b, unsigned ord);

/* All legal moves of b in ordinal order into out (room for
 * CD_MAX_MOVES); returns their number. */
CD_API int cd_pgc_sorted_moves(const cd_board *b, cd_move *out);

/* Record markers (man/pgc.5). */
enum {
	CD_PGC_NOOP = 0x00,
	CD_PGC_REDUCED_GAME = 0x01,	/* seven string-1, mvseq-2 */
	CD_PGC_TAG = 0x02,		/* string-1 name, string-1 value */
	CD_PGC_MOVES_1 = 0x03,		/* mvseq-1 */
	CD_PGC_MOVES_2 = 0x04,		/* mvseq-2 */
	CD_PGC_GAME_BEGIN = 0x05,
	CD_PGC_GAME_END = 0x06,
	CD_PGC_NAG = 0x07,		/* int-1 */
	CD_PGC_RAV_BEGIN = 0x08,
	CD_PGC_RAV_END = 0x09,
	CD_PGC_ESCAPE = 0x0a,		/* string-2 */
	CD_PGC_COMMENT = 0x0b		/* string-2; our extension */
};

/* Encoder flags. */
enum {
	CD_PGC_WITH_COMMENTS = 1 << 0	/* comments as 0x0b records */
};

/*
 * Append the PGC records of game g to out: one 0x01 record when the
 * game is in reduced form (after dropping its comments, unless
 * CD_PGC_WITH_COMMENTS), else 0x05, its export tags as 0x02, its
 * movetext, 0x06.  Without CD_PGC_WITH_COMMENTS the comments are left
 * out and *dropped (if not NULL) gets their number.  Errors, for what
 * PGC cannot hold (nothing is appended; err filled in if not NULL):
 * CD_ERR_UNSUPPORTED (a null move), CD_ERR_RANGE (a tag name or value
 * over 255 bytes, a comment or escape line over 65535 bytes),
 * CD_ERR_NOMEM.
 */
CD_API cd_status cd_pgc_encode(const cd_game *g, unsigned flags, cd_buf *out,
    size_t *dropped, cd_error *err);

/*
 * The streaming decoder.  It reads its input in blocks and holds one
 * game at a time.  A game has no limit but that of memory, as a PGN
 * game has none: whatever the encoder writes, the decoder reads.  Each
 * move, tag, comment or escape line of a game costs at least one byte
 * of input, so the memory the decoder takes is bounded by a multiple
 * of the size of the largest game, whatever the bytes are.
 */
typedef struct cd_pgc_reader cd_pgc_reader;

/*
 * A reader of the file at path (opened and closed by the reader), of
 * the descriptor fd (read from its offset, not closed), of the reading
 * stream s (taken: freed with the reader), of the stdio FILE f (not
 * closed; its descriptor read directly from its offset, bypassing what
 * f has buffered), or of len bytes at buf (not copied: keep them).  The
 * input is opened and read as cd_pgn_reader's (chessdata/pgn_read.h):
 * compressed input is found by its first bytes and decompressed, a
 * FILE without a descriptor is read with fread(3) and fails at once
 * when its first bytes are compressed (CD_ERR_IO; the error's status
 * CD_ERR_UNSUPPORTED).  NULL only when out of memory (or s NULL); a
 * file that cannot be opened fails at the first cd_pgc_reader_next.
 */
CD_API cd_pgc_reader *cd_pgc_reader_open(const char *path);
CD_API cd_pgc_reader *cd_pgc_reader_open_fd(int fd);
CD_API cd_pgc_reader *cd_pgc_reader_open_stream(cd_stream *s);
CD_API cd_pgc_reader *cd_pgc_reader_new(FILE *f);
CD_API cd_pgc_reader *cd_pgc_reader_new_mem(const void *buf, size_t len);
/* Free the reader, its stream and a file it opened; NULL does
 * nothing. */
CD_API void cd_pgc_reader_free(cd_pgc_reader *r);
/* The stream read (NULL: memory, a FILE without a descriptor, a file
 * that did not open), for its format, memory and warning. */
CD_API const cd_stream *cd_pgc_reader_stream(const cd_pgc_reader *r);

/*
 * Decode the next game into g (cleared first).  CD_OK; CD_EOF at the
 * clean end of the stream; CD_ERR_CORRUPT for damaged data (unknown
 * marker, truncated record, ordinal beyond the legal moves, unbalanced
 * 0x08/0x09, a record where it cannot stand),
 * CD_ERR_IO, CD_ERR_NOMEM, with err filled in (if not NULL).  After an
 * error the reader stays failed: every later call returns the same
 * status.
 */
CD_API cd_status cd_pgc_reader_next(cd_pgc_reader *r, cd_game *g,
    cd_error *err);

/* The reader's last error (status CD_OK while there was none): for the
 * decoder the byte offset in the stream (from 0) where the fault lies;
 * line and column are 0 in a binary stream.  After CD_ERR_IO, the
 * input's own message and status (the stream's: "truncated zstd input:
 * ...", CD_ERR_CORRUPT; "read error: REASON", CD_ERR_IO; or "cannot
 * open: REASON"), at the decoded offset where it stopped. */
CD_API const cd_error *cd_pgc_reader_error(const cd_pgc_reader *r);

/* Bytes consumed so far. */
CD_API uint64_t cd_pgc_reader_tell(const cd_pgc_reader *r);

#ifdef __cplusplus
}
#endif
#endif
