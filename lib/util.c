/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * util.c: the tables built at load time, status texts, the version and
 * the output buffer.
 */
#include "config.h"

#include <stdlib.h>

#include "internal.h"

/* Tables are built when the library is loaded. */
__attribute__((constructor)) static void
cd__library_init(void)
{
	cd__attacks_init();
	cd__zobrist_init();
}

const char *
cd_strerror(int status)
{
	switch (status) {
	case CD_OK: return "success";
	case CD_EOF: return "end of input";
	case CD_ERR_NOMEM: return "out of memory";
	case CD_ERR_IO: return "input/output error";
	case CD_ERR_SYNTAX: return "syntax error";
	case CD_ERR_ILLEGAL: return "illegal move";
	case CD_ERR_AMBIGUOUS: return "ambiguous move";
	case CD_ERR_POSITION: return "impossible position";
	case CD_ERR_UNSUPPORTED: return "unsupported";
	case CD_ERR_RANGE: return "value out of range";
	case CD_ERR_CORRUPT: return "corrupt data";
	case CD_ERR_ARG: return "invalid argument";
	}
	return "unknown error";
}

const char *
cd_version(void)
{
	return PACKAGE_VERSION;
}

void
cd_pgn_buf_free(cd_pgn_buf *b)
{
	if (b == NULL)
		return;
	free(b->data);
	b->data = NULL;
	b->len = b->cap = 0;
}
