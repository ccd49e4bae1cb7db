/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * fuzz_epd.c: EPD records and the EPD line reader.
 *
 * Each line of the input is parsed as an EPD record (with and without
 * CD_EPD_NO_FEN); then the whole input goes through cd_epd_reader.
 * Properties:
 * - the status is CD_OK exactly when no finding is an error; findings
 *   are in column order, with columns inside the line, a message, and
 *   error == (code < CD_EPD_N_UNKNOWN);
 * - a valid record has a valid position and operations with valid
 *   opcodes, each opcode once; its canonical text is one line that
 *   parses again without error to a record with the same operations,
 *   whose canonical text is the same (the canonical form is a fixed
 *   point);
 * - the reader gives back every byte: the raw lines put end to end are
 *   the input, line numbers count up by one, and the offset is the sum
 *   of the raw lengths.
 */
#include "config.h"

#include <string.h>

#include "chessdata.h"
#include "fuzz.h"

const char *const fuzz_seeds[] = {
	"tests/fuzz/regress/epd",
	"tests/files",
	"corpus:epd",
	"corpus:perft",
	NULL
};

static cd_epd *rec, *rec2;

static void
check_findings(const cd_epd *e, cd_status st, size_t len)
{
	size_t i, n = cd_epd_finding_count(e), col = 0;
	bool errors = false;

	for (i = 0; i < n; i++) {
		const cd_epd_finding *f = cd_epd_finding_get(e, i);

		FUZZ_CHECK(f != NULL, "finding %zu of %zu", i, n);
		FUZZ_CHECK(f->message != NULL && *f->message != '\0' &&
		    f->opcode != NULL, "finding %zu", i);
		FUZZ_CHECK(f->error == (f->code < CD_EPD_N_UNKNOWN),
		    "finding %zu: code %d error %d", i, f->code, f->error);
		FUZZ_CHECK(f->col >= 1 && f->col <= len + 1,
		    "finding %zu (%s) at column %zu of a %zu-byte line", i,
		    f->message, f->col, len);
		FUZZ_CHECK(f->col >= col, "findings out of column order: %zu "
		    "after %zu (%s)", f->col, col, f->message);
		col = f->col;
		errors |= f->error;
	}
	FUZZ_CHECK(errors == cd_epd_invalid(e), "invalid %d, errors %d",
	    cd_epd_invalid(e), errors);
	FUZZ_CHECK((st == CD_OK) == !errors || st == CD_ERR_NOMEM,
	    "status %d with %s", st, errors ? "errors" : "no error");
}

/* The operations of a valid record. */
static void
check_ops(const cd_epd *e)
{
	size_t i, j, k, n = cd_epd_op_count(e);

	for (i = 0; i < n; i++) {
		const cd_epd_op *o = cd_epd_op_get(e, i);

		FUZZ_CHECK(o != NULL, "op %zu", i);
		FUZZ_CHECK(cd_epd_opcode_valid(o->opcode, strlen(o->opcode)),
		    "opcode %s", o->opcode);
		FUZZ_CHECK(cd_epd_op_find(e, o->opcode) == o, "opcode %s",
		    o->opcode);
		for (j = 0; j < i; j++)
			FUZZ_CHECK(strcmp(cd_epd_op_get(e, j)->opcode,
			    o->opcode) != 0, "opcode %s twice", o->opcode);
		for (k = 0; k < o->count; k++) {
			const cd_epd_operand *d = &o->operands[k];

			FUZZ_CHECK(d->text != NULL && d->text[d->len] == '\0',
			    "%s operand %zu", o->opcode, k);
			if (d->kind == CD_EPD_MOVE)
				FUZZ_CHECK(d->move != CD_MOVE_NONE,
				    "%s operand %zu", o->opcode, k);
		}
	}
}

