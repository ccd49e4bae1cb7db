/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * sort_int.h: what the files of the external sort share.  Calls go
 * one way: sort.c (the buffer, the merge, the interface) calls
 * sort_out.c (the output, the temporary files, the runs), and both
 * call sort_keys.c (keys, their order, the in-memory sort, the merge's
 * heap).
 */
#ifndef CD_CLI_SORT_INT_H
#define CD_CLI_SORT_INT_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <stdio.h>

#include "chessdata.h"
#include "sort.h"

/* ---- a game with its key ---- */

struct item {
	uint64_t prefix;	/* first 8 key bytes, big-endian */
	uint64_t seq;		/* input order */
	const unsigned char *key;
	const char *text;	/* NULL: the game is in infiles[file] */
	size_t klen, len, mt_off, mt_len;
	/* a game left in its file: where it starts there, how many bytes
	 * of its movetext follow the key (cd_collate_movetext_prefix), and
	 * what emit would add after it (a TAIL_* index) */
	uint64_t off;
	uint32_t file;
	uint8_t plen, tail;
};

/* An input whose games are left in it (see the top). */
struct infile {
	int fd;			/* a descriptor of its own */
	const char *name;
	struct stat st;		/* to tell a change before reading back */
};

/*
 * Games go to the output with writev (cli_output_writev), straight from
 * where they lie (the buffer or a run's buffer): no copy.  The queue is
 * flushed before any of those buffers changes (flush_pending).
 */
#define IOV_BATCH	512

/* Games read back from their files on their way out, a buffer's worth
 * at a time (the queue points into it until flushed). */
#define STAGE_BYTES	((size_t)1 << 20)

/* A run file holds records: seven 64-bit numbers (sequence, text
 * length, key length, movetext offset and length, and for a game left
 * in its file where it starts there and file << 16 | plen << 8 | tail,
 * else UINT64_MAX and 0), the text (none for a game left in its file),
 * the key (with the movetext prefix of a game left in its file). */
#define RUN_HDR	(7 * sizeof(uint64_t))

/* The run being written: records gathered for writev. */
struct runw {
	int fd;
	cd_stream *zs;		/* --compress-temp */
	size_t id;
	int n, nh;
	struct iovec iov[IOV_BATCH];
	uint64_t hdr[IOV_BATCH / 3][7];
};

struct cli_sort {
	struct cli_sort_opts o;
	int status;		/* 2 after a read error */
	uint64_t games_read, games_written, games_rejected;
	/* For each -k tag: whether a game read has it, else the first
	 * name of a tag some game has that differs from it in case only
	 * (or NULL). */
	bool *key_seen;
	char **key_case;
	/* the inputs whose games are left in them */
	struct infile *infiles;
	size_t ninfiles, infiles_cap;
	uint64_t infiles_bytes;
	uint64_t small_copied;	/* bytes of small games of those copied */
	char *mt_buf[2];	/* movetext_fetch */
	size_t mt_cap[2];
	/* the output queue */
	struct iovec oq[IOV_BATCH];
	int noq;
	char *stage;
	size_t stage_used;
	/* games queued that follow each other in a file, to be read into
	 * the stage after stage_used with one read before the queue is
	 * written */
	uint64_t span_off;
	size_t span_len;
	uint32_t span_file;
	/* With -u: the last game written, to drop the games equal to
	 * it. */
	struct item last;
	unsigned char *last_buf;
	size_t last_cap;
	int have_last;
	/* the runs: temporary file ids */
	size_t *runs;
	size_t nruns, runcap;
	struct runw rw;
	/* the buffer: o.budget bytes, game bytes and keys below mem_lo,
	 * items from mem_hi to the end */
	char *mem;
	size_t mem_lo, mem_hi;
	/* the key of the game copied into the buffer last (NULL: none
	 * since the buffer was emptied): the next game's, when equal,
	 * points to it (mem_add) */
	const unsigned char *mem_key;
	size_t mem_klen;
	uint64_t seq, bytes;	/* games sorted, bytes read */
};


