/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * fuzz_json.c: comment commands and the JSON, TSV and CSV writers.
 *
 * The input is read as a comment, and as a game.  Properties:
 * - the commands found lie inside the text, in order, each starting
 *   with "[%" and ending with "]";
 * - stripping is idempotent, never longer than the text, folded (no
 *   space at either end, no two in a row), gives the same in place,
 *   and leaves none of the commands it stripped;
 * - a JSON string of any bytes is valid UTF-8, quoted, with no control
 *   byte; a TSV field has no tab, CR or LF; both are valid UTF-8;
 * - a game that parses is written as one line of valid UTF-8 with no
 *   control byte, starting {"game": and ending }, with every option;
 *   its computed fields all write; after cd_game_strip_commands with
 *   every command no comment holds a command.
 */
#include "config.h"

#include <string.h>

#include "chessdata.h"
#include "fuzz.h"

const char *const fuzz_seeds[] = {
	"tests/fuzz/regress/json",
	"tests/files",
	NULL
};

/* Whether s[0..n) is valid UTF-8 (RFC 3629). */
static int
valid_utf8(const unsigned char *s, size_t n)
{
	size_t i = 0;

	while (i < n) {
		unsigned c = s[i];
		size_t k, j;
		unsigned cp;

		if (c < 0x80) {
			i++;
			continue;
		}
		if (c >= 0xc2 && c <= 0xdf)
			k = 1, cp = c & 0x1f;
		else if (c >= 0xe0 && c <= 0xef)
			k = 2, cp = c & 0x0f;
		else if (c >= 0xf0 && c <= 0xf4)
			k = 3, cp = c & 0x07;
		else
			return 0;
		for (j = 1; j <= k; j++) {
			if (i + j >= n || (s[i + j] & 0xc0) != 0x80)
				return 0;
			cp = cp << 6 | (s[i + j] & 0x3f);
		}
		if ((k == 2 && cp < 0x800) || (k == 3 && cp < 0x10000) ||
		    (cp >= 0xd800 && cp <= 0xdfff) || cp > 0x10ffff)
			return 0;
		i += k + 1;
	}
	return 1;
}

static int
has_control(const char *s, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if ((unsigned char)s[i] < 0x20)
			return 1;
	return 0;
}

static void
comment_checks(const char *t, size_t n)
{
	cd_comment_cmd c;
	cd_comment_data d;
	size_t pos = 0, last = 0, k, k2;
	char *a = malloc(n + 1), *b = malloc(n + 1);

	FUZZ_CHECK(a != NULL && b != NULL, "out of memory");
	while (cd_comment_cmd_next(t, n, &pos, &c)) {
		FUZZ_CHECK(c.start >= last && c.end <= n && c.start + 3 <= c.end,
		    "command at %zu..%zu", c.start, c.end);
		FUZZ_CHECK(t[c.start] == '[' && t[c.start + 1] == '%' &&
		    t[c.end - 1] == ']', "command bytes");
		FUZZ_CHECK(c.args >= t + c.start && c.args + c.args_len <= t +
		    c.end, "arguments outside the command");
		last = c.end;
	}
	(void)cd_comment_read(t, n, &d);
	k = cd_comment_strip(t, n, NULL, a);
	FUZZ_CHECK(k <= n && a[k] == '\0', "strip length %zu of %zu", k, n);
	FUZZ_CHECK(k == 0 || (a[0] != ' ' && a[k - 1] != ' '), "not trimmed");
	FUZZ_CHECK(strstr(a, "  ") == NULL || memchr(a, '\0', k) != NULL,
	    "two spaces");
	pos = 0;
	FUZZ_CHECK(!cd_comment_cmd_next(a, k, &pos, &c), "a command left: %s",
	    a);
	k2 = cd_comment_strip(a, k, NULL, b);
	FUZZ_CHECK(k2 == k && memcmp(a, b, k) == 0, "strip not idempotent");
	k = cd_comment_remove(t, n, NULL, a);
	FUZZ_CHECK(k <= n && a[k] == '\0', "remove length %zu of %zu", k, n);
	pos = 0;
	FUZZ_CHECK(!cd_comment_cmd_next(a, k, &pos, &c), "a command left: %s",
	    a);
	memcpy(b, t, n);
	k2 = cd_comment_remove(b, n, "clk,eval", b);
	k = cd_comment_remove(t, n, "clk,eval", a);
	FUZZ_CHECK(k2 == k && memcmp(a, b, k) == 0, "in place differs");
	memcpy(b, t, n);
	k2 = cd_comment_strip(b, n, "clk,eval", b);
	k = cd_comment_strip(t, n, "clk,eval", a);
	FUZZ_CHECK(k2 == k && memcmp(a, b, k) == 0, "in place differs");
	free(a);
	free(b);
}

