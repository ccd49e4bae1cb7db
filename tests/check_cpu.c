/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * check_cpu.c: the library's probe of the processor (lib/common/cpu.c,
 * built into this program: its flags are not exported) against GCC's
 * own (__builtin_cpu_supports), under the CHESSDATA_NO_* variables as
 * the program was started with them: the vector code is taken where,
 * and only where, the processor has it.  With GLIBC_TUNABLES set (which
 * may turn features off for glibc, and so for the library, but not for
 * GCC's probe), only where it has it.
 */
#include "config.h"

#include <check.h>
#include <stdlib.h>

#include "check-main.h"
#include "common/cpu.h"

#if defined(__x86_64__) && defined(__GNUC__)
/* Whether the variable name is unset or empty. */
static int
unset(const char *name)
{
	const char *no = getenv(name);

	return no == NULL || *no == '\0';
}

START_TEST(test_probe)
{
	int ssse3, avx2, clmul_bmi, avx512;

	__builtin_cpu_init();
	ssse3 = __builtin_cpu_supports("ssse3") &&
	    unset("CHESSDATA_NO_SSSE3");
	avx2 = __builtin_cpu_supports("avx2") && unset("CHESSDATA_NO_AVX2");
	clmul_bmi = __builtin_cpu_supports("pclmul") &&
	    __builtin_cpu_supports("bmi") && __builtin_cpu_supports("bmi2") &&
	    __builtin_cpu_supports("popcnt");
	avx512 = avx2 && clmul_bmi && __builtin_cpu_supports("avx512f") &&
	    __builtin_cpu_supports("avx512bw") &&
	    __builtin_cpu_supports("avx512vl") &&
	    unset("CHESSDATA_NO_AVX512");
	if (unset("GLIBC_TUNABLES")) {
		ck_assert_int_eq(cd__have_ssse3, ssse3);
		ck_assert_int_eq(cd__have_avx2, avx2);
		ck_assert_int_eq(cd__have_clmul_bmi, clmul_bmi);
		ck_assert_int_eq(cd__have_avx512, avx512);
	} else {
		ck_assert_int_le(cd__have_ssse3, ssse3);
		ck_assert_int_le(cd__have_avx2, avx2);
		ck_assert_int_le(cd__have_clmul_bmi, clmul_bmi);
		ck_assert_int_le(cd__have_avx512, avx512);
	}
}
END_TEST
#endif

static Suite *
cpu_suite(void)
{
	Suite *s = suite_create("cpu");
	TCase *tc = tcase_create("cpu");

#if defined(__x86_64__) && defined(__GNUC__)
	tcase_add_test(tc, test_probe);
#endif
	suite_add_tcase(s, tc);
	return s;
}

TU_SUITES(cpu_suite);
