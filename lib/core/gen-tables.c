/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * gen-tables.c: compute the library's constant tables and write them as
 * C source (lib/core/tables.c of the build, compiled into the library), so
 * that a program starts without building any:
 *	gen-tables > tables.c
 * The attack tables: leapers by table, sliders by "fancy" magic
 * bitboards: the blockers on a piece's rays are multiplied by a magic
 * number whose top bits index a table of attack sets.  The magic
 * numbers of magics.h are checked while the tables are built; one that
 * fails (none does) is replaced by a fresh search in init_slider(), so
 * the tables are always right.  Then the Zobrist keys, the lexer's byte
 * classes and the shapes of a rank's FEN.  The tables are written
 * constant; here they are filled, so CD__TABLE (internal.h, tables.h) is empty.
 */
#define CD__TABLE
#include "config.h"

#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "common/internal.h"
#include "core/tables.h"
#include "pgn/bytes.h"

cd_bitboard cd__knight_att[64];
cd_bitboard cd__king_att[64];
cd_bitboard cd__pawn_att[2][64];
cd_bitboard cd__between[64][64];
cd_bitboard cd__line[64][64];
int8_t cd__dir[64][64];
cd_bitboard cd__ray[8][64];
cd_bitboard cd__empty_reach[8][64];
struct cd__magic cd__rook_magic[64];
struct cd__magic cd__bishop_magic[64];

uint64_t cd__z_piece[16][64];
uint64_t cd__z_castle[2][8];
uint64_t cd__z_ep[8];
uint64_t cd__z_side;
unsigned char cd__pgn_cls[256];
struct cd__rank_shape cd__rank_shapes[256];
uint8_t cd__rank_shuffles[256][16];

static cd_bitboard rook_table[0x19000];
static cd_bitboard bishop_table[0x1480];

#include "core/magics.h"

/* Attacks of a slider from sq along the directions first, first + 2,
 * first + 4, first + 6 (0: a rook's, 1: a bishop's), stopping at
 * blockers: each ray is cut at its nearest blocker with the ray beyond
 * it. */
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

/* The squares a piece of each type but the pawn reaches from a square
 * on an empty board (the pawn's and the empty types' rows empty). */
static void
init_empty_reach(void)
{
	int sq;

	for (sq = 0; sq < 64; sq++) {
		cd__empty_reach[CD_KNIGHT][sq] = cd__knight_att[sq];
		cd__empty_reach[CD_BISHOP][sq] = cd__bishop_att(sq, 0);
		cd__empty_reach[CD_ROOK][sq] = cd__rook_att(sq, 0);
		cd__empty_reach[CD_QUEEN][sq] = cd__bishop_att(sq, 0) |
		    cd__rook_att(sq, 0);
		cd__empty_reach[CD_KING][sq] = cd__king_att[sq];
	}
}

static void
init_tables(void)
{
	init_leapers();
	init_rays();
	init_slider(cd__rook_magic, rook_table, 0, rook_magics);
	init_slider(cd__bishop_magic, bishop_table, 1, bishop_magics);
	init_lines();
	init_empty_reach();
}

/* The Zobrist keys: splitmix64 from a fixed seed. */
static void
init_keys(void)
{
	uint64_t s = 0x2545f4914f6cdd1dULL;
	int p, sq;

#define NEXT() (s += 0x9e3779b97f4a7c15ULL, \
	(((s ^ (s >> 30)) * 0xbf58476d1ce4e5b9ULL) ^ \
	(((s ^ (s >> 30)) * 0xbf58476d1ce4e5b9ULL) >> 27)) * 0x94d049bb133111ebULL)
	for (p = 0; p < 16; p++)
		for (sq = 0; sq < 64; sq++) {
			uint64_t v = NEXT();
			cd__z_piece[p][sq] = v ^ (v >> 31);
		}
	for (p = 0; p < 2; p++)
		for (sq = 0; sq < 8; sq++) {
			uint64_t v = NEXT();
			cd__z_castle[p][sq] = v ^ (v >> 31);
		}
	for (sq = 0; sq < 8; sq++) {
		uint64_t v = NEXT();
		cd__z_ep[sq] = v ^ (v >> 31);
	}
	{
		uint64_t v = NEXT();
		cd__z_side = v ^ (v >> 31);
	}
