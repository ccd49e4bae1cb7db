/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * stream/frames.c: zstd frames decoded on several threads, in order.
 *
 * A zstd file made of many frames (pzstd writes each behind a skippable
 * frame holding its size; the lichess files are of this form; so is
 * `cat a.zst b.zst`) can be decoded a frame per thread: each frame
 * starts afresh.  A frame's compressed size is not in its header, but
 * its blocks' headers give it: the splitting thread walks them (three
 * bytes a block, no decoding) to find where each frame ends, copies the
 * frame into a job and goes on.  Workers take the jobs in input order
 * and decode each into a ring of blocks of its own; cd_stream_read
 * copies out of the jobs' rings in input order.  The output is the same
 * bytes, and damage the same error (status, offset, message), as one
 * decoder gives, whatever the number of workers.
 *
 * Memory is bounded: at most JOBS(workers) jobs are begun and not yet
 * read, each holding one frame of at most FRAME_MAX compressed bytes
 * and JOB_RING blocks of output (a worker waits when its ring is full).
 * A frame larger than FRAME_MAX, or input the walk cannot follow
 * (anything but a zstd or skippable frame, a reserved block type, a
 * truncated frame), ends the splitting: the splitting thread decodes
 * the rest of the input itself, with the stream's own decoder, as one
 * thread does (stream/thread.c).  So is a file of a single frame, and
 * one whose first frame is not announced by pzstd's skippable frame
 * and does not end in the first IN_CAP bytes: they are not worth a
 * worker's copies.
 */
#include "config.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "stream/stream_int.h"

#define FRAME_MAX	((size_t)16 << 20)	/* a job's compressed frame */
#define JOB_RING	4			/* a job's blocks of output */
#define WORKERS_MAX	16
#define FIRST_BLOCK	((size_t)64 << 10)	/* a job's first block: the
						 * reader starts soon */
#define WHOLE_MAX	((size_t)32 << 20)	/* a frame decoded at once */

enum job_kind {
	JOB_FRAME,	/* one frame, decoded by a worker */
	JOB_REST,	/* the rest of the input, decoded by the splitter */
	JOB_END		/* the clean end of the input */
};

enum job_state { JOB_FREE, JOB_QUEUED, JOB_RUNNING, JOB_DONE };

struct job {
	enum job_state state;
	enum job_kind kind;
	uint8_t *c;		/* JOB_FRAME: the frame's bytes */
	size_t clen, ccap;
	char *ring;		/* JOB_RING blocks of BLOCK bytes */
	size_t ring_cap;
	char *whole;		/* a frame decoded at once */
	size_t whole_cap;
	uint64_t out;		/* the most it decompresses to */
	uint64_t base;		/* their offset in the input */
	struct serr err;	/* the error its last block ends with */
	struct block b[JOB_RING];
	unsigned head, count;	/* next block to read; blocks filled */
};

struct frames {
	pthread_cond_t cvw;	/* room for the workers and the splitter
				 * (s->cv: output for the reader) */
	unsigned workers, njobs;
	const struct part_ops *parts;	/* the workers' decoders */
	pthread_t *wt;		/* the workers */
	unsigned started;	/* workers running */
	struct job *jobs;	/* njobs slots, used in turn */
	uint64_t put;		/* jobs made by the splitter */
	uint64_t taken;		/* jobs taken by workers */
	uint64_t got;		/* jobs read to their end */
};

/* Whether a job's output ring has room; its next free block. */
static struct block *
job_slot(struct job *j)
{
	return &j->b[(j->head + j->count) % JOB_RING];
}

/* Publish block b of job j, decoded (len bytes, st, in_end); done: the
 * job is over. */
static void
job_publish(cd_stream *s, struct job *j, int done)
{
	pthread_mutex_lock(&s->mu);
	j->count++;
	if (done)
		j->state = JOB_DONE;
	pthread_cond_broadcast(&s->cv);
	pthread_mutex_unlock(&s->mu);
}

/* Wait for a free block in job j's ring (with its memory); NULL when
 * the stream is being freed. */
