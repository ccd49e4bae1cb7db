/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * chessdata/json.h: games as data: one JSON object per game (NDJSON),
 * and the values of a row of a table (TSV, CSV).
 *
 * Text is always written as valid UTF-8: a byte that does not start a
 * valid UTF-8 sequence (overlong forms, surrogates and code points
 * above U+10FFFF are not valid) is read as Latin-1, the standard's
 * character set (section 4.1), and written as the UTF-8 of that
 * character.  So a Latin-1 archive comes out right, and a broken UTF-8
 * one comes out readable and valid.
 *
 * Everything is appended to a cd_buf the caller owns (start it
 * zeroed; cd_buf_free).  Functions return CD_OK or CD_ERR_NOMEM.
 */
#ifndef CHESSDATA_JSON_H
#define CHESSDATA_JSON_H

#include <chessdata/base.h>
#include <chessdata/pgn.h>
#include <chessdata/opening.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Append s[0..len) as UTF-8 (see above), nothing escaped. */
CD_API cd_status cd_utf8_append(cd_buf *out, const char *s,
    size_t len);

/* Append s[0..len) as a JSON string (RFC 8259): quoted, `"` and `\`
 * escaped, control characters as \n \t \r \b \f or \u00XX, and the
 * C1 controls, U+2028 and U+2029 as \u0085, \u2028 ... too (readers
 * that follow Unicode line breaks keep a line whole). */
CD_API cd_status cd_json_append_string(cd_buf *out, const char *s,
    size_t len);

/* Table field styles. */
enum {
	CD_FIELD_TSV = 0,	/* tab-separated */
	CD_FIELD_CSV = 1,	/* comma-separated */
	CD_FIELD_SQL = 2	/* an SQL string literal */
};

/* Append one field of a table row in style CD_FIELD_*: quoted as RFC
 * 4180 says ("" for ") when the value holds the separator (tab or
 * comma), `"`, CR or LF, else as it is (a backslash too); C1 controls,
 * U+2028 and U+2029 written as spaces.  sqlite3's .import and DuckDB's
 * read_csv read either style back intact.  CD_FIELD_SQL: in single
 * quotes, each doubled, the text as it is (standard SQL, which sqlite3,
 * DuckDB and PostgreSQL read). */
CD_API cd_status cd_field_append(cd_buf *out, const char *s,
    size_t len, int style);

/* Whether s[0..len) is printable ASCII (0x20 to 0x7e) without `"` or
 * `\`: text that cd_utf8_append, cd_json_append_string (within its
 * quotes) and cd_field_append (without a tab or comma) write as it
 * is. */
CD_API bool cd_text_plain(const char *s, size_t len);

/* pgn2json options (cd_game_write_json). */
enum {
	CD_JSON_COMMENTS = 1 << 0,	/* "comments" per ply */
	CD_JSON_FENS = 1 << 1,		/* "fens": FEN after every ply */
	CD_JSON_VARIATIONS = 1 << 2,	/* "variations": the move tree */
	CD_JSON_OPENING = 1 << 3	/* "opening" (only with
					 * cd_game_write_json_opening) */
};

