/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * check_san.c: writing canonical SAN (standard 8.2.3) and reading SAN in
 * its strict and lenient forms (docs/import-format.md, "Moves").
 *
 * Writing: every example of 8.2.3 (basic moves, captures, castling, en
 * passant, promotion, the three disambiguation steps and the pinned
 * knight "Ne2", check and mate marks, "Qa6xb7#" and "fxg1=Q+"), Chess960
 * castling, null moves.  Reading: one table row per accepted spelling
 * (with the move it must mean) and per rejected one (with its status),
 * in lenient mode, strict mode and with other languages' piece letters.
 */
#include "config.h"

#include "core-util.h"
#include "check-main.h"

#include <chessdata/pgn.h>

/* Positions used by the tables. */
#define P_START	"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
#define P_E4	"rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1"
#define P_E4E5	"rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq e6 0 2"
#define P_CAP	"rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 2"
#define P_EP	"rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3"
#define P_CAS	"r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1"
#define P_CASB	"r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1"
#define P_CASCHK "5k2/8/8/8/8/8/8/4K2R w K - 0 1"
#define P_PRO	"8/4P3/8/8/8/8/k7/4K3 w - - 0 1"
#define P_PROCAP "3r4/4P3/8/8/8/8/k7/4K3 w - - 0 1"
#define P_PROCHK "k7/4P3/8/8/8/8/8/4K3 w - - 0 1"
#define P_FXG1	"4k3/8/8/8/8/8/5p2/6NK b - - 0 1"
#define P_PIN	"4k3/8/8/8/1b6/2N5/8/4K1N1 w - - 0 1"
#define P_NOPIN	"4k3/8/8/8/8/2N5/8/4K1N1 w - - 0 1"
#define P_KN2	"4k3/8/8/8/8/5N2/8/1N2K3 w - - 0 1"
#define P_RANK	"4k3/8/8/8/R7/8/8/R3K3 w - - 0 1"
#define P_QQQ	"K7/2k5/8/8/4Q2Q/8/8/7Q w - - 0 1"
#define P_QA6	"Q7/1p5k/Q1Q5/8/8/8/8/K7 w - - 0 1"
#define P_Q	"4k3/8/8/8/8/8/3Q4/4K3 w - - 0 1"
#define P_R2	"4k3/8/8/8/8/8/8/R4RK1 w - - 0 1"
#define P_KG1	"4k3/8/8/8/8/8/8/5K2 w - - 0 1"
#define P_BC4P	"4k3/8/8/8/2p5/1P6/8/4K3 w - - 0 1"
#define P_BC4PB	"4k3/8/8/8/2p5/1P6/8/4KB2 w - - 0 1"
#define P_BC4B	"4k3/8/8/8/2p5/8/8/4KB2 w - - 0 1"
/* the b3 pawn is pinned by the a4 bishop */
#define P_BC4PIN	"8/8/8/8/b1p5/1P6/8/3K1B1k w - - 0 1"
/* no pawn can take, two bishops can */
#define P_BC4PBB	"4k3/8/8/8/2p5/8/B7/4KB2 w - - 0 1"
#define P_DIS	"4k3/8/8/8/8/8/4N3/4RK2 w - - 0 1"
#define P_MATE	"rnbqkbnr/pppp1ppp/8/4p3/6P1/5P2/PPPPP2P/RNBQKBNR b KQkq - 0 2"
#define P_960	"4k3/8/8/8/8/8/8/R5KR w HA - 0 1"
#define P_960K	"4k3/8/8/8/8/8/8/6KR w H - 0 1"
#define P_960B	"4k3/8/8/8/8/8/8/RK5R w HA - 0 1"

/* ---- writing ---- */

static const struct {
	const char *fen;
	unsigned flags;
	const char *uci;
	const char *san;	/* cd_san_write */
	const char *bare;	/* cd_san_write_bare */
} writes[] = {
	/* 8.2.3.3 basic moves */
	{ P_START, 0, "e2e4", "e4", "e4" },
	{ P_START, 0, "g1f3", "Nf3", "Nf3" },
	{ P_CAP, 0, "e4d5", "exd5", "exd5" },
	{ P_CAP, 0, "b1c3", "Nc3", "Nc3" },
	{ P_E4E5, 0, "f1c4", "Bc4", "Bc4" },
	{ P_E4E5, 0, "d1h5", "Qh5", "Qh5" },
	{ P_E4E5, 0, "e1e2", "Ke2", "Ke2" },
	{ P_E4, 0, "b8c6", "Nc6", "Nc6" },
	{ P_CAS, 0, "e1g1", "O-O", "O-O" },
	{ P_CAS, 0, "e1c1", "O-O-O", "O-O-O" },
	/* 10 */
	{ P_CASB, 0, "e8g8", "O-O", "O-O" },
	{ P_CASB, 0, "e8c8", "O-O-O", "O-O-O" },
	{ P_CAS, 0, "a1a8", "Rxa8+", "Rxa8" },
	{ P_CAS, 0, "h1h8", "Rxh8+", "Rxh8" },
	{ P_EP, 0, "e5f6", "exf6", "exf6" },
	{ P_PRO, 0, "e7e8q", "e8=Q", "e8=Q" },
	{ P_PRO, 0, "e7e8r", "e8=R", "e8=R" },
	{ P_PRO, 0, "e7e8b", "e8=B", "e8=B" },
	{ P_PRO, 0, "e7e8n", "e8=N", "e8=N" },
	{ P_PROCAP, 0, "e7d8q", "exd8=Q", "exd8=Q" },
	/* 20 */
	{ P_PROCAP, 0, "e7d8n", "exd8=N", "exd8=N" },
	{ P_FXG1, 0, "f2g1q", "fxg1=Q+", "fxg1=Q" },	/* 8.2.3.6 */
	{ P_FXG1, 0, "f2f1q", "f1=Q", "f1=Q" },
	{ P_PROCHK, 0, "e7e8q", "e8=Q+", "e8=Q" },
	{ P_PROCHK, 0, "e7e8r", "e8=R+", "e8=R" },
	/* 8.2.3.4 disambiguation: file, rank, both; the pinned knight */
	{ P_NOPIN, 0, "c3e2", "Nce2", "Nce2" },
	{ P_NOPIN, 0, "g1e2", "Nge2", "Nge2" },
	{ P_NOPIN, 0, "g1f3", "Nf3", "Nf3" },
	{ P_PIN, 0, "g1e2", "Ne2", "Ne2" },
	{ P_KN2, 0, "b1d2", "Nbd2", "Nbd2" },
	/* 30 */
	{ P_KN2, 0, "f3d2", "Nfd2", "Nfd2" },
	{ P_RANK, 0, "a1a3", "R1a3", "R1a3" },
	{ P_RANK, 0, "a4a3", "R4a3", "R4a3" },
	{ P_RANK, 0, "a1a2", "R1a2", "R1a2" },
	{ P_RANK, 0, "a1d1", "Rd1", "Rd1" },
	{ P_RANK, 0, "a4a8", "Ra8+", "Ra8" },
	{ P_QQQ, 0, "h4e1", "Qh4e1", "Qh4e1" },
	{ P_QQQ, 0, "e4e1", "Qee1", "Qee1" },
	{ P_QQQ, 0, "h1e1", "Q1e1", "Q1e1" },
	{ P_QA6, 0, "a6b7", "Qa6xb7#", "Qa6xb7" },	/* 8.2.3.6 */
	/* 40 */
	{ P_QA6, 0, "c6b7", "Qcxb7#", "Qcxb7" },
	{ P_R2, 0, "a1e1", "Rae1+", "Rae1" },
	{ P_R2, 0, "f1e1", "Rfe1+", "Rfe1" },
	/* 8.2.3.5 check and mate: direct, discovered, mate */
	{ P_CASCHK, 0, "e1g1", "O-O+", "O-O" },
	{ P_DIS, 0, "e2c3", "Nc3+", "Nc3" },
	{ P_DIS, 0, "e2g1", "Ng1+", "Ng1" },
	{ P_MATE, 0, "d8h4", "Qh4#", "Qh4" },
	/* Chess960 castling */
	{ P_960, CD_FEN_960, "g1h1", "O-O", "O-O" },
	{ P_960, CD_FEN_960, "g1a1", "O-O-O", "O-O-O" },
	{ P_960K, CD_FEN_960, "g1h1", "O-O", "O-O" },
	/* 50 */
	{ P_960B, CD_FEN_960, "b1a1", "O-O-O", "O-O-O" },
	{ P_960B, CD_FEN_960, "b1h1", "O-O", "O-O" },
};

