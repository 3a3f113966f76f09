/*
 * test_clock.c -- clock.c: the one monotonic millisecond clock that
 * limit.c, ticket.c and cache.c read, on the scale of libuv's
 * uv_hrtime() that conn.c hands to limit.c.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include <uv.h>

#include "core/clock.h"
#include "harness.h"

static void
test_monotonic(void)
{
	uint64_t	 a, b, prev;
	int		 i, back = 0;

	prev = clock_now_ms();
	for (i = 0; i < 100000; i++) {
		a = clock_now_ms();
		if (a < prev)
			back++;
		prev = a;
	}
	INT_EQ(back, 0, "never goes back");

	a = clock_now_ms();
	nanosleep(&(struct timespec){ 0, 30 * 1000000L }, NULL);
	b = clock_now_ms();
	OK(b - a >= 30, "a 30 ms sleep: %llu ms",
	    (unsigned long long)(b - a));
	OK(b - a < (uint64_t)harness_time_bound(5) * 1000,
	    "a 30 ms sleep took %llu ms", (unsigned long long)(b - a));
}

/* conn.c passes uv_hrtime() / 1000000 where limit.c reads this clock. */
static void
test_hrtime_scale(void)
{
	uint64_t	 a, h, b;

	a = clock_now_ms();
	h = uv_hrtime() / 1000000;
	b = clock_now_ms();
	OK(a <= h && h <= b, "uv_hrtime() in ms (%llu) between %llu and %llu",
	    (unsigned long long)h, (unsigned long long)a,
	    (unsigned long long)b);
}

static const struct harness_test tests[] = {
	TEST(test_monotonic),
	TEST(test_hrtime_scale),
};

int
main(int argc, char **argv)
{
	HARNESS_INIT(argc, argv, tests);
	harness_run();
	return harness_done();
}
