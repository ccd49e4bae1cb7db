/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * fuzz_pgn_lex.c: the PGN game reader, the token lexer and the
 * collating order, on any bytes.
 *
 * Properties:
 * - no byte is lost: games are slices of the input in order, never
 *   overlapping; every byte outside them that is not white space (or the
 *   byte order mark) is counted as skipped;
 * - a game's fields are inside its text: movetext offsets, tags, lines
 *   and columns (recounted from the bytes); its flags match its bytes;
 * - the lexer cuts a game into tokens that follow each other without
 *   overlap, each inside the text, each with the line and column of its
 *   first byte, and always moves forward;
 * - the collating order is antisymmetric, a game equals itself, and the
 *   encoded keys order games as cd_collate does.
 */
#include "config.h"

#include <string.h>

#include "chessdata.h"
#include "fuzz.h"

const char *const fuzz_seeds[] = {
	"tests/fuzz/regress/pgn_lex",
	"tests/files",
	"corpus:quirks",
	NULL
};

static int
sign(int v)
{
	return (v > 0) - (v < 0);
}

/* Line and column of text[at], counting from line, col at text[0]. */
static void
line_col(const char *text, size_t at, unsigned long *line,
    unsigned long *col)
{
	size_t i;

	for (i = 0; i < at; i++) {
		if (text[i] == '\n') {
			(*line)++;
			*col = 1;
		} else
			(*col)++;
	}
}

/* Cut text into tokens and check them. */
static void
lex_all(const char *text, size_t len, unsigned long line,
    unsigned long col)
{
	cd_pgn_lexer lx;
	cd_pgn_token t;
	const char *end = text + len, *pos = text;
	unsigned long l = line, c = col;
	char *val;
	size_t n = 0;

	cd_pgn_lex_init(&lx, text, len, line, col);
	while (cd_pgn_lex_next(&lx, &t) != CD_PGN_TOK_END) {
		FUZZ_CHECK(n++ <= len, "more tokens than bytes");
		FUZZ_CHECK(t.raw >= pos && t.raw_len > 0 &&
		    t.raw + t.raw_len <= end, "%s token at offset %td, "
		    "length %zu, after offset %td", cd_pgn_tok_name(t.type),
		    t.raw - text, t.raw_len, pos - text);
		FUZZ_CHECK(t.text != NULL && t.text >= text &&
		    t.text + t.len <= end, "%s token text",
		    cd_pgn_tok_name(t.type));
		line_col(pos, (size_t)(t.raw - pos), &l, &c);
		FUZZ_CHECK(t.line == l && t.col == c, "%s token at %lu:%lu, "
		    "its first byte is at %lu:%lu", cd_pgn_tok_name(t.type),
		    t.line, t.col, l, c);
		line_col(t.raw, t.raw_len, &l, &c);
		pos = t.raw + t.raw_len;
		if (t.type == CD_PGN_TOK_TAG) {
			FUZZ_CHECK(t.value != NULL && t.value >= text &&
			    t.value + t.value_len <= end, "tag value");
			if ((val = malloc(t.value_len + 1)) == NULL)
				abort();
			FUZZ_CHECK(cd_pgn_tag_value(&t, val) <= t.value_len,
			    "unescaped value longer than the raw one");
			free(val);
		}
		if (t.type == CD_PGN_TOK_RESULT)
			FUZZ_CHECK(t.num > CD_PGN_RESULT_NONE &&
			    t.num <= CD_PGN_RESULT_UNKNOWN, "result %ld",
			    t.num);
	}
	/* What follows the last token is white space. */
	for (; pos < end; pos++)
		FUZZ_CHECK(*pos == ' ' || *pos == '\t' || *pos == '\n' ||
		    *pos == '\r' || *pos == '\f' || *pos == '\v',
		    "byte %02x at offset %td after the last token",
		    (unsigned char)*pos, pos - text);
}

/* A copy of what cd_collate needs of a game (the tags die with the
 * next game). */
struct key {
	char *tag[CD_COLLATE_NTAGS];
	cd_collate_game cg;
	unsigned char *key;
	size_t klen;
};

static void
key_free(struct key *k)
{
	int i;

	for (i = 0; i < CD_COLLATE_NTAGS; i++)
		free(k->tag[i]);
	free(k->key);
	memset(k, 0, sizeof(*k));
}

static void
key_make(struct key *k, const cd_pgn_raw_game *g)
{
	size_t need;
	int i;

	cd_collate_from_raw(g, &k->cg);
	for (i = 0; i < CD_COLLATE_NTAGS; i++) {
		if (k->cg.tag[i] == NULL)
			continue;
		if ((k->tag[i] = malloc(k->cg.tag_len[i] + 1)) == NULL)
			abort();
		memcpy(k->tag[i], k->cg.tag[i], k->cg.tag_len[i]);
		k->tag[i][k->cg.tag_len[i]] = '\0';
		k->cg.tag[i] = k->tag[i];
	}
	need = cd_collate_key(&k->cg, NULL, 0);
	if ((k->key = malloc(need ? need : 1)) == NULL)
		abort();
	k->klen = cd_collate_key(&k->cg, k->key, need);
	FUZZ_CHECK(k->klen == need, "key length %zu, then %zu", need,
	    k->klen);
}