START_TEST(test_write)
{
	cd_board b, before;
	cd_move m;
	char buf[CD_SAN_MAX + 8];
	size_t n;

	tu_fen(&b, writes[_i].fen, writes[_i].flags);
	before = b;
	m = tu_uci(&b, writes[_i].uci);
	memset(buf, 'x', sizeof(buf));
	n = cd_san_write(&b, m, buf);
	ck_assert_str_eq(buf, writes[_i].san);
	ck_assert_uint_eq(n, strlen(writes[_i].san));
	ck_assert_uint_lt(n, CD_SAN_MAX);
	n = cd_san_write_bare(&b, m, buf);
	ck_assert_str_eq(buf, writes[_i].bare);
	ck_assert_uint_eq(n, strlen(writes[_i].bare));
	/* the board is not changed */
	ck_assert_mem_eq(&b, &before, sizeof(b));
}
END_TEST

START_TEST(test_write_null)
{
	cd_board b;
	char buf[CD_SAN_MAX];

	cd_board_init(&b);
	ck_assert_uint_eq(cd_san_write(&b, CD_MOVE_NULL, buf), 2);
	ck_assert_str_eq(buf, "--");
	ck_assert_uint_eq(cd_san_write_bare(&b, CD_MOVE_NULL, buf), 2);
	ck_assert_str_eq(buf, "--");
}
END_TEST

/* All moves of many positions: distinct SANs that fit CD_SAN_MAX, the
 * bare form a prefix of the full one. */
START_TEST(test_write_all)
{
	static const char *const fens[] = {
		P_START, P_CAP, P_EP, P_CAS, P_CASB, P_PROCAP, P_FXG1, P_NOPIN,
		P_PIN, P_KN2, P_RANK, P_QQQ, P_QA6, P_R2, P_DIS, P_MATE,
		"R6R/3Q4/1Q4Q1/4Q3/2Q4Q/Q4Q2/pp1Q4/kBNN1KB1 w - - 0 1",
		"r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
		"n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1",
	};
	size_t f;

	for (f = 0; f < sizeof(fens) / sizeof(fens[0]); f++) {
		cd_board b;
		cd_move list[CD_MAX_MOVES];
		char san[CD_MAX_MOVES][CD_SAN_MAX + 4], bare[CD_SAN_MAX + 4];
		int n, i, j;

		tu_fen(&b, fens[f], 0);
		n = cd_board_legal_moves(&b, list);
		for (i = 0; i < n; i++) {
			size_t k = cd_san_write(&b, list[i], san[i]);

			ck_assert_uint_lt(k, CD_SAN_MAX);
			k = cd_san_write_bare(&b, list[i], bare);
			ck_assert_int_eq(strncmp(san[i], bare, k), 0);
			ck_assert(san[i][k] == '\0' || ((san[i][k] == '+' ||
			    san[i][k] == '#') && san[i][k + 1] == '\0'));
			for (j = 0; j < i; j++)
				ck_assert_str_ne(san[i], san[j]);
		}
	}
}
END_TEST

/* ---- reading ---- */

enum { OK = CD_OK, SYN = CD_ERR_SYNTAX, ILL = CD_ERR_ILLEGAL,
	AMB = CD_ERR_AMBIGUOUS };

struct read_case {
	const char *fen;
	const char *text;
	int status;
	const char *uci;	/* the move when OK; "0000" the null move */
};

