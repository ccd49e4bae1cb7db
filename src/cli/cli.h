/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * cli.h: what every tool shares: its name, messages in the form
 * "prog: file:line:col: message", opening inputs, the files a tool
 * writes (-o and --rejects: a temporary file put in place when the run
 * succeeds), the progress line, and the one exit path that checks
 * standard output.
 */
#ifndef CD_CLI_H
#define CD_CLI_H

#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>

#include "chessdata.h"

extern const char *cli_prog;
/* (src/cli/msg.c, from cli_init: the program name from argv[0], the
 * start of the clock of --stats and the progress line) */
void cli__msg_start(const char *name);

/* Set the program name; open /dev/null on descriptors 0-2 that are
 * closed (for reading on 1 and 2, for writing on 0: using them fails
 * with EBADF, and no file the tool opens takes their place); ignore
 * SIGPIPE and SIGXFSZ (a write error on a closed pipe ends the tool
 * quietly through cli_write_error, others are reported); on SIGINT,
 * SIGTERM, SIGHUP, SIGQUIT, SIGALRM, SIGXCPU, SIGVTALRM, SIGPROF,
 * SIGUSR1 and SIGUSR2 (every signal that would end it) remove the
 * temporary files (cli_tmp_create) and those of the outputs, then die
 * of the signal. */
void cli_init(const char *name);

/* "prog: message" on standard error. */
void cli_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* "prog: file:line:col: message"; line or col 0 leaves that part out. */
void cli_warn_at(const char *file, unsigned long line, unsigned long col,
    const char *fmt, ...) __attribute__((format(printf, 4, 5)));
/* A usage error: the message, a hint to --help, exit 2. */
void cli_usage_error(const char *fmt, ...)
    __attribute__((format(printf, 1, 2), noreturn));
/* A system error: the message, exit 2 (after cleanup). */
void cli_fatal(const char *fmt, ...)
    __attribute__((format(printf, 1, 2), noreturn));

/* Room in the array whose pointer is at pp (*cap elements of size) for
 * one more than n: doubled, from min; a system error (exit 2) without
 * memory. */
void cli_grow(void *pp, size_t *cap, size_t n, size_t size, size_t min);

/* "prog (chessdata) VERSION" on standard output. */
void cli_print_version(void);

/* Open an input: "-" or NULL is standard input, shown as "<stdin>".
 * NULL on failure (a message has been printed). */
FILE *cli_open_input(const char *name, const char **display);
void cli_close_input(FILE *f);

/* Note the inputs a tool will read, argv[first..argc) or standard
 * input when none is named, before cli_output_open and
 * cli_rejects_open: they refuse (exit 2, before anything is read or
 * written) a rejects file that is an input, standard output that is an
 * input ("prog: FILE: input file is output file", as cat(1)), and -o
 * and --rejects naming one file; through links, by device and inode. */
void cli_inputs(int argc, char **argv, int first);

/* The output: standard output when path is NULL or "-"; a device, a
 * FIFO or a socket in place; else, through symbolic links, a
 * temporary file DIR/.PROG.XXXXXX beside the target, put in place by
 * cli_exit when the run ends with status 0 or 1 and removed on any
 * other end (so -o may name an input, and a failed run leaves the file
 * as it was).  Put in place by rename(2) when the target is new, or
 * has one link, and an owner and mode the new file could be given, and
 * no extended attributes; else copied into the target in place (its
 * inode, links and ACL stay; room allocated first). */
FILE *cli_output_open(const char *path);
/* The output cli_output_open opened (standard output before). */
FILE *cli_output_file(void);
/* Exit 2 with a message if the output has a write error (call per
 * game, so a closed pipe stops the tool at once). */
void cli_output_check(void);
/* Write n bytes to the output and check it as cli_output_check does.
 * A block of OUTPUT_DIRECT bytes or more goes to the file with
 * write(2) from data itself (after what stdio holds), not copied into
 * stdio's buffer first; a compressed output (no file descriptor) takes
 * every block through stdio. */
#define OUTPUT_DIRECT	((size_t)32 << 10)
void cli_output_write(const void *data, size_t n);
/* The blocks iov[0..n) (which it changes) to the output from where they
 * lie, with writev(2) (through stdio when compressed); an error as
 * cli_output_check. */