static void
epd_line(const char *s, size_t n)
{
	static const unsigned flagsets[] = { 0, CD_EPD_NO_FEN };
	const char *text, *text2;
	size_t len, len2, i;
	char *copy;
	cd_status st;

	(void)cd_epd_line_kind(s, n);
	for (i = 0; i < 2; i++) {
		st = cd_epd_parse(rec, s, n, flagsets[i]);
		check_findings(rec, st, n);
		if (st != CD_OK) {
			FUZZ_CHECK(cd_epd_write(rec, &text, &len) == CD_ERR_ARG,
			    "an invalid record was written");
			continue;
		}
		FUZZ_CHECK(cd_epd_board(rec) != NULL &&
		    cd_board_validate(cd_epd_board(rec)) == CD_POS_OK,
		    "a valid record without a valid position");
		check_ops(rec);
		st = cd_epd_write(rec, &text, &len);
		FUZZ_CHECK(st == CD_OK, "writing a valid record: %d", st);
		FUZZ_CHECK(memchr(text, '\n', len) == NULL &&
		    memchr(text, '\r', len) == NULL &&
		    memchr(text, '\0', len) == NULL, "line end in %.*s",
		    (int)len, text);
		/* The text lives in rec: parse a copy into rec2. */
		if ((copy = malloc(len ? len : 1)) == NULL)
			abort();
		memcpy(copy, text, len);
		st = cd_epd_parse(rec2, copy, len, CD_EPD_NO_FEN);
		check_findings(rec2, st, len);
		FUZZ_CHECK(st == CD_OK, "canonical %.*s does not parse again",
		    (int)len, copy);
		FUZZ_CHECK(cd_epd_op_count(rec2) == cd_epd_op_count(rec),
		    "%.*s: %zu operations, %zu before", (int)len, copy,
		    cd_epd_op_count(rec2), cd_epd_op_count(rec));
		st = cd_epd_write(rec2, &text2, &len2);
		FUZZ_CHECK(st == CD_OK && len2 == len &&
		    memcmp(copy, text2, len) == 0,
		    "canonical form not a fixed point:\n%.*s\n%.*s", (int)len,
		    copy, (int)len2, text2);
		free(copy);
	}
}

/* The reader gives back the input byte for byte. */
static void
check_reader(const uint8_t *data, size_t size)
{
	const char *line, *raw;
	unsigned long lineno = 0;
	uint64_t off = 0;
	size_t len, rlen;
	cd_epd_reader *r;
	cd_status st;
	FILE *f;
	int n = 0;

	if (size == 0)
		return;
	if ((f = fmemopen((void *)data, size, "rb")) == NULL)
		abort();
	if ((r = cd_epd_reader_new(f)) == NULL)
		abort();
	if (cd_stream_detect(data, size) != CD_STREAM_PLAIN) {
		/* compressed bytes in a FILE without a descriptor: refused
		 * at once, never read as lines */
		st = cd_epd_reader_next(r, &line, &len);
		FUZZ_CHECK(st == CD_ERR_IO && cd_epd_reader_error(r)->status ==
		    CD_ERR_UNSUPPORTED, "compressed bytes read: status %d", st);
		cd_epd_reader_free(r);
		fclose(f);
		return;
	}
	while ((st = cd_epd_reader_next(r, &line, &len)) == CD_OK) {
		raw = cd_epd_reader_raw(r, &rlen);
		FUZZ_CHECK(rlen > 0 && off + rlen <= size &&
		    memcmp(raw, data + off, rlen) == 0,
		    "line %lu: raw bytes differ from the input", lineno + 1);
		FUZZ_CHECK(line >= raw && line + len <= raw + rlen,
		    "line %lu outside its raw bytes", lineno + 1);
		off += rlen;
		FUZZ_CHECK(cd_epd_reader_lineno(r) == ++lineno &&
		    cd_epd_reader_offset(r) == off, "line %lu", lineno);
		if (++n < FUZZ_MAX_LINES)
			(void)cd_epd_parse(rec, line, len, 0);
	}
	FUZZ_CHECK(st == CD_EOF, "reader status %d", st);
	FUZZ_CHECK(off == size, "the reader gave %llu of %zu bytes",
	    (unsigned long long)off, size);
	cd_epd_reader_free(r);
	fclose(f);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	/* New records per input (reused across its lines), so a crash
	 * never depends on an earlier input. */
	if ((rec = cd_epd_new()) == NULL || (rec2 = cd_epd_new()) == NULL)
		abort();
	fuzz_each_line(data, size, epd_line);
	check_reader(data, size);
	cd_epd_free(rec);
	cd_epd_free(rec2);
	rec = rec2 = NULL;
	return 0;
}