/* Lenient English (lang NULL, no flags). */
static const struct read_case lenient[] = {
	/* canonical */
	{ P_START, "e4", OK, "e2e4" },
	{ P_START, "Nf3", OK, "g1f3" },
	{ P_CAP, "exd5", OK, "e4d5" },
	{ P_CAS, "O-O", OK, "e1g1" },
	{ P_CAS, "O-O-O", OK, "e1c1" },
	/* castling with zeros, lower case, en and em dashes, marks */
	{ P_CAS, "0-0", OK, "e1g1" },
	{ P_CAS, "0-0-0", OK, "e1c1" },
	{ P_CAS, "o-o", OK, "e1g1" },
	{ P_CAS, "o-o-o", OK, "e1c1" },
	{ P_CAS, "O\xe2\x80\x93O", OK, "e1g1" },
	/* 10 */
	{ P_CAS, "O\xe2\x80\x94O\xe2\x80\x94O", OK, "e1c1" },
	{ P_CAS, "0\xe2\x80\x93" "0", OK, "e1g1" },
	{ P_CAS, "O-O+", OK, "e1g1" },
	{ P_CASB, "O-O", OK, "e8g8" },
	{ P_CASB, "0-0-0", OK, "e8c8" },
	{ P_CASCHK, "O-O+", OK, "e1g1" },
	{ P_CASCHK, "O-O", OK, "e1g1" },
	{ P_CASCHK, "0-0#", OK, "e1g1" },
	/* promotion forms */
	{ P_PRO, "e8=Q", OK, "e7e8q" },
	{ P_PRO, "e8Q", OK, "e7e8q" },
	/* 20 */
	{ P_PRO, "e8=q", OK, "e7e8q" },
	{ P_PRO, "e8q", OK, "e7e8q" },
	{ P_PRO, "e8(Q)", OK, "e7e8q" },
	{ P_PRO, "e8/Q", OK, "e7e8q" },
	{ P_PRO, "e8=N", OK, "e7e8n" },
	{ P_PRO, "e8n", OK, "e7e8n" },
	{ P_PRO, "e8=R", OK, "e7e8r" },
	{ P_PRO, "e8(b)", OK, "e7e8b" },
	{ P_PRO, "e8=\xe2\x99\x95", OK, "e7e8q" },
	{ P_PRO, "e8=Q+", OK, "e7e8q" },
	/* 30 */
	{ P_PROCAP, "exd8=Q", OK, "e7d8q" },
	{ P_PROCAP, "exd8Q", OK, "e7d8q" },
	{ P_PROCAP, "ed8=Q", OK, "e7d8q" },
	{ P_PROCAP, "exd8b", OK, "e7d8b" },
	/* coordinate and long algebraic */
	{ P_START, "e2e4", OK, "e2e4" },
	{ P_START, "e2-e4", OK, "e2e4" },
	{ P_PRO, "e7e8q", OK, "e7e8q" },
	{ P_PRO, "e7e8=Q", OK, "e7e8q" },
	{ P_PRO, "e7-e8Q", OK, "e7e8q" },
	{ P_START, "Ng1f3", OK, "g1f3" },
	/* 40 */
	{ P_START, "Ng1-f3", OK, "g1f3" },
	{ P_START, "g1f3", OK, "g1f3" },
	{ P_CAP, "e4xd5", OK, "e4d5" },
	{ P_CAP, "e4:d5", OK, "e4d5" },
	{ P_CAP, "e4d5", OK, "e4d5" },
	{ P_CAS, "e1g1", OK, "e1g1" },
	{ P_CAS, "e1h1", OK, "e1g1" },
	{ P_CAS, "e1c1", OK, "e1c1" },
	{ P_CAS, "e1a1", OK, "e1c1" },
	{ P_CASB, "e8g8", OK, "e8g8" },
	/* 50 */
	{ P_CASB, "e8a8", OK, "e8c8" },
	/* over-disambiguated */
	{ P_START, "Ngf3", OK, "g1f3" },
	{ P_E4, "Nb8c6", OK, "b8c6" },
	{ P_E4, "Nbc6", OK, "b8c6" },
	{ P_E4, "N8c6", OK, "b8c6" },
	{ P_PIN, "Nge2", OK, "g1e2" },
	{ P_KN2, "Nb1d2", OK, "b1d2" },
	{ P_KN2, "N1d2", OK, "b1d2" },
	{ P_KN2, "N3d2", OK, "f3d2" },
	/* missing or spurious x */
	{ P_CAP, "ed5", OK, "e4d5" },
	/* 60 */
	{ P_START, "Nxf3", OK, "g1f3" },
	{ P_START, "N:f3", OK, "g1f3" },
	{ P_CAS, "Ra8", OK, "a1a8" },
	{ P_START, "exe4", OK, "e2e4" },
	/* check and mate marks: missing, wrong, doubled */
	{ P_MATE, "Qh4#", OK, "d8h4" },
	{ P_MATE, "Qh4+", OK, "d8h4" },
	{ P_MATE, "Qh4", OK, "d8h4" },
	{ P_MATE, "Qh4++", OK, "d8h4" },
	{ P_DIS, "Nc3", OK, "e2c3" },
	{ P_START, "e4+", OK, "e2e4" },
	/* 70 */
	{ P_START, "e4#", OK, "e2e4" },
	{ P_START, "e4++", OK, "e2e4" },
	/* en passant */
	{ P_EP, "exf6", OK, "e5f6" },
	{ P_EP, "exf6e.p.", OK, "e5f6" },
	{ P_EP, "exf6ep", OK, "e5f6" },
	{ P_EP, "e5f6", OK, "e5f6" },
	{ P_EP, "exf6e.p.+", OK, "e5f6" },
	{ P_EP, "exd6", ILL, NULL },
	/* a pawn letter */
	{ P_START, "Pe4", OK, "e2e4" },
	{ P_CAP, "Pxd5", OK, "e4d5" },
	/* 80 */
	{ P_CAP, "Pexd5", OK, "e4d5" },
	{ P_START, "pe4", OK, "e2e4" },
	/* lower-case piece letters */
	{ P_START, "nf3", OK, "g1f3" },
	{ P_Q, "qd1", OK, "d2d1" },
	{ P_R2, "rfe1", OK, "f1e1" },
	{ P_R2, "rae1", OK, "a1e1" },
	{ P_KG1, "kg1", OK, "f1g1" },
	{ P_KN2, "nbd2", OK, "b1d2" },
	{ P_E4, "nc6", OK, "b8c6" },
	/* "b" is a file: bc4 is the pawn capture if legal, else the
	 * bishop; both legal is ambiguous */
	{ P_BC4P, "bc4", OK, "b3c4" },
	/* 90 */
	{ P_BC4P, "bxc4", OK, "b3c4" },
	{ P_E4E5, "bc4", OK, "f1c4" },
	{ P_BC4PB, "bc4", AMB, NULL },
	{ P_BC4PB, "Bc4", OK, "f1c4" },
	{ P_BC4PB, "Bxc4", OK, "f1c4" },
	{ P_BC4PB, "bxc4", OK, "b3c4" },
	{ P_START, "bc4", ILL, NULL },
	{ P_START, "b4", OK, "b2b4" },
	/* figurines, white and black */
	{ P_START, "\xe2\x99\x98" "f3", OK, "g1f3" },
	{ P_E4, "\xe2\x99\x9e" "f6", OK, "g8f6" },
	/* 100 */
	{ P_E4, "\xe2\x99\x98" "f6", OK, "g8f6" },
	{ P_E4E5, "\xe2\x99\x95" "h5", OK, "d1h5" },
	{ P_E4E5, "\xe2\x99\x97" "c4", OK, "f1c4" },
	{ P_E4E5, "\xe2\x99\x94" "e2", OK, "e1e2" },
	{ P_START, "\xe2\x99\x99" "e4", OK, "e2e4" },
	{ P_CAS, "\xe2\x99\x96" "xa8+", OK, "a1a8" },
	/* null moves */
	{ P_START, "--", OK, "0000" },
	{ P_START, "Z0", OK, "0000" },
	{ P_START, "0000", OK, "0000" },
	{ P_START, "@@@@", OK, "0000" },
	/* 110: rejected: the king's step for castling */
	{ P_CAS, "Kg1", ILL, NULL },
	{ P_CAS, "Kc1", ILL, NULL },
	{ P_CAS, "Kh1", ILL, NULL },
	{ P_CAS, "Kxh1", ILL, NULL },
	/* a promotion without its piece, or with a wrong one */
	{ P_PRO, "e8", SYN, NULL },
	{ P_PRO, "e7e8", SYN, NULL },
	{ P_PROCAP, "exd8", SYN, NULL },
	{ P_PRO, "e8=K", SYN, NULL },
	{ P_PRO, "e8=P", SYN, NULL },
	{ P_PRO, "e8=", SYN, NULL },
	/* 120: a promotion piece on a move that does not promote */
	{ P_START, "e4=Q", ILL, NULL },
	{ P_START, "Nf3=Q", ILL, NULL },
	/* letters that are no piece in English */
	{ P_START, "Sf3", SYN, NULL },
	{ P_E4E5, "Lc4", SYN, NULL },
	{ P_CAS, "Td1", SYN, NULL },
	{ P_E4E5, "Dh5", SYN, NULL },
	{ P_START, "Xf3", SYN, NULL },
	{ P_START, "Jf3", SYN, NULL },
	{ P_START, "sf3", SYN, NULL },
	/* ambiguous */
	{ P_KN2, "Nd2", AMB, NULL },
	/* 130 */
	{ P_R2, "Re1", AMB, NULL },
	{ P_R2, "R1e1", AMB, NULL },
	{ P_NOPIN, "Ne2", AMB, NULL },
	{ P_NOPIN, "Nce2", OK, "c3e2" },
	/* illegal */
	{ P_START, "e5", ILL, NULL },
	{ P_START, "Nf6", ILL, NULL },
	{ P_START, "Ke2", ILL, NULL },
	{ P_START, "O-O", ILL, NULL },
	{ P_START, "O-O-O", ILL, NULL },
	{ P_START, "exd5", ILL, NULL },
	/* 140 */
	{ P_PIN, "Nce2", ILL, NULL },
	{ P_PIN, "c3e2", ILL, NULL },
	{ P_START, "e2e5", ILL, NULL },
	{ P_START, "e3e4", ILL, NULL },
	{ P_START, "d7d5", ILL, NULL },
	{ P_START, "Qd4", ILL, NULL },
	{ P_CASCHK, "O-O-O", ILL, NULL },
	/* not moves at all */
	{ P_START, "", SYN, NULL },
	{ P_START, "e9", SYN, NULL },
	{ P_START, "i4", SYN, NULL },
	/* 150 */
	{ P_START, "N", SYN, NULL },
	{ P_START, "Nf", SYN, NULL },
	{ P_START, "4", SYN, NULL },
	{ P_START, "O-O-O-O", SYN, NULL },
	{ P_START, "O", SYN, NULL },
	{ P_START, "e4e", SYN, NULL },
	{ P_START, "+", SYN, NULL },
	{ P_START, "Ng1f3f3", SYN, NULL },
	{ P_START, "\xe2\x99", SYN, NULL },
	{ P_START, "e4\xc3\xa9", SYN, NULL },
	/* 160 */
	{ P_START, "-", SYN, NULL },
	{ P_START, "---", SYN, NULL },
	{ P_START, "xe4", SYN, NULL },
	/* "bxc4" as "bc4": the pawn capture when legal (SAN's meaning,
	 * even when a bishop could also go: the pawn), else the bishop */
	{ P_BC4B, "bxc4", OK, "f1c4" },
	{ P_BC4B, "b:c4", OK, "f1c4" },
	{ P_BC4B, "bc4", OK, "f1c4" },
	{ P_BC4PIN, "bxc4", OK, "f1c4" },
	{ P_BC4PIN, "bc4", OK, "f1c4" },
	{ P_BC4PIN, "b3c4", ILL, NULL },
	{ P_E4E5, "bxc4", OK, "f1c4" },
	{ P_START, "bxc4", ILL, NULL },
	{ P_BC4PBB, "bxc4", AMB, NULL },
	{ P_BC4PB, "bxc4+", OK, "b3c4" },
	/* an "e.p." glued to the move */
	{ P_EP, "exf6e.p.#", OK, "e5f6" },
};

