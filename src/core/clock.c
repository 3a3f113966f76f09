/*
 * clock.c -- the monotonic millisecond clock (clock.h).
 *
 * A vDSO read on Linux, no system call, so the hot paths (a cache hit
 * touches its blob) can afford it.
 */
#include <time.h>

#include "core/clock.h"

uint64_t
clock_now_ms(void)
{
	struct timespec	 ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}
