/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * games.c: the games of PGN inputs for pgn-regularize, pgn2epd and
 * pgn2pgc (see cli.h).
 *
 * One thread reads: cd_pgn_reader_next finds each game, which is
 * copied (bytes, tags, where it was) into the batch being filled.  A
 * full batch (BATCH_BYTES) goes to a worker thread, which parses each
 * game, calls the tool's each() and collects the output, the messages
 * (cli_capture) and the rejected games' bytes in buffers of its own;
 * then, its turn come (all batches read before written), it writes
 * them itself: the output goes to the kernel from the cache of the
 * thread that made it, and the result is what one thread doing it all
 * would write.  With one job there are no threads: the reading thread
 * parses and writes each batch as soon as it is full.  A ring of 2 *
 * jobs + 2 batches bounds the memory: the reader waits for the oldest
 * batch to be written when the ring is full.  At the end of each input
 * everything is written before the next input is opened (its messages
 * come after this one's).
 */
#define _GNU_SOURCE 1	/* sched_getaffinity, CPU_COUNT */
#include "config.h"

#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "chessdata.h"
#include "cli.h"

/* Input bytes (with the tags' copies) that fill a batch: small enough
 * that the last batch of an input keeps one thread busy only a moment
 * and that the ring stays a few megabytes even for pgn2epd (whose
 * output is twenty times its input), large enough that passing a batch
 * costs nothing next to its games. */
#define BATCH_BYTES	((size_t)64 << 10)

struct cli_games cli_games;

struct batch {
	cd_pgn_buf text;	/* the games' bytes and tag strings */
	cd_pgn_raw_game *games;	/* pointers as offsets until sealed */
	size_t ngames, games_cap;
	cd_pgn_tag *tags;
	size_t ntags, tags_cap;
	const char *file;
	uint64_t first;		/* index of games[0] in all inputs */
	uint64_t bytes;		/* input bytes read when it was sealed */
};

/* What a thread collects from a batch (its own buffers: the thread
 * that writes a batch's output wrote it, and reuses them). */
struct worker {
	struct cli_job job;
	cd_pgn_buf out, msg, rej;
	uint64_t written, rejected;
	pthread_t thread;
};

static struct {
	struct batch *ring;
	unsigned nring;
	struct worker *workers;	/* njobs of them */
	unsigned njobs, nthreads;
	pthread_mutex_t lock;
	pthread_cond_t work;	/* a batch to take, or quit */
	pthread_cond_t done;	/* a batch written */
	uint64_t filled;	/* batches handed on (sequence numbers) */
	uint64_t taken;		/* batches a worker has taken */
	uint64_t emitted;	/* batches written */
	int quit;
} pool = {
	.lock = PTHREAD_MUTEX_INITIALIZER,
	.work = PTHREAD_COND_INITIALIZER,
	.done = PTHREAD_COND_INITIALIZER
};

unsigned
cli_cpus(void)
{
	cpu_set_t set;
	long n;

	if (sched_getaffinity(0, sizeof(set), &set) == 0 &&
	    CPU_COUNT(&set) > 0)
		return (unsigned)CPU_COUNT(&set);
	n = sysconf(_SC_NPROCESSORS_ONLN);
	return n > 0 ? (unsigned)n : 1;
}

unsigned
cli_parse_jobs(const char *arg)
{
	char *end;
	long v = strtol(arg, &end, 10);

	if (end == arg || *end != '\0' || v < 1 || v > 256)
		cli_usage_error("invalid number of jobs '%s' (1 to 256)", arg);
	return (unsigned)v;
}

/* ---- filling a batch (the reading thread) ---- */

static void *
grow(void *p, size_t *cap, size_t need, size_t size)
{
	size_t c = *cap;

	if (need <= c)
		return p;
	while (c < need)
		c = c ? 2 * c : 64;
	if ((p = realloc(p, c * size)) == NULL)
		cli_fatal("out of memory");
	*cap = c;
	return p;
}

/* Append n bytes and a NUL; the offset of the copy. */
static size_t
text_add(cd_pgn_buf *t, const char *s, size_t n)
{
	size_t off = t->len;

	cli_buf_reserve(t, n + 1);
	memcpy(t->data + off, s, n);
	t->data[off + n] = '\0';
	t->len += n + 1;
	return off;
}

static void
batch_add(struct batch *b, const cd_pgn_raw_game *raw)
{
	cd_pgn_raw_game *g;
	size_t i;

	b->games = grow(b->games, &b->games_cap, b->ngames + 1,
	    sizeof(*b->games));
	b->tags = grow(b->tags, &b->tags_cap, b->ntags + raw->ntags,
	    sizeof(*b->tags));
	g = &b->games[b->ngames++];
	*g = *raw;
	g->text = (const char *)(uintptr_t)text_add(&b->text, raw->text,
	    raw->len);
	g->tags = (const cd_pgn_tag *)(uintptr_t)b->ntags;
	for (i = 0; i < raw->ntags; i++) {
		cd_pgn_tag *t = &b->tags[b->ntags++];

		*t = raw->tags[i];
		t->name = (const char *)(uintptr_t)text_add(&b->text,
		    t->name, t->name_len);
		t->value = (const char *)(uintptr_t)text_add(&b->text,
		    t->value, t->value_len);
	}
}

/* Offsets to pointers, now that the arrays no longer move. */
static void
batch_seal(struct batch *b)
{
	const char *base = b->text.data;
	size_t i;

	for (i = 0; i < b->ngames; i++) {
		b->games[i].text = base + (uintptr_t)b->games[i].text;
		b->games[i].tags = b->tags + (uintptr_t)b->games[i].tags;
	}
	for (i = 0; i < b->ntags; i++) {
		b->tags[i].name = base + (uintptr_t)b->tags[i].name;
		b->tags[i].value = base + (uintptr_t)b->tags[i].value;
	}
}

/* ---- parsing a batch and writing what it gave ---- */

static void
reject(struct worker *w, const char *file, const cd_pgn_raw_game *raw,
    unsigned long line, unsigned long col, const char *msg)
{
	w->rejected++;
	cli_warn_at(file, line, col, "game %llu: %s",
	    (unsigned long long)raw->number, msg);
	cli_buf_reserve(&w->rej, raw->len);
	memcpy(w->rej.data + w->rej.len, raw->text, raw->len);
	w->rej.len += raw->len;
}

static void
batch_run(struct batch *b, struct worker *w)
{
	struct cli_job *j = &w->job;
	cd_pgn_error err;
	cd_status st;
	size_t i;

	cli_capture = &w->msg;
	j->out = &w->out;
	j->file = b->file;
	for (i = 0; i < b->ngames; i++) {
		const cd_pgn_raw_game *raw = &b->games[i];

		j->number = raw->number;
		j->index = b->first + i;
		cli_pgn_skipped(b->file, raw);
		memset(&err, 0, sizeof(err));
		st = cd_pgn_parse(j->game, raw, &j->opts, &err);
		if (st == CD_ERR_NOMEM)
			cli_fatal("out of memory");
		if (st != CD_OK) {
			reject(w, b->file, raw, err.line, err.col,
			    err.msg[0] ? err.msg : cd_strerror(st));
		} else {
			const char *why = cli_games.each(j, raw);

			if (why != NULL)
				reject(w, b->file, raw, raw->line, raw->col,
				    why);
			else
				w->written++;
		}
	}
	cli_capture = NULL;
}

/* Messages: a failed write to standard error is not reported. */
static void
write_all(int fd, const char *p, size_t n)
{
	while (n > 0) {
		ssize_t k = write(fd, p, n);

		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0)
			return;
		p += k;
		n -= (size_t)k;
	}
}