struct iovec;
void cli_output_writev(struct iovec *iov, int n);
/* Write all of iov[0..n) (which it changes), or the n bytes at p, to
 * fd, going on after EINTR and short writes: 0, or -1 with errno set
 * (EIO for a write that wrote nothing).  Every write of the tools goes
 * through these. */
int cli_writev_all(int fd, struct iovec *iov, int n);
int cli_write_all(int fd, const void *p, size_t n);

/* A write on fd (the output named name; -1 once closed) failed with
 * errno err: when nobody reads the pipe any more, die of SIGPIPE
 * quietly as sort(1) does (after cleanup); else "write error on NAME:
 * ...", exit 2. */
void cli_write_error(int fd, const char *name, int err)
    __attribute__((noreturn));

/* getopt_long returned ':' (a missing value) or '?' (an unknown
 * option): the message, a hint to --help, exit 2. */
void cli_bad_option(int c, char *const *argv) __attribute__((noreturn));

/* Run fn on each input named in argv[first..argc), or on standard input
 * when none is named.  A file that cannot be opened is reported and
 * skipped.  Returns 2 if a file could not be opened or fn returned
 * non-zero for one, else 0. */
int cli_each_input(int argc, char **argv, int first,
    int (*fn)(FILE *f, const char *name));
/* When set, asked before each input: non-zero opens no further input
 * (the games wanted are read: pgn-select -m, --games). */
extern int (*cli_inputs_done)(void);

/* The rejects file (--rejects=FILE; nothing happens when path is
 * NULL): the original bytes of each rejected game or line, unchanged.
 * Written as -o is (cli_output_open): put in place by cli_exit when the
 * run ends with status 0 or 1.  A write error is fatal (exit 2). */
void cli_rejects_open(const char *path);
void cli_rejects_write(const void *bytes, size_t len);
void cli_rejects_close(void);

/* Another file a tool's own option names (pgn-dedup --groups=FILE;
 * what: "groups", for messages): written as -o is (cli_output_open),
 * through links, a device or FIFO in place, else to a temporary file
 * put in place by cli_exit when the run ends with status 0 or 1; one
 * that is an input or another output is refused (exit 2), as a
 * rejects file is.  Open it after cli_inputs; cli_exit closes it (a
 * write error: exit 2).  cli_output_named_check(f): exit 2 with the
 * message when f has had a write error. */
FILE *cli_output_named(const char *what, const char *path);
void cli_output_named_check(FILE *f);

/* Call after every cd_pgn_reader_next (the CD_EOF call too): warns
 * about text skipped before a game (unless quiet), and at the end of an
 * input about a last game without a termination marker, which is how a
 * truncated file looks ("warning: game N: no termination marker at the
 * end of the input (truncated?)"; always, quiet or not).  The two halves:
 * cli_pgn_skipped (the first) and cli_pgn_end_note (the second, which
 * keeps the state of the last game read: one thread). */
void cli_pgn_notes(const char *file, const cd_pgn_raw_game *raw, int st);
void cli_pgn_skipped(const char *file, const cd_pgn_raw_game *raw);
/* The same after the last game (CD_EOF: no game to name).  Both report
 * skipped binary data (CD_PGN_RAW_SKIPPED_BINARY) as an error, quiet or
 * not: "not PGN text: binary data (N bytes skipped ...)", and cli_exit
 * then gives 1 at least. */
void cli_pgn_skipped_end(const char *file, const cd_pgn_raw_game *raw);
/* For a tool that takes games without parsing them: 1 (reported as
 * "file:line:col: game N: message", and cli_exit then gives 1 at
 * least) when cd_pgn_raw_check refuses the game, else 0, with a
 * warning for a tag pair that does not read or a comment never closed
 * (cd_pgn_raw_check_text: the game is kept). */
int cli_pgn_check(const char *file, const cd_pgn_raw_game *raw);
/* Binary data, a game too large (cd_pgn_raw_check) or input of the
 * wrong kind was met: cli_exit gives 1 at least. */
void cli_pgn_refused(void);
/* (for cli_exit: whether cli_pgn_refused was called) */
int cli__pgn_refused_any(void);
void cli_pgn_end_note(const char *file, const cd_pgn_raw_game *raw,
    int st);