static void
check_read(const char *fen, unsigned fflags, const char *text,
    const cd_san_lang *lang, unsigned flags, int status, const char *uci,
    const char *what)
{
	cd_board b;
	cd_move m = 0x1234, want;
	const char *why = "unset";
	cd_error err;
	cd_status st;

	tu_fen(&b, fen, fflags);
	st = cd_san_parse(&b, text, strlen(text), lang, flags, &m, &err);
	why = err.msg;
	ck_assert_msg((int)st == status, "%s '%s' in %s: status %d (%s), "
	    "expected %d", what, text, fen, st, why ? why : "no message", status);
	if (status != CD_OK) {
		ck_assert_msg(why != NULL && *why, "%s '%s': no message", what,
		    text);
		return;
	}
	if (strcmp(uci, "0000") == 0)
		want = CD_MOVE_NULL;
	else
		want = tu_uci(&b, uci);
	if (m != want) {
		char got[8];

		cd_move_to_uci(&b, m, got);
		ck_abort_msg("%s '%s' in %s: %s, expected %s", what, text, fen, got,
		    uci);
	}
	/* a NULL why is allowed */
	ck_assert_int_eq(cd_san_parse(&b, text, strlen(text), lang, flags, &m,
	    NULL), st);
}

START_TEST(test_read_lenient)
{
	const struct read_case *c = &lenient[_i];

	check_read(c->fen, 0, c->text, NULL, 0, c->status, c->uci, "lenient");
}
END_TEST

/* The length is honoured: a move followed by more text. */
START_TEST(test_read_length)
{
	cd_board b;
	cd_move m;

	cd_board_init(&b);
	ck_assert_int_eq(cd_san_parse(&b, "e4 e5", 2, NULL, 0, &m, NULL), CD_OK);
	ck_assert_int_eq(m, tu_uci(&b, "e2e4"));
	ck_assert_int_eq(cd_san_parse(&b, "Nf3xyz", 3, NULL, CD_SAN_STRICT, &m,
	    NULL), CD_OK);
	ck_assert_int_eq(m, tu_uci(&b, "g1f3"));
	ck_assert_int_eq(cd_san_parse(&b, "e4", 1, NULL, 0, &m, NULL),
	    CD_ERR_SYNTAX);
	ck_assert_int_eq(cd_san_parse(&b, "e4\0", 3, NULL, 0, &m, NULL),
	    CD_ERR_SYNTAX);
	/* a long token is an error, not an overflow */
	{
		char big[1000];

		memset(big, 'a', sizeof(big));
		ck_assert_int_eq(cd_san_parse(&b, big, sizeof(big), NULL, 0, &m,
		    NULL), CD_ERR_SYNTAX);
		memset(big, '+', sizeof(big));
		memcpy(big, "Nf3", 3);
		ck_assert_int_ne(cd_san_parse(&b, big, sizeof(big), NULL, 0, &m,
		    NULL), CD_ERR_ILLEGAL);
	}
}
END_TEST

/* Chess960 positions. */
static const struct read_case c960[] = {
	{ P_960, "O-O", OK, "g1h1" },
	{ P_960, "O-O-O", OK, "g1a1" },
	{ P_960, "0-0", OK, "g1h1" },
	{ P_960, "o-o-o", OK, "g1a1" },
	{ P_960, "g1h1", OK, "g1h1" },	/* king to rook */
	{ P_960, "g1a1", OK, "g1a1" },
	{ P_960, "Kh1", ILL, NULL },
	{ P_960, "Kf1", OK, "g1f1" },	/* the king's step, not castling */
	{ P_960K, "O-O", OK, "g1h1" },
	{ P_960K, "O-O-O", ILL, NULL },
	/* 10 */
	{ P_960B, "O-O-O", OK, "b1a1" },
	{ P_960B, "O-O", OK, "b1h1" },
	{ P_960B, "b1a1", OK, "b1a1" },
	{ P_960B, "Kc1", OK, "b1c1" },
};

START_TEST(test_read_960)
{
	const struct read_case *c = &c960[_i];

	check_read(c->fen, CD_FEN_960, c->text, NULL, 0, c->status, c->uci,
	    "Chess960");
}
END_TEST

/* Strict: only the canonical SAN, with its mark. */
static const struct read_case strict[] = {
	{ P_START, "e4", OK, "e2e4" },
	{ P_START, "Nf3", OK, "g1f3" },
	{ P_CAP, "exd5", OK, "e4d5" },
	{ P_CAS, "O-O", OK, "e1g1" },
	{ P_CAS, "O-O-O", OK, "e1c1" },
	{ P_CAS, "Rxa8+", OK, "a1a8" },
	{ P_CASCHK, "O-O+", OK, "e1g1" },
	{ P_EP, "exf6", OK, "e5f6" },
	{ P_PRO, "e8=Q", OK, "e7e8q" },
	{ P_PRO, "e8=N", OK, "e7e8n" },
	/* 10 */
	{ P_FXG1, "fxg1=Q+", OK, "f2g1q" },
	{ P_KN2, "Nbd2", OK, "b1d2" },
	{ P_KN2, "Nfd2", OK, "f3d2" },
	{ P_QQQ, "Qh4e1", OK, "h4e1" },
	{ P_QA6, "Qa6xb7#", OK, "a6b7" },
	{ P_MATE, "Qh4#", OK, "d8h4" },
	{ P_DIS, "Nc3+", OK, "e2c3" },
	{ P_PIN, "Ne2", OK, "g1e2" },
	{ P_RANK, "R1a3", OK, "a1a3" },
	{ P_START, "--", OK, "0000" },
	/* 20: everything else is not canonical */
	{ P_START, "Ngf3", SYN, NULL },
	{ P_START, "Ng1f3", SYN, NULL },
	{ P_START, "e2e4", SYN, NULL },
	{ P_START, "Pe4", SYN, NULL },
	{ P_START, "nf3", SYN, NULL },
	{ P_START, "Nxf3", SYN, NULL },
	{ P_START, "e4+", SYN, NULL },
	{ P_START, "\xe2\x99\x98" "f3", SYN, NULL },
	{ P_CAS, "0-0", SYN, NULL },
	{ P_CAS, "o-o", SYN, NULL },
	/* 30 */
	{ P_CAS, "e1g1", SYN, NULL },
	{ P_CAS, "Rxa8", SYN, NULL },
	{ P_CASCHK, "O-O", SYN, NULL },
	{ P_CAP, "ed5", SYN, NULL },
	{ P_CAP, "e4d5", SYN, NULL },
	{ P_EP, "exf6e.p.", SYN, NULL },
	{ P_EP, "exf6ep", SYN, NULL },
	{ P_PRO, "e8Q", SYN, NULL },
	{ P_PRO, "e8=q", SYN, NULL },
	{ P_PRO, "e8(Q)", SYN, NULL },
	/* 40 */
	{ P_KN2, "N3d2", SYN, NULL },
	{ P_KN2, "Nf3d2", SYN, NULL },
	{ P_MATE, "Qh4+", SYN, NULL },
	{ P_MATE, "Qh4", SYN, NULL },
	{ P_MATE, "Qh4##", SYN, NULL },
	{ P_DIS, "Nc3", SYN, NULL },
	{ P_PIN, "Nge2", SYN, NULL },
	{ P_START, "Z0", SYN, NULL },
	{ P_START, "0000", SYN, NULL },
	{ P_START, "@@@@", SYN, NULL },
	/* 50: errors keep their kind */
	{ P_START, "e5", ILL, NULL },
	{ P_KN2, "Nd2", AMB, NULL },
	{ P_PRO, "e8", SYN, NULL },
};

START_TEST(test_read_strict)
{
	const struct read_case *c = &strict[_i];

	check_read(c->fen, 0, c->text, NULL, CD_SAN_STRICT, c->status, c->uci,
	    "strict");
}
END_TEST