/*
 * Append game g as one JSON object and a newline.  number is the
 * game's "game" field.  The fields, in this order:
 *   "game"     number
 *   "tags"     every tag of the export form, in its order (the seven
 *              roster tags first: cd_game_export_tags)
 *   "start"    the start position's FEN (canonical)
 *   "moves"    the main line in canonical SAN (an array of strings)
 *   "uci"      the same moves in UCI ("e1g1" for castling in standard
 *              chess, king takes rook in Chess960, "0000" a null move)
 *   "plies"    the main line's length
 *   "result"   "1-0", "0-1", "1/2-1/2" or "*" (cd_game_result)
 *   "final"    the FEN of the final position
 *   "termination"  the ending of the final position per the FIDE
 *              rules (cd_ending_name of its first ending), or null
 *   "reason"   (after "opening" when there is one) how the game ended: "checkmate", "resignation", "time
 *              forfeit", "time forfeit against insufficient material"
 *              (a draw on time), "abandonment", "agreement",
 *              "repetition", "fifty moves", "stalemate", "insufficient
 *              material", "adjudication" or "unknown".  From the
 *              Termination tag: chess.com's wording ("X won by
 *              resignation", "Game drawn by timeout vs insufficient
 *              material"), the standard's and lichess's values
 *              ("time forfeit", "abandoned", "adjudication"); with
 *              lichess's "normal", the final position (checkmate,
 *              stalemate, a dead position, a repetition or fifty
 *              moves when drawn), else a resignation when decisive, an
 *              agreement when drawn; without a Termination the final
 *              position alone (the draws only when the result is a
 *              draw), else "unknown"
 *   "speed"    by lichess's rule on the TimeControl's first period:
 *              base + 40 x increment under 30 seconds "ultrabullet",
 *              under 180 "bullet", under 480 "blitz", under 1500
 *              "rapid", else "classical"; "correspondence" for "-" and
 *              for one move in a day or more ("1/86400"); null for
 *              "?", none or one that does not read
 *   "winner"   "white", "black", "none" (a draw), null for "*"
 *   "elo_diff" WhiteElo less BlackElo, null unless both are numbers
 *   "timecontrol"  when the game has the tag: its periods
 *              (chessdata/timecontrol.h) as [{"moves": M, "seconds": S,
 *              "increment": I, "sandclock": true}], each key only when
 *              given ("40/9000:300" [{"moves":40,"seconds":9000},
 *              {"seconds":300}]); [] for "-", null for "?" or a value
 *              that does not read
 *   "clocks", "emt"  seconds ([%clk], [%emt]), "evals" ({"cp": N} or
 *              {"mate": N} from White's side, with "depth" when given):
 *              one entry per ply, null where a ply has none; each
 *              array only when some ply has one
 *   "comments" (CD_JSON_COMMENTS) plies + 1 entries: the text before
 *              the first move, then the text after each ply, without
 *              the clk, emt and eval commands (they have their own
 *              fields); null where there is none
 *   "fens"     (CD_JSON_FENS) the FEN after each ply
 *   "variations"  (CD_JSON_VARIATIONS) the variations of the main line:
 *              [{"ply": P, "moves": [SAN...], "variations": [...]}],
 *              P the ply of the variation's first move; the nested
 *              "variations" (of that line's moves) only when there are
 *              some
 * No white space between tokens.
 */
CD_API cd_status cd_game_write_json(const cd_game *g, uint64_t number,
    unsigned flags, cd_buf *out);

/*
 * The same with, under CD_JSON_OPENING, an "opening" field after
 * "termination": {"eco": ECO, "name": NAME, "ply": N} from op (a
 * classification, chessdata/opening.h), or null when op is NULL.
 */
CD_API cd_status cd_game_write_json_opening(const cd_game *g,
    uint64_t number, unsigned flags, const cd_opening *op, cd_buf *out);

/*
 * Computed fields of a row, named with an `@` so that no tag has their
 * name: "@game" (number), "@start", "@moves" (SAN separated by spaces),
 * "@uci", "@plies" (half-moves), "@fullmoves" (the move numbers the
 * main line spans: 1. e4 e5 2. Nf3 is 2), "@result", "@final", "@key"
 * (the final position's Polyglot key, 16 lower-case hex digits),
 * "@termination" (the name, or nothing), "@base" and "@increment"
 * (seconds of the TimeControl's first period, 0 for no increment;
 * nothing without a time control), "@reason", "@speed", "@winner",
 * "@elo_diff" (as the JSON keys above, nothing for null).  Appends the plain value (not escaped: see
 * cd_field_append).  CD_ERR_ARG for an unknown name.
 */
CD_API cd_status cd_game_write_field(const cd_game *g, const char *name,
    uint64_t number, cd_buf *out);

/* Whether name is one of the computed fields above. */
CD_API bool cd_game_field_known(const char *name);

/* The computed fields of a classification (chessdata/opening.h):
 * "@eco", "@opening" (its name), "@opening_ply" (the ply of the
 * position); op NULL (not classified) writes nothing.  CD_ERR_ARG for
 * another name. */
CD_API cd_status cd_opening_write_field(const cd_opening *op,
    const char *name, cd_buf *out);
CD_API bool cd_opening_field_known(const char *name);

#ifdef __cplusplus
}
#endif
#endif
