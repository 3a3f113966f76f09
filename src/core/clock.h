/*
 * clock.h -- the one monotonic clock in milliseconds.
 *
 * For intervals only (rate buckets, ticket key rotation, the cache's
 * LRU): it never jumps with the wall clock and means nothing across
 * boots.  CLOCK_MONOTONIC, the clock libuv's uv_hrtime() reads on
 * Linux, so a value from conn.c's uv_hrtime() / 1000000 is on the same
 * scale.  Knows nothing else; owns nothing.
 */
#ifndef CAPSULED_CLOCK_H
#define CAPSULED_CLOCK_H

#include <stdint.h>

/* Milliseconds since an arbitrary point; never goes back. */
uint64_t	 clock_now_ms(void);

#endif
