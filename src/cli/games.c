/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * games.c: the games of PGN inputs for the tools that read them
 * (see games.h).
 *
 * Every thread (the tool's own and jobs - 1 more) does the same: it
 * takes the input, reads games from it into a batch of its own (bytes,
 * tags, where they were: BATCH_BYTES), lets the input go, parses the
 * batch's games and calls the tool's each(), collecting the output, the
 * messages (cli_capture) and the rejected games' bytes in an output
 * (struct output), then reads again.  The outputs are written in the
 * order their batches were read: the thread whose output is the next
 * to write writes it, then every output after it that is ready, and
 * lets the turn go; a thread whose output must wait for an earlier one
 * leaves it ready and goes on with the next batch.  Each thread has
 * outputs of its own (OUTPUTS / threads, 2 to OUTPUTS_PER_JOB), the
 * last written taken first: it waits only when every one is taken
 * (begun and not yet written), or when the outputs waiting hold more
 * than HELD_BYTES and one of its own is among them, so memory is a
 * batch and a game for each thread and a bounded number of outputs,
 * whatever the input.  So the output, the messages and the rejects
 * file are what one thread doing it all would write, and a game's
 * bytes stay in the cache of the core that read them.  When one
 * thread works (one job), it takes the games straight from the reader,
 * with no batch.  The other threads start when an input holds a second
 * batch: a process that reads only small inputs starts none.  At the
 * end of each input everything is written before the next input is
 * opened (its messages come after this one's).
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

/* The room a batch takes for its games' bytes (and for BATCH_ROOM / 16
 * tags): a batch is filled to BATCH_BYTES, and its last game runs over
 * unless it would not fit in the room (it waits for the next batch). */
#define BATCH_ROOM	(2 * BATCH_BYTES)

/* One thread's games (direct_games) go out every DIRECT_BYTES of
 * output or input: a quarter of the write calls of a batch's size (on
 * long games each call's own cost counts), the output still in the
 * core's cache. */
#define DIRECT_BYTES	(4 * BATCH_BYTES)

/* Outputs of each thread: one being filled, the others waiting for
 * their turn (a thread goes on while an earlier batch is converted).
 * With two, a thread whose batch took as long as two of another's, or
 * that the system set aside for a moment, stopped the other for want
 * of an output, and the other slept: for three batches of ten on OTB
 * with two threads on a busy machine, and still now and then with
 * eight (the system sets a thread aside for some milliseconds, ten
 * batches or more).  Only the outputs in use take memory (the last
 * written is the next taken), and HELD_BYTES bounds them at any one
 * time; but the memory of a thread's outputs stays in its malloc arena,
 * and the threads' peaks add up: OUTPUTS in all bounds them (with 32 a
 * thread, pgn-regularize -j 8 on TCEC on a busy machine took 39 MB at
 * its peak, 10 MB with two a thread; with 64 in all, 17 MB). */
#define OUTPUTS_PER_JOB	32
#define OUTPUTS	64

/* Bytes of outputs ready and not yet written beyond which a thread
 * takes a third output only once its own are written: memory stays
 * bounded where the output is many times the input (pgn2epd). */
#define HELD_BYTES	((size_t)4 << 20)

/* The size of a cache line, and the one next to it that processors
 * fetch with it: what one thread writes as it parses (its output's
 * length, its job) is not on the line of another's. */
#define LINE	128

struct cli_games cli_games;

struct batch {
	cd_buf text;	/* the games' bytes and tag strings */
	cd_pgn_raw_game *games;	/* their text and tags in text, tags */
	size_t ngames, games_cap;
	cd_pgn_tag *tags;
	size_t ntags, tags_cap;
	const char *file;
	uint64_t first;		/* index of games[0] in all inputs */
	uint64_t bytes;		/* input bytes read when it was sealed */
};

/* What the games of a batch gave, written in the batch's turn. */
struct output {
	cd_buf out, msg, rej;	/* output, messages, rejected games */
	uint64_t written, rejected, salvaged;
	uint64_t last;		/* the number of the last game read */
	uint64_t bytes;		/* input bytes read (the progress line) */
	size_t held;		/* its bytes, counted in pool.held */
	struct worker *owner;	/* the thread that fills it */
} __attribute__((aligned(LINE)));

/* A thread: its batch, and the output its games go to. */
struct worker {
	struct cli_job job;	/* (first: cli_games_flush finds w) */
	struct batch batch;
	struct output *o;
	int64_t seq;		/* the batch's number; -1: direct_games */
	pthread_t thread;
	struct output *free[OUTPUTS_PER_JOB];	/* its outputs not taken */
	unsigned nfree, nown;	/* of the nown it has */
	bool waiting;		/* for one of them (room) */
	pthread_cond_t room;	/* one of them was written */
} __attribute__((aligned(LINE)));

static struct {
	struct worker *workers;	/* njobs; workers[0]: the tool's thread */
	unsigned njobs, nthreads;	/* nthreads: the others started */
	pthread_mutex_t lock;	/* for what follows, to read_lock */
	pthread_cond_t cv;	/* input or busy changed */
	pthread_cond_t turn;	/* an output was written (emitted rose) */
	uint64_t input;		/* inputs begun (the others wait for a
				 * new one) */
	unsigned busy;		/* other threads at work on the input */
	unsigned active;	/* threads that work on it (workers[0] to
				 * workers[active - 1]) */
	struct output *outputs;	/* nout, nown a thread */
	unsigned nout;
	struct output **slot;	/* nout: batch s's output once ready at
				 * slot[s % nout] (at most nout batches are
				 * begun and not written), else NULL */
	size_t held;		/* bytes of the outputs ready, unwritten */
	uint64_t emitted;	/* batches written */
	bool writing;		/* a thread writes outputs (has the turn) */
	int quit;
	pthread_mutex_t read_lock;	/* for what follows */
	cd_pgn_reader *reader;	/* the input being read */
	const char *file;
	uint64_t base;		/* input bytes of the inputs before */
	uint64_t seq;		/* batches begun */
	int done;		/* the input is read to its end */
	cd_status st;		/* how: CD_EOF, or the error */
	cd_pgn_raw_game end;	/* what the last call of the reader gave */
	cd_pgn_raw_game next;	/* a game read that did not fit in its
				 * batch: the next batch's first */
	bool have_next;
} pool = {
	.lock = PTHREAD_MUTEX_INITIALIZER,
	.cv = PTHREAD_COND_INITIALIZER,
	.turn = PTHREAD_COND_INITIALIZER,
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

/* ---- a game's bytes in an output ---- */

/* What goes after a game's bytes so that games stay apart: an empty
 * line when they do not end with one (the last game of a file often
 * lacks it), in their line ends. */
static const char *
game_tail(const char *text, size_t len)
{
	size_t p;

	if (len == 0)
		return "";
	if (text[len - 1] != '\n')
		return "\n\n";
	for (p = len - 1; p > 0 && (text[p - 1] == ' ' || text[p - 1] == '\t' ||
	    text[p - 1] == '\r'); p--)
		;
	if (p > 0 && text[p - 1] != '\n')
		return len >= 2 && text[len - 2] == '\r' ? "\r\n" : "\n";
	return "";
}

void
cli_append_game(cd_buf *out, const char *text, size_t len)
{
	const char *tail = game_tail(text, len);
	size_t tl = strlen(tail);

	cli_buf_reserve(out, len + tl);
	memcpy(out->data + out->len, text, len);
	memcpy(out->data + out->len + len, tail, tl);
	out->len += len + tl;
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

/* The tags' strings of a raw game: where they begin and their bytes
 * (the reader keeps them one after the other in one block,
 * chessdata/pgn_read.h). */
static size_t
tag_block(const cd_pgn_raw_game *raw, const char **s)
{
	const cd_pgn_tag *l;

	*s = NULL;
	if (raw->ntags == 0)
		return 0;
	l = &raw->tags[raw->ntags - 1];
	*s = raw->tags[0].name;
	return (size_t)(l->value + l->value_len + 1 - *s);
}

/*
 * Whether a game fits in the batch's room without moving its bytes or
 * tags (the games in it point to them); an empty batch makes room for
 * any game (BATCH_ROOM bytes and tags at least, so that most batches
 * never need more).
 */
static bool
batch_fits(struct batch *b, const cd_pgn_raw_game *raw)
{
	const char *s;
	size_t n = raw->len + 1 + tag_block(raw, &s);

	if (b->ngames == 0) {
		cli_buf_reserve(&b->text, n > BATCH_ROOM ? n : BATCH_ROOM);
		b->tags = grow(b->tags, &b->tags_cap, raw->ntags >
		    BATCH_ROOM / 16 ? raw->ntags : BATCH_ROOM / 16,
		    sizeof(*b->tags));
		return true;
	}
	return b->text.cap - b->text.len >= n &&
	    b->tags_cap - b->ntags >= raw->ntags;
}

/*
 * Copy a game into the batch, where batch_fits found room: its bytes,
 * then its tags' names and values in one copy, laid out as the reader
 * keeps them, so that the copy is parsed as fast as the reader's game
 * (cd_pgn_raw_copied).
 */
static void
batch_add(struct batch *b, const cd_pgn_raw_game *raw)
{
	cd_pgn_raw_game *g;
	const char *s;
	char *d = b->text.data + b->text.len;
	size_t i, n = tag_block(raw, &s);

	if (b->ngames == b->games_cap)
		b->games = grow(b->games, &b->games_cap, b->ngames + 1,
		    sizeof(*b->games));
	g = &b->games[b->ngames++];
	*g = *raw;
	memcpy(d, raw->text, raw->len);
	d[raw->len] = '\0';
	g->text = d;
	g->tags = b->tags + b->ntags;
	d += raw->len + 1;
	b->text.len += raw->len + 1 + n;
	if (n > 0)
		memcpy(d, s, n);
	for (i = 0; i < raw->ntags; i++) {
		cd_pgn_tag *t = &b->tags[b->ntags++];

		*t = raw->tags[i];
		t->name = d + (t->name - s);
		t->value = d + (t->value - s);
	}
	cd_pgn_raw_copied(g, raw);
}

/* ---- parsing a batch and writing what it gave ---- */

static void
reject(struct worker *w, const char *file, const cd_pgn_raw_game *raw,
    unsigned long line, unsigned long col, const char *msg)
{
	struct output *o = w->o;

	o->rejected++;
	if (!cli_games.no_messages)
		cli_warn_at(file, line, col, "game %llu: %s",
		    (unsigned long long)raw->number, msg);
	cli_buf_reserve(&o->rej, raw->len);
	memcpy(o->rej.data + o->rej.len, raw->text, raw->len);
	o->rej.len += raw->len;
}

/* Parse one game (unless cli_games.noparse) and give it to the tool's
 * each(); a game that does not read, or that each() refuses, is
 * rejected. */
static inline __attribute__((always_inline)) void
game_run(struct worker *w, const char *file, const cd_pgn_raw_game *raw,
    uint64_t index)
{
	struct cli_job *j = &w->job;
	const char *why;
	cd_error err;
	cd_status st;
	bool salvaged = false;

	j->number = raw->number;
	j->index = index;
	j->parsed = !cli_games.noparse && (cli_games.need_parse == NULL ||
	    cli_games.need_parse(j, raw));
	/* (err is filled by cd_pgn_parse, first thing); a game not
	 * parsed is rejected as the parser would reject it for what is
	 * read of it: its bytes and its tag section */
	st = j->parsed ? cd_pgn_parse(j->game, raw, &j->opts, &err) :
	    cd_pgn_raw_check_text(raw, &err);
	if (st == CD_ERR_NOMEM)
		cli_fatal("out of memory");
	if (st != CD_OK) {
		if (raw->flags & (CD_PGN_RAW_NUL | CD_PGN_RAW_TOO_LARGE))
			cli_pgn_refused();	/* (binary data: exit 1) */
		else if (j->parsed && cli_games.salvage != NULL)
			salvaged = cli_games.salvage(j, raw, &err);
		if (!salvaged) {
			reject(w, file, raw, err.line, err.col,
			    err.msg[0] ? err.msg : cd_strerror(st));
			return;
		}
	}
	j->line = j->col = 0;
	if ((why = cli_games.each(j, raw)) != NULL) {
		reject(w, file, raw, j->line ? j->line : raw->line,
		    j->line ? j->col : raw->col, why);
		return;
	}
	w->o->written++;
	if (salvaged) {	/* kept in part: its bytes go to the rejects */
		w->o->salvaged++;
		cli_buf_reserve(&w->o->rej, raw->len);
		memcpy(w->o->rej.data + w->o->rej.len, raw->text, raw->len);
		w->o->rej.len += raw->len;
	}
}

/* Parse w's batch into its output, and empty the batch. */
static void
batch_run(struct worker *w)
{
	struct batch *b = &w->batch;
	struct output *o = w->o;
	size_t i;

	cli_capture = &o->msg;
	w->job.out = &o->out;
	w->job.file = b->file;
	for (i = 0; i < b->ngames; i++) {
		cli_pgn_skipped(b->file, &b->games[i]);
		game_run(w, b->file, &b->games[i], b->first + i);
	}
	cli_capture = NULL;
	o->last = b->first + b->ngames - 1;
	o->bytes = b->bytes;
	b->text.len = 0;
	b->ngames = b->ntags = 0;
}

/* Write an output and empty it: its turn has come (what was read
 * before is written), and only one thread writes at a time. */
static void
emit(struct output *o)
{
	if (o->msg.len > 0) {
		/* one write, not one per line (stderr is line buffered) */
		cli_progress_end();
		fflush(stderr);
		(void)cli_write_all(2, o->msg.data, o->msg.len);	/* (not
							 * reported) */
	}
	if (o->rej.len > 0)
		cli_rejects_write(o->rej.data, o->rej.len);
	if (cli_games.emit != NULL)
		cli_games.emit(o->out.data, o->out.len);
	else
		cli_output_write(o->out.data, o->out.len);
	cli_games.written += o->written;
	cli_games.rejected += o->rejected;
	cli_games.salvaged += o->salvaged;
	o->salvaged = 0;
	o->out.len = o->msg.len = o->rej.len = 0;
	o->written = o->rejected = 0;
	cli_progress(o->last, o->bytes);
}

/* Write what an output holds so far, in its turn (one thread writes):
 * the counts and the progress line wait for the whole batch. */
static void
emit_part(struct output *o)
{
	uint64_t written = o->written, rejected = o->rejected;

	o->written = o->rejected = 0;
	emit(o);
	o->written = written;
	o->rejected = rejected;
}

void
cli_games_flush(struct cli_job *j)
{
	struct worker *w = (struct worker *)j;

	if (w->seq < 0) {
		emit_part(w->o);
		return;
	}
	/* wait for the turn of w's batch: the earlier ones are being
	 * written or parsed by threads that do not wait for this one */
	pthread_mutex_lock(&pool.lock);
	while (pool.emitted != (uint64_t)w->seq || pool.writing)
		pthread_cond_wait(&pool.turn, &pool.lock);
	pool.writing = true;
	pthread_mutex_unlock(&pool.lock);
	emit_part(w->o);
	pthread_mutex_lock(&pool.lock);
	pool.writing = false;
	pthread_cond_broadcast(&pool.turn);
	pthread_mutex_unlock(&pool.lock);
}

/*
 * Take read_lock.  Another thread holds it only while it reads a batch,
 * a fraction of the time a batch takes to parse (a tenth on OTB, a
 * quarter on TCEC): rather than sleep and be woken (a system call each,
 * and the time the system takes to run the thread again), wait for it
 * a moment, READ_SPIN tries apart by a pause, about 50 us (TCEC, two
 * threads: a thread slept on it once every twenty batches, 327 times).
 * Only then sleep: the holder may have been set aside by the system.
 */
#define READ_SPIN	1000

static void
read_lock(void)
{
	unsigned i;

	for (i = 0; i < READ_SPIN; i++) {
		if (pthread_mutex_trylock(&pool.read_lock) == 0)
			return;
#if defined(__x86_64__) || defined(__i386__)
		__builtin_ia32_pause();
#endif
	}
	pthread_mutex_lock(&pool.read_lock);
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
	/* the games read: counted here and stored once a batch, as the
	 * last game is noted, not on the line the other threads read
	 * cli_games from at every game */
	uint64_t read, limit = cli_games.limit;

	read_lock();
	if (pool.done) {
		pthread_mutex_unlock(&pool.read_lock);
		return -1;
	}
	seq = (int64_t)pool.seq++;
	b->file = pool.file;
	b->first = (read = cli_games.read) + 1;
	if (pool.have_next) {
		pool.have_next = false;
		read++;
		(void)batch_fits(b, &pool.next);	/* (empty: it fits) */
		batch_add(b, &pool.next);
	}
	while (b->text.len < BATCH_BYTES) {
		if (cli_games.stop || (limit != 0 && read >= limit)) {
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
		if (!batch_fits(b, &raw)) {
			pool.next = raw;	/* (valid until the reader's
						 * next call, by the next batch) */
			pool.have_next = true;
			break;
		}
		read++;
		batch_add(b, &raw);
	}
	/* the note of the last game read (what is noted of it are its
	 * number, place and flags, copied as they are) */
	if (b->ngames > 0)
		cli_pgn_end_note(pool.file, &b->games[b->ngames - 1], CD_OK);
	cli_games.read = read;
	b->bytes = pool.base + cd_pgn_reader_tell(pool.reader);
	pthread_mutex_unlock(&pool.read_lock);
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
	struct output *o = w->o = &pool.outputs[0];	/* all are free */
	cd_status st = CD_OK;
	uint64_t at = 0;	/* where the input stood at the last emit */

	memset(end, 0, sizeof(*end));
	w->seq = -1;
	cli_capture = &o->msg;
	w->job.out = &o->out;
	w->job.file = name;
	while (!cli_games.stop && (cli_games.limit == 0 ||
	    cli_games.read < cli_games.limit) &&
	    (st = cd_pgn_reader_next(r, end)) == CD_OK) {
		cli_pgn_notes(name, end, st);
		game_run(w, name, end, ++cli_games.read);
		/* every 256 games, or DIRECT_BYTES in or out: small rows
		 * of long games go out as soon as four batches would (the
		 * reader stands at the game's end: cd_pgn_reader_tell) */
		if (o->out.len >= DIRECT_BYTES ||
		    (cli_games.read & 255) == 0 ||
		    end->offset + end->len - at >= DIRECT_BYTES) {
			o->last = cli_games.read;
			o->bytes = pool.base + (at = cd_pgn_reader_tell(r));
			emit(o);
		}
	}
	o->last = cli_games.read;
	o->bytes = pool.base + cd_pgn_reader_tell(r);
	emit(o);
	cli_capture = NULL;
	return st;
}

/*
 * Take one of w's outputs for its next batch, waiting while every one
 * waits for its turn (or, past HELD_BYTES, while more than one does).
 * A batch holds its output from before it is read until it is written,
 * so at most nout batches are read and not written, and slot[s % nout]
 * is batch s's alone.  A thread keeps its outputs: their memory stays
 * in its core's cache and its arena, and the last one written is the
 * next one taken.
 */
static void
output_take(struct worker *w)
{
	pthread_mutex_lock(&pool.lock);
	while (w->nfree == 0 || (w->nfree + 1 < w->nown &&
	    pool.held > HELD_BYTES)) {
		w->waiting = true;
		pthread_cond_wait(&w->room, &pool.lock);
	}
	w->waiting = false;
	w->o = w->free[--w->nfree];
	pthread_mutex_unlock(&pool.lock);
}

/* An output written, or not used (no batch to read): its thread's
 * again (under pool.lock), which is woken only if it waits. */
static void
output_free(struct output *o)
{
	struct worker *w = o->owner;

	w->free[w->nfree++] = o;
	if (w->waiting)
		pthread_cond_signal(&w->room);
}

/*
 * Parse the batch w has read (number seq) into its output; then, if no
 * thread is writing, write the outputs that are ready from the one
 * whose turn it is, in order, until one is not (still being parsed)
 * or none is left: this one, maybe others before and after it.  A
 * thread that finds another writing leaves its output to that one.
 */
static void
batch_turn(struct worker *w, int64_t seq)
{
	struct output *o = w->o;
	struct output **slot;

	w->seq = seq;
	batch_run(w);
	o->held = o->out.len + o->msg.len + o->rej.len;
	pthread_mutex_lock(&pool.lock);
	pool.slot[(uint64_t)seq % pool.nout] = o;
	pool.held += o->held;
	if (!pool.writing) {
		pool.writing = true;
		while ((o = *(slot = &pool.slot[pool.emitted %
		    pool.nout])) != NULL) {
			pthread_mutex_unlock(&pool.lock);
			emit(o);
			pthread_mutex_lock(&pool.lock);
			*slot = NULL;
			pool.held -= o->held;
			pool.emitted++;
			output_free(o);
		}
		pool.writing = false;
		pthread_cond_broadcast(&pool.turn);
	}
	pthread_mutex_unlock(&pool.lock);
}

/* Read, parse and write batches of the input until it ends.  (When
 * every thread has done, every output is written: a thread that makes
 * an output ready writes it unless another is writing, and the one
 * writing goes on while the next is ready.) */
static void
work(struct worker *w)
{
	int64_t seq;

	for (;;) {
		output_take(w);
		if ((seq = batch_read(w)) < 0)
			break;
		batch_turn(w, seq);
	}
	pthread_mutex_lock(&pool.lock);
	output_free(w->o);
	pthread_mutex_unlock(&pool.lock);
}

/* The other threads: work on each input begun. */
static void *
worker(void *arg)
{
	struct worker *w = arg;
	uint64_t seen = 0;
	bool mine;

	if ((w->job.game = cd_game_new()) == NULL)
		cli_fatal("out of memory");
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
	unsigned i, k, n = cli_games.jobs ? cli_games.jobs : cli_cpus();

	if (cli_games.noparse)
		n = 1;	/* direct_games: no game, no other thread */

	if (n > 256)
		n = 256;
	pool.njobs = n;
	k = OUTPUTS / n;
	k = k < 2 ? 2 : k > OUTPUTS_PER_JOB ? OUTPUTS_PER_JOB : k;
	pool.nout = n * k;
	pool.workers = aligned_alloc(LINE, n * sizeof(*pool.workers));
	pool.outputs = aligned_alloc(LINE, pool.nout * sizeof(*pool.outputs));
	pool.slot = calloc(pool.nout, sizeof(*pool.slot));
	if (pool.workers == NULL || pool.outputs == NULL || pool.slot == NULL)
		cli_fatal("out of memory");
	memset(pool.workers, 0, n * sizeof(*pool.workers));
	memset(pool.outputs, 0, pool.nout * sizeof(*pool.outputs));
	for (i = 0; i < n; i++) {
		struct worker *w = &pool.workers[i];
		struct cli_job *j = &w->job;
		struct output *o;

		if (pthread_cond_init(&w->room, NULL) != 0)
			cli_fatal("out of memory");
		/* (taken last first: outputs[i * nown] first) */
		w->nown = k;
		for (o = &pool.outputs[(i + 1) * w->nown];
		    o-- > &pool.outputs[i * w->nown];) {
			o->owner = w;
			w->free[w->nfree++] = o;
		}

		/* (the other threads make their own: in their arenas, not
		 * next to this one's) */
		if (i == 0 && !cli_games.noparse &&
		    (j->game = cd_game_new()) == NULL)
			cli_fatal("out of memory");
		j->opts = cli_games.opts;
		if (cli_pgn_flags & CD_PGN_READ_NESTED_COMMENTS)
			j->opts.flags |= CD_PGN_PARSE_NESTED_COMMENTS;
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
pool_games(cd_pgn_reader *r, const char *name)
{
	struct worker *w = &pool.workers[0];
	int64_t seq = -1;

	/* one CPU fewer by default while a thread decompresses the input
	 * (three busy threads on two CPUs lose to two) */
	pool.active = pool.njobs;
	if (cli_games.jobs == 0 && pool.njobs > 1 &&
	    cli_input_threaded(cd_pgn_reader_stream(r)))
		pool.active--;
	if (pool.active == 1)
		return direct_games(r, name, &pool.end);
	pool.reader = r;
	pool.file = name;
	pool.done = 0;
	pool.have_next = false;
	if (pool.nthreads == 0 && pool.njobs > 1) {
		/* the first batch before any other thread: an input of one
		 * batch (an empty one, a small file) starts none, and a
		 * process that meets only such inputs starts fast */
		output_take(w);
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
	cd_pgn_reader *r = cli_pgn_reader_new(f);
	cd_status st;
	int ret;

	cli_pgn_watch(r);
	if (pool.workers == NULL)
		pool_start();
	/* no other thread works now: the fields are this thread's */
	pool.base = cli_games.bytes;
	st = pool_games(r, name);
	cli_games.bytes = pool.base + cd_pgn_reader_tell(r);
	if (st != CD_OK)	/* not stopped: the input's end */
		cli_pgn_notes(name, &pool.end, st);
	ret = cli_read_end(name, st, cd_pgn_reader_error(r),
	    cd_pgn_reader_stream(r));
	cd_pgn_reader_free(r);
	return ret;
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
	}
	for (i = 0; i < pool.nout; i++) {
		free(pool.outputs[i].out.data);
		free(pool.outputs[i].msg.data);
		free(pool.outputs[i].rej.data);
	}
	for (i = 0; i < pool.njobs; i++)
		pthread_cond_destroy(&pool.workers[i].room);
	free(pool.workers);
	free(pool.outputs);
	free(pool.slot);
}
