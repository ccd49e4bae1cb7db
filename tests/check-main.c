/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * check-main.c: the main of every Check suite program (linked to each
 * from tests/libcheckmain.a): runs the suites of the program's table
 * (tests/check-main.h) in one runner, in Check's default fork mode (the
 * CK_FORK environment variable chooses), and exits 0 when every test
 * passed, 1 otherwise.
 */
#include "config.h"

#include <check.h>
#include <stdlib.h>

#include "check-main.h"

int
main(int argc, char **argv)
{
	SRunner *sr;
	int failed, i;

	if (argc > 1 && tu_args != NULL)
		return tu_args(argc, argv);
	sr = srunner_create(tu_suites[0]());
	for (i = 1; tu_suites[i] != NULL; i++)
		srunner_add_suite(sr, tu_suites[i]());
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
