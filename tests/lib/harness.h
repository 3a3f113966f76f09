/*
 * harness.h -- the test harness every test binary links (tests/lib/,
 * in the style of cmark's api_test/harness.h and libuv's runner).
 *
 * A binary's checks are named functions in a table:
 *
 *	static const struct harness_test tests[] = {
 *		TEST(test_load), TEST(test_tags),
 *	};
 *
 * main() calls harness_init() first, sets up what the checks share,
 * calls harness_run(), tears down, and returns harness_done(), which
 * prints "N passed, N failed" (", N skipped (why)" after it when a check
 * was skipped, the first reason given to harness_skip(): the line the
 * suite runner and CI read) and gives the exit
 * status.  `test_x NAME...` runs only the checks named (the "test_"
 * prefix may be left off), `test_x --list` lists them.
 *
 * A check that needs what main() made (an archive, a running server)
 * is named in the table with NAMED("name") and run where main() has
 * it with RUN("name", call): main() does its set-up for any check, and
 * checks of the set-up itself always run; a check of what all of them
 * left (a log's line count) runs only under harness_all().
 */
#ifndef CAPSULED_TEST_HARNESS_H
#define CAPSULED_TEST_HARNESS_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* What the checks of this process counted (harness.c). */
extern int	harness_passed, harness_failed, harness_skipped;

struct harness_test {
	const char	*name;		/* the function's name, static */
	void		(*fn)(void);
};

#define TEST(fn)	{ #fn, fn }
#define NAMED(name)	{ name, NULL }
#define RUN(name, call) do {						\
	if (harness_selected(name)) {					\
		call;							\
	}								\
} while (0)

/* harness_init() for a table (an array, not a pointer). */
#define HARNESS_INIT(argc, argv, t)					\
	harness_init((argc), (argv), (t), sizeof(t) / sizeof((t)[0]))

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

void	harness_init(int, char **, const struct harness_test *, size_t);
void	harness_run(void);
int	harness_selected(const char *);
int	harness_all(void);
int	harness_done(void);
void	harness_skip(const char *, ...)
	    __attribute__((format(printf, 1, 2)));
int	harness_valgrind(void);
double	harness_time_bound(double);
int	harness_poll(unsigned, int (*)(void *), void *);
uint64_t harness_now_ms(void);
double	harness_now_msf(void);
void	harness_sleep_ms(unsigned);

#endif