#undef NEXT
}

/* The shapes of a rank's FEN and their shuffles (tables.h). */
static void
init_rank_shapes(void)
{
	unsigned occ;

	for (occ = 0; occ < 256; occ++) {
		struct cd__rank_shape *rs = &cd__rank_shapes[occ];
		uint8_t *shuf = cd__rank_shuffles[occ];
		int file, run = 0, n = 0;

		memset(rs->text, 0, sizeof(rs->text));
		/* shuf: lane f of the source holds file f's letter, lane
		 * 8 + k - 1 the digit k (k < 8; 8: file a's lane), lane 15
		 * '/'; 0x80 writes a zero */
		memset(shuf, 0x80, 16);
		for (file = 0; file <= 8; file++) {
			if (file < 8 && !(occ & (1u << file))) {
				run++;
				rs->at[file] = 8;
				continue;
			}
			if (run) {
				shuf[n] = (uint8_t)(run < 8 ? 8 + run - 1 : 0);
				rs->text[n++] = (char)('0' + run);
			}
			run = 0;
			if (file < 8) {
				shuf[n] = (uint8_t)file;
				rs->at[file] = (uint8_t)n++;
			}
		}
		rs->len = (uint8_t)n;
		shuf[n] = 15;
		shuf[15] = (uint8_t)(n + 1);
	}
}

/* n bytes as unsigned numbers, in braces. */
static void
put_bytes(const uint8_t *p, size_t n)
{
	size_t i;

	printf("{");
	for (i = 0; i < n; i++)
		printf("%s%u", i ? ", " : " ", p[i]);
	printf(" }");
}

static void
put_rank_shapes(void)
{
	int occ;

	printf("const struct cd__rank_shape cd__rank_shapes[256] = {\n");
	for (occ = 0; occ < 256; occ++) {
		const struct cd__rank_shape *rs = &cd__rank_shapes[occ];

		printf("\t{ ");
		put_bytes((const uint8_t *)rs->text, 8);
		printf(", ");
		put_bytes(rs->at, 8);
		printf(", %u },\n", rs->len);
	}
	printf("};\n\nconst uint8_t cd__rank_shuffles[256][16] = {\n");
	for (occ = 0; occ < 256; occ++) {
		printf("\t");
		put_bytes(cd__rank_shuffles[occ], 16);
		printf(",\n");
	}
	printf("};\n\n");
}

/* The lexer's byte classes (pgn/bytes.h). */
static void
init_classes(void)
{
	int c;

	for (c = 0; c < 256; c++) {
		unsigned char k = 0;

		if (c == ' ' || c == '\t' || c == '\n' || c == '\r' ||
		    c == '\v' || c == '\f')
			k |= K_WS | K_DELIM;
		if (strchr("{}();\"[]*", c) != NULL && c != 0)
			k |= K_DELIM;
		if (strchr(CD__STOP_BYTES, c) != NULL && c != 0)
			k |= K_STOP;
		if (c >= '0' && c <= '9')
			k |= K_DIGIT | K_MOVE;
		if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'))
			k |= K_LETTER | K_MOVE;
		if (c != 0 && strchr("-+#=:/_@", c) != NULL)
			k |= K_MOVE;
		/* a tag name: printing bytes but quotes and brackets (bytes
		 * beyond ASCII are kept; control bytes never are) */
		if (!(k & K_WS) && c != '"' && c != '[' && c != ']' &&
		    c >= 0x20 && c != 0x7f)
			k |= K_TAGNAME;
		cd__pgn_cls[c] = k;
	}
}


/* n numbers of w bits (8 or 64), each followed by a comma. */
static void
put(const void *p, size_t n, int w)
{
	size_t i, per = w == 8 ? 16 : 4;

	for (i = 0; i < n; i++) {
		if (w == 8)
			printf("%s%d,", i % per ? " " : "\t",
			    ((const int8_t *)p)[i]);
		else
			printf("%s0x%" PRIx64 "u,", i % per ? " " : "\t",
			    ((const uint64_t *)p)[i]);
		if (i % per == per - 1 || i == n - 1)
			printf("\n");
	}
}

