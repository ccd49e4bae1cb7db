/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * chessdata/sniff.h: what the start of an input looks like, so that a
 * tool given the wrong kind of file can say so once instead of
 * reporting every line of it.
 */
#ifndef CHESSDATA_SNIFF_H
#define CHESSDATA_SNIFF_H

#include <chessdata/base.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Bytes enough for cd_sniff to decide (a tool passes up to this). */
#define CD_SNIFF_SAMPLE 4096

typedef enum cd_sniff_kind {
	CD_SNIFF_EMPTY = 0,	/* nothing, or only white space and
				 * comment lines */
	CD_SNIFF_TEXT,		/* text, but neither PGN nor EPD */
	CD_SNIFF_PGN,		/* a tag pair or the start of movetext */
	CD_SNIFF_EPD,		/* the fields of EPD or FEN */
	CD_SNIFF_BINARY		/* NUL and control bytes no text holds */
} cd_sniff_kind;

/*
 * Classify the first len bytes of an input (a sample of up to
 * CD_SNIFF_SAMPLE bytes; the last line may be cut).  Binary when more
 * than one byte in 32 is NUL or another control character than tab,
 * line feed, vertical tab, form feed, carriage return and escape (a
 * stray NUL in a line of text is that line's error, not binary data).  Otherwise its lines are looked at in
 * order, after a UTF-8 byte order mark, passing over blank lines and
 * comment lines (`#` or `%` in the first column): the first line that
 * is a PGN tag pair (`[Name "`), a PGN comment (`{`) or the start of
 * movetext (a move number and a move: `1. e4`, `1...Nf6`) makes it
 * PGN; the first line that starts with the piece placement and side to
 * move of EPD or FEN (`rnbqkbnr/.../RNBQKBNR w`) makes it EPD.  Lines
 * of other text are passed over; a sample with no line of either kind
 * is text (or empty).
 */
CD_API cd_sniff_kind cd_sniff(const void *buf, size_t len);

/*
 * A format that is not chess data, known by the first len bytes of an
 * input (after any compression): "tar archives", "7-Zip archives", "RAR
 * archives", "PDF documents", "ELF executables", "JPEG images", "PNG
 * images", "GIF images" (the name a message gives: "7-Zip archives are
 * not read"), or NULL for none of them.  A tar archive is known by its
 * first header (512 bytes, "ustar" and a checksum that holds); the
 * others by their magic bytes.  No PGN, EPD or PGC input starts so.
 */
CD_API const char *cd_sniff_format(const void *buf, size_t len);

/* What a kind is called in a message: "empty", "text", "PGN", "EPD",
 * "binary data". */
CD_API const char *cd_sniff_name(cd_sniff_kind k);

#ifdef __cplusplus
}
#endif
#endif
