/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * chessdata/stream.h: files and pipes as the readers see them, plain or
 * compressed.
 *
 * A reading stream recognises its input by its first bytes (never by a
 * file name): zstd (any number of frames, skippable frames anywhere, a
 * leading one as the lichess files have), gzip (any number of members,
 * as `cat a.gz b.gz` makes), bzip2 (any number of streams), xz (any
 * number of streams), a .zip archive (below), or plain text.  It gives
 * the decompressed bytes;
 * with CD_STREAM_THREAD a compressed input is decompressed by a thread
 * of the stream's own, ahead of the reader, in blocks of a megabyte,
 * and a zstd input of many frames (as pzstd writes) by several, a frame
 * each, in order.
 * The decompressors are the libraries' own (libzstd, zlib, libbz2,
 * liblzma); a format whose library was left out at configure time is
 * recognised and reported as unsupported.
 *
 * A .zip archive (its first bytes PK 03 04, or PK 05 06 when empty) is
 * read through libarchive: its regular file members in archive order,
 * one after the other, each ending with a line end (one is added after
 * a member whose last byte is not one) and without a UTF-8 byte order
 * mark at its start, so that every member starts a line; directories
 * and other entries are passed over.  cd_stream_on_member tells where
 * each member starts.  A member that is encrypted, compressed itself
 * (a .pgn.gz in the .zip), an archive, a known format that is not chess
 * data (an image, a PDF) or compressed by a method libarchive lacks is
 * passed over, unread, and cd_stream_skipped names it; the members
 * after it are read.  Damage to the archive itself ends the stream with
 * an error that names the member (the members before it given whole).
 * The bytes of a member are streamed in blocks, its
 * declared size never trusted.
 *
 * Other archives and binary formats that are not chess data (tar, 7-Zip,
 * RAR, PDF, ELF, JPEG, PNG, GIF: cd_sniff_format) are recognised by
 * their first bytes and fail with CD_ERR_UNSUPPORTED at the first read
 * ("7-Zip archives are not read"); their format stays CD_STREAM_PLAIN.
 *
 * A writing stream compresses what it is given into a descriptor.
 *
 * The PGN, EPD and PGC readers read through a stream of their own
 * (cd_pgn_reader_open, _open_fd, _new on a FILE), or through one the
 * caller opened (cd_pgn_reader_open_stream: other flags, a memory
 * limit); their error is then the stream's.  cd_stream_fopen() gives a
 * stream as a stdio FILE, for code that reads (getline) or writes one.
 *
 * Errors stay on the handle (cd_stream_error): the status, the
 * offset in the compressed input where the damage was found, and a
 * message ("truncated zstd input", "corrupt gzip input: invalid
 * distance too far back").  The stream never prints.
 */
#ifndef CHESSDATA_STREAM_H
#define CHESSDATA_STREAM_H

#include <stdio.h>
#include <chessdata/base.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum cd_stream_format {
	CD_STREAM_PLAIN = 0,
	CD_STREAM_ZSTD,
	CD_STREAM_GZIP,
	CD_STREAM_BZIP2,
	CD_STREAM_XZ,
	CD_STREAM_ZIP		/* read only: a .zip archive (libarchive) */
} cd_stream_format;

/* "plain", "zstd", "gzip", "bzip2", "xz", "zip". */
CD_API const char *cd_stream_format_name(cd_stream_format f);
/* The format named "zstd" (or "zst"), "gzip" ("gz"), "bzip2" ("bz2"),
 * "xz", "plain" ("none"); -1 for any other name. */
CD_API int cd_stream_format_parse(const char *name);
/* The format a file name's suffix stands for (.zst, .zstd, .gz, .bz2,
 * .xz, in any case: .GZ too), CD_STREAM_PLAIN for any other name (.zip
 * too: the format is never written). */
CD_API cd_stream_format cd_stream_format_suffix(const char *path);
/* The format whose magic bytes begin buf (len bytes: 6 decide every
 * format); CD_STREAM_PLAIN when none does. */
CD_API cd_stream_format cd_stream_detect(const void *buf, size_t len);
/* Whether this build reads and (but zip) writes the format. */
CD_API bool cd_stream_format_supported(cd_stream_format f);
/* The library a format needs ("libzstd", "zlib", "libbz2", "liblzma",
 * "libarchive"; "" for plain). */
CD_API const char *cd_stream_format_library(cd_stream_format f);
/* The compression levels of a format: *min..*max, and the default. */
CD_API void cd_stream_levels(cd_stream_format f, int *min, int *max,
    int *dflt);

typedef struct cd_stream cd_stream;


/* Flags of cd_stream_open_fd. */
enum {
	CD_STREAM_THREAD = 1 << 0	/* decompress in a thread of its own */
};
/*
 * CD_STREAM_THREAD with the number of threads a zstd input of many
 * frames is decoded on (1 to 255; 0, as CD_STREAM_THREAD alone: one per
 * CPU, at most 16).  The output is the same whatever the number.
 */
#define CD_STREAM_THREADS(n)	(CD_STREAM_THREAD | \
	((unsigned)(n) & 0xffu) << 8)

/*
 * The most memory a decoder may take for its window or dictionary
 * (memlimit 0 in the _limit functions: this default, 2 GiB): enough for
 * every file the xz and zstd programs make, up to xz's largest
 * dictionary (1.5 GiB) and zstd --long=31 (a 2 GiB window).  An input
 * that needs more fails with CD_ERR_RANGE ("xz compressed input needs
 * 3073 MiB of memory, more than the limit of 2048 MiB"); gzip and
 * bzip2 take less than 4 MiB whatever the input.
 */
#define CD_STREAM_MEMLIMIT_DEFAULT	((uint64_t)2 << 30)

