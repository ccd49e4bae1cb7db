/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * stream/formats.c: the stream formats: their names, suffixes and magic
 * bytes, and the compression libraries behind them, loaded when first
 * used (see stream_int.h).
 */
#include "config.h"

#include <dlfcn.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "stream/stream_int.h"

/* ---- the compression libraries ---- */

/*
 * Each compression library is loaded (dlopen) when a stream of its
 * format is first opened, not when the program starts: a program that
 * reads plain PGN maps none of the four (a millisecond less at every
 * start, which tells when a tool runs once per small file).  A
 * library's functions are called through a table of its own, filled by
 * dlsym from the list below (cd__zstd.ZSTD_decompressStream, ...).
 */
#define API_LOAD(api, f)	if (!sym(h, #f, &api.f, sizeof(api.f))) \
					return false;

/* Fill the function pointer at dst (size bytes) with the symbol name of
 * library h. */
static bool
sym(void *h, const char *name, void *dst, size_t size)
{
	void *p = dlsym(h, name);

	if (p == NULL || size != sizeof(p))
		return false;
	memcpy(dst, &p, size);
	return true;
}

#ifdef HAVE_ZSTD
struct cd__zstd_api cd__zstd;
static bool
zstd_load(void *h)
{
	CD__ZSTD_FNS(API_LOAD, cd__zstd)
	return true;
}
#endif
#ifdef HAVE_ZLIB
struct cd__zlib_api cd__zlib;
static bool
zlib_load(void *h)
{
	CD__ZLIB_FNS(API_LOAD, cd__zlib)
	return true;
}
#endif
#ifdef HAVE_BZLIB
struct cd__bz2_api cd__bz2;
static bool
bz2_load(void *h)
{
	CD__BZ2_FNS(API_LOAD, cd__bz2)
	return true;
}
#endif
#ifdef HAVE_LZMA
struct cd__xz_api cd__xz;
static bool
xz_load(void *h)
{
	CD__LZMA_FNS(API_LOAD, cd__xz)
	return true;
}
#endif

#ifdef HAVE_LIBARCHIVE
struct cd__archive_api cd__archive;
static bool
archive_load(void *h)
{
	CD__ARCHIVE_FNS(API_LOAD, cd__archive)
	return true;
}
#endif

/* A library: the names it goes by (its sonames, tried in turn), the
 * table it fills, and how its loading went. */
struct lib {
	const char *names[3];
	bool (*load)(void *h);
	bool tried, ok;
	char why[160];		/* when it could not be loaded */
};

static struct lib libs[] = {
	[CD_STREAM_ZSTD] = { { "libzstd.so.1" },
#ifdef HAVE_ZSTD
	    zstd_load,
#endif
	},
	[CD_STREAM_GZIP] = { { "libz.so.1" },
#ifdef HAVE_ZLIB
	    zlib_load,
#endif
	},
	[CD_STREAM_BZIP2] = { { "libbz2.so.1.0", "libbz2.so.1" },
#ifdef HAVE_BZLIB
	    bz2_load,
#endif
	},
	[CD_STREAM_XZ] = { { "liblzma.so.5" },
#ifdef HAVE_LZMA
	    xz_load,
#endif
	},
	[CD_STREAM_ZIP] = { { "libarchive.so.13" },
#ifdef HAVE_LIBARCHIVE
	    archive_load,
#endif
	},
};
static pthread_mutex_t libs_lock = PTHREAD_MUTEX_INITIALIZER;

/* Whether the library of compressed format f is loaded (the first call
 * loads it); if not (the build has none for it, or it cannot be
 * loaded), why, for a message, in *why when not NULL. */
bool
cd__stream_lib_ready(cd_stream_format f, const char **why)
{
	struct lib *l;
	const char *e;
	void *h = NULL;
	size_t i;

	if (f <= CD_STREAM_PLAIN || f > CD_STREAM_ZIP)
		return false;
	l = &libs[f];
	pthread_mutex_lock(&libs_lock);
	if (!l->tried) {
		l->tried = true;
		for (i = 0; i < 3 && l->load != NULL && l->names[i] != NULL &&
		    h == NULL; i++)
			h = dlopen(l->names[i], RTLD_NOW | RTLD_LOCAL);
		if (l->load == NULL)
			snprintf(l->why, sizeof(l->why), "this build has no "
			    "%s", cd_stream_format_library(f));
		else if (h == NULL)
			snprintf(l->why, sizeof(l->why), "%s",
			    (e = dlerror()) != NULL ? e : "cannot be loaded");
		else if (!(l->ok = l->load(h)))
			snprintf(l->why, sizeof(l->why), "%s lacks a "
			    "function this build calls", l->names[0]);
	}
	pthread_mutex_unlock(&libs_lock);
	if (!l->ok && why != NULL)
		*why = l->why;
	return l->ok;
}