/*
 * Input of the wrong kind (src/cli/kind.c).  cli_epd_wrong_kind, before
 * an EPD input's first line: when its start looks like PGN or binary
 * data (cd_sniff), says so ("FILE: looks like PGN, not EPD (use
 * pgn2epd ...)") and returns 1: the tool reads no more of it (exit
 * status 2).  cli_epd_cut_line: the message for a last line that a read
 * error cut (cd_epd_reader_next gave CD_ERR_IO with the line's bytes).
 * cli_pgn_wrong_kind, from cli_pgn_skipped: a first game without tags
 * whose text looks like EPD gets "FILE: looks like EPD, not PGN (use
 * epd-validate or chess-perft)" and calls cli_pgn_refused (exit
 * status 1 at least).  cli_pgn_wrong_kind_end, from
 * cli_pgn_skipped_end: the same for an input with no game whose
 * skipped text looks like EPD, when cli_pgn_watch was called on its
 * reader (it keeps the input's first bytes through
 * cd_pgn_reader_on_gap).
 */
int cli_epd_wrong_kind(cd_epd_reader *r, const char *name);
void cli_epd_cut_line(const char *name, const cd_epd_reader *r);
void cli_pgn_wrong_kind(const char *file, const cd_pgn_raw_game *raw);
void cli_pgn_watch(cd_pgn_reader *r);
void cli_pgn_wrong_kind_end(const char *file, const cd_pgn_raw_game *end);

/* Grow b (start it zeroed) to room for n more bytes; out of memory is
 * fatal. */
void cli_buf_reserve(cd_buf *b, size_t n);

/* When set, this thread's warnings (cli_warn, cli_warn_at) are appended
 * to the buffer instead of being printed; fatal errors still go to
 * standard error at once. */
extern __thread cd_buf *cli_capture;

/* The status of the last read of an input, with its reader's error
 * and stream (cd_pgn_reader_error, cd_pgn_reader_stream, or the EPD or
 * PGC reader's; either may be NULL): out of memory is fatal; a read
 * error is reported with the reader's message ("prog: file: read error:
 * ...", "prog: file: truncated zstd input ...") and gives 2; else the
 * stream's warning about input read past, if any, is said, and 0.  The
 * members of a .zip input passed over, unread, are said first, each
 * "prog: file:member: why", and give 2. */
int cli_read_end(const char *name, cd_status st, const cd_error *err,
    const cd_stream *s);

/*
 * Compressed inputs (src/cli/stream.c).  cli_open_input gives an input
 * as it is; the readers cli_pgn_reader_new and friends made over it
 * read a compressed input (zstd, gzip, bzip2, xz: known by its magic
 * bytes) decompressed, in a thread of its own, within --memlimit;
 * cli_read_end reports its damage ("prog: file: truncated zstd input
 * ...", exit status 2).  cli_input_memlimit: --memlimit=SIZE, the
 * decoders' memory limit in bytes (0: the library's default).
 */
void cli_input_memlimit(uint64_t bytes);
/* The inputs' names, for the members of .zip inputs in messages:
 * cli_open_input and cli_close_input note the input f named file
 * (src/cli/stream.c); its stream tells each member to cli_msg_member
 * (a cd_stream_on_member callback, ctx the name: src/cli/msg.c), after
 * cli_msg_members_forget(file) forgets those of an input read before
 * under that name.  A message at a line in a member then names the
 * member and the line in it. */
void cli_input_named(FILE *f, const char *file);
void cli_input_closed(FILE *f);
void cli_msg_member(void *ctx, const char *name, unsigned long line);
void cli_msg_members_forget(const char *file);
/* The readers of an input f from cli_open_input (or any FILE): over a
 * stream of f's descriptor with the options' flags and memory limit (a
 * FILE without a descriptor as it is).  Out of memory is fatal. */
cd_pgn_reader *cli_pgn_reader_new(FILE *f);
/* The flags of the PGN readers cli_pgn_reader_new makes
 * (CD_PGN_READ_*: --nested-comments); with CD_PGN_READ_NESTED_COMMENTS
 * the games are parsed with CD_PGN_PARSE_NESTED_COMMENTS (cli_games). */
extern unsigned cli_pgn_flags;
cd_epd_reader *cli_epd_reader_new(FILE *f);
cd_pgc_reader *cli_pgc_reader_new(FILE *f);
/* The same as a stream of decompressed bytes, for a tool that reads
 * them itself. */
cd_stream *cli_input_stream(FILE *f);
/* Whether the bytes of the file f holds from its offset on are
 * compressed (they are not the text the tool reads); 0 for a pipe. */