/* A table of rows rows of size bytes in all (rows > 1: braced rows). */
static void
put_table(const char *decl, const void *p, size_t size, size_t rows, int w)
{
	size_t r, n = size / (size_t)(w / 8) / rows;

	printf("%s = {\n", decl);
	for (r = 0; r < rows; r++) {
		if (rows > 1)
			printf("{\n");
		put((const char *)p + r * n * (size_t)(w / 8), n, w);
		if (rows > 1)
			printf("},\n");
	}
	printf("};\n\n");
}

static void
put_magics(const char *decl, const struct cd__magic *m, const char *table,
    const cd_bitboard *base)
{
	int sq;

	printf("%s = {\n", decl);
	for (sq = 0; sq < 64; sq++)
		printf("\t{ 0x%" PRIx64 "u, 0x%" PRIx64 "u, %s + %td, %u },\n",
		    m[sq].mask, m[sq].magic, table, m[sq].table - base,
		    m[sq].shift);
	printf("};\n\n");
}

int
main(void)
{
	init_tables();
	init_keys();
	init_classes();
	init_rank_shapes();
	printf("/* tables.c: the library's constant tables, written by "
	    "gen-tables\n * (lib/core/gen-tables.c) when the library is built. "
	    "*/\n#include \"config.h\"\n\n#include <stdint.h>\n\n"
	    "#include \"common/internal.h\"\n#include \"core/tables.h\"\n"
	    "#include \"pgn/bytes.h\"\n\n");
	put_table("static const cd_bitboard rook_table[]", rook_table,
	    sizeof(rook_table), 1, 64);
	put_table("static const cd_bitboard bishop_table[]", bishop_table,
	    sizeof(bishop_table), 1, 64);
	put_table("const cd_bitboard cd__knight_att[64]", cd__knight_att,
	    sizeof(cd__knight_att), 1, 64);
	put_table("const cd_bitboard cd__king_att[64]", cd__king_att,
	    sizeof(cd__king_att), 1, 64);
	put_table("const cd_bitboard cd__pawn_att[2][64]", cd__pawn_att,
	    sizeof(cd__pawn_att), 2, 64);
	put_table("const cd_bitboard cd__between[64][64]", cd__between,
	    sizeof(cd__between), 64, 64);
	put_table("const cd_bitboard cd__line[64][64]", cd__line,
	    sizeof(cd__line), 64, 64);
	put_table("const int8_t cd__dir[64][64]", cd__dir, sizeof(cd__dir),
	    64, 8);
	put_table("const cd_bitboard cd__ray[8][64]", cd__ray, sizeof(cd__ray),
	    8, 64);
	put_table("const cd_bitboard cd__empty_reach[8][64]", cd__empty_reach,
	    sizeof(cd__empty_reach), 8, 64);
	put_magics("const struct cd__magic cd__rook_magic[64]",
	    cd__rook_magic, "rook_table", rook_table);
	put_magics("const struct cd__magic cd__bishop_magic[64]",
	    cd__bishop_magic, "bishop_table", bishop_table);
	put_table("const uint64_t cd__z_piece[16][64]", cd__z_piece,
	    sizeof(cd__z_piece), 16, 64);
	put_table("const uint64_t cd__z_castle[2][8]", cd__z_castle,
	    sizeof(cd__z_castle), 2, 64);
	put_table("const uint64_t cd__z_ep[8]", cd__z_ep, sizeof(cd__z_ep),
	    1, 64);
	printf("const uint64_t cd__z_side = 0x%" PRIx64 "u;\n\n",
	    cd__z_side);
	put_table("const unsigned char cd__pgn_cls[256]", cd__pgn_cls,
	    sizeof(cd__pgn_cls), 1, 8);
	put_rank_shapes();
	return fflush(stdout) == 0 && !ferror(stdout) ? 0 : 1;
}