/* Other languages, named. */
static const struct {
	const char *lang;
	const char *fen;
	const char *text;
	int status;
	const char *uci;
} langs[] = {
	{ "de", P_START, "Sf3", OK, "g1f3" },
	{ "de", P_E4E5, "Lc4", OK, "f1c4" },
	{ "de", P_E4E5, "Dh5", OK, "d1h5" },
	{ "de", P_R2, "Tfe1", OK, "f1e1" },
	{ "de", P_E4E5, "Ke2", OK, "e1e2" },
	{ "de", P_PRO, "e8=D", OK, "e7e8q" },
	{ "de", P_PRO, "e8S", OK, "e7e8n" },
	{ "de", P_START, "e4", OK, "e2e4" },
	{ "de", P_CAS, "O-O", OK, "e1g1" },
	{ "de", P_START, "Nf3", SYN, NULL },
	/* 10 */
	{ "de", P_E4E5, "Qh5", SYN, NULL },
	{ "de", P_PRO, "e8=Q", SYN, NULL },
	{ "German", P_START, "Sf3", OK, "g1f3" },
	{ "fr", P_START, "Cf3", OK, "g1f3" },
	{ "fr", P_E4E5, "Fc4", OK, "f1c4" },
	{ "fr", P_E4E5, "Re2", OK, "e1e2" },	/* Roi */
	{ "fr", P_E4E5, "Dh5", OK, "d1h5" },
	{ "fr", P_R2, "Tfe1", OK, "f1e1" },
	{ "fr", P_START, "Nf3", SYN, NULL },
	{ "en", P_START, "Nf3", OK, "g1f3" },
	/* 20 */
	{ "English", P_START, "Sf3", SYN, NULL },
	{ "es", P_E4E5, "Ac4", OK, "f1c4" },
	{ "it", P_START, "Cf3", OK, "g1f3" },
	{ "nl", P_START, "Pf3", OK, "g1f3" },	/* Paard */
	{ "nl", P_START, "Of3", OK, "f2f3" },	/* Pion */
};

START_TEST(test_read_lang)
{
	const cd_san_lang *lang = cd_san_lang_find(langs[_i].lang);

	ck_assert_ptr_nonnull(lang);
	check_read(langs[_i].fen, 0, langs[_i].text, lang, 0, langs[_i].status,
	    langs[_i].uci, langs[_i].lang);
}
END_TEST

START_TEST(test_lang_find)
{
	const cd_san_lang *de = cd_san_lang_find("de"), *en, *fr;

	ck_assert_ptr_nonnull(de);
	ck_assert_mem_eq(de->letters, "BSLTDK", 6);
	ck_assert_ptr_eq(cd_san_lang_find("German"), de);
	ck_assert_ptr_eq(cd_san_lang_find("german"), de);
	ck_assert_ptr_eq(cd_san_lang_find("DE"), de);
	en = cd_san_lang_find("en");
	ck_assert_ptr_nonnull(en);
	ck_assert_mem_eq(en->letters, "PNBRQK", 6);
	ck_assert_ptr_eq(cd_san_lang_find("English"), en);
	fr = cd_san_lang_find("fr");
	ck_assert_ptr_nonnull(fr);
	ck_assert_mem_eq(fr->letters, "PCFTDR", 6);
	ck_assert_ptr_null(cd_san_lang_find("xx"));
	ck_assert_ptr_null(cd_san_lang_find(""));
	ck_assert_ptr_null(cd_san_lang_find("Klingon"));
	/* standard section 17 */
	ck_assert_mem_eq(cd_san_lang_find("Spanish")->letters, "PCATDR", 6);
	ck_assert_mem_eq(cd_san_lang_find("Hungarian")->letters, "GHFBVK", 6);
	ck_assert_mem_eq(cd_san_lang_find("Polish")->letters, "PSGWHK", 6);
}
END_TEST

/* Every legal move of random games reads back, in strict and lenient
 * mode, from its canonical SAN, its bare SAN and its UCI text. */
START_TEST(test_read_back)
{
	static const struct {
		const char *fen;
		unsigned flags;
	} starts[] = {
		{ P_START, 0 },
		{ "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", 0 },
		{ "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1", 0 },
		{ "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
		  CD_FEN_960 },
		{ "2r1kr2/8/8/8/8/8/8/1R2KR2 w KQkq - 0 1", CD_FEN_960 },
	};
	int g, ply;

	for (g = 0; g < 25; g++) {
		cd_board b;

		tu_fen(&b, starts[g % 5].fen, starts[g % 5].flags);
		for (ply = 0; ply < 100; ply++) {
			cd_move list[CD_MAX_MOVES], m;
			int n = cd_board_legal_moves(&b, list), i;

			for (i = 0; i < n; i++) {
				char san[CD_SAN_MAX], bare[CD_SAN_MAX], uci[8];
				cd_error err;

				cd_san_write(&b, list[i], san);
				cd_san_write_bare(&b, list[i], bare);
				cd_move_to_uci(&b, list[i], uci);
				ck_assert_msg(cd_san_parse(&b, san, strlen(san), NULL,
				    CD_SAN_STRICT, &m, &err) == CD_OK && m == list[i],
				    "%s: strict %s: %s", tu_fen_of(&b), san, err.msg);
				ck_assert_msg(cd_san_parse(&b, bare, strlen(bare), NULL,
				    0, &m, &err) == CD_OK && m == list[i],
				    "%s: lenient %s: %s", tu_fen_of(&b), bare, err.msg);
				ck_assert_msg(cd_san_parse(&b, uci, strlen(uci), NULL,
				    0, &m, &err) == CD_OK && m == list[i],
				    "%s: UCI %s: %s", tu_fen_of(&b), uci, err.msg);
			}
			if (n == 0)
				break;
			cd_board_make(&b, list[tu_rand() % (unsigned)n]);
		}
	}
}
END_TEST

/* Every legal move of random games under the other spellings the import
 * format accepts (no mark, wrong or doubled marks, figurines, lower-case
 * piece letters but b, a pawn letter, long algebraic with "-", "x" or
 * ":", castling with zeros and dashes, the promotion forms): each reads
 * as the same move in lenient mode and is refused in strict mode. */
static void
variants(const cd_board *b, cd_move m, char out[][32], int *n)
{
	static const char *const fig[7] = { "", "\xe2\x99\x99", "\xe2\x99\x98",
	    "\xe2\x99\x97", "\xe2\x99\x96", "\xe2\x99\x95", "\xe2\x99\x94" };
	static const char letters[] = "?PNBRQK";
	char bare[CD_SAN_MAX], uci[8], full[CD_SAN_MAX];
	size_t k;
	int type = cd_board_moving_type(b, m);
	int from = CD_MOVE_FROM(m);
	const char *sep[3] = { "-", "x", ":" };
	char piece[2] = { 0, 0 };
	int i;

	*n = 0;
	cd_san_write(b, m, full);
	k = cd_san_write_bare(b, m, bare);
	cd_move_to_uci(b, m, uci);
	/* marks: none, "+", "#", "++" */
	snprintf(out[(*n)++], 32, "%s", bare);
	snprintf(out[(*n)++], 32, "%s+", bare);
	snprintf(out[(*n)++], 32, "%s#", bare);
	snprintf(out[(*n)++], 32, "%s++", bare);
	if (CD_MOVE_KIND(m) == CD_MK_CASTLE) {
		snprintf(out[(*n)++], 32, "%s", k == 3 ? "0-0" : "0-0-0");
		snprintf(out[(*n)++], 32, "%s", k == 3 ? "o-o" : "o-o-o");
		snprintf(out[(*n)++], 32, "%s", k == 3 ? "O\xe2\x80\x93O" :
		    "O\xe2\x80\x94O\xe2\x80\x94O");
		return;
	}
	/* a missing x (not "bxc3": "bc3" may be a bishop's move too), or a
	 * spurious one on a piece move */
	if (strchr(bare, 'x') != NULL && bare[0] != 'b') {
		char *x = strchr(bare, 'x');

		snprintf(out[(*n)++], 32, "%.*s%s", (int)(x - bare), bare, x + 1);
	} else if (type != CD_PAWN) {
		snprintf(out[(*n)++], 32, "%.*sx%s", (int)(k - 2), bare,
		    bare + k - 2);
	}
	if (type != CD_PAWN) {
		snprintf(out[(*n)++], 32, "%s%s", fig[type], bare + 1);
		if (type != CD_BISHOP)
			snprintf(out[(*n)++], 32, "%c%s", letters[type] | 0x20,
			    bare + 1);
	} else {
		snprintf(out[(*n)++], 32, "P%s", bare);
	}
	if (type != CD_PAWN)
		piece[0] = letters[type];
	for (i = 0; i < 3; i++)
		snprintf(out[(*n)++], 32, "%s%c%c%s%s", piece, 'a' + CD_FILE(from),
		    '1' + CD_RANK(from), sep[i], uci + 2);
	if (CD_MOVE_IS_PROMO(m)) {
		char p = letters[CD_MOVE_PROMO_TYPE(m)];

		k -= 2;		/* without "=Q" */
		snprintf(out[(*n)++], 32, "%.*s%c", (int)k, bare, p);
		snprintf(out[(*n)++], 32, "%.*s=%c", (int)k, bare, p | 0x20);
		snprintf(out[(*n)++], 32, "%.*s(%c)", (int)k, bare, p);
		snprintf(out[(*n)++], 32, "%.*s/%c", (int)k, bare, p);
	}
}