int cli_input_compressed(FILE *f);
/* Whether a reader's stream s is decompressed by a thread of its own
 * (a compressed input): it takes a CPU. */
int cli_input_threaded(const cd_stream *s);
/* Inputs opened from now on are decompressed in the reading thread
 * (pgn-sort -m: no thread and no blocks of its own per input). */
void cli_input_unthreaded(void);

/* The compression of the output (src/cli/output.c): -z FORMAT and
 * --level=N (either NULL: not given).  cli_output_open compresses the
 * output when -z names a format or, without -z, when the -o file's name
 * ends in .zst, .gz, .bz2 or .xz. */
void cli_output_compress(const char *format, const char *level);

/* Temporary files, removed by cli_tmp_remove, on every exit and on
 * the signals cli_init handles: a new file DIR/PREFIXXXXXXX open for
 * reading and writing (DIR: NULL or empty for $TMPDIR, else /tmp); *id
 * names it.  Failure is fatal ("cannot create a temporary file in
 * DIR: ..."). */
int cli_tmp_create(const char *dir, const char *prefix, size_t *id);
const char *cli_tmp_name(size_t id);
void cli_tmp_remove(size_t id);
/* Rename the temporary file id to path and keep it there (no longer
 * removed); 0, or -1 with errno set (it stays a temporary file). */
int cli_tmp_rename(size_t id, const char *path);
/* Remove every temporary file (cli_init makes it an exit handler). */
void cli_tmp_remove_all(void);
/* mkstemp(3) on path (malloc'd, ending in XXXXXX; the list owns it
 * from now on), a temporary file as cli_tmp_create's: its descriptor,
 * or -1 with errno set (path freed). */
int cli__tmp_mkstemp(char *path, size_t *id);

/* Block those signals (cli_init) in this thread, and restore the mask
 * (calls nest): around changes to what the signal handler reads, and
 * around pthread_create so that the handler runs in the tool's own
 * thread. */
void cli_signals_block(void);
void cli_signals_unblock(void);
/* Whether set holds one of the signals that end a tool after cleanup
 * (those cli_init handles). */
int cli__signal_pending(const sigset_t *set);

/*
 * Option values read alike by every tool (src/cli/options.c).
 *
 * cli_parse_size: a size option's value (opt names the option in
 * messages): an integer with an optional unit, b (bytes), K, M, G, T,
 * P, E (k, m, g, t too, as sort(1) takes them) or KiB, MiB, ... for
 * powers of 1024, KB, MB, ... for powers of 1000, and with
 * CLI_SIZE_PERCENT `%` of the physical memory (at most 100); no unit
 * means unit bytes.  Anything else, or more than 2^64 - 1 bytes, is a
 * usage error (exit 2).
 */
#define CLI_SIZE_PERCENT	1
uint64_t cli_parse_size(const char *opt, const char *arg, uint64_t unit,
    int flags);
/*
 * The options every tool shares, declared once: a tool names the ones
 * it takes (CLI_TAKE_*; -h/--help and -V/--version always) and passes
 * its own short and long options (without those) to cli_getopt, which
 * returns the tool's own options one by one, as getopt_long does (-1
 * at the end, optarg set), and deals with the shared ones itself:
 *   -j, --jobs=N        cli_games.jobs (1 to 256)
 *   --lang=LANG         cli_opts.lang (cd_san_lang_find)
 *   -o, --output=FILE   cli_opts.output
 *   -q, --quiet         cli_quiet
 *   --rejects=FILE      cli_opts.rejects
 *   --stats             cli_opts.stats
 *   -z, --compress=FMT and --level=N   cli_output_compress
 *   --memlimit=SIZE     cli_input_memlimit (cli_parse_size, 1 MiB at
 *                       least)
 *   --nested-comments   CD_PGN_READ_NESTED_COMMENTS in cli_pgn_flags
 *   -h, --help          usage(), exit 0
 *   -V, --version       cli_print_version, exit 0
 * An unknown option or a missing value is a usage error (exit 2).
 */