/* The movetext bytes kept with the key of a game left in its file: the
 * opening books' lines compare within them. */
#define MT_PREFIX	128

/* A source of a merge: a run, or a sorted PGN input (-m). */
struct src {
	/* A run... */
	int fd;
	cd_stream *zs;		/* a compressed run */
	size_t id;
	char *buf;
	size_t cap, pos, end;
	int eof;
	int owned;		/* buf is malloc'ed (else a part of mem) */
	uint64_t punched;	/* bytes of the run given back (run_release) */
	/* ...or the buffer's last games, sorted (mem_merge)... */
	const struct item *items;
	size_t nitems, next;
	/* ...or a sorted PGN input (-m). */
	cd_pgn_reader *r;
	const char *name;
	FILE *f;
	unsigned char *kbuf;
	size_t kcap;
	uint64_t seqbase;
	unsigned long line;	/* of the current game */
	uint64_t number;
	struct item cur;
	int primed, have;	/* cur is read (have: there was one) */
};

/* What goes after a game's bytes: nothing, or a line end or two. */
enum { TAIL_NONE, TAIL_BLANK, TAIL_LF, TAIL_CRLF };

/*
 * What to write after a game's bytes so that games stay apart whatever
 * order they come in: an empty line when they do not end with one (the
 * last game of a file often does not).
 */
static inline int
sort_text_tail(const char *text, size_t len)
{
	size_t p;

	if (len == 0)
		return TAIL_NONE;
	if (text[len - 1] != '\n')
		return TAIL_BLANK;
	for (p = len - 1; p > 0 && (text[p - 1] == ' ' || text[p - 1] == '\t' ||
	    text[p - 1] == '\r'); p--)
		;
	if (p > 0 && text[p - 1] != '\n')
		return len >= 2 && text[len - 2] == '\r' ? TAIL_CRLF : TAIL_LF;
	return TAIL_NONE;
}

/*
 * With -u a key holds, after the collating key (keys 1 to 7), the seven
 * tag values as they are written: each as a 4-byte length and its
 * bytes, then the 4-byte length of that part.  Games equal in sort
 * order ("1993.?1.01" and "1993.01.01", Round "1" and "01") are the
 * same game only when these bytes and the movetext are equal.
 */
static inline size_t
sort_key_collate_len(cli_sort *so, const unsigned char *k, size_t klen)
{
	uint32_t x;

	if (!so->o.unique || klen < 4)
		return klen;
	memcpy(&x, k + klen - 4, 4);
	return klen - 4 - x;
}

/* sort_keys.c: the order */
/* Read len bytes at off of input file into buf, fully. */
void sort_infile_read(cli_sort *so, uint32_t file, uint64_t off, char *buf,
    size_t len);
/* The keys compared (-k tags, then the standard's), then the tag values
 * as bytes (-u). */
int sort_keys_cmp(cli_sort *so, const struct item *a, const struct item *b);
int sort_exact_cmp(cli_sort *so, const struct item *a, const struct item *b);
/* Sort n items stably, with room for n more at tmp. */
void sort_items_sort(cli_sort *so, struct item *a, struct item *tmp,
    size_t n);
/* The heap of a merge's sources, by their current games. */
void sort_heap_down(cli_sort *so, struct src **h, size_t n, size_t i);
/* A warning for each -k tag that no game read has. */
void sort_keys_warn(cli_sort *so);

/* sort_out.c */
/* Queue a game for the output (its bytes read back from its file when
 * it was left there); write what is queued; flush the queue and the
 * run being written before a buffer they point into changes. */
void sort_emit(cli_sort *so, const struct item *it);
void sort_oq_flush(cli_sort *so);
void sort_flush_pending(cli_sort *so);
/* -u: keep the game written last; whether a game equals it. */
void sort_remember(cli_sort *so, const struct item *it);
int sort_unique_skip(cli_sort *so, const struct item *it);
/* A run: opened, a game put, closed (its id added to the runs). */
void sort_run_open(cli_sort *so);
void sort_run_put(cli_sort *so, const struct item *it);
void sort_run_close(cli_sort *so);

#endif
