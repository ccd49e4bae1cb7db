/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * cpu.c: the one probe of the processor (cpu.h), when the library is
 * loaded.  CHESSDATA_NO_SSSE3, CHESSDATA_NO_AVX2 and CHESSDATA_NO_AVX512,
 * set and not empty, turn the instructions off (CHESSDATA_NO_AVX2 the
 * AVX-512 ones too), so that the tests can compare the plain, SSSE3,
 * AVX2 and AVX-512 code on one machine.
 */
#include "config.h"

#include <stdlib.h>

#include "common/cpu.h"

#if defined(__x86_64__) && defined(__GNUC__)
int cd__have_ssse3, cd__have_avx2, cd__have_avx512, cd__have_clmul_bmi;

static void cpu_init(void) __attribute__((constructor));

static int
allowed(const char *name)
{
	const char *no = getenv(name);

	return no == NULL || *no == '\0';
}

static void
cpu_init(void)
{
	__builtin_cpu_init();
	cd__have_ssse3 = __builtin_cpu_supports("ssse3") &&
	    allowed("CHESSDATA_NO_SSSE3");
	cd__have_avx2 = __builtin_cpu_supports("avx2") &&
	    allowed("CHESSDATA_NO_AVX2");
	cd__have_clmul_bmi = __builtin_cpu_supports("pclmul") &&
	    __builtin_cpu_supports("bmi") && __builtin_cpu_supports("bmi2") &&
	    __builtin_cpu_supports("popcnt");
	cd__have_avx512 = cd__have_avx2 && cd__have_clmul_bmi &&
	    __builtin_cpu_supports("avx512f") &&
	    __builtin_cpu_supports("avx512bw") &&
	    __builtin_cpu_supports("avx512vl") &&
	    allowed("CHESSDATA_NO_AVX512");
}
#endif