/* Write what w collected from b: its turn has come (the batches before
 * are written). */
static void
batch_emit(struct batch *b, struct worker *w)
{
	FILE *out = cli_output_file();

	if (w->msg.len > 0) {
		/* one write, not one per line (stderr is line buffered) */
		cli_progress_end();
		fflush(stderr);
		write_all(2, w->msg.data, w->msg.len);
	}
	if (w->rej.len > 0)
		cli_rejects_write(w->rej.data, w->rej.len);
	if (w->out.len > 0 &&
	    fwrite(w->out.data, 1, w->out.len, out) != w->out.len)
		cli_output_check();
	cli_output_check();
	cli_games.written += w->written;
	cli_games.rejected += w->rejected;
	w->out.len = w->msg.len = w->rej.len = 0;
	w->written = w->rejected = 0;
	cli_progress(b->first + b->ngames - 1, b->bytes);
	b->text.len = 0;
	b->ngames = b->ntags = 0;
}

static void *
worker(void *arg)
{
	struct worker *w = arg;
	uint64_t seq;
	struct batch *b;

	pthread_mutex_lock(&pool.lock);
	for (;;) {
		while (pool.taken == pool.filled && !pool.quit)
			pthread_cond_wait(&pool.work, &pool.lock);
		if (pool.taken == pool.filled)
			break;
		seq = pool.taken++;
		b = &pool.ring[seq % pool.nring];
		pthread_mutex_unlock(&pool.lock);
		batch_run(b, w);
		pthread_mutex_lock(&pool.lock);
		while (pool.emitted != seq)
			pthread_cond_wait(&pool.done, &pool.lock);
		pthread_mutex_unlock(&pool.lock);
		batch_emit(b, w);
		pthread_mutex_lock(&pool.lock);
		pool.emitted++;
		pthread_cond_broadcast(&pool.done);
	}
	pthread_mutex_unlock(&pool.lock);
	return NULL;
}

