/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * attacks.c: attack tables, and the attack and check queries over them
 * (the inline ones for the PGN builder and the fast SAN reader are in
 * internal.h).  Leapers by table, sliders by "fancy" magic bitboards:
 * the blockers on a piece's rays are multiplied by a magic number whose
 * top bits index a table of attack sets.  The magic numbers of
 * magics.h are checked while the tables are built; one that fails
 * (none does) is replaced by a fresh search in init_slider(), so the
 * tables are always right.
 */
#include "config.h"

#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "internal.h"

cd_bitboard cd__knight_att[64];
cd_bitboard cd__king_att[64];
cd_bitboard cd__pawn_att[2][64];
cd_bitboard cd__between[64][64];
cd_bitboard cd__line[64][64];
int8_t cd__dir[64][64];
cd_bitboard cd__ray[8][64];
struct cd__magic cd__rook_magic[64];
struct cd__magic cd__bishop_magic[64];

static cd_bitboard rook_table[0x19000];
static cd_bitboard bishop_table[0x1480];

#include "magics.h"

/* Attacks of a slider from sq along the directions first, first + 2,
 * first + 4, first + 6 (0: a rook's, 1: a bishop's), stopping at
 * blockers: each ray is cut at its nearest blocker with the ray beyond
 * it (so the thousands of subsets filled at load cost a few
 * instructions each). */
static cd_bitboard
slide(int sq, cd_bitboard occ, int first)
{
	cd_bitboard att = 0;
	int d;

	for (d = first; d < 8; d += 2) {
		cd_bitboard ray = cd__ray[d][sq], bl = ray & occ;

		if (bl)
			ray ^= cd__ray[d][cd__ray_first(d, bl)];
		att |= ray;
	}
	return att;
}

static uint64_t prng_state = 0x9e3779b97f4a7c15ULL;

static uint64_t
prng(void)
{
	/* xorshift64* */
	prng_state ^= prng_state >> 12;
	prng_state ^= prng_state << 25;
	prng_state ^= prng_state >> 27;
	return prng_state * 2685821657736338717ULL;
}

/* Fill m->table for magic; 0 if two blocker sets with different attacks
 * collide. */
static int
try_magic(struct cd__magic *m, cd_bitboard magic, const cd_bitboard *occ,
    const cd_bitboard *ref, int n, unsigned *epoch, unsigned stamp)
{
	int i;
	unsigned idx;

	for (i = 0; i < n; i++) {
		idx = (unsigned)((occ[i] * magic) >> m->shift);
		if (epoch[idx] != stamp) {
			epoch[idx] = stamp;
			m->table[idx] = ref[i];
		} else if (m->table[idx] != ref[i])
			return 0;
	}
	m->magic = magic;
	return 1;
}

static void
init_slider(struct cd__magic *magics, cd_bitboard *table, int dirs,
    const uint64_t *known)
{
	static cd_bitboard occ[4096], ref[4096];
	static unsigned epoch[4096];
	static unsigned stamp;
	cd_bitboard edges, b, magic;
	int sq, n;

	for (sq = 0; sq < 64; sq++) {
		struct cd__magic *m = &magics[sq];

		edges = ((0xffULL | 0xffULL << 56) & ~(0xffULL << (8 * CD_RANK(sq)))) |
		    ((0x0101010101010101ULL | 0x8080808080808080ULL) &
		    ~(0x0101010101010101ULL << CD_FILE(sq)));
		m->mask = slide(sq, 0, dirs) & ~edges;
		m->shift = 64 - (unsigned)cd__popcount(m->mask);
		m->table = table;
		/* every subset of the mask (carry-rippler) */
		n = 0;
		b = 0;
		do {
			occ[n] = b;
			ref[n] = slide(sq, b, dirs);
			n++;
			b = (b - m->mask) & m->mask;
		} while (b != 0);
		table += n;
		if (try_magic(m, known[sq], occ, ref, n, epoch, ++stamp))
			continue;
		do {
			magic = prng() & prng() & prng();
			if (cd__popcount((m->mask * magic) >> 56) < 6)
				continue;
		} while (!try_magic(m, magic, occ, ref, n, epoch, ++stamp));
	}
}

