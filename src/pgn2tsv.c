/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * pgn2tsv: PGN games in, one row per game out: tab-separated values
 * (or CSV), the columns chosen by --fields: tag names and the computed
 * fields of pgn2json, named with an `@`.  When every field is a tag,
 * the movetext is never parsed (the reader's tags are enough), and no
 * game is rejected.
 */
#include "config.h"

#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "chessdata.h"
#include "cli/cli.h"
#include "cli/games.h"

#define DEFAULT_FIELDS "Event,Site,Date,Round,White,Black,Result,@plies"
/* The columns of --positions (positions(): by index). */
#define POSITION_FIELDS "game,ply,key,epd,move,result,white_elo,black_elo"

static int opt_no_header, opt_style = CD_FIELD_TSV;
static bool opt_positions;	/* --positions: a row per position */
static const char *opt_sql;	/* --sql: the table's name */
static const char sql_default[] = "";	/* --sql without a name */
static const cd_openings *openings;	/* --openings, for @eco ... */

/* The columns, each known once from its name. */
static struct column {
	char *name;
	size_t name_len;
	enum { COL_TAG, COL_RESULT, COL_FILE, COL_COMPUTED, COL_OPENING }
	    kind;		/* from COL_COMPUTED on, the game is parsed */
	const char *missing;	/* a tag's value when the game has none */
	size_t missing_len;
	size_t first;		/* the first column of its name */
	bool integer;		/* --sql: an INTEGER column */
	bool real;		/* --sql: a REAL column */
	int seen;		/* a tag column: some game has the tag
				 * (atomic: the threads set it) */
	char *sql_name;		/* --sql: its name there */
} *fields;
static size_t nfields;

/* The tag columns' names hashed, to look up each tag of a raw game once
 * (open addressing; a slot holds the index + 1 of the first column of
 * a name, 0 when empty). */
static size_t *slots, slots_mask;
/* Bit n set when a tag column's name has n bytes (bit 63: 63 or more):
 * most tags of a game are ruled out by their length alone. */
static uint64_t name_lengths;

static inline uint64_t
length_bit(size_t n)
{
	return (uint64_t)1 << (n < 63 ? n : 63);
}

static size_t
name_hash(const char *s, size_t n)
{
	return (n * 31 + (unsigned char)s[0] * 7 +
	    (unsigned char)s[n - 1]) & slots_mask;
}

/* The slot of the tag column name s (n > 0 bytes): its own, or the
 * empty one where it would go. */
static size_t
column_slot(const char *s, size_t n)
{
	size_t h;

	for (h = name_hash(s, n); slots[h] != 0; h = (h + 1) & slots_mask) {
		const struct column *c = &fields[slots[h] - 1];

		if (c->name_len == n && memcmp(c->name, s, n) == 0)
			break;
	}
	return h;
}

/* The first tag column named s (n > 0 bytes), or -1. */
static long
column_find(const char *s, size_t n)
{
	if ((name_lengths & length_bit(n)) == 0)
		return -1;
	return (long)slots[column_slot(s, n)] - 1;
}

/* Fill slots[] and each column's first. */
static void
index_fields(void)
{
	size_t cap = 16, i, h;

	while (cap < 4 * nfields)
		cap *= 2;
	if ((slots = calloc(cap, sizeof(*slots))) == NULL)
		cli_fatal("out of memory");
	slots_mask = cap - 1;
	for (i = 0; i < nfields; i++) {
		struct column *c = &fields[i];

		if (c->kind >= COL_FILE)
			continue;
		name_lengths |= length_bit(c->name_len);
		h = column_slot(c->name, c->name_len);
		if (slots[h] == 0)
			slots[h] = i + 1;
		c->first = slots[h] - 1;
	}
}

static void
usage(void)
{
	printf("Usage: %s [OPTION]... [FILE]...\n", cli_prog);
	fputs(
	    "Read PGN games and write one row per game: tab-separated values\n"
	    "(or CSV) of chosen tags and computed fields.\n"
	    "\n"
	    "      --csv             write CSV (RFC 4180) instead of TSV\n"
	    "      --sql[=TABLE]     write SQL: CREATE TABLE (default name games,\n"
	    "                        with --positions positions)\n"
	    "                        with typed columns, then INSERTs of 1000\n"
	    "                        rows (sqlite3, DuckDB, psql; not with\n"
	    "                        --csv)\n"
	    "      --sql-dialect=D   standard (the default) or duckdb: the rows\n"
	    "                        as one string a column, which DuckDB loads\n"
	    "                        many times faster (DuckDB only)\n"
	    "  -f, --fields=LIST     the columns, comma-separated: tag names and\n"
	    "                        @game, @file, @start, @moves, @uci, @plies\n"
	    "                        (half-moves), @fullmoves, @result, @final,\n"
	    "                        @key, @termination, @base, @increment,\n"
	    "                        @reason, @speed, @winner, @elo_diff, and\n"
	    "                        with\n"
	    "                        --openings @eco, @opening, @opening_ply\n"
	    "                        (default:\n"
	    "                        " DEFAULT_FIELDS ")\n"
	    "  -H, --no-header       no header row\n"
	    "      --positions       one row per main-line position instead:\n"
	    "                        game, ply, key (Polyglot, 16 hex digits),\n"
	    "                        epd, move (SAN; empty at the end), result,\n"
	    "                        white_elo, black_elo (numbers or empty)\n"
	    "      --openings=FILE   classify openings by the table FILE (TSV or\n"
	    "                        PGN; repeatable; default: the files\n"
	    "                        $CHESSDATA_OPENINGS names, colon-separated)\n", stdout);
	cli_usage_options(CLI_TAKE_GAMES);
	fputs(
	    "\n"
	    "With no FILE, or when FILE is -, read standard input.\n"
	    "Exit status: 0 success, 1 some game was rejected,\n"
	    "2 usage or system error.\n", stdout);
}

/* The value a missing tag has in the export form (export-format.md
 * rule 1): "?" for the roster, "????.??.??" for Date, else nothing. */
static const char *
missing_tag(const char *name)
{
	static const char *const roster[] = { "Event", "Site", "Round",
	    "White", "Black", NULL };
	size_t i;

	if (strcmp(name, "Date") == 0)
		return "????.??.??";
	for (i = 0; roster[i] != NULL; i++)
		if (strcmp(name, roster[i]) == 0)
			return "?";
	return "";
}

/* ---- --sql ---- */

/* The most games whose rows an INSERT holds (sql_emit): 1000 in
 * standard SQL, 10000 in DuckDB's form (--sql-dialect=duckdb). */
static uint64_t sql_rows = 1000;
#define SQL_ROWS_DUCKDB	10000
static bool opt_duckdb;	/* --sql-dialect=duckdb */

/* Whether tag or field name is an integer: the ratings (Elo, USCF,
 * FIDE ids, lichess's rating changes), PlyCount, Board and the
 * computed counts. */
static bool
sql_integer(const char *name)
{
	static const char *const suffix[] = { "Elo", "USCF", "FideId",
	    "RatingDiff", NULL };
	static const char *const exact[] = { "PlyCount", "Board",
	    "EventRounds", "@game", "@plies", "@fullmoves", "@opening_ply",
	    "@elo_diff",
	    NULL };
	size_t i, n = strlen(name), k;

	for (i = 0; exact[i] != NULL; i++)
		if (strcmp(name, exact[i]) == 0)
			return true;
	for (i = 0; suffix[i] != NULL; i++)
		if (n > (k = strlen(suffix[i])) &&
		    strcmp(name + n - k, suffix[i]) == 0)
			return true;
	return false;
}

/* Append the SQL identifier name, quoted: in double quotes, each
 * doubled (standard SQL: no word is then reserved). */
static void
sql_ident(cd_buf *b, const char *name)
{
	size_t n = strlen(name), i;

	cli_buf_reserve(b, 2 * n + 2);
	b->data[b->len++] = '"';
	for (i = 0; i < n; i++) {
		if (name[i] == '"')
			b->data[b->len++] = '"';
		b->data[b->len++] = name[i];
	}
	b->data[b->len++] = '"';
}

/* The SQL name of a column: a tag's name (letters, digits and `_` as
 * the standard has them; other bytes made `_`), a computed field's
 * with `_` for its `@` (`_plies`); written quoted (sql_ident), so no
 * name is a reserved word.  A usage error when two columns get one
 * name (SQL names ignore case). */
static void
sql_names(void)
{
	size_t i, k;

	for (i = 0; i < nfields; i++) {
		struct column *c = &fields[i];
		char *n;

		if ((n = c->sql_name = malloc(c->name_len + 1)) == NULL)
			cli_fatal("out of memory");
		for (k = 0; k < c->name_len; k++) {
			unsigned char ch = (unsigned char)c->name[k];

			n[k] = (ch >= 'a' && ch <= 'z') || (ch >= 'A' &&
			    ch <= 'Z') || (ch >= '0' && ch <= '9' && k > 0) ?
			    (char)ch : '_';
		}
		n[k] = '\0';
		c->integer = sql_integer(c->name);
		c->real = strcmp(c->name, "@base") == 0 ||
		    strcmp(c->name, "@increment") == 0;
		for (k = 0; k < i; k++)
			if (strcasecmp(fields[k].sql_name, n) == 0 &&
			    strcmp(fields[k].name, c->name) != 0)
				cli_usage_error("columns '%s' and '%s' have one "
				    "name in SQL, '%s'", fields[k].name,
				    c->name, n);
	}
}

/* A value in SQL: NULL for nothing, '?' or an unknown date; an
 * INTEGER column's value as its digits (a '+' dropped) when it is an
 * integer, else NULL; else a string literal. */
static void
sql_value(cd_buf *out, const struct column *c, const char *s, size_t len)
{
	size_t i = 0;

	if (len == 0 || (len == 1 && s[0] == '?') ||
	    (len == 10 && memcmp(s, "????.??.??", 10) == 0))
		goto null;
	if (c->real) {
		/* written by the library: digits, maybe a point, digits */
		cli_buf_reserve(out, len);
		memcpy(out->data + out->len, s, len);
		out->len += len;
		return;
	}
	if (!c->integer) {
		if (cd_field_append(out, s, len, CD_FIELD_SQL) != CD_OK)
			cli_fatal("out of memory");
		return;
	}
	if (s[0] == '+' || s[0] == '-')
		i++;
	if (len - i == 0 || len - i > 18)
		goto null;
	for (; i < len; i++)
		if (s[i] < '0' || s[i] > '9')
			goto null;
	cli_buf_reserve(out, len);
	if (s[0] == '+')
		s++, len--;
	memcpy(out->data + out->len, s, len);
	out->len += len;
	return;
null:
	cli_buf_reserve(out, 4);
	memcpy(out->data + out->len, "NULL", 4);
	out->len += 4;
}

/* The table: CREATE TABLE with each column's type. */
static void
sql_create(cd_buf *b)
{
	size_t i;

	cli_buf_reserve(b, 16);
	memcpy(b->data + b->len, "CREATE TABLE ", 13);
	b->len += 13;
	sql_ident(b, opt_sql);
	for (i = 0; i < nfields; i++) {
		const struct column *c = &fields[i];
		const char *type = c->integer ? " INTEGER" : c->real ?
		    " REAL" : " TEXT";

		cli_buf_reserve(b, 2);
		memcpy(b->data + b->len, i > 0 ? ", " : " (", 2);
		b->len += 2;
		sql_ident(b, c->sql_name);
		cli_buf_reserve(b, strlen(type));
		memcpy(b->data + b->len, type, strlen(type));
		b->len += strlen(type);
	}
	cli_buf_reserve(b, 4);
	memcpy(b->data + b->len, ");\n", 3);
	b->len += 3;
}

/*
 * The rows go in multi-row INSERTs, one a group of sql_rows games by
 * game number (games 1 to 1000, 1001 to 2000, ...; a rejected game
 * leaves its group a row shorter), so that the statements are the same
 * however the games fall into output batches (-j).  A batch's output
 * (row) begins with a struct sql_mark, then its rows: each "(...)",
 * after ",\n" within a group, after ";\n" and sql_head
 * ("INSERT INTO table VALUES\n") where a group begins in the batch.
 * sql_emit, which gets the batches in input order, drops the mark and
 * joins the batch's first row to the statement left open before it,
 * or ends that one and begins its own.
 */
struct sql_mark {
	uint64_t first, last;	/* the groups of the batch's first and
				 * last rows */
};
static cd_buf sql_head;
static bool sql_open;		/* a statement is open ... */
static uint64_t sql_group;	/* ... for this group */

static void
sql_emit(const char *data, size_t len)
{
	struct sql_mark m;

	if (len == 0)
		return;
	memcpy(&m, data, sizeof(m));
	if (sql_open && m.first == sql_group)
		cli_output_write(",\n", 2);
	else {
		if (sql_open)
			cli_output_write(";\n", 2);
		cli_output_write(sql_head.data, sql_head.len);
	}
	cli_output_write(data + sizeof(m), len - sizeof(m));
	sql_open = true;
	sql_group = m.last;
}

/*
 * --sql-dialect=duckdb: DuckDB binds and optimizes each value of a
 * VALUES list as an expression of its own (some microseconds a value),
 * so a statement there takes a string literal a column instead, the
 * values joined by the unit separator (0x1f), split again by
 * string_split and zipped into rows by unnest; '' is NULL (--sql makes
 * every empty value NULL), and the INSERT casts the text to the
 * column's type.  duck_emit reads the rows back from the standard form
 * that row() writes (a row "(v,...)": NULL, a number, or a string in
 * single quotes, each doubled), the quotes kept doubled.  A statement
 * whose value holds a 0x1f (a file name can) is written in the
 * standard form, which duck_rows keeps too.
 */
static cd_buf *duck_cols;	/* a column's values, joined by 0x1f */
static cd_buf duck_rows;	/* the rows in the standard form */
static size_t duck_nrows;
static bool duck_unit;		/* a value holds 0x1f */

/* Write the open statement, if it holds rows. */
static void
duck_flush(void)
{
	char num[80];
	size_t i;

	if (duck_nrows == 0)
		return;
	if (duck_unit) {
		cli_output_write(sql_head.data, sql_head.len);
		cli_output_write(duck_rows.data, duck_rows.len);
		cli_output_write(";\n", 2);
	} else {
		cli_output_write(sql_head.data, sql_head.len - 8);
		cli_output_write(" SELECT\n", 8);
		for (i = 0; i < nfields; i++)
			cli_output_write(num, (size_t)snprintf(num, sizeof(num),
			    "NULLIF(unnest(string_split(c%zu, chr(31))), '')%s\n",
			    i + 1, i + 1 < nfields ? "," : ""));
		cli_output_write("FROM (SELECT\n", 13);
		for (i = 0; i < nfields; i++) {
			cli_output_write("'", 1);
			cli_output_write(duck_cols[i].data, duck_cols[i].len);
			cli_output_write(num, (size_t)snprintf(num, sizeof(num),
			    "' AS c%zu%s\n", i + 1, i + 1 < nfields ? "," :
			    ") AS v;"));
			duck_cols[i].len = 0;
		}
	}
	duck_rows.len = 0;
	duck_nrows = 0;
	duck_unit = false;
}

/* Add the row at p (standard form) to the open statement; return the
 * end of it. */
static const char *
duck_row(const char *p)
{
	const char *start = p, *q;
	size_t i, n;

	p++;	/* ( */
	for (i = 0; i < nfields; i++) {
		cd_buf *b = &duck_cols[i];

		if (*p == '\'') {
			for (q = p + 1; *q != '\'' || q[1] == '\''; q++)
				if (*q == '\'')
					q++;
			p++;
			n = (size_t)(q - p);
			if (memchr(p, 0x1f, n) != NULL)
				duck_unit = true;
		} else {
			for (q = p; *q != ',' && *q != ')'; q++)
				;
			n = *p == 'N' ? 0 : (size_t)(q - p);	/* NULL */
			q--;
		}
		cli_buf_reserve(b, n + 1);
		if (duck_nrows > 0)
			b->data[b->len++] = 0x1f;
		memcpy(b->data + b->len, p, n);
		b->len += n;
		p = q + 2;	/* past the value and its , or ) */
	}
	n = (size_t)(p - start);
	cli_buf_reserve(&duck_rows, n + 2);
	if (duck_nrows > 0) {
		memcpy(duck_rows.data + duck_rows.len, ",\n", 2);
		duck_rows.len += 2;
	}
	memcpy(duck_rows.data + duck_rows.len, start, n);
	duck_rows.len += n;
	duck_nrows++;
	return p;
}

/* sql_emit for --sql-dialect=duckdb: the rows of a batch into the open
 * statement, or into the next. */
static void
duck_emit(const char *data, size_t len)
{
	const char *p = data + sizeof(struct sql_mark), *end = data + len;
	struct sql_mark m;

	if (len == 0)
		return;
	memcpy(&m, data, sizeof(m));
	if (sql_open && m.first != sql_group)
		duck_flush();
	for (;;) {
		p = duck_row(p);
		if (p >= end)
			break;
		if (*p == ',')
			p += 2;		/* ",\n": the same group */
		else {
			p += 2 + sql_head.len;	/* ";\n" and a new INSERT */
			duck_flush();
		}
	}
	sql_open = true;
	sql_group = m.last;
}

/* The start of a row of game number index in out (sql_emit). */
static void
sql_row_start(cd_buf *out, uint64_t index)
{
	struct sql_mark m;
	uint64_t group = (index - 1) / sql_rows;

	cli_buf_reserve(out, sizeof(m) + sql_head.len + 4);
	if (out->len == 0) {
		m.first = m.last = group;
		memcpy(out->data, &m, sizeof(m));
		out->len = sizeof(m);
	} else {
		memcpy(&m, out->data, sizeof(m));
		if (group == m.last) {
			memcpy(out->data + out->len, ",\n", 2);
			out->len += 2;
		} else {
			memcpy(out->data + out->len, ";\n", 2);
			memcpy(out->data + out->len + 2, sql_head.data,
			    sql_head.len);
			out->len += 2 + sql_head.len;
			m.last = group;
			memcpy(out->data, &m, sizeof(m));
		}
	}
	out->data[out->len++] = '(';
}

/* Whether s is a tag name as the standard has them (8.1.1: letters,
 * digits and underscores, from a letter). */
static bool
tag_name(const char *s)
{
	const char *p;

	for (p = s; *p != '\0'; p++)
		if (!((*p >= 'A' && *p <= 'Z') || (*p >= 'a' && *p <= 'z') ||
		    *p == '_' || (p > s && *p >= '0' && *p <= '9')))
			return false;
	return p > s;
}

/* Note that column c (a tag's) has a value in some game. */
static inline void
tag_seen(struct column *c)
{
	if (!__atomic_load_n(&c->seen, __ATOMIC_RELAXED))
		__atomic_store_n(&c->seen, 1, __ATOMIC_RELAXED);
}

/* Split --fields into fields[]; a usage error for an empty or unknown
 * name, a warning for a name that no tag can have. */
static void
parse_fields(const char *list)
{
	const char *p = list;

	for (;;) {
		const char *e = strchr(p, ',');
		size_t n = e ? (size_t)(e - p) : strlen(p);
		char *f;

		if (n == 0)
			cli_usage_error("empty field name in '%s'", list);
		if ((f = strndup(p, n)) == NULL)
			cli_fatal("out of memory");
		if (f[0] == '@' && !cd_game_field_known(f) &&
		    !cd_opening_field_known(f) && strcmp(f, "@file") != 0)
			cli_usage_error("unknown field '%s'", f);
		if (cd_opening_field_known(f) && openings == NULL)
			cli_usage_error("field '%s' needs opening tables "
			    "(--openings or CHESSDATA_OPENINGS)", f);
		if ((fields = realloc(fields, (nfields + 1) *
		    sizeof(*fields))) == NULL)
			cli_fatal("out of memory");
		fields[nfields].name = f;
		fields[nfields].kind = cd_opening_field_known(f) ?
		    COL_OPENING : strcmp(f, "@file") == 0 ? COL_FILE :
		    f[0] == '@' ? COL_COMPUTED :
		    strcmp(f, "Result") == 0 ? COL_RESULT : COL_TAG;
		fields[nfields].seen = 0;
		fields[nfields].sql_name = NULL;	/* --sql: sql_names */
		fields[nfields].integer = fields[nfields].real = false;
		if (f[0] != '@' && !tag_name(f))
			cli_warn("warning: field '%s' is no tag name (letters, "
			    "digits and _) nor a computed field: an empty "
			    "column", f);
		fields[nfields].name_len = strlen(f);
		fields[nfields].missing = missing_tag(f);
		fields[nfields].missing_len = strlen(fields[nfields].missing);
		nfields++;
		if (e == NULL)
			break;
		p = e + 1;
	}
}

static void
free_fields(void)
{
	size_t i;

	for (i = 0; i < nfields; i++) {
		free(fields[i].name);
		free(fields[i].sql_name);
	}
	free(fields);
	free(slots);
}

static void
field(cd_buf *out, const char *s, size_t len)
{
	if (cd_field_append(out, s, len, opt_style) != CD_OK)
		cli_fatal("out of memory");
}

/* The value of column c: a field, or with --sql a value. */
static void
cell(cd_buf *out, const struct column *c, const char *s, size_t len)
{
	if (opt_style == CD_FIELD_SQL)
		sql_value(out, c, s, len);
	else
		field(out, s, len);
}

/* Whether s has a control byte or DEL: eight bytes at a time. */
static bool
has_control(const char *s, size_t n)
{
	const uint64_t ones = 0x0101010101010101ULL;
	size_t i;

	for (i = 0; i + 8 <= n; i += 8) {
		uint64_t w, d;

		memcpy(&w, s + i, 8);
		d = w ^ (ones * 0x7f);
		/* a byte below 0x20, or one equal to 0x7f (exact) */
		if ((((w - ones * 0x20) & ~w) | ((d - ones) & ~d)) &
		    (ones * 0x80))
			return true;
	}
	for (; i < n; i++)
		if ((unsigned char)s[i] < 0x20 || s[i] == 0x7f)
			return true;
	return false;
}

/* The tag t (NULL: none) of column c of a raw game as the parsed game
 * would hold it: control bytes made spaces; a missing Result as the
 * export form has it (the termination marker, else "*"). */
static void
raw_tag(cd_buf *out, const cd_pgn_raw_game *raw, const struct column *c,
    const cd_pgn_tag *t, cd_buf *tmp)
{
	const char *v;
	size_t i;

	if (c->kind == COL_RESULT && t == NULL) {
		v = cd_pgn_result_str(raw->result == CD_PGN_RESULT_NONE ?
		    CD_PGN_RESULT_UNKNOWN : raw->result);
		cell(out, c, v, strlen(v));
		return;
	}
	if (t == NULL) {
		cell(out, c, c->missing, c->missing_len);
		return;
	}
	if (opt_style == CD_FIELD_TSV &&
	    cd_text_plain(t->value, t->value_len)) {
		/* no control byte, nothing to escape: as it is */
		cli_buf_reserve(out, t->value_len);
		memcpy(out->data + out->len, t->value, t->value_len);
		out->len += t->value_len;
		return;
	}
	if (!has_control(t->value, t->value_len)) {
		cell(out, c, t->value, t->value_len);
		return;
	}
	tmp->len = 0;
	cli_buf_reserve(tmp, t->value_len);
	for (i = 0; i < t->value_len; i++) {
		unsigned char ch = (unsigned char)t->value[i];

		tmp->data[i] = ch < 0x20 || ch == 0x7f ? ' ' : (char)ch;
	}
	cell(out, c, tmp->data, t->value_len);
}

/* A tag of a parsed game: its value as written (a missing Result as
 * the export form has it). */
static void
game_tag(cd_buf *out, const cd_game *g, const struct column *c)
{
	size_t len;
	const char *v;

	if ((v = cd_game_tag_value(g, c->name, &len)) != NULL)
		tag_seen(&fields[c->first]);
	else if (c->kind == COL_RESULT)
		v = cd_pgn_result_str(cd_game_result(g)), len = strlen(v);
	else
		v = c->missing, len = c->missing_len;
	cell(out, c, v, len);
}

/* A job's own: a buffer, and the tags of a raw game by column. */
struct rowbuf {
	cd_buf tmp;
	const cd_pgn_tag **found;
};

static void
free_priv(void *p)
{
	struct rowbuf *rb = p;

	free(rb->tmp.data);
	free(rb->found);
	free(rb);
}

/* An Elo tag of g as a number, else nothing. */
static void
elo_cell(cd_buf *out, const cd_game *g, const struct column *c,
    const char *tag)
{
	size_t len;
	const char *v = cli_game_elo(g, tag, &len);

	cell(out, c, v != NULL ? v : "", v != NULL ? len : 0);
}

/*
 * --positions: a row for each position of g's main line, the start to
 * the final one: the game's number, the ply (0: the start), the
 * Polyglot key, the four EPD fields, the move played from it (none
 * from the final one), then the game's result and Elos, made once in
 * tail.
 */
static void
positions(struct cli_job *j, cd_buf *tail)
{
	const cd_game *g = j->game;
	const cd_game_node *nodes = g->nodes;
	cd_buf *out = j->out;
	cd_board b = g->start;
	char sep = opt_style == CD_FIELD_TSV ? '\t' : ',';
	char num[48], key[16], epd[CD_FEN_MAX];
	const char *res;
	uint32_t n = 0, next;
	size_t k, g_len;

	tail->len = 0;
	cli_buf_reserve(tail, 1);
	tail->data[tail->len++] = sep;
	res = cd_pgn_result_str(cd_game_result(g));
	cell(tail, &fields[5], res, strlen(res));
	cli_buf_reserve(tail, 1);
	tail->data[tail->len++] = sep;
	elo_cell(tail, g, &fields[6], "WhiteElo");
	cli_buf_reserve(tail, 1);
	tail->data[tail->len++] = sep;
	elo_cell(tail, g, &fields[7], "BlackElo");
	/* the game's number and a separator, then the ply's digits */
	g_len = (size_t)snprintf(num, sizeof(num), "%" PRIu64 "%c", j->index,
	    sep);
	for (;;) {
		uint32_t v = nodes[n].ply;
		char digits[10];
		size_t nd = sizeof(digits);

		next = nodes[n].next;
		do {
			digits[--nd] = (char)('0' + v % 10);
			v /= 10;
		} while (v > 0);
		memcpy(num + g_len, digits + nd, sizeof(digits) - nd);
		k = g_len + sizeof(digits) - nd;
		cli_put_key(key, cd_polyglot_key(&b));
		if (opt_style == CD_FIELD_SQL) {
			sql_row_start(out, j->index);
			cli_buf_reserve(out, k + 1);
			memcpy(out->data + out->len, num, k);
			out->len += k;
			out->data[out->len++] = sep;
			cell(out, &fields[2], key, 16);
			cli_buf_reserve(out, 1);
			out->data[out->len++] = sep;
			cell(out, &fields[3], epd, cd_fen_write_epd(&b, epd));
			cli_buf_reserve(out, 1);
			out->data[out->len++] = sep;
			cell(out, &fields[4], next != 0 ? nodes[next].san : "",
			    next != 0 ? nodes[next].san_len : 0);
			cli_buf_reserve(out, tail->len + 1);
			memcpy(out->data + out->len, tail->data, tail->len);
			out->len += tail->len;
			out->data[out->len++] = ')';
		} else {
			/* no key, EPD or SAN needs a quote, in TSV or CSV */
			char *d;

			cli_buf_reserve(out, k + 20 + CD_FEN_MAX + 10 +
			    tail->len + 2);
			d = out->data + out->len;
			memcpy(d, num, k);
			d += k;
			*d++ = sep;
			memcpy(d, key, 16);
			d += 16;
			*d++ = sep;
			d += cd_fen_write_epd(&b, d);
			*d++ = sep;
			if (next != 0) {
				memcpy(d, nodes[next].san, nodes[next].san_len);
				d += nodes[next].san_len;
			}
			memcpy(d, tail->data, tail->len);
			d += tail->len;
			if (opt_style == CD_FIELD_CSV)
				*d++ = '\r';
			*d++ = '\n';
			out->len = (size_t)(d - out->data);
		}
		if (next == 0)
			break;
		cd_board_make(&b, nodes[next].move);
		n = next;
	}
}

/* Write one row. */
static const char *
row(struct cli_job *j, const cd_pgn_raw_game *raw)
{
	struct rowbuf *rb = j->priv;
	cd_buf *tmp, *out = j->out;
	cd_opening op;
	int classified = -1;	/* not yet */
	size_t i;

	if (rb == NULL) {
		if ((rb = j->priv = calloc(1, sizeof(*rb))) == NULL ||
		    (rb->found = calloc(nfields, sizeof(*rb->found))) == NULL)
			cli_fatal("out of memory");
	}
	tmp = &rb->tmp;
	if (opt_positions) {
		positions(j, tmp);
		return NULL;
	}
	if (cli_games.noparse) {
		/* each tag once (the last of a name counts, as in
		 * cd_pgn_raw_tag) */
		memset(rb->found, 0, nfields * sizeof(*rb->found));
		for (i = 0; i < raw->ntags; i++) {
			long k = column_find(raw->tags[i].name,
			    raw->tags[i].name_len);

			if (k >= 0) {
				rb->found[k] = &raw->tags[i];
				tag_seen(&fields[k]);
			}
		}
	}
	if (opt_style == CD_FIELD_SQL)
		sql_row_start(out, j->index);
	for (i = 0; i < nfields; i++) {
		const struct column *c = &fields[i];

		if (i > 0) {
			cli_buf_reserve(out, 1);
			out->data[out->len++] = opt_style == CD_FIELD_TSV ?
			    '\t' : ',';
		}
		if (c->kind == COL_FILE) {
			cell(out, c, j->file, strlen(j->file));
			continue;
		}
		if (c->kind < COL_FILE) {
			if (cli_games.noparse)
				raw_tag(out, raw, c, rb->found[c->first], tmp);
			else
				game_tag(out, j->game, c);
			continue;
		}
		/* computed: plain text, then escaped */
		tmp->len = 0;
		if (c->kind == COL_OPENING && classified < 0)
			classified = cd_openings_classify(openings, j->game,
			    &op);
		if ((c->kind == COL_OPENING ? cd_opening_write_field(
		    classified ? &op : NULL, c->name, tmp) :
		    cd_game_write_field(j->game, c->name, j->index, tmp)) !=
		    CD_OK)
			cli_fatal("out of memory");
		cell(out, c, tmp->data, tmp->len);
	}
	if (opt_style == CD_FIELD_SQL) {
		cli_buf_reserve(out, 1);
		out->data[out->len++] = ')';
		return NULL;
	}
	cli_buf_reserve(out, 2);
	if (opt_style == CD_FIELD_CSV)
		out->data[out->len++] = '\r';
	out->data[out->len++] = '\n';
	return NULL;
}

/* Rows are small: into a pipe or a terminal, each batch goes out as it
 * is converted (line buffered: one write per batch), not when 128 KiB
 * are held, so `pgn2tsv big.pgn | head -3` ends at once. */
static void
out_along(void)
{
	FILE *f = cli_output_file();
	struct stat st;

	if (fstat(fileno(f), &st) == 0 && !S_ISREG(st.st_mode))
		setvbuf(f, NULL, _IOLBF, 1 << 17);
}

int
main(int argc, char **argv)
{
	enum { OPT_CSV = 256, OPT_OPENINGS, OPT_SQL, OPT_SQL_DIALECT,
	    OPT_POSITIONS };
	static const struct option longopts[] = {
		{ "csv", no_argument, NULL, OPT_CSV },
		{ "sql", optional_argument, NULL, OPT_SQL },
		{ "sql-dialect", required_argument, NULL, OPT_SQL_DIALECT },
		{ "fields", required_argument, NULL, 'f' },
		{ "no-header", no_argument, NULL, 'H' },
		{ "openings", required_argument, NULL, OPT_OPENINGS },
		{ "positions", no_argument, NULL, OPT_POSITIONS },
		{ NULL, 0, NULL, 0 }
	};
	const char *list = NULL;
	bool dialect = false;	/* --sql-dialect given */
	cd_buf head = { 0 };
	int c, status = 0;
	size_t i;

	cli_init(argv[0]);
	while ((c = cli_getopt(argc, argv, "f:H", longopts, CLI_TAKE_GAMES,
	    usage)) != -1) {
		switch (c) {
		case OPT_CSV:
			if (opt_sql != NULL)
				cli_usage_error("--csv and --sql exclude each "
				    "other");
			opt_style = CD_FIELD_CSV;
			break;
		case OPT_SQL:
			if (opt_style == CD_FIELD_CSV)
				cli_usage_error("--csv and --sql exclude each "
				    "other");
			opt_style = CD_FIELD_SQL;
			opt_sql = optarg != NULL ? optarg : sql_default;
			break;
		case OPT_SQL_DIALECT:
			if (strcmp(optarg, "duckdb") == 0)
				opt_duckdb = true;
			else if (strcmp(optarg, "standard") == 0)
				opt_duckdb = false;
			else
				cli_usage_error("--sql-dialect: '%s' is neither "
				    "standard nor duckdb", optarg);
			dialect = true;
			break;
		case 'f': list = optarg; break;
		case OPT_POSITIONS: opt_positions = true; break;
		case 'H': opt_no_header = 1; break;
		case OPT_OPENINGS: cli_openings_add(optarg); break;
		}
	}
	openings = cli_openings_load(argc, argv, optind);
	if (opt_positions && list != NULL)
		cli_usage_error("--positions has its own columns: no --fields");
	parse_fields(list != NULL ? list : opt_positions ? POSITION_FIELDS :
	    DEFAULT_FIELDS);
	index_fields();
	if (dialect && opt_sql == NULL)
		cli_usage_error("--sql-dialect needs --sql");
	if (opt_sql == sql_default)
		opt_sql = opt_positions ? "positions" : "games";
	if (opt_sql != NULL) {
		for (i = 0; opt_sql[i] != '\0'; i++)
			if (!((opt_sql[i] >= 'a' && opt_sql[i] <= 'z') ||
			    (opt_sql[i] >= 'A' && opt_sql[i] <= 'Z') ||
			    opt_sql[i] == '_' || (i > 0 && opt_sql[i] >= '0' &&
			    opt_sql[i] <= '9')))
				break;
		if (i == 0 || opt_sql[i] != '\0')
			cli_usage_error("--sql: '%s' is no table name "
			    "(letters, digits and _)", opt_sql);
		sql_names();
		if (opt_positions) {
			/* game, ply, white_elo, black_elo */
			fields[0].integer = fields[1].integer = true;
			fields[6].integer = fields[7].integer = true;
		}
		cli_buf_reserve(&sql_head, 16);
		memcpy(sql_head.data, "INSERT INTO ", 12);
		sql_head.len = 12;
		sql_ident(&sql_head, opt_sql);
		cli_buf_reserve(&sql_head, 9);
		memcpy(sql_head.data + sql_head.len, " VALUES\n", 8);
		sql_head.len += 8;
		cli_games.emit = sql_emit;
		if (opt_duckdb) {
			if (!opt_positions)
				sql_rows = SQL_ROWS_DUCKDB;
			cli_games.emit = duck_emit;
			if ((duck_cols = calloc(nfields,
			    sizeof(*duck_cols))) == NULL)
				cli_fatal("out of memory");
		}
	}
	/* tags alone: the movetext is not parsed */
	cli_games.noparse = true;
	for (i = 0; i < nfields; i++) {
		if (fields[i].kind >= COL_COMPUTED || opt_positions)
			cli_games.noparse = false;
		/* (classifying makes fewer moves again) */
		if (fields[i].kind == COL_OPENING)
			cli_games.opts.flags |= CD_PGN_PARSE_MAIN_KEYS;
	}
	for (i = 0; i < nfields; i++)
		if (fields[i].kind == COL_TAG && !tag_name(fields[i].name))
			fields[i].seen = 1;	/* warned already */
	cli_games.opts.lang = cli_opts.lang;
	cli_games.each = row;
	cli_games.priv_free = free_priv;
	cli_files_open(argc, argv, optind);
	out_along();
	if (opt_sql != NULL) {
		if (!opt_no_header)
			sql_create(&head);
		cli_buf_reserve(&head, 8);
		memcpy(head.data + head.len, "BEGIN;\n", 7);
		head.len += 7;
		cli_output_write(head.data, head.len);
		free(head.data);
	} else if (!opt_no_header) {
		for (i = 0; i < nfields; i++) {
			if (i > 0) {
				cli_buf_reserve(&head, 1);
				head.data[head.len++] =
				    opt_style == CD_FIELD_CSV ? ',' : '\t';
			}
			field(&head, fields[i].name, strlen(fields[i].name));
		}
		if (fwrite(head.data, 1, head.len, cli_output_file()) !=
		    head.len || fputs(opt_style == CD_FIELD_CSV ? "\r\n" :
		    "\n", cli_output_file()) == EOF)
			cli_output_check();
		free(head.data);
	}
	if (cli_each_input(argc, argv, optind, cli_games_file) != 0)
		status = 2;
	cli_games_end();
	for (i = 0; i < nfields; i++)
		if (fields[i].kind == COL_TAG && fields[i].first == i &&
		    !fields[i].seen && cli_games.read > 0 && !opt_positions)
			cli_warn("warning: no game has a tag '%s': an empty "
			    "column", fields[i].name);
	if (opt_duckdb) {
		duck_flush();
		for (i = 0; i < nfields; i++)
			free(duck_cols[i].data);
		free(duck_cols);
		free(duck_rows.data);
	} else if (opt_sql != NULL && sql_open)
		cli_output_write(";\n", 2);
	if (opt_sql != NULL) {
		cli_output_write("COMMIT;\n", 8);
		free(sql_head.data);
	}
	free_fields();
	cli_rejects_close();
	cli_finish(status, cli_games.read, cli_games.written,
	    cli_games.rejected);
}
