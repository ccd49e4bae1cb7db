/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * chessdata/base.h: status codes, export macro, version.
 */
#ifndef CHESSDATA_BASE_H
#define CHESSDATA_BASE_H

#include <stddef.h>
#include <stdint.h>
#include <stdbool.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(CD_BUILDING_LIBRARY) && defined(__GNUC__)
#define CD_API __attribute__((visibility("default")))
#else
#define CD_API
#endif

/*
 * The ABI of the public structs.  The functions are exported by name
 * and version (lib/libchessdata.map); a struct's layout is compiled
 * into its callers, so each struct of these headers is of one of five
 * kinds, named at its definition ("ABI: kind"), which says how a later
 * release of the same soname may change it:
 *
 *   opaque    declared, never defined here (cd_stream, cd_pgn_reader,
 *             cd_pgc_reader, cd_epd, cd_epd_reader, cd_openings,
 *             cd_select, cd_polyglot_maker): reached through calls
 *             only, so anything inside may change.
 *   handed    the library allocates it and hands out pointers to it
 *             (cd_game, cd_epd_op, cd_epd_finding); a caller never
 *             allocates one, copies one by value or steps through an
 *             array of them, so a later release may add fields at the
 *             end.
 *   reserved  the caller allocates it (on its stack, in its own
 *             structs): the size is fixed, and the CD_RESERVED slots at
 *             its end are the room for what a later release adds.  The
 *             caller starts it zeroed ("= { 0 }", designated
 *             initializers, memset) and never names a slot: in options
 *             (cd_pgn_parse_opts, cd_polyglot_make_opts) a slot that
 *             gets a meaning has it with zero meaning today's
 *             behaviour; in what the library fills (cd_error,
 *             cd_opening, ...) the library writes it.
 *   element   an element of an array that the caller indexes with its
 *             size (cd_game_node, cd_game_tag, cd_game_note,
 *             cd_game_xtag, cd_pgn_tag, cd_epd_operand, cd_tc_period):
 *             the size is fixed; what a later release adds for each
 *             element goes into an array beside it, in the handed or
 *             reserved struct that holds them, or behind a new call.
 *   value     a value whose fields are all that it is (cd_board,
 *             cd_dedup_key, cd_game_nagset, cd_polyglot_entry,
 *             cd_san_lang): it never changes; anything more is a new
 *             type.  cd_board is one because every move copies one and
 *             a parsed game keeps one for each node: a slot for the
 *             future would cost on every position.
 *
 * A change that breaks a kind's rule (a field moved, removed or
 * resized, a reserved struct grown, a slot given a meaning where zero
 * is not today's behaviour) is a change of interface: the soname's
 * major number moves (configure.ac: LIBCHESSDATA_LT_VERSION).
 *
 * CD_PRIVATE marks a field of a public struct that only the library
 * reads or writes: it keeps its room (the struct's size and the
 * offsets of the fields after it are part of the ABI), and a program
 * that names it gets a compiler warning (GCC and clang,
 * -Wdeprecated-declarations; the tree's own tools and tests build
 * with that warning an error).  A struct with private fields is still
 * zeroed, and copied where its comment allows, as a whole.
 */
#if defined(CD_BUILDING_LIBRARY) || !defined(__GNUC__)
#define CD_PRIVATE
#else
#define CD_PRIVATE __attribute__((deprecated("private to libchessdata")))
#endif

/* The reserved slots at the end of a "reserved" struct: n 64-bit
 * words, zero, private. */
#define CD_RESERVED(n)	uint64_t cd_reserved_[n] CD_PRIVATE

/* One status enum for the whole library.  Negative values are errors. */
typedef enum cd_status {
	CD_OK = 0,
	CD_EOF = 1,
	CD_ERR_NOMEM = -1,	/* out of memory */
	CD_ERR_IO = -2,		/* read or write error (see errno) */
	CD_ERR_SYNTAX = -3,	/* input does not parse */
	CD_ERR_ILLEGAL = -4,	/* a move that is not legal */
	CD_ERR_AMBIGUOUS = -5,	/* a move that names more than one legal move */
	CD_ERR_POSITION = -6,	/* an impossible position */
	CD_ERR_UNSUPPORTED = -7,	/* a variant or feature we do not handle */
	CD_ERR_RANGE = -8,	/* a number or size out of range */
	CD_ERR_CORRUPT = -9,	/* damaged binary data */
	CD_ERR_ARG = -10	/* a bad argument from the caller */
} cd_status;

/*
 * An error as every reader, parser and decoder reports it: the status,
 * where it was found (the byte offset from the start of the input,
 * counted from 0; the line and column, counted from 1; each 0 when the
 * module cannot know it, e.g. the line of a lone FEN string), and a
 * message (English, lower case, no final period, never longer than
 * the buffer).  Readers keep the last one (cd_pgc_reader_error,
 * cd_pgn_reader_error, cd_epd_error); functions without a handle fill
 * one through a cd_error * argument, which may be NULL.  A status of
 * CD_OK leaves an empty message.
 */
#define CD_ERROR_MSG_MAX 240
typedef struct cd_error {	/* ABI: reserved */
	cd_status status;
	uint64_t offset;
	unsigned long line, col;
	char msg[CD_ERROR_MSG_MAX];
	CD_RESERVED(2);
} cd_error;

/*
 * A growable byte buffer the caller owns, where writers and encoders
 * append (PGN text, PGC records, ...): start it zeroed, free it with
 * cd_buf_free.  data[0..len) is the content, cap the room allocated.
 */
typedef struct cd_buf {		/* ABI: reserved */
	char *data;
	size_t len, cap;
	CD_RESERVED(1);
} cd_buf;

/* Room for n more bytes (cap - len >= n), the capacity doubling as it
 * grows: CD_OK, or CD_ERR_NOMEM with b unchanged. */
CD_API cd_status cd_buf_reserve(cd_buf *b, size_t n);

/* Free the buffer's memory and leave it empty; NULL does nothing. */
CD_API void cd_buf_free(cd_buf *b);

/* A short English text for a status, never NULL. */
CD_API const char *cd_strerror(int status);

/* The library's version as "MAJOR.MINOR.PATCH". */
CD_API const char *cd_version(void);

#ifdef __cplusplus
}
#endif
#endif
