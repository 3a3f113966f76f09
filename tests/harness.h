/*
 * harness.h -- a tiny test harness in the style of cmark's
 * api_test/harness.h.  Each test binary calls the checks, then returns
 * harness_done(), which prints "N passed, N failed" (the line the suite
 * runner and CI read) and gives the exit status.
 */
#ifndef CAPSULED_HARNESS_H
#define CAPSULED_HARNESS_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int harness_passed, harness_failed;

/* CAPSULED_VALGRIND=1 (make valgrind): everything runs under memcheck. */
static inline int
harness_valgrind(void)
{
	const char	*v = getenv("CAPSULED_VALGRIND");

	return v != NULL && *v != '\0' && strcmp(v, "0") != 0;
}

/*
 * A bound on time in a test catches a hang or a blow-up, not a slowdown
 * (make bench measures speed).  Under valgrind code runs some 20 times
 * slower, and a busy machine slows it again, so the bound grows there.
 */
static inline double
harness_time_bound(double seconds)
{
	return harness_valgrind() ? seconds * 20 : seconds;
}

#define OK(cond, ...) do {						\
	if (cond) {							\
		harness_passed++;					\
	} else {							\
		harness_failed++;					\
		fprintf(stderr, "FAIL %s:%d: ", __FILE__, __LINE__);	\
		fprintf(stderr, __VA_ARGS__);				\
		fputc('\n', stderr);					\
	}								\
} while (0)

#define INT_EQ(got, want, what) do {					\
	long long g_ = (long long)(got), w_ = (long long)(want);	\
	OK(g_ == w_, "%s: got %lld, want %lld", (what), g_, w_);	\
} while (0)

#define STR_EQ(got, want, what) do {					\
	const char *g_ = (got), *w_ = (want);				\
	OK(g_ != NULL && w_ != NULL ? strcmp(g_, w_) == 0 : g_ == w_,	\
	    "%s: got \"%s\", want \"%s\"", (what),			\
	    g_ ? g_ : "(null)", w_ ? w_ : "(null)");			\
} while (0)

/* Does hay contain needle? */
#define HAS(hay, needle, what) do {					\
	const char *h_ = (hay), *n_ = (needle);				\
	OK(h_ != NULL && strstr(h_, n_) != NULL,			\
	    "%s: \"%s\" not found in:\n%s", (what), n_,			\
	    h_ ? h_ : "(null)");					\
} while (0)

static inline int
harness_done(void)
{
	printf("%d passed, %d failed\n", harness_passed, harness_failed);
	return harness_failed == 0 ? 0 : 1;
}

#endif