static struct block *
job_wait_slot(cd_stream *s, struct job *j)
{
	struct block *b;

	pthread_mutex_lock(&s->mu);
	while (j->count == JOB_RING && !s->quit)
		pthread_cond_wait(&s->fr->cvw, &s->mu);
	b = s->quit ? NULL : job_slot(j);
	pthread_mutex_unlock(&s->mu);
	if (b == NULL)
		return NULL;
	/* (one allocation for the job's blocks: few page faults) */
	if (j->ring == NULL)
		j->ring = cd__huge_alloc(JOB_RING * BLOCK, &j->ring_cap);
	b->data = j->ring == NULL ? NULL : j->ring + (b - j->b) * BLOCK;
	b->cap = BLOCK;
	return b;
}

/* Decode into job j with decoder d (its error goes into j->err) until
 * the decoder ends. */
static void
job_run(cd_stream *s, struct job *j, cd_stream *d)
{
	struct block *b;
	cd_status st;
	size_t n;

	size_t cap = FIRST_BLOCK;

	do {
		if ((b = job_wait_slot(s, j)) == NULL)
			return;
		n = 0;
		if (b->data == NULL)
			st = cd__stream_nomem(d);
		else
			st = d->decode(d, (uint8_t *)b->data, cap, &n);
		cap = BLOCK;
		b->len = n;
		b->st = st;
		b->in_end = cd__stream_in_at(d);
		if (st != CD_OK && st != CD_EOF)
			j->err = d->derr;
		job_publish(s, j, st != CD_OK);
	} while (st == CD_OK);
}

/* Decoder d, which has decoded a frame (or failed on one), on the frame
 * of job j. */
static void
part_reset(cd_stream *d, const struct job *j)
{
	d->in = j->c;
	d->in_len = j->clen;
	d->in_pos = 0;
	d->in_off = j->base;
	d->open = d->ended = 0;
	d->pending = CD_OK;
	cd__zstd.ZSTD_initDStream(d->cx);
}

/*
 * Frame job j decoded at once into one block as large as the frame's
 * content (its header or its blocks give the size, at most WHOLE_MAX):
 * no copy
 * through the decoder's window.  False when that cannot be done
 * (damage too: the frame is then decoded block by block, which gives
 * the bytes before the damage and says where it is).
 */
static bool
job_whole(cd_stream *s, struct job *j, cd_stream *d)
{
	unsigned long long fcs =
	    cd__zstd.ZSTD_getFrameContentSize(j->c, j->clen);
	struct block *b;
	size_t r;

	/* (unknown and error are larger than any size: pzstd writes
	 * none, and its blocks' sizes give the most) */
	if (fcs > j->out)
		fcs = j->out;
	if (fcs == 0 || fcs > WHOLE_MAX || fcs > s->memlimit)
		return false;
	if ((b = job_wait_slot(s, j)) == NULL)
		return true;	/* (the stream is being freed) */
	if (j->whole_cap < fcs) {
		free(j->whole);
		if ((j->whole = cd__huge_alloc((size_t)fcs, &j->whole_cap)) ==
		    NULL)
			return false;
	}
	b->data = j->whole;
	b->cap = j->whole_cap;
	r = cd__zstd.ZSTD_decompressDCtx(d->cx, b->data, (size_t)fcs, j->c,
	    j->clen);
	if (cd__zstd.ZSTD_isError(r))
		return false;
	b->len = r;
	b->st = CD_EOF;
	b->in_end = j->base + j->clen;
	job_publish(s, j, 1);
	return true;
}

/* End job j with error e (no output). */
static void
job_end(cd_stream *s, struct job *j, const struct serr *e)
{
	struct block *b = job_wait_slot(s, j);

	if (b == NULL)
		return;
	b->len = 0;
	b->st = e->e.status;
	b->in_end = j->base;
	j->err = *e;
	job_publish(s, j, 1);
}

