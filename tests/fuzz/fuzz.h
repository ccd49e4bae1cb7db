/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * fuzz.h: what the fuzz harnesses share.
 *
 * Each harness (fuzz_NAME.c) defines LLVMFuzzerTestOneInput and the list
 * of its seed directories.  It is linked twice: with libFuzzer
 * (tests/fuzz/fuzz_NAME, configure --enable-fuzz under clang) to search,
 * and with replay.c (tests/fuzz/replay_NAME, every build) to run the
 * kept inputs and the seeds as a test in make check.
 *
 * A harness checks more than "no crash": FUZZ_CHECK states a property
 * the library promises (a round trip, an invariant of a reader) and
 * aborts with a message when it does not hold, so libFuzzer keeps the
 * input like any crash.
 */
#ifndef CD_FUZZ_H
#define CD_FUZZ_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/*
 * Seed directories of the harness, NULL-terminated: a path relative to
 * the source tree, or "corpus:" and a path relative to the shared
 * corpus (skipped when the corpus is absent).  The first entry is the
 * harness's own regression directory, tests/fuzz/regress/NAME.
 */
extern const char *const fuzz_seeds[];

#define FUZZ_CHECK(cond, ...) do {					\
	if (!(cond)) {							\
		fprintf(stderr, "%s:%d: property failed: %s: ",		\
		    __FILE__, __LINE__, #cond);				\
		fprintf(stderr, __VA_ARGS__);				\
		fputc('\n', stderr);					\
		abort();						\
	}								\
} while (0)

/* Inputs are cut into lines for the line-oriented harnesses; this many
 * at most, so one input stays fast. */
#define FUZZ_MAX_LINES 64

/*
 * Call fn on each line of data (without its LF; a CR stays), at most
 * FUZZ_MAX_LINES of them.  Each line is copied to a buffer of exactly
 * its size, so AddressSanitizer catches a read past its end.
 */
static inline void
fuzz_each_line(const uint8_t *data, size_t size,
    void (*fn)(const char *line, size_t len))
{
	size_t i, start = 0, n = 0;
	char *copy;

	for (i = 0; i <= size && n < FUZZ_MAX_LINES; i++)
		if (i == size || data[i] == '\n') {
			if (i > start || i < size) {
				copy = malloc(i > start ? i - start : 1);
				if (copy == NULL)
					abort();
				memcpy(copy, data + start, i - start);
				fn(copy, i - start);
				free(copy);
				n++;
			}
			start = i + 1;
		}
}

/* Whether p[0..n) holds a byte that PGN text does not hold, byte by
 * byte (the reference of the reader's vector search): NUL, DEL, a
 * control byte but tab, LF, VT, FF, CR, SUB and ESC. */
static inline bool
fuzz_binary(const char *p, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		unsigned char c = (unsigned char)p[i];

		if (c == 0x7f || (c < 0x20 && !(c >= 0x09 && c <= 0x0d) &&
		    c != 0x1a && c != 0x1b))
			return true;
	}
	return false;
}

#endif