/*
 * A reading stream on the open descriptor fd (not closed by the stream).
 * It reads the first bytes at once to know the format (a pipe blocks
 * until they come).  NULL only when out of memory; any other failure
 * (a read error, a format left out of the build) is kept on the stream
 * and returned by its first read.
 */
CD_API cd_stream *cd_stream_open_fd(int fd, unsigned flags);
/* The same on a stream that holds len bytes at buf (which must stay
 * valid while the stream is used). */
CD_API cd_stream *cd_stream_open_mem(const void *buf, size_t len,
    unsigned flags);
/* The same with a decoder memory limit of memlimit bytes (0: the
 * default). */
CD_API cd_stream *cd_stream_open_fd_limit(int fd, unsigned flags,
    uint64_t memlimit);
CD_API cd_stream *cd_stream_open_mem_limit(const void *buf, size_t len,
    unsigned flags, uint64_t memlimit);
/* The input's format. */
CD_API cd_stream_format cd_stream_get_format(const cd_stream *s);

/*
 * Have fn called as each member of a .zip archive begins, before any of
 * its bytes is given: name is the member's path in the archive (control
 * characters shown as `?`; valid during the call only) and line the
 * line of the decompressed input (counted from 1, one per line feed)
 * where the member's first line is.  So a position of the input at line
 * L is in the last member whose line is at most L, at line L - line + 1
 * of it, and columns are the same.  The call comes from the thread that
 * decompresses (CD_STREAM_THREAD), ahead of the reader.  Set it before
 * the first read (for a reader: on the stream given to
 * cd_pgn_reader_open_stream and the like); fn NULL turns it off.  Other
 * formats never call it.
 */
CD_API void cd_stream_on_member(cd_stream *s,
    void (*fn)(void *ctx, const char *name, unsigned long line),
    void *ctx);

/*
 * The k-th (from 0) member of a .zip input passed over, unread, so far:
 * *member its name (as cd_stream_on_member gives it) and *why the reason
 * ("encrypted: not read", "gzip compressed: not read (take it out of
 * the archive first)", "PDF documents are not read", libarchive's
 * message for a compression method it lacks), valid until the stream
 * is freed; false past the last, and for other formats.  The members
 * after one passed over are read.
 */
CD_API bool cd_stream_skipped(const cd_stream *s, size_t k,
    const char **member, const char **why);

/*
 * Up to cap decompressed bytes into buf; *n gets how many.  CD_OK (*n >
 * 0), CD_EOF at the end of the input (again and again), or an error
 * (CD_ERR_*, see cd_stream_error), which every later call returns
 * too.  All bytes decompressed before damage is found are given
 * before the error.
 */
CD_API cd_status cd_stream_read(cd_stream *s, void *buf, size_t cap,
    size_t *n);

/* Decompressed bytes given so far; compressed bytes consumed so far. */
CD_API uint64_t cd_stream_tell(const cd_stream *s);
CD_API uint64_t cd_stream_tell_in(const cd_stream *s);

/* The stream's error (status CD_OK when there is none): CD_ERR_IO (a
 * read or write error; the message names the system's reason),
 * CD_ERR_CORRUPT (damaged or truncated data), CD_ERR_UNSUPPORTED (a
 * format left out of this build), CD_ERR_RANGE (the input needs more
 * memory than the limit), CD_ERR_ARG (a level out of range),
 * CD_ERR_NOMEM.  Its offset is that of the compressed input where it
 * was found: for damage, the start of the smallest piece the library
 * checks (a zstd block, a gzip or xz byte, a bzip2 block), for a
 * truncated input its end; line and column are 0. */
CD_API const cd_error *cd_stream_error(const cd_stream *s);
/* A warning about input read past (status CD_OK when there is none),
 * for the caller to show once the stream has ended: zero bytes after
 * the end of bzip2 data, which bzip2(1) ignores with a warning (gzip's
 * are ignored without one, as gzip(1) does). */
CD_API const cd_error *cd_stream_warning(const cd_stream *s);
/* The memory the stream holds now (its buffers, its decoder's window
 * and tables), in bytes: to count a stream against a budget.  Not on a
 * stream whose thread (CD_STREAM_THREAD) may be decoding. */
CD_API size_t cd_stream_memory(const cd_stream *s);

/*
 * A writing stream: the bytes given to cd_stream_write are compressed
 * in format f at level (-1: the format's default; see
 * cd_stream_levels) and written to fd (not closed by the stream; plain
 * writes them as they are).  NULL when out of memory; a format left out
 * of the build or a level out of range gives a stream whose writes fail
 * with CD_ERR_UNSUPPORTED or CD_ERR_ARG.
 */
CD_API cd_stream *cd_stream_open_write_fd(int fd, cd_stream_format f,
    int level);
CD_API cd_status cd_stream_write(cd_stream *s, const void *buf, size_t n);
/* End the compressed data (the last frame, member or stream) and write
 * it out.  CD_OK or the error; writes after it fail. */
CD_API cd_status cd_stream_finish(cd_stream *s);

/* Free the stream (a writer is not finished: call cd_stream_finish
 * first).  A decompressing thread is stopped.  NULL does nothing. */
CD_API void cd_stream_free(cd_stream *s);

/*
 * The stream as a stdio FILE: mode "r" for a reading stream, "w" for a
 * writing one.  fclose() on the FILE finishes a writer (its status
 * decides fclose's) and frees the stream; the descriptor stays open.
 * A read or write error makes ferror() true, with errno EIO for a
 * damaged input (see cd_stream_error).  NULL when out of memory.
 */
CD_API FILE *cd_stream_fopen(cd_stream *s, const char *mode);

#ifdef __cplusplus
}
#endif
#endif