START_TEST(test_read_variants)
{
	int g, ply;

	for (g = 0; g < 12; g++) {
		cd_board b;

		if (g % 3 == 2)
			tu_fen(&b, "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1", 0);
		else if (g % 3 == 1)
			tu_fen(&b, "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/"
			    "PPPBBPPP/R3K2R w KQkq - 0 1", 0);
		else
			cd_board_init(&b);
		for (ply = 0; ply < 80; ply++) {
			cd_move list[CD_MAX_MOVES], m;
			int n = cd_board_legal_moves(&b, list), i, j, nv;
			char v[24][32], full[CD_SAN_MAX];

			for (i = 0; i < n; i++) {
				variants(&b, list[i], v, &nv);
				cd_san_write(&b, list[i], full);
				for (j = 0; j < nv; j++) {
					cd_error err;
					cd_status st;

					st = cd_san_parse(&b, v[j], strlen(v[j]), NULL, 0,
					    &m, &err);
					ck_assert_msg(st == CD_OK && m == list[i],
					    "%s: '%s' (for %s): %s", tu_fen_of(&b), v[j],
					    full, st == CD_OK ? "another move" : err.msg);
					if (strcmp(v[j], full) == 0)
						continue;
					st = cd_san_parse(&b, v[j], strlen(v[j]), NULL,
					    CD_SAN_STRICT, &m, &err);
					ck_assert_msg(st == CD_ERR_SYNTAX,
					    "%s: strict accepts '%s' for %s", tu_fen_of(&b),
					    v[j], full);
				}
			}
			if (n == 0)
				break;
			cd_board_make(&b, list[tu_rand() % (unsigned)n]);
		}
	}
}
END_TEST

/*
 * The game builder's fast reader (core/san_fast.h, pgn/game.c) against
 * the move generator, on random positions read as PGN games of one
 * move: castling with its path's squares attacked or not by each kind
 * of piece (O-O and O-O-O both tried: legal exactly when the generator
 * has the move, else the game is not read), and the check and mate
 * marks of every legal move (the node's SAN that of cd_san_write, the
 * position after it that of cd_board_make).  The side to move has its
 * king and rooks on their squares with both rights, a few pieces of its
 * own that may stand in the way, and the other side a king and up to
 * seven pieces of any kind, some of them near the castling squares.
 */
struct fast_counts {
	int castles, refused, checks, mates;
};

/* A random position as above, in fen (NUL-terminated): 0 when it is
 * not one to play from (the side not to move in check, ...). */
static int
fast_position(char *fen, size_t size)
{
	static const char enemy[] = "nbrqpppnbrq";
	static const char own[] = "NBQNBP";
	char sq[64];
	int black = (int)(tu_rand() & 1), i, n, ksq, rank, len = 0, run;
	cd_board b;
	cd_error err;

	memset(sq, 0, sizeof(sq));
	rank = black ? 7 : 0;
	sq[CD_SQ(4, rank)] = 'K';
	sq[CD_SQ(0, rank)] = 'R';
	sq[CD_SQ(7, rank)] = 'R';
	/* the other king anywhere not next to ours */
	do {
		ksq = (int)(tu_rand() % 64);
	} while (sq[ksq] || (abs(CD_FILE(ksq) - 4) <= 1 &&
	    abs(CD_RANK(ksq) - rank) <= 1));
	sq[ksq] = 'k';
	n = 1 + (int)(tu_rand() % 7);
	for (i = 0; i < n; i++) {
		int s = (int)(tu_rand() % 64);
		char c = enemy[tu_rand() % (sizeof(enemy) - 1)];

		/* half of them within two ranks of the castling rank */
		if (i & 1)
			s = CD_SQ(CD_FILE(s), black ? 7 - (s >> 3) % 3 :
			    (s >> 3) % 3);
		if (sq[s] || (c == 'p' && (CD_RANK(s) == 0 ||
		    CD_RANK(s) == 7)))
			continue;
		sq[s] = c;
	}
	n = (int)(tu_rand() % 3);
	for (i = 0; i < n; i++) {
		int s = CD_SQ((int)(tu_rand() % 8), rank + (black ? -1 : 1) *
		    (int)(tu_rand() % 2));
		char c = own[tu_rand() % (sizeof(own) - 1)];

		if (sq[s] || (c == 'P' && (CD_RANK(s) == 0 ||
		    CD_RANK(s) == 7)))
			continue;
		sq[s] = c;
	}
	if (black)
		for (i = 0; i < 64; i++)
			if (sq[i])
				sq[i] ^= 0x20;	/* the colors swapped */
	for (rank = 7; rank >= 0; rank--) {
		run = 0;
		for (i = 0; i < 8; i++) {
			char c = sq[CD_SQ(i, rank)];

			if (!c) {
				run++;
				continue;
			}
			if (run)
				fen[len++] = (char)('0' + run);
			run = 0;
			fen[len++] = c;
		}
		if (run)
			fen[len++] = (char)('0' + run);
		if (rank)
			fen[len++] = '/';
	}
	len += snprintf(fen + len, size - (size_t)len, " %c %s - 0 1",
	    black ? 'b' : 'w', black ? "kq" : "KQ");
	ck_assert((size_t)len < size);
	return cd_fen_parse(&b, fen, strlen(fen), 0, &err) == CD_OK &&
	    cd_board_validate(&b) == CD_POS_OK;
}

/* The game of one move tok from fen: CD_OK with the node's SAN in san
 * and the position after it in after (its FEN), or the parser's
 * status. */
static cd_status
fast_one(cd_game *g, const char *fen, const char *tok, char *san,
    char *after)
{
	char text[256];
	cd_error err;
	cd_status st;
	int k;

	k = snprintf(text, sizeof(text), "[SetUp \"1\"]\n[FEN \"%s\"]\n\n"
	    "%s %s *\n", fen, strstr(fen, " b ") ? "1..." : "1.", tok);
	ck_assert(k > 0 && (size_t)k < sizeof(text));
	st = cd_pgn_parse_text(g, text, (size_t)k, NULL, &err);
	if (st != CD_OK)
		return st;
	ck_assert_uint_eq(g->nnodes, 2);
	strcpy(san, g->nodes[1].san);
	ck_assert_uint_eq(g->nodes[1].san_len, strlen(san));
	cd_fen_write(cd_game_board(g), after);
	return CD_OK;
}

