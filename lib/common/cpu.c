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
#ifdef HAVE_SYS_PLATFORM_X86_H
#include <sys/platform/x86.h>
#endif

#include "common/cpu.h"

#if defined(__x86_64__) && defined(__GNUC__)
int cd__have_ssse3, cd__have_avx2, cd__have_avx512, cd__have_clmul_bmi;

/*
 * Whether the processor has the feature that glibc names f and GCC n,
 * usable (the system saves its registers): glibc's answer where it
 * gives one, from the probe it made when it was loaded, else GCC's,
 * which probes again.  Each CPUID instruction of a probe costs a
 * virtual machine an exit to its host (3.6 us each on the machine of
 * bench/README): GCC's dozen added about 50 us to every start.
 */
#ifdef CPU_FEATURE_ACTIVE
/* glibc's x86_cpu_active (CPU_FEATURE_ACTIVE) with the bit taken
 * unsigned: its own shifts a signed 1 by up to 31 places (AVX512VL's
 * bit), which UBSan stops at. */
static int
active(unsigned int index)
{
	const struct cpuid_feature *f =
	    __x86_get_cpuid_feature_leaf(index / 128);
	unsigned int bit = index % 128;

	return (f->active_array[bit / 32] >> (bit % 32)) & 1;
}
#define HAS(f, n)	active(x86_cpu_##f)
#else
#define HAS(f, n)	__builtin_cpu_supports(n)
#endif

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
#ifndef CPU_FEATURE_ACTIVE
	__builtin_cpu_init();
#endif
	cd__have_ssse3 = HAS(SSSE3, "ssse3") && allowed("CHESSDATA_NO_SSSE3");
	cd__have_avx2 = HAS(AVX2, "avx2") && allowed("CHESSDATA_NO_AVX2");
	cd__have_clmul_bmi = HAS(PCLMULQDQ, "pclmul") && HAS(BMI1, "bmi") &&
	    HAS(BMI2, "bmi2") && HAS(POPCNT, "popcnt");
	cd__have_avx512 = cd__have_avx2 && cd__have_clmul_bmi &&
	    HAS(AVX512F, "avx512f") && HAS(AVX512BW, "avx512bw") &&
	    HAS(AVX512VL, "avx512vl") && allowed("CHESSDATA_NO_AVX512");
}
#endif
