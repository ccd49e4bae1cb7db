/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * replay.c: a main() for a fuzz harness without libFuzzer.
 *
 *	replay_NAME [FILE|DIR]...	run the harness on each file (a
 *					directory: every file below it)
 *	replay_NAME			the same over the harness's seed
 *					directories (fuzz_seeds), found
 *					through $top_srcdir and $CORPUS,
 *					as make check runs it
 *	replay_NAME --seeds		print the seed directories, one a
 *					line (for make fuzz-smoke)
 *
 * A property that fails aborts (see fuzz.h), so the test fails with the
 * file named on standard error.
 *
 * A file whose name ends in ".xfail" is a known bug not fixed yet (see
 * tests/fuzz/README): it runs in a
 * child process and must fail there (XFAIL).  When it passes (XPASS),
 * the test fails, so that the file gets renamed without ".xfail" and
 * stays as a plain regression input.
 */
#define _XOPEN_SOURCE 700	/* nftw */
#include "config.h"

#include <errno.h>
#include <ftw.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "fuzz.h"

static const char *prog = "replay";
static unsigned long nfiles, nxfail;
static int failed;

static int
is_xfail(const char *path)
{
	size_t n = strlen(path);

	return n > 6 && strcmp(path + n - 6, ".xfail") == 0;
}

/* Run a known-bad input in a child: it must fail. */
static void
run_xfail(const char *path, const uint8_t *data, size_t len)
{
	pid_t pid;
	int st;

	fflush(NULL);
	if ((pid = fork()) < 0) {
		fprintf(stderr, "%s: fork: %s\n", prog, strerror(errno));
		failed = 1;
		return;
	}
	if (pid == 0) {
		/* The failure report is expected: keep it short. */
		LLVMFuzzerTestOneInput(data, len);
		_exit(0);
	}
	if (waitpid(pid, &st, 0) < 0) {
		fprintf(stderr, "%s: waitpid: %s\n", prog, strerror(errno));
		failed = 1;
		return;
	}
	if (WIFEXITED(st) && WEXITSTATUS(st) == 0) {
		fprintf(stderr, "%s: XPASS: %s: passes now: rename it without "
		    "\".xfail\"\n", prog, path);
		failed = 1;
	} else {
		printf("%s: XFAIL: %s (known bug)\n", prog, path);
		nxfail++;
	}
}

/* Read a whole file into a buffer of exactly its size. */
static int
run_file(const char *path)
{
	FILE *f;
	uint8_t *buf = NULL, *nb;
	size_t len = 0, cap = 0, n;

	if ((f = fopen(path, "rb")) == NULL) {
		fprintf(stderr, "%s: %s: %s\n", prog, path, strerror(errno));
		failed = 1;
		return 0;
	}
	for (;;) {
		if (cap - len < 65536) {
			cap = cap ? 2 * cap : 65536;
			if ((nb = realloc(buf, cap)) == NULL) {
				fprintf(stderr, "%s: out of memory\n", prog);
				exit(2);
			}
			buf = nb;
		}
		n = fread(buf + len, 1, cap - len, f);
		len += n;
		if (n == 0)
			break;
	}
	if (ferror(f)) {
		fprintf(stderr, "%s: %s: read error\n", prog, path);
		failed = 1;
		fclose(f);
		free(buf);
		return 0;
	}
	fclose(f);
	/* An exact copy, so a read past the end is caught by ASan. */
	nb = malloc(len ? len : 1);
	if (nb == NULL) {
		fprintf(stderr, "%s: out of memory\n", prog);
		exit(2);
	}
	memcpy(nb, buf, len);
	free(buf);
	if (getenv("REPLAY_VERBOSE") != NULL)
		fprintf(stderr, "%s: %s\n", prog, path);
	if (is_xfail(path))
		run_xfail(path, nb, len);
	else
		LLVMFuzzerTestOneInput(nb, len);
	free(nb);
	nfiles++;
	return 0;
}

static int
visit(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
	(void)st;
	(void)ftw;
	if (type == FTW_F)
		return run_file(path);
	if (type == FTW_DNR || type == FTW_NS) {
		fprintf(stderr, "%s: %s: cannot read\n", prog, path);
		failed = 1;
	}
	return 0;
}

static void
run_path(const char *path)
{
	struct stat st;

	if (stat(path, &st) != 0) {
		fprintf(stderr, "%s: %s: %s\n", prog, path, strerror(errno));
		failed = 1;
		return;
	}
	if (S_ISDIR(st.st_mode))
		nftw(path, visit, 16, FTW_PHYS);
	else
		run_file(path);
}

/* The directory of a seed entry into buf; NULL when its corpus is
 * absent. */
static const char *
seed_dir(const char *entry, char *buf, size_t cap)
{
	const char *top = getenv("top_srcdir"), *corpus = getenv("CORPUS");
	struct stat st;

	if (top == NULL || *top == '\0')
		top = ".";
	if (strncmp(entry, "corpus:", 7) == 0) {
		if (corpus == NULL || *corpus == '\0') {
			snprintf(buf, cap, "%s/../shared/corpus/%s", top,
			    entry + 7);
		} else
			snprintf(buf, cap, "%s/%s", corpus, entry + 7);
		if (stat(buf, &st) != 0)
			return NULL;
	} else
		snprintf(buf, cap, "%s/%s", top, entry);
	return buf;
}

int
main(int argc, char **argv)
{
	char buf[4096];
	const char *dir;
	int i;

	if ((prog = strrchr(argv[0], '/')) != NULL)
		prog++;
	else
		prog = argv[0];
	if (strncmp(prog, "lt-", 3) == 0)
		prog += 3;
	if (argc == 2 && strcmp(argv[1], "--seeds") == 0) {
		for (i = 0; fuzz_seeds[i] != NULL; i++)
			if ((dir = seed_dir(fuzz_seeds[i], buf,
			    sizeof(buf))) != NULL)
				printf("%s\n", dir);
		return 0;
	}
	if (argc > 1) {
		for (i = 1; i < argc; i++)
			run_path(argv[i]);
	} else {
		for (i = 0; fuzz_seeds[i] != NULL; i++) {
			if ((dir = seed_dir(fuzz_seeds[i], buf,
			    sizeof(buf))) == NULL) {
				fprintf(stderr, "%s: %s: no corpus, skipped\n",
				    prog, fuzz_seeds[i]);
				continue;
			}
			run_path(dir);
		}
	}
	printf("%s: %lu inputs replayed%s", prog, nfiles,
	    failed ? "" : ", no property failed");
	if (nxfail > 0)
		printf(" (but %lu known bugs)", nxfail);
	printf("\n");
	if (nfiles == 0) {
		fprintf(stderr, "%s: no input found\n", prog);
		return 1;
	}
	return failed;
}