static void
check_order(const struct key *a, const struct key *b)
{
	int ab = sign(cd_collate(&a->cg, &b->cg));
	int ba = sign(cd_collate(&b->cg, &a->cg));
	int kc = sign(cd_collate_key_cmp(a->key, a->klen, b->key, b->klen));

	FUZZ_CHECK(cd_collate(&a->cg, &a->cg) == 0, "a game differs from "
	    "itself");
	FUZZ_CHECK(ab == -ba, "not antisymmetric: %d %d", ab, ba);
	if (kc == 0)
		kc = sign(cd_collate_movetext_cmp(a->cg.movetext,
		    a->cg.movetext_len, b->cg.movetext, b->cg.movetext_len));
	FUZZ_CHECK(kc == ab, "keys order %d, cd_collate %d", kc, ab);
}

static void
check_game(const uint8_t *data, size_t size, const cd_pgn_raw_game *g)
{
	const char *t = g->text;
	unsigned long l, c;
	size_t i;

	FUZZ_CHECK((const uint8_t *)t == data + g->offset &&
	    g->offset + g->len <= size && g->len > 0,
	    "game %llu: offset %llu, length %zu",
	    (unsigned long long)g->number, (unsigned long long)g->offset,
	    g->len);
	FUZZ_CHECK(g->movetext <= g->movetext_end && g->movetext_end <= g->len,
	    "game %llu: movetext %zu..%zu of %zu",
	    (unsigned long long)g->number, g->movetext, g->movetext_end,
	    g->len);
	FUZZ_CHECK(((g->flags & CD_PGN_RAW_NUL) != 0) ==
	    fuzz_binary(t, g->len), "game %llu: NUL (binary) flag",
	    (unsigned long long)g->number);
	FUZZ_CHECK(((g->flags & CD_PGN_RAW_NO_RESULT) != 0) ==
	    (g->result == CD_PGN_RESULT_NONE), "game %llu: result %d, "
	    "flags %u", (unsigned long long)g->number, g->result, g->flags);
	l = g->line;
	c = g->col;
	line_col(t, g->movetext, &l, &c);
	FUZZ_CHECK(l == g->movetext_line && c == g->movetext_col,
	    "game %llu: movetext at %lu:%lu, counted %lu:%lu",
	    (unsigned long long)g->number, g->movetext_line,
	    g->movetext_col, l, c);
	for (i = 0; i < g->ntags; i++) {
		const cd_pgn_tag *tag = &g->tags[i];

		FUZZ_CHECK(tag->name != NULL && tag->value != NULL &&
		    tag->name[tag->name_len] == '\0' &&
		    tag->value[tag->value_len] == '\0' && tag->name_len > 0,
		    "game %llu: tag %zu", (unsigned long long)g->number, i);
		FUZZ_CHECK(tag->line >= g->line &&
		    tag->line <= g->movetext_line, "game %llu: tag %zu at "
		    "line %lu", (unsigned long long)g->number, i, tag->line);
		/* Looked up by a C string, so only names without NUL. */
		if (memchr(tag->name, '\0', tag->name_len) == NULL)
			FUZZ_CHECK(cd_pgn_raw_tag(g, tag->name) != NULL,
			    "tag lookup");
		(void)cd_pgn_result_parse(tag->value, tag->value_len);
	}
	lex_all(t, g->len, g->line, g->col);
	lex_all(t + g->movetext, g->len - g->movetext, g->movetext_line,
	    g->movetext_col);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct key prev, cur;
	cd_pgn_raw_game g;
	cd_pgn_reader *r;
	uint64_t end = 0, skipped = 0, loose = 0, number = 0, i;
	bool have_prev = false;
	cd_status st;

	memset(&prev, 0, sizeof(prev));
	if ((r = cd_pgn_reader_new_mem(data, size)) == NULL)
		abort();
	if (size >= 3 && memcmp(data, "\xef\xbb\xbf", 3) == 0)
		end = 3;
	while ((st = cd_pgn_reader_next(r, &g)) == CD_OK) {
		FUZZ_CHECK(g.number == ++number, "game number %llu",
		    (unsigned long long)g.number);
		FUZZ_CHECK(g.offset >= end, "game %llu at %llu overlaps the "
		    "one before (ending at %llu)", (unsigned long long)number,
		    (unsigned long long)g.offset, (unsigned long long)end);
		for (i = end; i < g.offset; i++)
			if (data[i] != ' ' && data[i] != '\t' &&
			    data[i] != '\n' && data[i] != '\r' &&
			    data[i] != '\f' && data[i] != '\v')
				loose++;
		skipped += g.skipped_bytes;
		FUZZ_CHECK(g.skipped_bytes == 0 || g.skipped_line > 0,
		    "skipped bytes without a line");
		FUZZ_CHECK(cd_pgn_reader_tell(r) >= g.offset + g.len,
		    "tell %llu", (unsigned long long)cd_pgn_reader_tell(r));
		check_game(data, size, &g);
		end = g.offset + g.len;
		memset(&cur, 0, sizeof(cur));
		key_make(&cur, &g);
		if (have_prev)
			check_order(&prev, &cur);
		key_free(&prev);
		prev = cur;
		have_prev = true;
	}
	FUZZ_CHECK(st == CD_EOF, "reader status %d", st);
	skipped += g.skipped_bytes;
	for (i = end; i < size; i++)
		if (data[i] != ' ' && data[i] != '\t' && data[i] != '\n' &&
		    data[i] != '\r' && data[i] != '\f' && data[i] != '\v')
			loose++;
	FUZZ_CHECK(loose <= skipped, "%llu bytes outside games that are "
	    "not white space, %llu counted as skipped",
	    (unsigned long long)loose, (unsigned long long)skipped);
	FUZZ_CHECK(cd_pgn_reader_next(r, &g) == CD_EOF, "after the end");
	key_free(&prev);
	cd_pgn_reader_free(r);
	return 0;
}
