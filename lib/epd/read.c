/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * epd/read.c: the EPD line reader (cd_epd_reader): lines of any length
 * from a file, a descriptor, a stream or memory, compressed or not, with
 * their numbers and offsets (epd/parse.c's cd_epd_read parses them).
 * chess-perft reads its suites with it too.
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "common/internal.h"
#include "stream/input.h"

/*
 * The reader reads its stream in blocks into buf: buf[start..end) is
 * what no line has taken yet, the last line handed out is the raw_len
 * bytes before start.  The stream's end or error is kept (eof, err and
 * its errno) until the lines before it are taken.
 */
#define READ_BLOCK	((size_t)64 << 10)

struct cd_epd_reader {
	struct cd__input in;	/* where the bytes come from (input.h) */
	char *buf;
	size_t cap, start, end;
	size_t scan;		/* start + the bytes known to hold no LF */
	size_t raw_len;		/* the last line's bytes, with its end */
	bool eof, err;
	int err_errno;
	cd_error error;		/* the input's error, at the line it cut */
	unsigned long lineno;
	uint64_t offset;
};

/* A reader of in (closed when out of memory). */
static cd_epd_reader *
reader_input(struct cd__input *in)
{
	cd_epd_reader *r = calloc(1, sizeof(*r));

	if (r == NULL)
		cd__input_close(in);
	else
		r->in = *in;
	return r;
}

CD__INPUT_OPENERS(cd_epd_reader, cd_epd_reader, reader_input)

const cd_stream *
cd_epd_reader_stream(const cd_epd_reader *r)
{
	return r->in.s;
}

const cd_error *
cd_epd_reader_error(const cd_epd_reader *r)
{
	return &r->error;
}

void
cd_epd_reader_free(cd_epd_reader *r)
{
	if (r == NULL)
		return;
	cd__input_close(&r->in);
	free(r->buf);
	free(r);
}

/* Read one more block after end (moving the bytes not taken to the
 * front, growing buf when they fill it); false at the end of the
 * stream, on an error and when out of memory (errno ENOMEM). */
static bool
fill(cd_epd_reader *r)
{
	size_t keep = r->end - r->start, n;
	cd_status st;

	if (r->eof || r->err)
		return false;
	if (r->start > 0) {
		memmove(r->buf, r->buf + r->start, keep);
		r->scan -= r->start;
		r->start = 0;
		r->end = keep;
	}
	if (r->cap - r->end < READ_BLOCK &&
	    cd__grow(&r->buf, &r->cap, r->end + READ_BLOCK, 1, 16) != 0) {
		errno = ENOMEM;
		return false;
	}
	errno = 0;
	st = cd__input_read(&r->in, r->buf + r->end, r->cap - r->end, &n);
	if (st == CD_EOF)
		r->eof = true;
	else if (st != CD_OK) {
		r->err = true;
		r->err_errno = errno;
		return false;
	}
	r->end += n;
	return n > 0;
}

/* A line longer than CD_EPD_LINE_MAX (its first bytes at start): read
 * on to its end without keeping it; it counts as a line with no bytes
 * (CD_ERR_RANGE).  A read error or the end of the input ends it too
 * (the error comes with the next call). */
static cd_status
skip_long_line(cd_epd_reader *r)
{
	uint64_t l = 0;
	const char *nl;

	for (;;) {
		nl = memchr(r->buf + r->start, '\n', r->end - r->start);
		if (nl != NULL) {
			size_t k = (size_t)(nl - (r->buf + r->start)) + 1;

			l += k;
			r->start += k;
			break;
		}
		l += r->end - r->start;
		r->start = r->end;
		r->scan = r->end;
		if (!fill(r)) {
			if (errno == ENOMEM && !r->eof && !r->err)
				return CD_ERR_NOMEM;
			break;
		}
	}
	r->scan = r->start;
	r->raw_len = 0;
	r->lineno++;
	r->offset += l;
	return CD_ERR_RANGE;
}

cd_status
cd_epd_reader_next(cd_epd_reader *r, const char **line, size_t *len)
{
	const char *nl;
	char *p;
	size_t l, skip = 0;

	r->start += r->raw_len;
	r->raw_len = 0;
	if (r->scan < r->start)
		r->scan = r->start;
	for (;;) {
		if (r->end > r->scan && (nl = memchr(r->buf + r->scan, '\n',
		    r->end - r->scan)) != NULL)
			break;
		r->scan = r->end;
		nl = NULL;
		if (r->end - r->start > CD_EPD_LINE_MAX)
			return skip_long_line(r);
		if (fill(r))
			continue;
		if (errno == ENOMEM && !r->eof && !r->err)
			return CD_ERR_NOMEM;
		break;
	}
	if (nl != NULL && (size_t)(nl - r->buf) - r->start > CD_EPD_LINE_MAX)
		return skip_long_line(r);
	l = nl != NULL ? (size_t)(nl - r->buf) + 1 - r->start :
	    r->end - r->start;
	if (l > 0) {
		r->raw_len = l;
		r->lineno++;
		r->offset += l;
	}
	/* a line cut by a read error (a damaged or truncated compressed
	 * input) is no line: a plain file may end without a line end,
	 * but here the end is where the damage began */
	if (nl == NULL && r->err) {
		r->error = r->in.err;
		r->error.offset = r->offset - l;
		r->error.line = r->lineno + (l == 0);
		errno = r->err_errno;
		return CD_ERR_IO;
	}
	if (l == 0)
		return CD_EOF;
	p = r->buf + r->start;
	if (p[l - 1] == '\n')
		l--;
	if (l > 0 && p[l - 1] == '\r')
		l--;
	if (r->lineno == 1 && l >= 3 && memcmp(p, "\xef\xbb\xbf", 3) == 0)
		skip = 3;
	*line = p + skip;
	*len = l - skip;
	return CD_OK;
}

cd_status
cd_epd_reader_peek(cd_epd_reader *r, size_t want, const char **bytes,
    size_t *len)
{
	size_t at = r->start + r->raw_len;

	while (r->end - at < want && !r->eof && !r->err) {
		/* (fill moves the bytes from start to the front) */
		size_t from = at - r->start;

		if (!fill(r) && errno == ENOMEM && !r->eof && !r->err)
			return CD_ERR_NOMEM;
		at = r->start + from;
	}
	*bytes = r->buf != NULL ? r->buf + at : "";
	*len = r->end - at;
	return CD_OK;
}

const char *
cd_epd_reader_raw(const cd_epd_reader *r, size_t *len)
{
	*len = r->raw_len;
	return r->buf != NULL ? r->buf + r->start : "";
}

/* The last line without its LF, its CR and byte order mark kept, for
 * cd_epd_parse with CD_EPD_STRICT. */
void
cd_epd_reader_strict_line(const cd_epd_reader *r, const char **line,
    size_t *len)
{
	size_t l = r->raw_len;

	*line = cd_epd_reader_raw(r, &l);
	if (l > 0 && (*line)[l - 1] == '\n')
		l--;
	*len = l;
}

unsigned long
cd_epd_reader_lineno(const cd_epd_reader *r)
{
	return r->lineno;
}

uint64_t
cd_epd_reader_offset(const cd_epd_reader *r)
{
	return r->offset;
}