/* Wait until at most n batches handed on are not written yet. */
static void
wait_written(uint64_t n)
{
	pthread_mutex_lock(&pool.lock);
	while (pool.filled - pool.emitted > n)
		pthread_cond_wait(&pool.done, &pool.lock);
	pthread_mutex_unlock(&pool.lock);
}

static void
pool_start(void)
{
	unsigned i, n = cli_games.jobs ? cli_games.jobs : cli_cpus();

	if (n > 256)
		n = 256;
	pool.njobs = n;
	pool.nring = n == 1 ? 1 : 2 * n + 2;
	pool.ring = calloc(pool.nring, sizeof(*pool.ring));
	pool.workers = calloc(n, sizeof(*pool.workers));
	if (pool.ring == NULL || pool.workers == NULL)
		cli_fatal("out of memory");
	for (i = 0; i < n; i++) {
		struct cli_job *j = &pool.workers[i].job;

		if ((j->game = cd_game_new()) == NULL)
			cli_fatal("out of memory");
		j->opts = cli_games.opts;
		j->opts.warn_ctx = j;
	}
	if (n == 1)
		return;
	for (i = 0; i < n; i++) {
		if (pthread_create(&pool.workers[i].thread, NULL, worker,
		    &pool.workers[i]) != 0)
			cli_fatal("cannot start a thread");
		pool.nthreads++;
	}
}

/* Hand the batch being filled on (it holds at least one game): to a
 * worker, or with one job parse and write it here. */
static void
hand_on(struct batch *b, uint64_t bytes)
{
	b->bytes = bytes;
	batch_seal(b);
	if (pool.nthreads == 0) {
		batch_run(b, &pool.workers[0]);
		batch_emit(b, &pool.workers[0]);
		return;
	}
	pthread_mutex_lock(&pool.lock);
	pool.filled++;
	pthread_cond_signal(&pool.work);
	pthread_mutex_unlock(&pool.lock);
}

int
cli_games_file(FILE *f, const char *name)
{
	struct cli_games *cg = &cli_games;
	cd_pgn_reader *r = cd_pgn_reader_new(f);
	uint64_t base = cg->bytes;
	struct batch *b = NULL;
	cd_pgn_raw_game raw;
	cd_status st;

	if (r == NULL)
		cli_fatal("out of memory");
	if (pool.ring == NULL)
		pool_start();
	for (;;) {
		st = cd_pgn_reader_next(r, &raw);
		if (st != CD_OK)
			break;
		cli_pgn_end_note(name, &raw, st);
		if (b == NULL) {
			/* the next slot of the ring, once written */
			if (pool.nthreads > 0)
				wait_written(pool.nring - 1);
			b = &pool.ring[pool.filled % pool.nring];
			b->file = name;
			b->first = cg->read + 1;
		}
		cg->read++;
		batch_add(b, &raw);
		if (b->text.len >= BATCH_BYTES) {
			hand_on(b, base + cd_pgn_reader_tell(r));
			b = NULL;
		}
	}
	cg->bytes = base + cd_pgn_reader_tell(r);
	if (b != NULL)
		hand_on(b, cg->bytes);
	if (pool.nthreads > 0)
		wait_written(0);
	cli_pgn_notes(name, &raw, st);
	cd_pgn_reader_free(r);
	return cli_read_end(name, st);
}

void
cli_games_end(void)
{
	unsigned i;

	pthread_mutex_lock(&pool.lock);
	pool.quit = 1;
	pthread_cond_broadcast(&pool.work);
	pthread_mutex_unlock(&pool.lock);
	for (i = 0; i < pool.nthreads; i++)
		pthread_join(pool.workers[i].thread, NULL);
	for (i = 0; i < pool.nring; i++) {
		free(pool.ring[i].text.data);
		free(pool.ring[i].games);
		free(pool.ring[i].tags);
	}
	for (i = 0; i < pool.njobs; i++) {
		struct worker *w = &pool.workers[i];

		cd_game_free(w->job.game);
		if (w->job.priv != NULL && cli_games.priv_free != NULL)
			cli_games.priv_free(w->job.priv);
		free(w->out.data);
		free(w->msg.data);
		free(w->rej.data);
	}
	free(pool.ring);
	free(pool.workers);
}