static void
init_leapers(void)
{
	static const int knight[8][2] = { {1, 2}, {2, 1}, {2, -1}, {1, -2},
	    {-1, -2}, {-2, -1}, {-2, 1}, {-1, 2} };
	static const int king[8][2] = { {1, 0}, {1, 1}, {0, 1}, {-1, 1},
	    {-1, 0}, {-1, -1}, {0, -1}, {1, -1} };
	int sq, i, f, r;

	for (sq = 0; sq < 64; sq++) {
		for (i = 0; i < 8; i++) {
			f = CD_FILE(sq) + knight[i][0];
			r = CD_RANK(sq) + knight[i][1];
			if (f >= 0 && f < 8 && r >= 0 && r < 8)
				cd__knight_att[sq] |= CD_BB(CD_SQ(f, r));
			f = CD_FILE(sq) + king[i][0];
			r = CD_RANK(sq) + king[i][1];
			if (f >= 0 && f < 8 && r >= 0 && r < 8)
				cd__king_att[sq] |= CD_BB(CD_SQ(f, r));
		}
		f = CD_FILE(sq);
		r = CD_RANK(sq);
		if (r < 7) {
			if (f > 0)
				cd__pawn_att[CD_WHITE][sq] |= CD_BB(sq + 7);
			if (f < 7)
				cd__pawn_att[CD_WHITE][sq] |= CD_BB(sq + 9);
		}
		if (r > 0) {
			if (f > 0)
				cd__pawn_att[CD_BLACK][sq] |= CD_BB(sq - 9);
			if (f < 7)
				cd__pawn_att[CD_BLACK][sq] |= CD_BB(sq - 7);
		}
	}
}

static void
init_rays(void)
{
	static const int df[8] = { 0, 1, 1, 1, 0, -1, -1, -1 };
	static const int dr[8] = { 1, 1, 0, -1, -1, -1, 0, 1 };
	int a, d;

	memset(cd__dir, -1, sizeof(cd__dir));
	for (d = 0; d < 8; d++)
		for (a = 0; a < 64; a++) {
			int f = CD_FILE(a) + df[d], r = CD_RANK(a) + dr[d];

			for (; f >= 0 && f < 8 && r >= 0 && r < 8;
			    f += df[d], r += dr[d]) {
				cd__ray[d][a] |= CD_BB(CD_SQ(f, r));
				cd__dir[a][CD_SQ(f, r)] = (int8_t)d;
			}
		}
}

static void
init_lines(void)
{
	int a, c;

	for (a = 0; a < 64; a++)
		for (c = 0; c < 64; c++) {
			if (a == c)
				continue;
			if (cd__rook_att(a, 0) & CD_BB(c)) {
				cd__line[a][c] = (cd__rook_att(a, 0) &
				    cd__rook_att(c, 0)) | CD_BB(a) | CD_BB(c);
				cd__between[a][c] = cd__rook_att(a, CD_BB(c)) &
				    cd__rook_att(c, CD_BB(a));
			} else if (cd__bishop_att(a, 0) & CD_BB(c)) {
				cd__line[a][c] = (cd__bishop_att(a, 0) &
				    cd__bishop_att(c, 0)) | CD_BB(a) | CD_BB(c);
				cd__between[a][c] = cd__bishop_att(a, CD_BB(c)) &
				    cd__bishop_att(c, CD_BB(a));
			}
		}
}

/*
 * Map the pages of a table in one call before it is filled: the fill
 * writes all over it, and page by page the faults cost more than the
 * fill (on a virtual machine, 3 of the 4 ms a tool took to start).
 * Where the kernel cannot, the pages fault in as before.
 */
