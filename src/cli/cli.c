/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * cli.c: the inputs of every tool (see cli.h): opening each input named
 * (standard input when none is; a compressed one through
 * src/cli/stream.c, which also says how its last read ended).  The rest of the
 * shared layer has a file per job: cli/msg.c (messages), cli/tmp.c
 * (start, signals, temporary files), cli/output.c (the files written,
 * the exit), cli/options.c (the options every tool shares), cli/kind.c
 * (what an input held besides games).
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "chessdata.h"
#include "cli.h"

FILE *
cli_open_input(const char *name, const char **display)
{
	struct stat st;
	FILE *f;

	if (name == NULL || strcmp(name, "-") == 0) {
		*display = "<stdin>";
		f = stdin;
	} else {
		*display = name;
		f = fopen(name, "rb");
		if (f == NULL) {
			int e = errno;

			cli_warn("%s: %s%s", name, strerror(e),
			    cli__option_hint(name));
			return NULL;
		}
	}
	/* A directory opens but cannot be read: say so the one way, before
	 * any reader gets an errno that something else overwrote. */
	if (fstat(fileno(f), &st) == 0 && S_ISDIR(st.st_mode)) {
		cli_warn("%s: read error: %s", *display, strerror(EISDIR));
		cli_close_input(f);
		return NULL;
	}
	cli_input_named(f, *display);
	if (f == stdin)
		return f;
	/* Large buffer: inputs are read sequentially in big blocks. */
	setvbuf(f, NULL, _IOFBF, 1 << 18);
#ifdef HAVE_POSIX_FADVISE
	posix_fadvise(fileno(f), 0, 0, POSIX_FADV_SEQUENTIAL);
#endif
	return f;
}

void
cli_close_input(FILE *f)
{
	cli_input_closed(f);
	if (f != NULL && f != stdin)
		fclose(f);
}


int (*cli_inputs_done)(void);

int
cli_each_input(int argc, char **argv, int first,
    int (*fn)(FILE *f, const char *name))
{
	int status = 0, i = first;

	do {
		const char *name;
		FILE *f;

		if (cli_inputs_done != NULL && cli_inputs_done())
			break;
		f = cli_open_input(i < argc ? argv[i] : NULL, &name);
		if (f == NULL) {
			status = 2;
			continue;
		}
		if (fn(f, name) != 0)
			status = 2;
		cli_close_input(f);
	} while (++i < argc);
	return status;
}