static void
writer_checks(const char *t, size_t n)
{
	cd_buf b = { 0 };

	FUZZ_CHECK(cd_json_append_string(&b, t, n) == CD_OK, "nomem");
	FUZZ_CHECK(b.len >= 2 && b.data[0] == '"' && b.data[b.len - 1] ==
	    '"', "not quoted");
	FUZZ_CHECK(valid_utf8((unsigned char *)b.data, b.len),
	    "JSON string not UTF-8");
	FUZZ_CHECK(!has_control(b.data, b.len), "control byte in JSON");
	b.len = 0;
	FUZZ_CHECK(cd_field_append(&b, t, n, CD_FIELD_TSV) == CD_OK, "nomem");
	FUZZ_CHECK(valid_utf8((unsigned char *)b.data, b.len),
	    "TSV field not UTF-8");
	/* a tab or line end only inside the quotes of RFC 4180 */
	FUZZ_CHECK(b.len == 0 || (!memchr(b.data, '\t', b.len) &&
	    !memchr(b.data, '\n', b.len) && !memchr(b.data, '\r', b.len)) ||
	    (b.len >= 2 && b.data[0] == '"' && b.data[b.len - 1] == '"'),
	    "tab or line end in a TSV field outside quotes");
	b.len = 0;
	FUZZ_CHECK(cd_field_append(&b, t, n, CD_FIELD_CSV) == CD_OK, "nomem");
	FUZZ_CHECK(valid_utf8((unsigned char *)b.data, b.len),
	    "CSV field not UTF-8");
	cd_buf_free(&b);
}

static void
game_checks(const char *t, size_t n)
{
	static const char *const fields[] = { "@game", "@start", "@moves",
	    "@uci", "@plies", "@result", "@final", "@termination" };
	cd_game *g = cd_game_new();
	cd_buf b = { 0 };
	size_t i;
	uint32_t k;

	FUZZ_CHECK(g != NULL, "nomem");
	if (cd_pgn_parse_text(g, t, n, NULL, NULL) != CD_OK) {
		cd_game_free(g);
		return;
	}
	FUZZ_CHECK(cd_game_write_json(g, 1, CD_JSON_COMMENTS | CD_JSON_FENS |
	    CD_JSON_VARIATIONS, &b) == CD_OK, "write_json");
	FUZZ_CHECK(b.len > 12 && memcmp(b.data, "{\"game\":1,", 10) == 0 &&
	    b.data[b.len - 2] == '}' && b.data[b.len - 1] == '\n', "shape");
	FUZZ_CHECK(valid_utf8((unsigned char *)b.data, b.len), "not UTF-8");
	FUZZ_CHECK(!has_control(b.data, b.len - 1), "control byte");
	for (i = 0; i < sizeof(fields) / sizeof(fields[0]); i++) {
		b.len = 0;
		FUZZ_CHECK(cd_game_write_field(g, fields[i], 1, &b) == CD_OK,
		    "%s", fields[i]);
	}
	cd_game_strip_commands(g, NULL);
	for (k = 1; k < g->nnotes; k++) {
		cd_comment_cmd c;
		size_t pos = 0;
		const cd_game_note *nt = &g->notes[k];

		if (nt->kind == CD_NOTE_COMMENT && nt->len > 0)
			FUZZ_CHECK(!cd_comment_cmd_next(cd_game_str(g,
			    nt->text), nt->len, &pos, &c), "command left");
	}
	b.len = 0;
	FUZZ_CHECK(cd_pgn_write_buf(g, 0, &b) == CD_OK, "write after strip");
	cd_buf_free(&b);
	cd_game_free(g);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *t = (const char *)data;

	if (size > 1 << 16)
		return 0;
	comment_checks(t, size);
	writer_checks(t, size);
	game_checks(t, size);
	return 0;
}
