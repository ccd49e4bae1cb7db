/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * select_int.h: the selector's insides, shared by select.c (conditions
 * on tags, --where, adding conditions) and select_moves.c (conditions
 * on the main line: reading them and matching them).
 */
#ifndef CD_SELECT_INT_H
#define CD_SELECT_INT_H

#include <regex.h>
#include <stdbool.h>
#include <stdint.h>

#include "common/internal.h"
#include "core/bits.h"

enum op { OP_EQ, OP_NE, OP_LT, OP_LE, OP_GT, OP_GE, OP_MATCH, OP_NMATCH };
enum cls { CLS_BYTES, CLS_DATE, CLS_ROUND };

#define MSG_MAX	CD_ERROR_MSG_MAX

struct where;

/* One condition on tags. */
struct tagcond {
	cd_select_kind kind;
	char *name;		/* CD_SEL_TAG */
	enum op op;
	char *value;
	size_t value_len;
	enum cls cls;
	bool is_int;
	char *lo, *hi;		/* CLS_DATE: the span of the value */
	bool has_re, has_re8;
	regex_t re;		/* bytes: ASCII values, an ASCII pattern */
	regex_t re8;		/* characters: any value (UTF-8 locale) */
	uint16_t *eco;		/* CD_SEL_ECO: pairs lo, hi */
	size_t neco;
	unsigned results;	/* CD_SEL_RESULT: bits 1 << cd_pgn_result */
	struct where *where;	/* CD_SEL_WHERE */
};

/* An expression of --where: nodes, the leaves conditions on tags. */
enum { W_LEAF, W_AND, W_OR, W_NOT };
struct wnode {
	int type;
	uint32_t a, b;		/* children; a: the leaf's index */
};
struct where {
	struct wnode *nodes;
	size_t nnodes;
	struct tagcond *leaves;
	size_t nleaves;
	uint32_t root;
};

#define MAT_RELS	8	/* the most relations of a material */
#define MAT_MINOR	7	/* a relation's type: knights and bishops */

/* Material: the count of each piece (color << 3 | type), at least or
 * exactly. */
struct material {
	uint8_t count[16];
	uint16_t more;		/* bit p: any number more of piece p */
	/* relations between the sides: White's count of rel_type[i]
	 * (CD_PAWN .. CD_QUEEN, or MAT_MINOR: knights and bishops) is
	 * rel_op[i] ('<', '>', '=') Black's */
	uint8_t nrel;
	uint8_t rel_type[MAT_RELS];
	char rel_op[MAT_RELS];
	uint32_t hold;		/* plies it holds for at least (@N) */
};

/* A piece placement with squares of any content: where care has a
 * bit, the board's pieces must be those of piece[] (none: empty). */
/* The most tokens of a rank of a placement pattern; `*` as a token. */
#define PL_TOKENS	24
#define PL_ANY_RUN	0x8000u

struct placement {
	cd_bitboard care;
	cd_bitboard piece[16];
	/* a pattern of pgn-extract's FENPattern (general): each rank's
	 * tokens, a set of square contents (bit 0 empty, bit p piece p)
	 * or PL_ANY_RUN (`*`: any number of squares) */
	bool general;
	uint8_t ntok[8];	/* [0]: rank 8 */
	uint16_t tok[8][PL_TOKENS];
};

/* A move prefix: the moves from the standard start. */
struct prefix {
	cd_move *moves;
	uint32_t n;
};

/* Events of --occurs, anywhere in the main line. */
enum {
	OCC_THREEFOLD = 1 << 0, OCC_FIVEFOLD = 1 << 1, OCC_FIFTY = 1 << 2,
	OCC_SEVENTYFIVE = 1 << 3, OCC_CHECK = 1 << 4,
	OCC_UNDERPROMOTION = 1 << 5
};

struct cd_select {
	unsigned flags;
	const cd_san_lang *lang;
	struct tagcond *tags;
	size_t ntags, tags_cap;
	char **names;		/* tag names that conditions name */
	size_t nnames;
	uint64_t *games;	/* CD_SEL_GAMES: pairs lo, hi; any */
	size_t ngames;		/* sorted by start, apart (games_join) */
	size_t err_at;		/* the offset of the item that did not
				 * read (read_games) */
	bool plies;
	uint32_t plies_min, plies_max;
	cd_board *pos;		/* CD_SEL_POSITION: any of them */
	size_t npos;
	struct material *mat;	/* any of them */
	size_t nmat;
	unsigned *ends;		/* CD_SEL_ENDS: each a set, any bit */
	size_t nends;
	struct placement *place;	/* any of them */
	size_t nplace;
	struct prefix *pre;	/* any of them */
	size_t npre;
	unsigned *occ;		/* CD_SEL_OCCURS: each a set, any bit */
	size_t nocc;
	bool wrong;		/* CD_SEL_WRONG_RESULT */
};

/* The readers of the conditions on the main line (select_moves.c), for
 * cd_select_add: CD_OK, or an error with *why (or err) saying why. */
cd_status cd__sel_read_plies(cd_select *s, const char *text,
    const char **why);
cd_status cd__sel_read_position(cd_select *s, const char *text,
    cd_error *err);
cd_status cd__sel_read_material(cd_select *s, const char *text,
    const char **why);
cd_status cd__sel_read_games(cd_select *s, const char *text,
    const char **why);
cd_status cd__sel_read_placement(cd_select *s, const char *text,
    const char **why);
cd_status cd__sel_read_moves(cd_select *s, const char *text,
    const char **why, char *buf);
cd_status cd__sel_read_occurs(cd_select *s, const char *text,
    const char **why);
cd_status cd__sel_read_ends(cd_select *s, const char *text,
    const char **why);

#endif