/* ---- formats ---- */

static const char *const format_names[] = {
	"plain", "zstd", "gzip", "bzip2", "xz", "zip"
};

const char *
cd_stream_format_name(cd_stream_format f)
{
	return (unsigned)f < 6 ? format_names[f] : "unknown";
}

int
cd_stream_format_parse(const char *name)
{
	static const struct { const char *name; cd_stream_format f; } t[] = {
		{ "zstd", CD_STREAM_ZSTD }, { "zst", CD_STREAM_ZSTD },
		{ "gzip", CD_STREAM_GZIP }, { "gz", CD_STREAM_GZIP },
		{ "bzip2", CD_STREAM_BZIP2 }, { "bz2", CD_STREAM_BZIP2 },
		{ "xz", CD_STREAM_XZ },
		{ "plain", CD_STREAM_PLAIN }, { "none", CD_STREAM_PLAIN }
	};
	size_t i;

	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++)
		if (strcmp(name, t[i].name) == 0)
			return (int)t[i].f;
	return -1;
}

cd_stream_format
cd_stream_format_suffix(const char *path)
{
	static const struct { const char *sfx; cd_stream_format f; } t[] = {
		{ ".zst", CD_STREAM_ZSTD }, { ".zstd", CD_STREAM_ZSTD },
		{ ".gz", CD_STREAM_GZIP }, { ".bz2", CD_STREAM_BZIP2 },
		{ ".xz", CD_STREAM_XZ }
	};
	size_t i, n = strlen(path);

	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		size_t k = strlen(t[i].sfx);

		if (n > k && strcasecmp(path + n - k, t[i].sfx) == 0)
			return t[i].f;
	}
	return CD_STREAM_PLAIN;
}

cd_stream_format
cd_stream_detect(const void *buf, size_t len)
{
	const uint8_t *p = buf;

	/* zstd frame 28 B5 2F FD, or a skippable frame 5? 2A 4D 18 */
	if (len >= 4 && ((p[0] == 0x28 && p[1] == 0xb5 && p[2] == 0x2f &&
	    p[3] == 0xfd) || ((p[0] & 0xf0) == 0x50 && p[1] == 0x2a &&
	    p[2] == 0x4d && p[3] == 0x18)))
		return CD_STREAM_ZSTD;
	/* gzip 1F 8B, method 8 (deflate) */
	if (len >= 3 && p[0] == 0x1f && p[1] == 0x8b && p[2] == 8)
		return CD_STREAM_GZIP;
	/* bzip2 "BZh" and a block size digit */
	if (len >= 4 && p[0] == 'B' && p[1] == 'Z' && p[2] == 'h' &&
	    p[3] >= '1' && p[3] <= '9')
		return CD_STREAM_BZIP2;
	/* xz FD "7zXZ" 00 */
	if (len >= 6 && memcmp(p, "\xfd" "7zXZ" "\0", 6) == 0)
		return CD_STREAM_XZ;
	/* zip: a local file header PK 03 04, or the end of the central
	 * directory PK 05 06 (an archive without members) */
	if (len >= 4 && p[0] == 'P' && p[1] == 'K' && ((p[2] == 3 &&
	    p[3] == 4) || (p[2] == 5 && p[3] == 6)))
		return CD_STREAM_ZIP;
	return CD_STREAM_PLAIN;
}

bool
cd_stream_format_supported(cd_stream_format f)
{
	return f == CD_STREAM_PLAIN || cd__stream_lib_ready(f, NULL);
}

const char *
cd_stream_format_library(cd_stream_format f)
{
	static const char *const lib[] = {
		"", "libzstd", "zlib", "libbz2", "liblzma", "libarchive"
	};

	return (unsigned)f < 6 ? lib[f] : "";
}

void
cd_stream_levels(cd_stream_format f, int *min, int *max, int *dflt)
{
	int lo = 0, hi = 0, d = 0;

	switch (f) {
	case CD_STREAM_ZSTD:
		lo = 1;
		hi = 19;
#ifdef HAVE_ZSTD
		if (cd__stream_lib_ready(f, NULL))
			hi = cd__zstd.ZSTD_maxCLevel();
#endif
		d = 3;
		break;
	case CD_STREAM_GZIP:
		lo = 1, hi = 9, d = 6;
		break;
	case CD_STREAM_BZIP2:
		lo = 1, hi = 9, d = 9;
		break;
	case CD_STREAM_XZ:
		lo = 0, hi = 9, d = 6;
		break;
	default:
		break;
	}
	if (min != NULL)
		*min = lo;
	if (max != NULL)
		*max = hi;
	if (dflt != NULL)
		*dflt = d;
}
