/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * stream/thread.c: the decompressing thread of a CD_STREAM_THREAD
 * stream.  It runs the decoder into a ring of RING blocks of BLOCK
 * bytes, each carrying how the decoder ended it, and cd_stream_read
 * copies out of them.
 */
#include "config.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "stream/stream_int.h"

/* The decompressing thread: fill the free blocks of the ring until the
 * decoder ends (or the stream is freed). */
static void *
dec_thread(void *arg)
{
	cd_stream *s = arg;
	struct block *b;
	cd_status st;
	size_t n;

	do {
		pthread_mutex_lock(&s->mu);
		while (s->count == RING && !s->quit)
			pthread_cond_wait(&s->cv, &s->mu);
		if (s->quit) {
			pthread_mutex_unlock(&s->mu);
			break;
		}
		b = &s->ring[(s->head + s->count) % RING];
		pthread_mutex_unlock(&s->mu);
		n = 0;
		st = s->decode(s, (uint8_t *)b->data, BLOCK, &n);
		b->len = n;
		b->st = st;
		b->in_end = cd__stream_in_at(s);
		pthread_mutex_lock(&s->mu);
		s->count++;
		pthread_cond_broadcast(&s->cv);
		pthread_mutex_unlock(&s->mu);
	} while (st == CD_OK);
	return NULL;
}


/* Run the decoder of s on a thread of its own (when the ring's memory
 * and the thread can be had; else s stays unthreaded); zstd frames on
 * workers threads, which open their decoders with parts. */
void
cd__stream_thread_start(cd_stream *s, unsigned workers,
    const struct part_ops *parts)
{
	unsigned i;
	size_t cap;
	char *ring;

	if (s->fmt == CD_STREAM_ZSTD && cd__stream_frames_start(s, workers,
	    parts))
		return;
	/* (one allocation: few page faults) */
	if ((ring = cd__huge_alloc(RING * BLOCK, &cap)) == NULL)
		return;
	for (i = 0; i < RING; i++)
		s->ring[i].data = ring + i * BLOCK;
	pthread_mutex_init(&s->mu, NULL);
	pthread_cond_init(&s->cv, NULL);
	s->threaded = 1;
	if (pthread_create(&s->thread, NULL, dec_thread, s) == 0)
		return;
	s->threaded = 0;
	pthread_mutex_destroy(&s->mu);
	pthread_cond_destroy(&s->cv);
	free(ring);
	for (i = 0; i < RING; i++)
		s->ring[i].data = NULL;
}

/* Up to cap bytes from the ring: CD_OK with *n > 0, or the decoder's
 * end (CD_EOF or an error, in *err: the thread's, which has ended with
 * that block). */
cd_status
cd__stream_thread_read(cd_stream *s, void *buf, size_t cap, size_t *n,
    const struct serr **err)
{
	if (s->fr != NULL)
		return cd__stream_frames_read(s, buf, cap, n, err);
	for (;;) {
		struct block *b;

		pthread_mutex_lock(&s->mu);
		while (s->count == 0)
			pthread_cond_wait(&s->cv, &s->mu);
		b = &s->ring[s->head];
		pthread_mutex_unlock(&s->mu);
		if (cd__stream_block_take(s, b, buf, cap, n))
			return CD_OK;
		s->in_told = b->in_end;
		if (b->st != CD_OK) {
			*err = &s->derr;
			return b->st;
		}
		pthread_mutex_lock(&s->mu);
		s->head = (s->head + 1) % RING;
		s->count--;
		s->cur = 0;
		pthread_cond_broadcast(&s->cv);
		pthread_mutex_unlock(&s->mu);
	}
}

/* Stop the thread and free the ring. */
void
cd__stream_thread_stop(cd_stream *s)
{
	unsigned i;

	if (s->fr != NULL) {
		cd__stream_frames_stop(s);
		s->threaded = 0;
		return;
	}
	pthread_mutex_lock(&s->mu);
	__atomic_store_n(&s->quit, 1, __ATOMIC_RELEASE);
	pthread_cond_broadcast(&s->cv);
	pthread_mutex_unlock(&s->mu);
	pthread_join(s->thread, NULL);
	pthread_mutex_destroy(&s->mu);
	pthread_cond_destroy(&s->cv);
	free(s->ring[0].data);
	for (i = 0; i < RING; i++)
		s->ring[i].data = NULL;
	s->threaded = 0;
}
