/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * cli/tmp.c: the start of every tool (cli_init: standard descriptors,
 * signals) and the temporary files it must not leave behind (see
 * cli.h): those of pgn-sort's runs and pgn-split's lists, and those
 * that -o and --rejects are written to (src/cli/output.c); removed on
 * every exit and, by the handler of the signals that would end the
 * tool (SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGALRM, SIGXCPU, SIGVTALRM,
 * SIGPROF, SIGUSR1, SIGUSR2, as sort(1)), on those signals.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "chessdata.h"
#include "cli.h"

/* Temporary files to remove on every exit and on a signal: an array
 * the signal handler reads, changed only with the signals blocked. */
static char **tmp_paths;	/* NULL entries: removed or kept */
static size_t ntmp, tmp_cap;

void
cli_tmp_remove_all(void)
{
	size_t i;

	cli_signals_block();
	for (i = 0; i < ntmp; i++)
		if (tmp_paths[i] != NULL) {
			unlink(tmp_paths[i]);
			free(tmp_paths[i]);
			tmp_paths[i] = NULL;
		}
	cli_signals_unblock();
}

/* The signals whose default action ends the process, that a tool
 * handles: cleanup, then death by the same signal.  (SIGPIPE and
 * SIGXFSZ are ignored: their writes fail and are reported; SIGQUIT
 * still dumps core, after the cleanup.) */
static const int cleanup_signals[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT,
	SIGALRM, SIGXCPU, SIGVTALRM, SIGPROF, SIGUSR1, SIGUSR2 };
#define NCLEANUP	(sizeof(cleanup_signals) / sizeof(cleanup_signals[0]))

int
cli__signal_pending(const sigset_t *set)
{
	size_t i;

	for (i = 0; i < NCLEANUP; i++)
		if (sigismember(set, cleanup_signals[i]) == 1)
			return 1;
	return 0;
}

/* Those signals: remove the temporary files, those of -o and
 * --rejects among them (only unlink(2): async-signal-safe; the lists change
 * with these signals blocked), then die of the same signal. */
static void
on_signal(int sig)
{
	size_t i;

	for (i = 0; i < ntmp; i++)
		if (tmp_paths[i] != NULL)
			unlink(tmp_paths[i]);
	signal(sig, SIG_DFL);
	raise(sig);
}

static sigset_t blocked_old;
static int blocked_depth;

void
cli_signals_block(void)
{
	sigset_t s, old;
	size_t i;

	sigemptyset(&s);
	for (i = 0; i < NCLEANUP; i++)
		sigaddset(&s, cleanup_signals[i]);
	pthread_sigmask(SIG_BLOCK, &s, &old);
	if (blocked_depth++ == 0)
		blocked_old = old;
}

void
cli_signals_unblock(void)
{
	if (blocked_depth > 0 && --blocked_depth == 0)
		pthread_sigmask(SIG_SETMASK, &blocked_old, NULL);
}

/* Descriptors 0, 1 and 2 closed at start (tool >&-) are opened on
 * /dev/null, as coreutils does, so that no file the tool opens takes
 * their place (a rejects file getting the output); opened the wrong
 * way round (standard input for writing, the others for reading), so
 * that using them fails with EBADF as the closed descriptor would:
 * output to a closed standard output is a write error, exit 2. */
static void
std_fds_open(void)
{
	int fd;

	for (fd = 0; fd <= 2; fd++) {
		int nfd;

		if (fcntl(fd, F_GETFD) >= 0 || errno != EBADF)
			continue;
		nfd = open("/dev/null", fd == 0 ? O_WRONLY : O_RDONLY);
		if (nfd != fd) {
			/* (0 to 2 are free below it: cannot happen) */
			if (nfd >= 0)
				close(nfd);
			_exit(2);
		}
	}
}

void
cli_init(const char *name)
{
	size_t i;

	std_fds_open();
	cli__msg_start(name);
	/* every exit (cli_exit, cli_fatal, ...) removes them */
	atexit(cli_tmp_remove_all);
	signal(SIGPIPE, SIG_IGN);
	/* past the file size limit, writes fail with EFBIG instead */
	signal(SIGXFSZ, SIG_IGN);
	/* (a signal ignored when the tool started stays ignored, as
	 * sort(1) leaves it: nohup's SIGHUP, a background job's SIGINT
	 * and SIGQUIT) */
	for (i = 0; i < NCLEANUP; i++) {
		struct sigaction sa;

		if (sigaction(cleanup_signals[i], NULL, &sa) == 0 &&
		    sa.sa_handler == SIG_IGN)
			continue;
		signal(cleanup_signals[i], on_signal);
	}
}

int
cli__tmp_mkstemp(char *path, size_t *id)
{
	int fd, e;

	cli_signals_block();
	if (ntmp == tmp_cap) {
		size_t nc = tmp_cap ? 2 * tmp_cap : 64;
		char **nn = malloc(nc * sizeof(*nn));

		if (nn == NULL)
			cli_fatal("out of memory");
		if (ntmp > 0)
			memcpy(nn, tmp_paths, ntmp * sizeof(*nn));
		free(tmp_paths);
		tmp_paths = nn;
		tmp_cap = nc;
	}
	fd = mkstemp(path);
	e = errno;
	if (fd >= 0)
		tmp_paths[ntmp++] = path;
	cli_signals_unblock();
	if (fd < 0) {
		free(path);
		errno = e;
		return -1;
	}
	*id = ntmp - 1;
	return fd;
}

int
cli_tmp_create(const char *dir, const char *prefix, size_t *id)
{
	size_t n;
	char *name;
	int fd;

	if (dir == NULL || *dir == '\0')
		dir = getenv("TMPDIR");
	if (dir == NULL || *dir == '\0')
		dir = "/tmp";
	n = strlen(dir) + strlen(prefix) + 16;
	name = malloc(n);
	if (name == NULL)
		cli_fatal("out of memory");
	snprintf(name, n, "%s/%sXXXXXX", dir, prefix);
	if ((fd = cli__tmp_mkstemp(name, id)) < 0)
		cli_fatal("cannot create a temporary file in %s: %s", dir,
		    strerror(errno));
	return fd;
}

const char *
cli_tmp_name(size_t id)
{
	return id < ntmp && tmp_paths[id] != NULL ? tmp_paths[id] : "?";
}

void
cli_tmp_remove(size_t id)
{
	char *name;

	if (id >= ntmp)
		return;
	cli_signals_block();
	name = tmp_paths[id];
	tmp_paths[id] = NULL;
	cli_signals_unblock();
	if (name != NULL) {
		unlink(name);
		free(name);
	}
}

int
cli_tmp_rename(size_t id, const char *path)
{
	char *name;
	int r = -1;

	if (id >= ntmp || tmp_paths[id] == NULL) {
		errno = ENOENT;
		return -1;
	}
	/* no signal between the rename and forgetting the name */
	cli_signals_block();
	name = tmp_paths[id];
	if ((r = rename(name, path)) == 0)
		tmp_paths[id] = NULL;
	cli_signals_unblock();
	if (r == 0)
		free(name);
	return r;
}