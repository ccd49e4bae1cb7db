/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * check-main.h: the table each Check suite program ends with, read by
 * the one main of them all (tests/check-main.c).  The table names the
 * functions that build the program's suites, run in that order by one
 * runner:
 *
 *	TU_SUITES(board_suite);
 *
 * A program that does something else when given arguments names that
 * function first; it then runs instead of the suites, and its value is
 * the exit status:
 *
 *	TU_SUITES_ARGS(corpus, pgc_suite);
 */
#ifndef CD_TESTS_CHECK_MAIN_H
#define CD_TESTS_CHECK_MAIN_H

#include <check.h>

typedef Suite *tu_suite_fn(void);
typedef int tu_args_fn(int, char **);

/* The suites' functions, up to a NULL; what runs with arguments (NULL:
 * arguments are ignored). */
extern tu_suite_fn *const tu_suites[];
extern tu_args_fn *const tu_args;

#define TU_SUITES_ARGS(args, ...) \
	tu_suite_fn *const tu_suites[] = { __VA_ARGS__, NULL }; \
	tu_args_fn *const tu_args = (args)
#define TU_SUITES(...) TU_SUITES_ARGS(NULL, __VA_ARGS__)

/* TU_CHECK(expr, format, ...): ck_assert_msg for the loops that check
 * millions of times: the test fails as there, at the assertion's line,
 * with the message, but without the mark of the place that Check writes
 * to its file for each assertion that holds (a system call each, which
 * took more time than the rest of such a test). */
#define TU_CHECK(expr, ...) do { \
	if (!(expr)) \
		ck_abort_msg(__VA_ARGS__); \
} while (0)

#endif