static void
prefault(void *p, size_t n)
{
#ifdef MADV_POPULATE_WRITE
	long pg = sysconf(_SC_PAGESIZE);
	uintptr_t a, e;

	if (pg <= 0)
		return;
	a = (uintptr_t)p & ~((uintptr_t)pg - 1);
	e = ((uintptr_t)p + n + (uintptr_t)pg - 1) & ~((uintptr_t)pg - 1);
	(void)madvise((void *)a, e - a, MADV_POPULATE_WRITE);
#else
	(void)p;
	(void)n;
#endif
}

void
cd__attacks_init(void)
{
	prefault(rook_table, sizeof(rook_table));
	prefault(bishop_table, sizeof(bishop_table));
	prefault(cd__between, sizeof(cd__between));
	prefault(cd__line, sizeof(cd__line));
	init_leapers();
	init_rays();
	init_slider(cd__rook_magic, rook_table, 0, rook_magics);
	init_slider(cd__bishop_magic, bishop_table, 1, bishop_magics);
	init_lines();
}

cd_bitboard
cd_attacks(int piece_type, int color, int sq, cd_bitboard occupied)
{
	if (sq < 0 || sq > 63)
		return 0;
	switch (piece_type) {
	case CD_PAWN: return cd__pawn_att[color & 1][sq];
	case CD_KNIGHT: return cd__knight_att[sq];
	case CD_BISHOP: return cd__bishop_att(sq, occupied);
	case CD_ROOK: return cd__rook_att(sq, occupied);
	case CD_QUEEN: return cd__bishop_att(sq, occupied) |
		    cd__rook_att(sq, occupied);
	case CD_KING: return cd__king_att[sq];
	}
	return 0;
}

/* ---- attack and check queries ---- */

cd_bitboard
cd__attackers(const cd_board *b, int sq, int by, cd_bitboard occ)
{
	cd_bitboard them = b->by_color[by];
	cd_bitboard bq = b->by_type[CD_BISHOP] | b->by_type[CD_QUEEN];
	cd_bitboard rq = b->by_type[CD_ROOK] | b->by_type[CD_QUEEN];

	return them & ((cd__pawn_att[by ^ 1][sq] & b->by_type[CD_PAWN]) |
	    (cd__knight_att[sq] & b->by_type[CD_KNIGHT]) |
	    (cd__king_att[sq] & b->by_type[CD_KING]) |
	    (cd__bishop_att(sq, occ) & bq) | (cd__rook_att(sq, occ) & rq));
}

cd_bitboard
cd_attackers(const cd_board *b, int sq, int by, cd_bitboard occ)
{
	return cd__attackers(b, sq, by, occ);
}

cd_bitboard
cd_board_checkers(const cd_board *b)
{
	int k = cd__board_king(b, b->side);

	if (k == CD_SQ_NONE)
		return 0;
	return cd__attackers(b, k, b->side ^ 1, b->by_type[0]);
}

bool
cd_board_in_check(const cd_board *b)
{
	return cd_board_checkers(b) != 0;
}

bool
cd__ep_capture_legal(const cd_board *b)
{
	int us = b->side, them = us ^ 1, ep = b->ep, cap, ksq, from;
	cd_bitboard cands, occ;

	if (ep == CD_SQ_NONE || CD_RANK(ep) != (us == CD_WHITE ? 5 : 2))
		return false;
	cap = ep ^ 8;
	if (!(b->by_type[CD_PAWN] & b->by_color[them] & CD_BB(cap)) ||
	    (b->by_type[0] & CD_BB(ep)))
		return false;
	ksq = cd__board_king(b, us);
	cands = cd__pawn_att[them][ep] & b->by_type[CD_PAWN] & b->by_color[us];
	while (cands) {
		from = cd__pop_lsb(&cands);
		if (ksq == CD_SQ_NONE)
			return true;
		occ = (b->by_type[0] ^ CD_BB(from) ^ CD_BB(cap)) | CD_BB(ep);
		if (!(cd__attackers(b, ksq, them, occ) & ~CD_BB(cap)))
			return true;
	}
	return false;
}
