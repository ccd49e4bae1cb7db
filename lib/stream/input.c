/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * input.c: the readers' input (see input.h).
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include "common/internal.h"
#include "stream/input.h"

void
cd__input_none(struct cd__input *in)
{
	memset(in, 0, sizeof(*in));
	in->fd = -1;
}

cd_status
cd__input_open_fd(struct cd__input *in, int fd)
{
	cd__input_none(in);
	in->s = cd_stream_open_fd(fd, CD_STREAM_THREAD);
	return in->s != NULL ? CD_OK : CD_ERR_NOMEM;
}

cd_status
cd__input_open(struct cd__input *in, const char *path)
{
	int fd;

	do
		fd = open(path, O_RDONLY | O_CLOEXEC);
	while (fd < 0 && errno == EINTR);
	if (fd < 0) {
		int e = errno;

		cd__input_none(in);
		in->st = CD_ERR_IO;
		in->sys_errno = e;
		cd__error_set(&in->err, CD_ERR_IO, 0, 0, 0, "cannot open: %s",
		    strerror(e));
		return CD_OK;
	}
	if (cd__input_open_fd(in, fd) != CD_OK) {
		close(fd);
		return CD_ERR_NOMEM;
	}
	in->fd = fd;
	return CD_OK;
}

cd_status
cd__input_open_stream(struct cd__input *in, cd_stream *s)
{
	cd__input_none(in);
	in->s = s;
	return s != NULL ? CD_OK : CD_ERR_ARG;
}

cd_status
cd__input_new_file(struct cd__input *in, FILE *f)
{
	int fd = fileno(f);

	if (fd >= 0)
		return cd__input_open_fd(in, fd);
	cd__input_none(in);
	in->f = f;
	return CD_OK;
}

/* The end or error st of the input, kept; errno set for an error. */
static cd_status
input_end(struct cd__input *in, cd_status st, int sys_errno)
{
	in->st = st;
	if (st != CD_EOF)
		errno = sys_errno ? sys_errno : st == CD_ERR_NOMEM ? ENOMEM :
		    EIO;
	return st;
}

cd_status
cd__input_read(struct cd__input *in, void *buf, size_t cap, size_t *n)
{
	cd_status st;

	*n = 0;
	if (in->st != CD_OK)
		return input_end(in, in->st, in->sys_errno);
	if (in->s != NULL) {
		st = cd_stream_read(in->s, buf, cap, n);
		if (st == CD_OK || st == CD_EOF)
			return st == CD_EOF ? input_end(in, st, 0) : st;
		in->err = *cd_stream_error(in->s);
		/* (a read error's errno is the system's reason) */
		in->sys_errno = st == CD_ERR_IO ? errno : 0;
		return input_end(in, st, in->sys_errno);
	}
	if (in->f == NULL)
		return input_end(in, CD_EOF, 0);
	*n = fread(buf, 1, cap, in->f);
	if (!in->checked && *n > 0) {
		cd_stream_format fmt = cd_stream_detect(buf, *n);

		in->checked = 1;
		if (fmt != CD_STREAM_PLAIN) {
			*n = 0;
			cd__error_set(&in->err, CD_ERR_UNSUPPORTED, 0, 0, 0,
			    "%s compressed input in a stream without a file "
			    "descriptor: it is not read", cd_stream_format_name(
			    fmt));
			return input_end(in, CD_ERR_UNSUPPORTED, 0);
		}
	}
	if (*n > 0)
		return CD_OK;
	if (ferror(in->f)) {
		int e = errno;

		cd__error_set(&in->err, CD_ERR_IO, 0, 0, 0, "read error: %s",
		    strerror(e ? e : EIO));
		in->sys_errno = e;
		return input_end(in, CD_ERR_IO, e);
	}
	return input_end(in, CD_EOF, 0);
}

void
cd__input_close(struct cd__input *in)
{
	cd_stream_free(in->s);
	if (in->fd >= 0)
		close(in->fd);
	cd__input_none(in);
}
