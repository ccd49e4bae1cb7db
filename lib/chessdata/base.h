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
 * CD_PRIVATE marks a field of a public struct that only the library
 * reads or writes: it keeps its room (the struct's size is part of the
 * ABI), and a program that names it gets a compiler warning (GCC and
 * clang, -Wdeprecated-declarations).
 */
#if defined(CD_BUILDING_LIBRARY) || !defined(__GNUC__)
#define CD_PRIVATE
#else
#define CD_PRIVATE __attribute__((deprecated("private to libchessdata")))
#endif

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
typedef struct cd_error {
	cd_status status;
	uint64_t offset;
	unsigned long line, col;
	char msg[CD_ERROR_MSG_MAX];
} cd_error;

/*
 * A growable byte buffer the caller owns, where writers and encoders
 * append (PGN text, PGC records, ...): start it zeroed, free it with
 * cd_buf_free.  data[0..len) is the content, cap the room allocated.
 */
typedef struct cd_buf {
	char *data;
	size_t len, cap;
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
