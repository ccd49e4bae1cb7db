/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * util.c: status texts and the version.
 */
#include "config.h"

#include "internal.h"

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
