/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * chessdata/collate.h: the PGN collating order (standard section 12,
 * pgn-sort(1)).
 *
 * Eight keys in turn; a missing tag counts as an empty value, and an
 * empty value sorts before any other in every key:
 *  1. Date: YYYY.MM.DD compared as three numbers, year first; `?` digits
 *     count as zeros; a missing month or day counts as zero ("1993" ==
 *     "1993.??.??" < "1993.01.01").  A value not of that form (four,
 *     two and two characters, each a digit or `?`: "1993.1.1" and
 *     "01993.01.01" are not dates) sorts after all dates, in byte order
 *     (cd_collate_date_read).
 *  2. Event, 3. Site: byte order (unsigned bytes).
 *  4. Round: `?`, then `-`, then numbers; a multipart round ("3.1",
 *     "4.1.2") compares part by part as integers, a prefix first
 *     ("3" < "3.1" < "3.2" < "3.10" < "4"); any other value after all
 *     numbers, in byte order (so does a round with a part longer than
 *     255 characters).
 *  5. White, 6. Black, 7. Result: byte order.
 *  8. The movetext, from its first token to the end of its termination
 *     marker, CRLF read as LF, in byte order.
 *
 * Two forms: cd_collate() compares two games directly, and
 * cd_collate_key() encodes keys 1 to 7 once per game into bytes that
 * compare with memcmp (cd_collate_key_cmp) in the same order, so a sort
 * compares many times cheaply; ties then go to cd_collate_movetext_cmp.
 */
#ifndef CHESSDATA_COLLATE_H
#define CHESSDATA_COLLATE_H

#include <chessdata/base.h>
#include <chessdata/pgn_read.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The seven tag keys, in collating order. */
enum {
	CD_COLLATE_DATE = 0,
	CD_COLLATE_EVENT,
	CD_COLLATE_SITE,
	CD_COLLATE_ROUND,
	CD_COLLATE_WHITE,
	CD_COLLATE_BLACK,
	CD_COLLATE_RESULT,
	CD_COLLATE_NTAGS
};

/* What a game is sorted by.  A NULL tag is missing (same as empty). */
typedef struct cd_collate_game {	/* ABI: reserved */
	const char *tag[CD_COLLATE_NTAGS];
	size_t tag_len[CD_COLLATE_NTAGS];
	const char *movetext;
	size_t movetext_len;
	CD_RESERVED(2);
} cd_collate_game;

/* Fill *out from a raw game (the last tag of each name counts; the
 * movetext is g->text[g->movetext .. g->movetext_end]).  *out points
 * into g. */
CD_API void cd_collate_from_raw(const cd_pgn_raw_game *g,
    cd_collate_game *out);

/* <0, 0, >0 as a sorts before, with, after b (all eight keys). */
CD_API int cd_collate(const cd_collate_game *a, const cd_collate_game *b);

/*
 * A Date value as key 1 reads it (and pgn-split(1) --by=year, month,
 * day, and pgn-select(1) date conditions): CD_DATE_EMPTY for NULL or
 * empty; CD_DATE_VALID for "YYYY", "YYYY.MM" or "YYYY.MM.DD", each Y,
 * M and D a digit or `?` (read as 0), year, month and day (a missing
 * one 0) into ymd; CD_DATE_OTHER for anything else (ymd all 0).  The
 * kinds are in collating order.
 */
enum { CD_DATE_EMPTY = 1, CD_DATE_VALID, CD_DATE_OTHER };
CD_API int cd_collate_date_read(const char *s, size_t len, unsigned ymd[3]);