static void *
worker(void *arg)
{
	cd_stream *s = arg;
	struct frames *fr = s->fr;
	struct job *j;
	cd_stream *d = NULL;

	for (;;) {
		pthread_mutex_lock(&s->mu);
		while (!s->quit && (fr->taken == fr->put ||
		    fr->jobs[fr->taken % fr->njobs].kind != JOB_FRAME))
			pthread_cond_wait(&fr->cvw, &s->mu);
		if (s->quit) {
			pthread_mutex_unlock(&s->mu);
			fr->parts->free(d);
			return NULL;
		}
		j = &fr->jobs[fr->taken++ % fr->njobs];
		j->state = JOB_RUNNING;
		pthread_mutex_unlock(&s->mu);
		/* (one decoder for all the worker's frames: its window is
		 * allocated once) */
		if (d != NULL && d->st == CD_OK)
			part_reset(d, j);
		else {
			fr->parts->free(d);
			d = fr->parts->open(j->c, j->clen, j->base, s->fmt,
			    s->memlimit);
		}
		if (d == NULL) {
			struct serr e;

			cd__serr_set(&e, CD_ERR_NOMEM, j->base,
			    "out of memory");
			job_end(s, j, &e);
			continue;
		}
		if (d->st != CD_OK)
			job_end(s, j, &d->err);
		else if (!job_whole(s, j, d)) {
			part_reset(d, j);
			job_run(s, j, d);
		}
	}
}

static uint32_t
le32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	    (uint32_t)p[3] << 24;
}

/*
 * The size of the zstd or skippable frame that begins p (n bytes
 * there): 1 and *len when it is whole in them (*skip: a skippable
 * frame; *out: the most its blocks decompress to), 0 when more bytes
 * are needed, -1 when the bytes are not a frame the walk follows.
 */
static int
frame_size(const uint8_t *p, size_t n, size_t *len, int *skip,
    uint64_t *out)
{
	static const unsigned dict_len[4] = { 0, 1, 2, 4 };
	static const unsigned fcs_len[4] = { 0, 2, 4, 8 };
	unsigned fhd, ss;
	size_t at;

	*skip = 0;
	*out = 0;
	if (n < 8)
		return 0;
	if ((le32(p) & 0xfffffff0u) == 0x184d2a50u) {
		*skip = 1;
		*len = 8 + (size_t)le32(p + 4);
		return *len <= n ? 1 : 0;
	}
	if (le32(p) != 0xfd2fb528u)
		return -1;
	fhd = p[4];
	if (fhd & 0x08)
		return -1;	/* reserved */
	ss = (fhd >> 5) & 1;
	at = 5 + !ss + dict_len[fhd & 3] +
	    ((fhd >> 6) != 0 ? fcs_len[fhd >> 6] : ss);
	for (;;) {
		uint32_t h;
		unsigned type;

		if (at + 3 > n)
			return 0;
		h = (uint32_t)p[at] | (uint32_t)p[at + 1] << 8 |
		    (uint32_t)p[at + 2] << 16;
		type = (h >> 1) & 3;
		if (type == 3)
			return -1;	/* reserved */
		at += 3 + (type == 1 ? 1 : h >> 3);
		/* (a compressed block gives at most 128 KiB) */
		*out += type == 2 ? (uint64_t)128 << 10 : h >> 3;
		if (h & 1)
			break;
	}
	if (fhd & 0x04)
		at += 4;	/* the checksum */
	if (at > n)
		return 0;
	*len = at;
	return 1;
}

/* The next job slot, once free; NULL when the stream is being freed. */
static struct job *
job_new(cd_stream *s, enum job_kind kind)
{
	struct frames *fr = s->fr;
	struct job *j = &fr->jobs[fr->put % fr->njobs];
	int quit;

	pthread_mutex_lock(&s->mu);
	while (j->state != JOB_FREE && !s->quit)
		pthread_cond_wait(&fr->cvw, &s->mu);
	quit = s->quit;
	pthread_mutex_unlock(&s->mu);
	if (quit)
		return NULL;
	j->kind = kind;
	j->head = j->count = 0;
	j->clen = 0;
	return j;
}

/* Let the job made last be taken (by a worker or by the reader). */
static void
job_put(cd_stream *s, struct job *j)
{
	pthread_mutex_lock(&s->mu);
	j->state = j->kind == JOB_FRAME ? JOB_QUEUED : JOB_RUNNING;
	s->fr->put++;
	pthread_cond_broadcast(&s->cv);
	pthread_cond_broadcast(&s->fr->cvw);
	pthread_mutex_unlock(&s->mu);
}

/* A larger input buffer: twice as large, or for a frame of want
 * bytes. */
