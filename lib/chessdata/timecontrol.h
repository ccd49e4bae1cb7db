/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * chessdata/timecontrol.h: the TimeControl tag (standard 9.6.1) as data:
 * a list of periods separated by colons, each "MOVES/SECONDS",
 * "SECONDS" (sudden death), "SECONDS+INCREMENT" or "*SECONDS"
 * (sandclock); "?" is unknown, "-" none.  Seconds and increments may
 * have a fraction ("10+0.1", as engine testers write): they are kept as
 * the digits given, not as binary numbers.
 */
#ifndef CHESSDATA_TIMECONTROL_H
#define CHESSDATA_TIMECONTROL_H

#include <chessdata/base.h>

#ifdef __cplusplus
extern "C" {
#endif

/* One period; numbers as spans of the tag value (digits, maybe a point
 * and more digits, leading zeros dropped). */
typedef struct cd_tc_period {	/* ABI: element */
	uint32_t moves;		/* moves of the period, 0: to the end */
	const char *seconds;	/* its time */
	size_t seconds_len;
	const char *increment;	/* added after each move, NULL: none */
	size_t increment_len;
	bool sandclock;		/* "*SECONDS" */
} cd_tc_period;

/* What cd_timecontrol_parse returns besides a count of periods. */
enum {
	CD_TC_NONE = 0,		/* "-": no time control */
	CD_TC_UNKNOWN = -1,	/* "?" */
	CD_TC_INVALID = -2	/* does not read, or more than max
				 * periods */
};

/*
 * Read the TimeControl value s[0..len) into out[0..max): the number of
 * periods (at least 1), or CD_TC_NONE, CD_TC_UNKNOWN or CD_TC_INVALID.
 * White space around the value is ignored.
 */
CD_API int cd_timecontrol_parse(const char *s, size_t len,
    cd_tc_period *out, size_t max);

#ifdef __cplusplus
}
#endif
#endif