/*
 * The standard's section 11: file names for PGN data.
 * cd_collate_file_root: a tag value as a portable file name root:
 * ASCII letters folded to lower case and digits kept, `-` and `.` kept
 * inside the name; Latin-1 letters (in UTF-8 or as Latin-1 bytes)
 * spelled in ASCII (é e, ß ss, Æ ae); the bytes of any other UTF-8
 * character, and any other byte from 0x80 up, two hex digits each;
 * every other run of bytes (spaces, punctuation, `/`, control bytes)
 * one `_`; `_`, `-` and `.` trimmed at both ends; at most
 * CD_COLLATE_ROOT_MAX bytes; "_unknown" when nothing is left; a `_`
 * after Windows' device names (con, nul, com1, ...: what comes before
 * the first dot).  out holds CD_COLLATE_ROOT_SIZE bytes; returns the
 * root's length.  cd_collate_player_root: the same for a player's last
 * name (a White or Black value up to its first comma: 11.2; NULL: no
 * tag).  cd_collate_date_path: the directories of 11.4 and 11.5 for a
 * Date value (cd_collate_date_read; `?` read as 0): parts 1 "YYYY",
 * 2 "YYYY/YYYYMM", 3 "YYYY/YYYYMM/YYYYMMDD", or "_unknown" when it is
 * not a date; no tag (NULL) or an empty value as "????.??.??" ("0000",
 * before every date, where the collating order puts it); out holds
 * CD_COLLATE_DATE_PATH_SIZE bytes.  The suffix ".pgn" (11.1) is the caller's.
 */
#define CD_COLLATE_ROOT_MAX		120
#define CD_COLLATE_ROOT_SIZE		(CD_COLLATE_ROOT_MAX + 2)
#define CD_COLLATE_DATE_PATH_SIZE	24
CD_API size_t cd_collate_file_root(const char *value, size_t len,
    char *out);
CD_API size_t cd_collate_player_root(const char *value, size_t len,
    char *out);
CD_API size_t cd_collate_date_path(const char *value, size_t len,
    int parts, char *out);

/* The single keys (empty or NULL values sort first). */
CD_API int cd_collate_date(const char *a, size_t alen, const char *b,
    size_t blen);
CD_API int cd_collate_round(const char *a, size_t alen, const char *b,
    size_t blen);
CD_API int cd_collate_bytes(const char *a, size_t alen, const char *b,
    size_t blen);
CD_API int cd_collate_movetext_cmp(const char *a, size_t alen,
    const char *b, size_t blen);

/*
 * Movetext known by a prefix (a sort that keeps only the start of each
 * game in memory): cd_collate_movetext_prefix gives the length, at most
 * max, of a prefix of mt that compares as the whole would as far as it
 * goes (it does not end between the CR and LF of a line end).
 * cd_collate_movetext_prefix_cmp compares a and b, each a whole
 * movetext or (a_cut, b_cut) such a prefix of one: -1, 0 or 1 as
 * cd_collate_movetext_cmp would give for the whole movetexts, or 2 when
 * the prefixes cannot tell.
 */
CD_API size_t cd_collate_movetext_prefix(const char *mt, size_t len,
    size_t max);
CD_API int cd_collate_movetext_prefix_cmp(const char *a, size_t alen,
    int a_cut, const char *b, size_t blen, int b_cut);

/*
 * Encode keys 1 to 7 of g into out (cap bytes); returns the length the
 * key needs, which may exceed cap (then out holds nothing useful: call
 * again with a larger buffer), like snprintf.  The length is at most
 * 48 + 2 * (total length of the seven values).
 */
CD_API size_t cd_collate_key(const cd_collate_game *g, unsigned char *out,
    size_t cap);

/*
 * Encode the values of the tags names[0..n) of g (the last tag of each
 * name; a missing tag is an empty value) into out as cd_collate_key
 * does, to sort by them before keys 1 to 7 (pgn-sort -k): a tag whose
 * name ends in "Date" (Date, UTCDate, EventDate) as key 1, Round as key
 * 4, any other tag with the empty value first, then negative numbers,
 * then numbers (a value of the form [+-]DIGITS[.DIGITS], compared as
 * the number it writes: "9" < "10" < "10.5"), then every other value
 * in byte order.  Returns the length the key needs (more than cap:
 * out holds nothing useful), like cd_collate_key.
 */
CD_API size_t cd_collate_key_tags(const cd_pgn_raw_game *g,
    const char *const *names, size_t n, unsigned char *out, size_t cap);

/* Compare two encoded keys: the order of keys 1 to 7. */
CD_API int cd_collate_key_cmp(const unsigned char *a, size_t alen,
    const unsigned char *b, size_t blen);

#ifdef __cplusplus
}
#endif
#endif
