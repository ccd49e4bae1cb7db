/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * chessdata/dedup.h: what makes two games the same game (pgn-dedup(1)).
 *
 * A game's key is 128 bits: a seed (its start position and, when asked,
 * its players' surnames, normalised by cd_dedup_surname) extended by each
 * main-line move in turn (cd_dedup_move), so the key after k moves is the
 * key of every game that begins with those k moves from that position
 * (between those players).  Two games with the same key are taken to be
 * the same: for n distinct games the chance of a false match is about
 * n * n / 2^129 (below 10^-21 for a billion games).  cd_dedup_bytes keys
 * any text the same way (the export form of a game, for instance).
 */
#ifndef CHESSDATA_DEDUP_H
#define CHESSDATA_DEDUP_H

#include <stddef.h>
#include <stdint.h>
#include <chessdata/base.h>
#include <chessdata/board.h>
#include <chessdata/pgn.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct cd_dedup_key {	/* ABI: value */
	uint64_t a, b;
} cd_dedup_key;

/* Flags of cd_dedup_seed and cd_dedup_mainline. */
enum {
	/* the players' surnames are part of the key (White, then Black) */
	CD_DEDUP_PLAYERS = 1 << 0
};

/*
 * The surname of a player's name as pgn-dedup compares it: the part
 * before the first comma (the standard's "Surname, Given names"), or,
 * with no comma, the name without its trailing initials ("Carlsen M."
 * is "Carlsen"); then only letters and digits (UTF-8, or Latin-1
 * bytes that are not UTF-8): Latin letters without their accents,
 * composed or decomposed, as their base letters ("Ã", "\xc3" and "A"
 * are all "a", "Ș" and "ễ" are "s" and "e", "ß" is "ss", "Ø" is "o",
 * "ł" is "l"), Latin, Greek and Cyrillic letters case-folded (Greek
 * and Cyrillic accents dropped too), letters of other scripts as they
 * came; spaces, punctuation (apostrophes, hyphens of every kind),
 * symbols and controls dropped (lib/data/gen-fold.py says the rule).  So
 * "Carlsen, M." and "Carlsen,Magnus" are both "carlsen",
 * "Nepomniachtchi, Ian" and "NEPOMNIACHTCHI" the same, "O’Kelly" and
 * "O'Kelly" too.
 * Writes at most cap bytes to out (no NUL) and returns the length the
 * whole needs, which is never more than 2 * len.
 */
CD_API size_t cd_dedup_surname(const char *name, size_t len, char *out,
    size_t cap);

/* The key of a game with no move yet: its start position (with the
 * Chess960 flag) and, with CD_DEDUP_PLAYERS, the surnames of its White
 * and Black tags (missing tags as empty names). */
CD_API cd_dedup_key cd_dedup_seed(const cd_game *g, unsigned flags);

/* Key k extended by move m (its packed 16 bits; CD_MOVE_NULL too). */
static inline cd_dedup_key
cd_dedup_move(cd_dedup_key k, cd_move m)
{
	__uint128_t x = (__uint128_t)(k.a ^ m ^ 0x9e3779b97f4a7c15ULL) *
	    0xd6e8feb86659fd93ULL;
	__uint128_t y = (__uint128_t)(k.b + m + 0xc2b2ae3d27d4eb4fULL) *
	    0xa0761d6478bd642fULL;

	k.a = (uint64_t)x ^ (uint64_t)(x >> 64);
	k.b = (uint64_t)y ^ (uint64_t)(y >> 64) ^ k.a;
	return k;
}

/* The key of the game's main line: cd_dedup_seed extended by every
 * main-line move.  *plies (if not NULL) gets the number of moves. */
CD_API cd_dedup_key cd_dedup_mainline(const cd_game *g, unsigned flags,
    uint32_t *plies);

/* Key k extended by n bytes at p (start from a zero key). */
CD_API cd_dedup_key cd_dedup_bytes(cd_dedup_key k, const void *p,
    size_t n);

#ifdef __cplusplus
}
#endif
#endif