/* Every legal move of fen and both castling tokens, played as above. */
static void
fast_moves(cd_game *g, const char *fen, struct fast_counts *c)
{
	static const char *const castles[2] = { "O-O", "O-O-O" };
	cd_move list[CD_MAX_MOVES];
	char san[CD_SAN_MAX], want[CD_SAN_MAX], after[CD_FEN_MAX];
	char want_after[CD_FEN_MAX];
	cd_board b, a;
	int n, i, w;

	tu_fen(&b, fen, 0);
	n = cd_board_legal_moves(&b, list);
	for (i = 0; i < n; i++) {
		size_t k = cd_san_write(&b, list[i], want);

		ck_assert_msg(fast_one(g, fen, want, san, after) == CD_OK,
		    "%s: %s not read", fen, want);
		a = b;
		cd_board_make(&a, list[i]);
		cd_fen_write(&a, want_after);
		ck_assert_msg(strcmp(san, want) == 0, "%s: %s read as %s", fen,
		    want, san);
		ck_assert_msg(strcmp(after, want_after) == 0,
		    "%s: %s made %s, not %s", fen, want, after, want_after);
		c->checks += want[k - 1] == '+';
		c->mates += want[k - 1] == '#';
	}
	for (w = 0; w < 2; w++) {
		int ksq = cd_board_king(&b, b.side);
		int rsq = CD_SQ(w ? 0 : 7, CD_RANK(ksq));
		bool legal = cd_board_is_legal(&b, CD_MOVE(ksq, rsq,
		    CD_MK_CASTLE));
		cd_status st = fast_one(g, fen, castles[w], san, after);

		ck_assert_msg((st == CD_OK) == legal, "%s: %s %s", fen,
		    castles[w], legal ? "not read" : "read");
		if (legal) {
			cd_san_write(&b, CD_MOVE(ksq, rsq, CD_MK_CASTLE), want);
			ck_assert_str_eq(san, want);
			c->castles++;
		} else {
			c->refused++;
		}
	}
}

START_TEST(test_fast_random)
{
	struct fast_counts c = { 0, 0, 0, 0 };
	cd_game *g = cd_game_new();
	char fen[CD_FEN_MAX];
	int k, done = 0;

	ck_assert_ptr_nonnull(g);
	for (k = 0; k < 6000; k++) {
		if (!fast_position(fen, sizeof(fen)))
			continue;
		fast_moves(g, fen, &c);
		done++;
	}
	cd_game_free(g);
	/* enough of each kind to say something */
	ck_assert_int_gt(done, 3000);
	ck_assert_int_gt(c.castles, 1500);
	ck_assert_int_gt(c.refused, 1500);
	ck_assert_int_gt(c.checks, 3000);
	ck_assert_int_gt(c.mates, 0);
}
END_TEST

/*
 * Castling and the mate mark in chosen positions: each square of the
 * king's path attacked by one kind of piece (knight, pawn, king,
 * bishop, rook, queen) refuses it; a slider stopped by a piece between,
 * an attack on b1 (O-O-O's rook crosses it, the king does not) and one
 * on a square the king leaves behind do not; a rook of the other side
 * on the rank beyond the rook.  The mates: a king whose steps are all
 * attacked (by a pawn, a knight, the other king, a slider through the
 * square it leaves) and one whose steps are taken by its own pieces.
 */