static bool
grow_in(cd_stream *s, size_t want)
{
	size_t cap = 2 * s->in_cap;
	uint8_t *in;

	if (cap < want + IN_CAP)
		cap = want + IN_CAP;
	if (cap > FRAME_MAX + IN_CAP)
		cap = FRAME_MAX + IN_CAP;
	if ((in = realloc(s->in, cap)) == NULL)
		return false;
	s->in = in;
	s->in_cap = cap;
	return true;
}

/* The splitting thread: frames into jobs while the walk can follow the
 * input, then the rest decoded here. */
static void *
splitter(void *arg)
{
	cd_stream *s = arg;
	struct job *j;
	size_t len;
	uint64_t out;
	size_t hint = 0;	/* a pzstd frame's size, from its skippable
				 * frame */
	int r, skip, failed = 0, split = 0;

	for (;;) {
		const uint8_t *p = s->in + s->in_pos;
		size_t avail = s->in_len - s->in_pos;
		int more;

		r = frame_size(p, avail, &len, &skip, &out);
		if (r == 0 && avail == 0 && s->in_eof) {
			if ((j = job_new(s, JOB_END)) == NULL)
				return NULL;
			j->b[0].len = 0;
			j->b[0].st = CD_EOF;
			j->b[0].in_end = cd__stream_in_at(s);
			j->count = 1;
			job_put(s, j);
			return NULL;
		}
		/* more bytes: the frame's, or (not yet split) whether
		 * another frame follows the first */
		more = r == 0 || (r == 1 && !skip && !split &&
		    avail < len + 4);
		if (more && !s->in_eof) {
			/* (the buffer grows only once the input is known
			 * to be of many frames, to the largest read) */
			if (s->in_pos == 0 && s->in_len == s->in_cap &&
			    (!split || avail >= FRAME_MAX ||
			    !grow_in(s, hint)))
				break;
			if (cd__stream_read_in(s) != CD_OK) {
				failed = 1;
				break;
			}
			continue;
		}
		if (r <= 0)
			break;
		if (skip) {
			/* pzstd's: 4 bytes, the next frame's size */
			if (len == 12 && le32(p) == 0x184d2a50u &&
			    le32(p + 8) <= FRAME_MAX) {
				hint = le32(p + 8);
				split = 1;
			}
			s->in_pos += len;
			continue;
		}
		if (!split && avail == len)
			break;	/* one frame: decoded as it comes */
		split = 1;
		hint = 0;
		if ((j = job_new(s, JOB_FRAME)) == NULL)
			return NULL;
		if (len > j->ccap) {
			free(j->c);
			if ((j->c = cd__huge_alloc(len, &j->ccap)) == NULL)
				break;
		}
		memcpy(j->c, s->in + s->in_pos, len);
		j->clen = len;
		j->out = out;
		j->base = cd__stream_in_at(s);
		s->in_pos += len;
		job_put(s, j);
	}
	/* the rest of the input, by the stream's own decoder */
	if ((j = job_new(s, JOB_REST)) == NULL)
		return NULL;
	j->base = cd__stream_in_at(s);
	job_put(s, j);
	if (failed)
		job_end(s, j, &s->derr);
	else
		job_run(s, j, s);
	return NULL;
}

/* Tell the workers (and the splitting thread) to end, and wait for the
 * workers. */
static void
frames_quit(cd_stream *s)
{
	struct frames *fr = s->fr;
	unsigned i;

	pthread_mutex_lock(&s->mu);
	__atomic_store_n(&s->quit, 1, __ATOMIC_RELEASE);
	pthread_cond_broadcast(&s->cv);
	pthread_cond_broadcast(&fr->cvw);
	pthread_mutex_unlock(&s->mu);
	for (i = 0; i < fr->started; i++)
		pthread_join(fr->wt[i], NULL);
}

/*
 * Decode the zstd input of s on workers threads (0: one per CPU, at
 * most WORKERS_MAX) and a splitting one; the workers' decoders come
 * from parts->open, and go by parts->free.  False when they cannot be
 * had (s is then as before).
 */
