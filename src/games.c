/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * games.c: the games of PGN inputs for the tools that read them
 * (see games.h).
 *
 * Every thread (the tool's own and jobs - 1 more) does the same, in
 * turn: it takes the input, reads games from it into a batch of its own
 * (bytes, tags, where they were: BATCH_BYTES), lets the input go,
 * parses the batch's games and calls the tool's each(), collecting the
 * output, the messages (cli_capture) and the rejected games' bytes in
 * buffers of its own; then, its turn come (every batch read before it
 * written), it writes them itself.  So the output, the messages and the
 * rejects file are what one thread doing it all would write, a game's
 * bytes stay in the cache of the core that read them, and memory is a
 * batch and a game for each thread.  When one thread works (one job),
 * it takes the games straight from the reader, with no batch.  The
 * other threads start when an input holds a second batch: a process
 * that reads only small inputs starts none.  At the end of each input
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
#include "games.h"

/* Input bytes (with the tags' copies) that fill a batch: small enough
 * that the last batch of an input keeps one thread busy only a moment
 * and that a thread's output stays in its core's cache even for pgn2epd
 * (twenty times its input), large enough that taking turns costs
 * nothing next to the games. */
#define BATCH_BYTES	((size_t)64 << 10)

struct cli_games cli_games;

struct batch {
	cd_buf text;	/* the games' bytes and tag strings */
	cd_pgn_raw_game *games;	/* pointers as offsets until sealed */
	size_t ngames, games_cap;
	cd_pgn_tag *tags;
	size_t ntags, tags_cap;
	const char *file;
	uint64_t first;		/* index of games[0] in all inputs */
	uint64_t bytes;		/* input bytes read when it was sealed */
};

/* A thread: its batch and what it collects from it. */
struct worker {
	struct cli_job job;
	struct batch batch;
	cd_buf out, msg, rej;
	uint64_t written, rejected;
	pthread_t thread;
};

static struct {
	struct worker *workers;	/* njobs; workers[0]: the tool's thread */
	unsigned njobs, nthreads;	/* nthreads: the others started */
	pthread_mutex_t lock;	/* for what follows, to read_lock */
	pthread_cond_t cv;	/* any of it changed */
	uint64_t input;		/* inputs begun (the others wait for a
				 * new one) */
	unsigned busy;		/* other threads at work on the input */
	unsigned active;	/* threads that work on it (workers[0] to
				 * workers[active - 1]) */
	uint64_t emitted;	/* batches written */
	int quit;
	pthread_mutex_t read_lock;	/* for what follows */
	cd_pgn_reader *reader;	/* the input being read */
	const char *file;
	uint64_t base;		/* input bytes of the inputs before */
	uint64_t seq;		/* batches begun */
	int done;		/* the input is read to its end */
	cd_status st;		/* how: CD_EOF, or the error */
	cd_pgn_raw_game end;	/* what the last call of the reader gave */
} pool = {
	.lock = PTHREAD_MUTEX_INITIALIZER,
	.cv = PTHREAD_COND_INITIALIZER,
	.read_lock = PTHREAD_MUTEX_INITIALIZER
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

/* ---- filling a batch (the thread that holds the input) ---- */

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

/* Append n bytes and a NUL (the room is reserved); the offset of the
 * copy. */
static inline size_t
text_add(cd_buf *t, const char *s, size_t n)
{
	size_t off = t->len;

	memcpy(t->data + off, s, n);
	t->data[off + n] = '\0';
	t->len += n + 1;
	return off;
}

/*
 * Copy a game into the batch: its bytes, then its tags' names and
 * values, which the reader keeps one after the other in one block
 * (chessdata/pgn_lex.h), in one copy.
 */
static void
batch_add(struct batch *b, const cd_pgn_raw_game *raw)
{
	cd_pgn_raw_game *g;
	const char *s = NULL;	/* the tags' strings */
	size_t i, n = 0, off;

	if (b->ngames == b->games_cap)
		b->games = grow(b->games, &b->games_cap, b->ngames + 1,
		    sizeof(*b->games));
	if (b->ntags + raw->ntags > b->tags_cap)
		b->tags = grow(b->tags, &b->tags_cap, b->ntags + raw->ntags,
		    sizeof(*b->tags));
	if (raw->ntags > 0) {
		const cd_pgn_tag *l = &raw->tags[raw->ntags - 1];

		s = raw->tags[0].name;
		n = (size_t)(l->value + l->value_len + 1 - s);
	}
	cli_buf_reserve(&b->text, raw->len + 1 + n);
	g = &b->games[b->ngames++];
	*g = *raw;
	g->text = (const char *)(uintptr_t)text_add(&b->text, raw->text,
	    raw->len);
	g->tags = (const cd_pgn_tag *)(uintptr_t)b->ntags;
	if (n == 0)
		return;
	off = b->text.len;
	memcpy(b->text.data + off, s, n);
	b->text.len += n;
	for (i = 0; i < raw->ntags; i++) {
		cd_pgn_tag *t = &b->tags[b->ntags++];

		*t = raw->tags[i];
		t->name = (const char *)(uintptr_t)(off +
		    (size_t)(t->name - s));
		t->value = (const char *)(uintptr_t)(off +
		    (size_t)(t->value - s));
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

/* Parse one game (unless cli_games.noparse) and give it to the tool's
 * each(); a game that does not read, or that each() refuses, is
 * rejected. */
static void
game_run(struct worker *w, const char *file, const cd_pgn_raw_game *raw,
    uint64_t index)
{
	struct cli_job *j = &w->job;
	const char *why;
	cd_error err;
	cd_status st;

	j->number = raw->number;
	j->index = index;
	/* (err is filled by cd_pgn_parse, first thing) */
	st = cli_games.noparse ? CD_OK :
	    cd_pgn_parse(j->game, raw, &j->opts, &err);
	if (st == CD_ERR_NOMEM)
		cli_fatal("out of memory");
	if (st != CD_OK) {
		reject(w, file, raw, err.line, err.col,
		    err.msg[0] ? err.msg : cd_strerror(st));
		return;
	}
	j->line = j->col = 0;
	if ((why = cli_games.each(j, raw)) != NULL)
		reject(w, file, raw, j->line ? j->line : raw->line,
		    j->line ? j->col : raw->col, why);
	else
		w->written++;
}

static void
batch_run(struct batch *b, struct worker *w)
{
	size_t i;

	cli_capture = &w->msg;
	w->job.out = &w->out;
	w->job.file = b->file;
	for (i = 0; i < b->ngames; i++) {
		cli_pgn_skipped(b->file, &b->games[i]);
		game_run(w, b->file, &b->games[i], b->first + i);
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

/* Write what w collected: its turn has come (what was read before is
 * written).  last: the number of the last game read, bytes: the input
 * bytes read, for the progress line. */
static void
emit(struct worker *w, uint64_t last, uint64_t bytes)
{
	if (w->msg.len > 0) {
		/* one write, not one per line (stderr is line buffered) */
		cli_progress_end();
		fflush(stderr);
		write_all(2, w->msg.data, w->msg.len);
	}
	if (w->rej.len > 0)
		cli_rejects_write(w->rej.data, w->rej.len);
	cli_output_write(w->out.data, w->out.len);
	cli_games.written += w->written;
	cli_games.rejected += w->rejected;
	w->out.len = w->msg.len = w->rej.len = 0;
	w->written = w->rejected = 0;
	cli_progress(last, bytes);
}

static void
batch_emit(struct batch *b, struct worker *w)
{
	emit(w, b->first + b->ngames - 1, b->bytes);
	b->text.len = 0;
	b->ngames = b->ntags = 0;
}

/*
 * Read the next batch of the input into w's batch (under read_lock);
 * its sequence number, or -1 when the input is at its end.  A batch
 * may hold no game (the input ended): it still takes its turn.
 */
static int64_t
batch_read(struct worker *w)
{
	struct batch *b = &w->batch;
	cd_pgn_raw_game raw;
	cd_status st;
	int64_t seq;

	pthread_mutex_lock(&pool.read_lock);
	if (pool.done) {
		pthread_mutex_unlock(&pool.read_lock);
		return -1;
	}
	seq = (int64_t)pool.seq++;
	b->file = pool.file;
	b->first = cli_games.read + 1;
	while (b->text.len < BATCH_BYTES) {
		if (cli_games.stop) {
			pool.done = 1;
			pool.st = CD_OK;
			memset(&pool.end, 0, sizeof(pool.end));
			break;
		}
		st = cd_pgn_reader_next(pool.reader, &raw);
		if (st != CD_OK) {
			pool.done = 1;
			pool.st = st;
			pool.end = raw;
			break;
		}
		cli_pgn_end_note(pool.file, &raw, st);
		cli_games.read++;
		batch_add(b, &raw);
	}
	b->bytes = pool.base + cd_pgn_reader_tell(pool.reader);
	pthread_mutex_unlock(&pool.read_lock);
	batch_seal(b);
	return seq;
}

/*
 * The games of the input on this thread alone (one thread works, or
 * the games need no parsing and the reader is the slow part: another
 * thread would only wait for it): straight from the reader, with no
 * batch to copy them into.  The end status of the input (CD_OK when
 * stopped), the last reader call's game in *end.
 */
static cd_status
direct_games(cd_pgn_reader *r, const char *name, cd_pgn_raw_game *end)
{
	struct worker *w = &pool.workers[0];
	cd_status st = CD_OK;

	memset(end, 0, sizeof(*end));
	cli_capture = &w->msg;
	w->job.out = &w->out;
	w->job.file = name;
	while (!cli_games.stop && (st = cd_pgn_reader_next(r, end)) == CD_OK) {
		cli_pgn_notes(name, end, st);
		game_run(w, name, end, ++cli_games.read);
		if (w->out.len >= BATCH_BYTES || (cli_games.read & 255) == 0)
			emit(w, cli_games.read, pool.base +
			    cd_pgn_reader_tell(r));
	}
	emit(w, cli_games.read, pool.base + cd_pgn_reader_tell(r));
	cli_capture = NULL;
	return st;
}

/* Parse the batch w has read (number seq) and write it in its turn. */
static void
batch_turn(struct worker *w, int64_t seq)
{
	batch_run(&w->batch, w);
	pthread_mutex_lock(&pool.lock);
	while (pool.emitted != (uint64_t)seq)
		pthread_cond_wait(&pool.cv, &pool.lock);
	pthread_mutex_unlock(&pool.lock);
	batch_emit(&w->batch, w);
	pthread_mutex_lock(&pool.lock);
	pool.emitted++;
	pthread_cond_broadcast(&pool.cv);
	pthread_mutex_unlock(&pool.lock);
}

/* Read, parse and write batches of the input until it ends. */
static void
work(struct worker *w)
{
	int64_t seq;

	while ((seq = batch_read(w)) >= 0)
		batch_turn(w, seq);
}

/* The other threads: work on each input begun. */
static void *
worker(void *arg)
{
	struct worker *w = arg;
	uint64_t seen = 0;
	bool mine;

	pthread_mutex_lock(&pool.lock);
	for (;;) {
		while (pool.input == seen && !pool.quit)
			pthread_cond_wait(&pool.cv, &pool.lock);
		if (pool.quit)
			break;
		seen = pool.input;
		mine = w - pool.workers < pool.active;
		pthread_mutex_unlock(&pool.lock);
		if (mine)
			work(w);
		pthread_mutex_lock(&pool.lock);
		pool.busy--;
		pthread_cond_broadcast(&pool.cv);
	}
	pthread_mutex_unlock(&pool.lock);
	return NULL;
}

/* The parser's notices (a change to a kept game that is always told:
 * a FEN castling right cleared) as warnings. */
static void
notice(void *ctx, unsigned long line, unsigned long col, const char *msg)
{
	const struct cli_job *j = ctx;

	cli_warn_at(j->file, line, col, "warning: game %llu: %s",
	    (unsigned long long)j->number, msg);
}

static void
pool_start(void)
{
	unsigned i, n = cli_games.jobs ? cli_games.jobs : cli_cpus();

	if (cli_games.noparse)
		n = 1;	/* direct_games: no game, no other thread */

	if (n > 256)
		n = 256;
	pool.njobs = n;
	if ((pool.workers = calloc(n, sizeof(*pool.workers))) == NULL)
		cli_fatal("out of memory");
	for (i = 0; i < n; i++) {
		struct cli_job *j = &pool.workers[i].job;

		if (!cli_games.noparse && (j->game = cd_game_new()) == NULL)
			cli_fatal("out of memory");
		j->opts = cli_games.opts;
		j->opts.warn_ctx = j;
		if (j->opts.notice == NULL)
			j->opts.notice = notice;
	}
}

/* The other threads, started when an input holds a second batch. */
static void
threads_start(void)
{
	unsigned i;

	/* the threads start with the signals that clean up blocked: the
	 * handler runs in this thread */
	cli_signals_block();
	for (i = 1; i < pool.njobs; i++) {
		if (pthread_create(&pool.workers[i].thread, NULL, worker,
		    &pool.workers[i]) != 0)
			cli_fatal("cannot start a thread");
		pool.nthreads++;
	}
	cli_signals_unblock();
}

/* The games of f through the threads; the end status of the input
 * (CD_OK when stopped), the last reader call's game in pool.end. */
static cd_status
pool_games(FILE *f, cd_pgn_reader *r, const char *name)
{
	struct worker *w = &pool.workers[0];
	int64_t seq = -1;

	/* one CPU fewer by default while a thread decompresses the input
	 * (three busy threads on two CPUs lose to two) */
	pool.active = pool.njobs;
	if (cli_games.jobs == 0 && pool.njobs > 1 && cli_input_threaded(f))
		pool.active--;
	if (pool.active == 1)
		return direct_games(r, name, &pool.end);
	pool.reader = r;
	pool.file = name;
	pool.done = 0;
	if (pool.nthreads == 0 && pool.njobs > 1) {
		/* the first batch before any other thread: an input of one
		 * batch (an empty one, a small file) starts none, and a
		 * process that meets only such inputs starts fast */
		seq = batch_read(w);
		if (pool.done)
			batch_turn(w, seq);
		else
			threads_start();
	}
	/* the input is counted only for threads that exist: threads
	 * started later must not see an input they never worked on (their
	 * busy count would go wrong) */
	if (!pool.done) {
		pthread_mutex_lock(&pool.lock);
		pool.input++;
		pool.busy = pool.nthreads;
		pthread_cond_broadcast(&pool.cv);
		pthread_mutex_unlock(&pool.lock);
		if (seq >= 0)
			batch_turn(w, seq);
		work(w);
	}
	pthread_mutex_lock(&pool.lock);
	while (pool.busy > 0)
		pthread_cond_wait(&pool.cv, &pool.lock);
	pthread_mutex_unlock(&pool.lock);
	pool.reader = NULL;
	return pool.st;
}

int
cli_games_file(FILE *f, const char *name)
{
	cd_pgn_reader *r = cd_pgn_reader_new(f);
	cd_status st;

	if (r == NULL)
		cli_fatal("out of memory");
	if (pool.workers == NULL)
		pool_start();
	/* no other thread works now: the fields are this thread's */
	pool.base = cli_games.bytes;
	st = pool_games(f, r, name);
	cli_games.bytes = pool.base + cd_pgn_reader_tell(r);
	if (st != CD_OK)	/* not stopped: the input's end */
		cli_pgn_notes(name, &pool.end, st);
	cd_pgn_reader_free(r);
	return cli_read_end(name, st);
}

void
cli_games_end(void)
{
	unsigned i;

	pthread_mutex_lock(&pool.lock);
	pool.quit = 1;
	pthread_cond_broadcast(&pool.cv);
	pthread_mutex_unlock(&pool.lock);
	for (i = 1; i <= pool.nthreads; i++)
		pthread_join(pool.workers[i].thread, NULL);
	for (i = 0; i < pool.njobs; i++) {
		struct worker *w = &pool.workers[i];

		cd_game_free(w->job.game);
		if (w->job.priv != NULL && cli_games.priv_free != NULL)
			cli_games.priv_free(w->job.priv);
		free(w->batch.text.data);
		free(w->batch.games);
		free(w->batch.tags);
		free(w->out.data);
		free(w->msg.data);
		free(w->rej.data);
	}
	free(pool.workers);
}