#define CLI_TAKE_JOBS		0x001
#define CLI_TAKE_LANG		0x002
#define CLI_TAKE_OUTPUT		0x004
#define CLI_TAKE_QUIET		0x008
#define CLI_TAKE_REJECTS	0x010
#define CLI_TAKE_STATS		0x020
#define CLI_TAKE_COMPRESS	0x040	/* -z, --level */
#define CLI_TAKE_MEMLIMIT	0x080
#define CLI_TAKE_NESTED		0x100	/* --nested-comments */
/* What a tool that reads games and writes a result takes: all of them. */
#define CLI_TAKE_GAMES		0x1ff
struct cli_opts {
	const char *output;	/* -o; NULL: standard output */
	const char *rejects;	/* --rejects; NULL: none */
	const cd_san_lang *lang;	/* --lang; NULL: English */
	int stats;		/* --stats */
};
extern struct cli_opts cli_opts;
struct option;
int cli_getopt(int argc, char **argv, const char *shortopts,
    const struct option *longopts, unsigned take, void (*usage)(void));
/* --help's lines for the shared options in take (CLI_TAKE_*), and for
 * -h and -V, in one layout for every tool.  A tool that says more of
 * one of them (epd-validate's -q) leaves its bit out and prints its own
 * line. */
void cli_usage_options(unsigned take);
/* The files of a run, after the options: cli_inputs (argv[first..argc)),
 * then the rejects file and the output of cli_opts (cli_rejects_open,
 * cli_output_open). */
void cli_files_open(int argc, char **argv, int first);
/* The end of a run: --stats (the counts given), status 1 at least when
 * a game was rejected, then cli_exit. */
void cli_finish(int status, uint64_t read, uint64_t written,
    uint64_t rejected) __attribute__((noreturn));
/* The value of -j: 1 to 256, else a usage error. */
unsigned cli_parse_jobs(const char *arg);

/* Call before getopt_long with the same argv, short options and long
 * options: remembers each word that follows, after a space, a long
 * option whose value is optional (getopt takes that word for an input
 * name), so that when that input cannot be opened cli_open_input says
 * "(did you mean --OPTION=WORD?)". */
void cli_options_scan(int argc, char *const *argv, const char *shortopts,
    const struct option *longopts);
/* That hint for an input name, or "". */
const char *cli__option_hint(const char *name);

/* Flush and close the output and the rejects file and exit with
 * status; a write error on the output becomes exit 2.  With status 0
 * or 1 the -o and --rejects files are put in place (unless a signal
 * came); with 2 they are discarded and the targets stay as they were. */
void cli_exit(int status) __attribute__((noreturn));

/* Seconds since an arbitrary point (monotonic). */
double cli_now(void);

/* Progress line on a terminal: call often, it prints at most every
 * quarter second and only after the first second, never when standard
 * error is not a terminal or when quiet is set. */
extern int cli_quiet;
/* What the progress line counts: "games" unless a tool says otherwise. */
extern const char *cli_unit;
void cli_progress(uint64_t games, uint64_t bytes);
void cli_progress_end(void);

/* "--stats": "prog: N games read, N written, N rejected in S s" (the
 * unit word is cli_unit). */
void cli_stats(uint64_t read, uint64_t written, uint64_t rejected);

/* Opening tables (src/cli/openings.c): cli_openings_add for each
 * --openings=FILE, then cli_openings_load reads them (without the
 * option: the files CHESSDATA_OPENINGS names, colon-separated) into
 * one table, NULL when none is named; a table that does not read is
 * reported ("prog: file:line:col: message") and exits 2.  The games
 * inputs are argv[first..argc) (none: standard input): a table that
 * they are read from too, or another table, where reading uses it up
 * (standard input, a pipe, a FIFO, a device) is a usage error. */
void cli_openings_add(const char *path);
const cd_openings *cli_openings_load(int argc, char **argv, int first);

/* A Polyglot key as 16 lower-case hex digits at d (no NUL). */
static inline void
cli_put_key(char *d, uint64_t key)
{
	int i;

	for (i = 15; i >= 0; i--, key >>= 4)
		d[i] = "0123456789abcdef"[key & 15];
}

/* The Elo tag (WhiteElo, BlackElo) of g as a number: its value when it
 * is 1 to 18 digits (leading zeros left out), else NULL. */
static inline const char *
cli_game_elo(const cd_game *g, const char *tag, size_t *len)
{
	const char *v = cd_game_tag_value(g, tag, len);
	size_t i;

	if (v == NULL || *len == 0 || *len > 18)
		return NULL;
	for (i = 0; i < *len; i++)
		if (v[i] < '0' || v[i] > '9')
			return NULL;
	while (*len > 1 && v[0] == '0')
		v++, (*len)--;
	return v;
}

#endif