bool
cd__stream_frames_start(cd_stream *s, unsigned workers,
    const struct part_ops *parts)
{
	struct frames *fr;
	long ncpu;
	unsigned i;

	if (workers == 0) {
		ncpu = sysconf(_SC_NPROCESSORS_ONLN);
		workers = ncpu < 1 ? 1 : ncpu > WORKERS_MAX ? WORKERS_MAX :
		    (unsigned)ncpu;
	}
	if ((fr = calloc(1, sizeof(*fr))) == NULL)
		return false;
	fr->workers = workers;
	fr->parts = parts;
	fr->njobs = workers + 2;
	fr->jobs = calloc(fr->njobs, sizeof(*fr->jobs));
	fr->wt = calloc(workers, sizeof(*fr->wt));
	if (fr->jobs == NULL || fr->wt == NULL)
		goto fail;
	pthread_mutex_init(&s->mu, NULL);
	pthread_cond_init(&s->cv, NULL);
	pthread_cond_init(&fr->cvw, NULL);
	s->fr = fr;
	for (i = 0; i < workers; i++) {
		if (pthread_create(&fr->wt[i], NULL, worker, s) != 0)
			break;
		fr->started++;
	}
	s->threaded = 1;
	if (fr->started > 0 &&
	    pthread_create(&s->thread, NULL, splitter, s) == 0)
		return true;
	/* (nothing read yet: the input is as it was) */
	frames_quit(s);
	s->quit = 0;
	s->fr = NULL;
	s->threaded = 0;
	pthread_mutex_destroy(&s->mu);
	pthread_cond_destroy(&s->cv);
	pthread_cond_destroy(&fr->cvw);
fail:
	free(fr->jobs);
	free(fr->wt);
	free(fr);
	return false;
}

/* Up to cap bytes of the jobs' output in input order: CD_OK with
 * *n > 0, or the end (CD_EOF or an error: the job's, in *err; never
 * s->derr, which the splitting thread may be writing as it decodes
 * the rest of the input). */
cd_status
cd__stream_frames_read(cd_stream *s, void *buf, size_t cap, size_t *n,
    const struct serr **err)
{
	struct frames *fr = s->fr;

	for (;;) {
		struct job *j = &fr->jobs[fr->got % fr->njobs];
		struct block *b;

		pthread_mutex_lock(&s->mu);
		while (fr->got == fr->put || j->count == 0)
			pthread_cond_wait(&s->cv, &s->mu);
		b = &j->b[j->head];
		pthread_mutex_unlock(&s->mu);
		if (cd__stream_block_take(s, b, buf, cap, n))
			return CD_OK;
		s->in_told = b->in_end;
		if (b->st != CD_OK && (b->st != CD_EOF ||
		    j->kind != JOB_FRAME)) {
			*err = &j->err;
			return b->st;
		}
		pthread_mutex_lock(&s->mu);
		s->cur = 0;
		if (b->st == CD_EOF) {
			/* the frame's end: the next job */
			while (j->state != JOB_DONE)
				pthread_cond_wait(&s->cv, &s->mu);
			j->state = JOB_FREE;
			fr->got++;
		} else {
			j->head = (j->head + 1) % JOB_RING;
			j->count--;
		}
		pthread_cond_broadcast(&fr->cvw);
		pthread_mutex_unlock(&s->mu);
	}
}

void
cd__stream_frames_stop(cd_stream *s)
{
	struct frames *fr = s->fr;
	unsigned i;

	frames_quit(s);
	pthread_join(s->thread, NULL);
	pthread_mutex_destroy(&s->mu);
	pthread_cond_destroy(&s->cv);
	pthread_cond_destroy(&fr->cvw);
	for (i = 0; i < fr->njobs; i++) {
		free(fr->jobs[i].c);
		free(fr->jobs[i].ring);
		free(fr->jobs[i].whole);
	}
	free(fr->jobs);
	free(fr->wt);
	free(fr);
	s->fr = NULL;
}

size_t
cd__stream_frames_memory(const cd_stream *s)
{
	const struct frames *fr = s->fr;
	size_t n = fr->njobs * sizeof(*fr->jobs);
	unsigned i;

	/* (the workers' decoders are not counted: they come and go) */
	for (i = 0; i < fr->njobs; i++)
		n += fr->jobs[i].ccap + fr->jobs[i].ring_cap +
		    fr->jobs[i].whole_cap;
	return n;
}
