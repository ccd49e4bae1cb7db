/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * fuzz_openings.c: the opening table reader (cd_openings_read), TSV and
 * PGN, on any bytes.
 * Properties:
 * - the status is CD_OK, or an error with a message and a line inside
 *   the input (no crash, no hang, no leak): a line without its ECO code
 *   or name is such an error, at its line;
 * - a table read without error names at most as many positions as the
 *   input has lines, and each again: the same text read a second time
 *   into the same table adds nothing (a line ending where an earlier
 *   one ends is not added), into a new one gives the same count;
 * - a text whose reading fails adds at most the lines before the one
 *   that fails.
 */
#include "config.h"

#include <string.h>

#include "chessdata.h"
#include "fuzz.h"

const char *const fuzz_seeds[] = {
	"tests/fuzz/regress/openings",
	NULL
};

/* Lines of data[0..size) (the last without its line end too). */
static size_t
lines(const uint8_t *data, size_t size)
{
	size_t i, n = size > 0 && data[size - 1] != '\n';

	for (i = 0; i < size; i++)
		n += data[i] == '\n';
	return n;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *text = (const char *)data;
	cd_openings *o, *o2;
	cd_error err;
	cd_status st;
	size_t n, nl = lines(data, size);

	if ((o = cd_openings_new()) == NULL ||
	    (o2 = cd_openings_new()) == NULL)
		abort();
	st = cd_openings_read(o, text, size, &err);
	n = cd_openings_count(o);
	FUZZ_CHECK(err.status == st, "status %d, error's %d", st,
	    err.status);
	if (st != CD_OK) {
		FUZZ_CHECK(err.msg[0] != '\0', "status %d without a message",
		    st);
		FUZZ_CHECK(st == CD_ERR_NOMEM || (err.line >= 1 &&
		    err.line <= nl + 1), "error at line %lu of %zu: %s",
		    err.line, nl, err.msg);
	}
	FUZZ_CHECK(n <= nl, "%zu positions from %zu lines", n, nl);
	if (st == CD_OK) {
		FUZZ_CHECK(cd_openings_read(o, text, size, &err) == CD_OK,
		    "read once, not twice: %s", err.msg);
		FUZZ_CHECK(cd_openings_count(o) == n,
		    "%zu positions read again: %zu", n, cd_openings_count(o));
		FUZZ_CHECK(cd_openings_read(o2, text, size, &err) == CD_OK &&
		    cd_openings_count(o2) == n, "read anew: %zu positions, "
		    "%zu before", cd_openings_count(o2), n);
	}
	cd_openings_free(o);
	cd_openings_free(o2);
	return 0;
}
