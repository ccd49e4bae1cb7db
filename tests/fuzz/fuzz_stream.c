/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * fuzz_stream.c: the reading stream on any bytes (compressed or not),
 * unthreaded and threaded (zstd of many frames on 1 to 3 threads).
 *
 * Properties:
 * - plain input (no magic number, no other format cd_sniff_format
 *   knows) reads back exactly;
 * - a read gives CD_OK with bytes, or an end (CD_EOF or an error) that
 *   every later read gives again; an error has a message and an offset
 *   inside the input;
 * - the threaded stream gives the same end as the unthreaded one, and
 *   the same bytes, except that before damage one may give fewer (a
 *   decoder checks a zstd frame's checksum before giving any of it when
 *   the frame is decompressed in one piece, as in the thread's 1 MiB
 *   blocks, and after giving some of it in smaller pieces);
 * - the decoders stop at 16 MB of output here (a small input may expand
 *   a thousandfold), and never hang;
 * - a .zip announces its members (cd_stream_on_member) at lines that
 *   do not go down, each after the line ends given before it, and a
 *   .zip read to its end ends with a line end;
 * - with a memory limit of 64 MiB (half of it for the second stream),
 *   the unthreaded stream holds no more than the limit and its own
 *   buffers (cd_stream_memory), and a window over the limit is CD_ERR_RANGE
 *   with a message that says so.
 */
#include "config.h"

#include <string.h>

#include "chessdata.h"
#include "fuzz.h"

const char *const fuzz_seeds[] = {
	"tests/fuzz/regress/stream",
	"tests/files",
	NULL
};

#define MAX_OUT	((size_t)16 << 20)
#define LIMIT	((uint64_t)64 << 20)
/* the stream's own buffers: input, the thread's blocks, zlib's and
 * libbz2's tables */
#define OWN	((size_t)9 << 20)

/* Read s to its end (or MAX_OUT) into *out; the end status. */
static cd_status
drain(cd_stream *s, size_t size, uint64_t limit, unsigned char **out,
    size_t *len)
{
	unsigned char buf[4096];
	cd_status st = CD_OK, st2;
	size_t n, cap = 0;

	*out = NULL;
	*len = 0;
	while (*len < MAX_OUT) {
		/* odd sizes, to cut blocks anywhere */
		st = cd_stream_read(s, buf, 1 + (*len * 7 + 13) % sizeof(buf),
		    &n);
		if (st != CD_OK)
			break;
		FUZZ_CHECK(n > 0, "CD_OK with no bytes");
		if (*len + n > cap) {
			cap = 2 * (*len + n);
			if ((*out = realloc(*out, cap)) == NULL)
				abort();
		}
		memcpy(*out + *len, buf, n);
		*len += n;
		/* (limit 0: threaded, the decoder's thread holds it) */
		FUZZ_CHECK(limit == 0 || cd_stream_memory(s) <= limit + OWN,
		    "%zu bytes held, limit %llu", cd_stream_memory(s),
		    (unsigned long long)limit);
		FUZZ_CHECK(cd_stream_tell(s) == *len, "tell %llu, read %zu",
		    (unsigned long long)cd_stream_tell(s), *len);
	}
	if (st == CD_OK)
		return st;
	st2 = cd_stream_read(s, buf, sizeof(buf), &n);
	FUZZ_CHECK(st2 == st && n == 0, "end %d, then %d", st, st2);
	if (st != CD_EOF) {
		const cd_error *e = cd_stream_error(s);

		FUZZ_CHECK(st == CD_ERR_CORRUPT || st == CD_ERR_NOMEM ||
		    st == CD_ERR_UNSUPPORTED || st == CD_ERR_RANGE,
		    "status %d", st);
		FUZZ_CHECK(st != CD_ERR_RANGE || strstr(e->msg, "more than "
		    "the limit of") != NULL, "limit: %s", e->msg);
		FUZZ_CHECK(e->status == st && e->msg[0] != '\0' &&
		    e->offset <= size, "error %d at %llu of %zu: %s",
		    e->status, (unsigned long long)e->offset, size, e->msg);
	}
	return st;
}

/* The members announced: their lines. */
struct members {
	unsigned long last;
	size_t n;
};

static void
on_member(void *ctx, const char *name, unsigned long line)
{
	struct members *m = ctx;

	FUZZ_CHECK(name != NULL && line >= 1 && line >= m->last,
	    "member at line %lu after one at %lu", line, m->last);
	m->last = line;
	m->n++;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct members mem = { 0, 0 };
	cd_stream *s, *t;
	unsigned char *a, *b;
	size_t alen, blen, i;
	unsigned long lines = 0;
	cd_status sa, sb;

	if ((s = cd_stream_open_mem_limit(data, size, 0, LIMIT)) == NULL)
		abort();
	cd_stream_on_member(s, on_member, &mem);
	sa = drain(s, size, LIMIT, &a, &alen);
	for (i = 0; i < alen; i++)
		lines += a[i] == '\n';
	FUZZ_CHECK(mem.n == 0 || cd_stream_get_format(s) == CD_STREAM_ZIP,
	    "members in a %s input", cd_stream_format_name(
	    cd_stream_get_format(s)));
	/* (the last member may be cut short by MAX_OUT) */
	FUZZ_CHECK(sa != CD_EOF || mem.n == 0 || mem.last <= lines + 1,
	    "a member at line %lu of %lu", mem.last, lines);
	FUZZ_CHECK(sa != CD_EOF || cd_stream_get_format(s) != CD_STREAM_ZIP ||
	    alen == 0 || a[alen - 1] == '\n', "a .zip's last line not ended");
	if (cd_stream_get_format(s) == CD_STREAM_PLAIN &&
	    cd_sniff_format(data, size) == NULL)
		FUZZ_CHECK(sa == CD_EOF && alen == size &&
		    (size == 0 || memcmp(a, data, size) == 0),
		    "plain input changed");
	/* (zstd of many frames: on 1 to 3 threads) */
	if ((t = cd_stream_open_mem_limit(data, size,
	    CD_STREAM_THREADS(1 + size % 3), LIMIT / 2)) == NULL)
		abort();
	sb = drain(t, size, 0, &b, &blen);
	/* (what needs between the two limits ends differently) */
	if (sa != CD_OK && sb != CD_OK && sb != CD_ERR_RANGE) {
		size_t m = alen < blen ? alen : blen;

		FUZZ_CHECK(sa == sb && (sa != CD_EOF || alen == blen) &&
		    (m == 0 || memcmp(a, b, m) == 0),
		    "threaded: %d %zu bytes, unthreaded %d %zu", sb, blen, sa,
		    alen);
	}
	cd_stream_free(s);
	cd_stream_free(t);
	free(a);
	free(b);
	return 0;
}