static const struct {
	const char *fen, *tok, *san;	/* san NULL: not read */
} fast_cases[] = {
	{ "4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1", "O-O", "O-O" },
	{ "4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1", "O-O-O", "O-O-O" },
	{ "4k3/8/8/8/8/8/4n3/R3K2R w KQ - 0 1", "O-O", NULL },
	{ "4k3/8/8/8/8/4n3/8/R3K2R w KQ - 0 1", "O-O", NULL },
	{ "4k3/8/8/8/8/7n/8/R3K2R w KQ - 0 1", "O-O", NULL },
	{ "4k3/8/8/8/8/8/6p1/R3K2R w KQ - 0 1", "O-O", NULL },
	{ "4k3/8/8/8/8/8/7p/R3K2R w KQ - 0 1", "O-O", NULL },
	{ "8/8/8/8/8/8/6k1/R3K2R w KQ - 0 1", "O-O", NULL },
	{ "4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1", "O-O+", "O-O" },
	{ "4k3/8/8/b7/8/8/8/R3K2R w KQ - 0 1", "O-O", NULL },
	{ "4k3/8/8/b7/8/2P5/8/R3K2R w KQ - 0 1", "O-O", "O-O" },
	{ "4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1", "O-O-O", "O-O-O" },
	{ "4k3/8/8/8/8/8/8/Rb2K2R w KQ - 0 1", "O-O-O", NULL },
	{ "4k3/8/8/8/8/8/p7/R3K2R w KQ - 0 1", "O-O-O", "O-O-O" },
	{ "4k3/8/8/8/8/8/1p6/R3K2R w KQ - 0 1", "O-O-O", NULL },
	{ "4k3/8/8/8/8/8/2p5/R3K2R w KQ - 0 1", "O-O-O", NULL },
	{ "4k3/8/8/8/8/8/1n6/R3K2R w KQ - 0 1", "O-O-O", NULL },
	{ "1r2k3/8/8/8/8/8/8/R3K2R w KQ - 0 1", "O-O-O", "O-O-O" },
	{ "2r1k3/8/8/8/8/8/8/R3K2R w KQ - 0 1", "O-O-O", NULL },
	{ "3rk3/8/8/8/8/8/8/R3K2R w KQ - 0 1", "O-O-O", NULL },
	{ "3rk3/8/8/8/8/8/3P4/R3K2R w KQ - 0 1", "O-O-O", "O-O-O" },
	{ "4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1", "O-O-O", "O-O-O" },
	{ "4k3/8/8/8/8/q7/8/R3K2R w KQ - 0 1", "O-O-O", NULL },
	{ "4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1", "O-O", "O-O" },
	{ "4k3/8/8/8/8/8/8/R3K2Rr w KQ - 0 1", "O-O", NULL },
	{ "4k3/8/8/8/8/8/5q2/R3K2R w KQ - 0 1", "O-O", NULL },
	{ "4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1", "O-O-O", "O-O-O" },
	{ "5k2/8/8/8/8/8/8/4K2R w K - 0 1", "O-O", "O-O+" },
	{ "6k1/8/8/8/8/8/8/4K2R w K - 0 1", "O-O", "O-O" },
	{ "5k2/5p2/8/8/8/8/8/4K2R w K - 0 1", "O-O", "O-O" },
	{ "r3k2r/8/8/8/8/8/8/4K3 b kq - 0 1", "O-O", "O-O" },
	{ "r3k2r/8/8/8/8/8/8/4K1R1 b kq - 0 1", "O-O", NULL },
	{ "r3k2r/8/8/8/8/8/8/3K1R2 b kq - 0 1", "O-O-O", "O-O-O+" },
	{ "r3k2r/6P1/8/8/8/8/8/3K4 b kq - 0 1", "O-O", NULL },
	{ "r3k2r/8/8/8/8/8/8/3K2B1 b kq - 0 1", "O-O", "O-O" },
	{ "r3k2r/8/8/8/8/7B/8/4K3 b kq - 0 1", "O-O-O", NULL },
	{ "r3k2r/8/8/8/8/7B/8/4K3 b kq - 0 1", "O-O", "O-O" },
	/* the marks */
	{ "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1", "Ra8", "Ra8#" },
	{ "6k1/5pp1/8/8/8/8/8/R5K1 w - - 0 1", "Ra8", "Ra8+" },
	{ "6k1/5p1p/6P1/8/8/8/8/R5K1 w - - 0 1", "Ra8", "Ra8+" },
	{ "6k1/5p1p/6P1/5N2/8/8/8/R5K1 w - - 0 1", "Ra8", "Ra8#" },
	{ "6k1/5p1p/7P/8/8/8/8/R5K1 w - - 0 1", "Ra8", "Ra8#" },
	{ "6k1/5p1p/5P2/8/8/8/8/R5K1 w - - 0 1", "Ra8", "Ra8#" },
	{ "6k1/5p1p/8/7P/8/8/8/R5K1 w - - 0 1", "Ra8", "Ra8+" },
	{ "r5k1/8/8/8/8/7p/5P1P/6K1 b - - 0 1", "Ra1", "Ra1#" },
	{ "r5k1/8/8/8/8/5p2/5P1P/6K1 b - - 0 1", "Ra1", "Ra1#" },
	{ "r5k1/8/8/8/7p/8/5P1P/6K1 b - - 0 1", "Ra1", "Ra1+" },
	{ "6k1/5p1p/4N1P1/8/8/8/8/R5K1 w - - 0 1", "Ra8", "Ra8#" },
	{ "7k/8/6K1/8/8/8/8/R7 w - - 0 1", "Ra8", "Ra8#" },
	{ "7k/8/5K2/8/8/8/8/R7 w - - 0 1", "Ra8", "Ra8+" },
	{ "k7/8/1K6/8/8/8/8/7R w - - 0 1", "Rh8", "Rh8#" },
	{ "k7/8/2K5/8/8/8/8/7R w - - 0 1", "Rh8", "Rh8+" },
	{ "8/8/8/8/8/5k2/8/R4K2 b - - 0 1", "Kf2", NULL },
	{ "3k4/8/3K4/8/8/8/8/7R w - - 0 1", "Rh8", "Rh8#" },
	{ "3k4/8/3K4/8/8/8/8/6R1 w - - 0 1", "Rg8", "Rg8#" },
	{ "3k4/8/2K5/8/8/8/8/6R1 w - - 0 1", "Rg8", "Rg8+" },
	{ "3kr3/8/3K4/8/8/8/8/6R1 w - - 0 1", "Rg8", "Rg8" },
	{ "2bkr3/8/3K4/8/8/8/8/7B w - - 0 1", "Bf3", "Bf3" },
	{ "2bkr3/2ppp3/8/8/8/8/8/4K2B w - - 0 1", "Bf3", "Bf3" },
	{ "3k4/8/3K4/8/8/8/8/1B6 w - - 0 1", "Bf5", "Bf5" },
	{ "k7/p7/1p6/8/8/8/8/K5N1 w - - 0 1", "Ne2", "Ne2" },
	{ "kr6/pp6/8/8/8/8/8/K5N1 w - - 0 1", "Nf3", "Nf3" },
	{ "kr6/pp6/8/2N5/8/8/8/K7 w - - 0 1", "Nb3", "Nb3" },
	{ "kr6/pp6/8/8/2N5/8/8/K7 w - - 0 1", "Nb6", "Nb6+" },
	{ "kr6/pp6/8/3N4/8/8/8/K7 w - - 0 1", "Nc7", "Nc7#" },
	{ "kr6/p7/8/8/2N5/8/8/K7 w - - 0 1", "Nb6+", "Nb6+" },
	/* a file or rank named between the letter and the square: the
	 * mover must stand there (and the SAN drops it when no other
	 * piece of the type can go) */
	{ "k7/8/8/8/8/5N2/8/K7 w - - 0 1", "Nbd2", NULL },
	{ "k7/8/8/8/8/5N2/8/K7 w - - 0 1", "Nfd2", "Nd2" },
	{ "k7/8/8/8/8/5N2/8/K7 w - - 0 1", "N1d2", NULL },
	{ "k7/8/8/8/8/5N2/8/K7 w - - 0 1", "N3d2", "Nd2" },
	{ "k7/8/8/8/8/5N2/8/K7 w - - 0 1", "Nf3d2", "Nd2" },
	{ "k7/8/8/8/8/5N2/8/K7 w - - 0 1", "Ne3d2", NULL },
	{ "k7/8/8/8/8/1N3N2/8/K7 w - - 0 1", "Nbd2", "Nbd2" },
	{ "k7/8/8/8/8/1N3N2/8/K7 w - - 0 1", "Nfxd2", "Nfd2" },
	/* a pawn's target on its own side's first rank */
	{ "k7/8/8/8/8/8/8/K7 w - - 0 1", "e1", NULL },
	{ "k7/8/8/8/8/8/8/K7 w - - 0 1", "exd1", NULL },
	{ "k7/8/8/8/8/8/8/K7 b - - 0 1", "e8", NULL },
	{ "k7/8/8/8/8/8/8/K7 b - - 0 1", "exf8", NULL },
	/* a target that holds a piece of the mover's side */
	{ "k7/8/8/8/8/5N2/3P4/K7 w - - 0 1", "Nd2", NULL },
	{ "k7/8/8/8/8/5N2/3P4/K7 w - - 0 1", "Nxd2", NULL },
	{ "k7/8/8/8/8/5N2/3P4/K7 w - - 0 1", "Ne1", "Ne1" },
	{ "k7/8/8/8/8/3P4/3P4/K7 w - - 0 1", "d3", NULL },
	{ "k7/8/8/8/8/2P5/3P4/K7 w - - 0 1", "dxc3", NULL },
	/* in check: a move of a piece read only when it answers the check
	 * (taking the checker or stepping between), none in a double
	 * check, none by a piece pinned to the king */
	{ "4k3/8/8/8/4r3/R7/8/4K3 w - - 0 1", "Re3", "Re3" },
	{ "4k3/8/8/8/4r3/R7/8/4K3 w - - 0 1", "Rb3", NULL },
	{ "4k3/8/8/8/R3r3/8/8/4K3 w - - 0 1", "Rxe4", "Rxe4+" },
	{ "4k3/8/8/8/R3r3/8/8/4K3 w - - 0 1", "Ra8", NULL },
	{ "4k3/8/8/8/R3r3/5n2/8/4K3 w - - 0 1", "Rxe4", NULL },
	{ "4k3/8/8/8/4r3/8/3B4/4K3 w - - 0 1", "Be3", "Be3" },
	{ "4k3/8/8/q7/4r3/8/3B4/4K3 w - - 0 1", "Be3", NULL },
	{ "4k3/8/8/8/4r3/3P4/8/4K3 w - - 0 1", "dxe4", "dxe4" },
	{ "4k3/8/8/8/4r3/3P4/8/4K3 w - - 0 1", "d4", NULL },
	{ "4k3/8/8/8/4r3/3P4/8/4K3 w - - 0 1", "Kd2", "Kd2" },
};

START_TEST(test_fast_cases)
{
	char san[CD_SAN_MAX], after[CD_FEN_MAX];
	cd_game *g = cd_game_new();
	cd_status st;

	ck_assert_ptr_nonnull(g);
	st = fast_one(g, fast_cases[_i].fen, fast_cases[_i].tok, san, after);
	if (fast_cases[_i].san == NULL) {
		ck_assert_msg(st != CD_OK, "case %d: %s %s read as %s", _i,
		    fast_cases[_i].fen, fast_cases[_i].tok, san);
	} else {
		ck_assert_msg(st == CD_OK, "case %d: %s %s not read", _i,
		    fast_cases[_i].fen, fast_cases[_i].tok);
		ck_assert_str_eq(san, fast_cases[_i].san);
	}
	cd_game_free(g);
}
END_TEST

static Suite *
san_suite(void)
{
	Suite *s = suite_create("san");
	TCase *tc;

	tc = tcase_create("write");
	tcase_add_loop_test(tc, test_write, 0,
	    (int)(sizeof(writes) / sizeof(writes[0])));
	tcase_add_test(tc, test_write_null);
	tcase_add_test(tc, test_write_all);
	suite_add_tcase(s, tc);

	tc = tcase_create("read");
	tcase_set_timeout(tc, 60);
	tcase_add_loop_test(tc, test_read_lenient, 0,
	    (int)(sizeof(lenient) / sizeof(lenient[0])));
	tcase_add_test(tc, test_read_length);
	tcase_add_loop_test(tc, test_read_960, 0,
	    (int)(sizeof(c960) / sizeof(c960[0])));
	tcase_add_loop_test(tc, test_read_strict, 0,
	    (int)(sizeof(strict) / sizeof(strict[0])));
	tcase_add_loop_test(tc, test_read_lang, 0,
	    (int)(sizeof(langs) / sizeof(langs[0])));
	tcase_add_test(tc, test_lang_find);
	tcase_add_test(tc, test_read_back);
	tcase_add_test(tc, test_read_variants);
	suite_add_tcase(s, tc);

	tc = tcase_create("fast");
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, test_fast_random);
	tcase_add_loop_test(tc, test_fast_cases, 0,
	    (int)(sizeof(fast_cases) / sizeof(fast_cases[0])));
	suite_add_tcase(s, tc);
	return s;
}

TU_SUITES(san_suite);
