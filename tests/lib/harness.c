/*
 * harness.c -- the counters, the table of named checks and the closing
 * line of every test binary (harness.h says how a binary uses them).
 */
#include <stdarg.h>
#include <time.h>

#include "harness.h"

int	harness_passed, harness_failed, harness_skipped;

/* The binary's table and which of its checks run (NULL: all). */
static const struct harness_test	*tests;
static size_t				 ntests;
static char				**wanted;
static int				 nwanted;
/* The first skip's reason, for the summary line. */
static char				 skip_why[160];

/* Is name (a table entry) the check the argument asks for? */
static int
names(const char *name, const char *arg)
{
	if (strcmp(name, arg) == 0)
		return 1;
	return strncmp(name, "test_", 5) == 0 && strcmp(name + 5, arg) == 0;
}

static void
usage(const char *prog)
{
	fprintf(stderr, "usage: %s [--list] [check ...]\n", prog);
	exit(2);
}

/*
 * Read the command line before any set-up: --list prints the checks and
 * exits, an unknown name exits 2 (a typo must not pass as "0 failed").
 */
void
harness_init(int argc, char **argv, const struct harness_test *t, size_t n)
{
	size_t	 i;
	int	 a, found;

	tests = t;
	ntests = n;
	for (a = 1; a < argc; a++) {
		if (strcmp(argv[a], "--list") == 0) {
			for (i = 0; i < n; i++)
				printf("%s\n", strncmp(t[i].name, "test_", 5) ==
				    0 ? t[i].name + 5 : t[i].name);
			exit(0);
		}
		if (argv[a][0] == '-')
			usage(argv[0]);
		for (found = 0, i = 0; i < n && !found; i++)
			found = names(t[i].name, argv[a]);
		if (!found) {
			fprintf(stderr, "%s: no check named %s (--list lists "
			    "them)\n", argv[0], argv[a]);
			exit(2);
		}
	}
	if (argc > 1) {
		wanted = argv + 1;
		nwanted = argc - 1;
	}
}

/*
 * Does the command line ask for the check called name?  A name that
 * the table lacks is a slip in the test (--list would not show it).
 */
int
harness_selected(const char *name)
{
	size_t	 i;
	int	 a;

	for (i = 0; i < ntests && strcmp(tests[i].name, name) != 0; i++)
		continue;
	if (i == ntests) {
		fprintf(stderr, "harness: check %s is not in the table\n",
		    name);
		exit(2);
	}
	if (wanted == NULL)
		return 1;
	for (a = 0; a < nwanted; a++)
		if (names(name, wanted[a]))
			return 1;
	return 0;
}

/* Does the command line ask for every check (no name given)? */
int
harness_all(void)
{
	return wanted == NULL;
}

/* Run the checks asked for that are functions, in the table's order. */
void
harness_run(void)
{
	size_t	 i;

	for (i = 0; i < ntests; i++)
		if (tests[i].fn != NULL && harness_selected(tests[i].name))
			tests[i].fn();
}

/* A check that cannot run here: counted, and said why (run.sh shows it). */
void
harness_skip(const char *fmt, ...)
{
	va_list	 ap;

	harness_skipped++;
	fputs("SKIPPED: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	if (skip_why[0] == '\0') {
		va_start(ap, fmt);
		vsnprintf(skip_why, sizeof(skip_why), fmt, ap);
		va_end(ap);
	}
}

int
harness_done(void)
{
	/* The summary line says why, where run.sh and CI read it. */
	if (harness_skipped > 0)
		printf("%d passed, %d failed, %d skipped (%s%s)\n",
		    harness_passed, harness_failed, harness_skipped, skip_why,
		    harness_skipped > 1 ? ", and more" : "");
	else
		printf("%d passed, %d failed\n", harness_passed,
		    harness_failed);
	return harness_failed == 0 ? 0 : 1;
}

/* CAPSULED_VALGRIND=1 (make valgrind): everything runs under memcheck. */
int
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
double
harness_time_bound(double seconds)
{
	return harness_valgrind() ? seconds * 20 : seconds;
}

/* Milliseconds of the monotonic clock. */
uint64_t
harness_now_ms(void)
{
	struct timespec	 ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

/* The same clock in fractional milliseconds, for a measure. */
double
harness_now_msf(void)
{
	struct timespec	 ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

void
harness_sleep_ms(unsigned ms)
{
	struct timespec	 ts = { ms / 1000, (long)(ms % 1000) * 1000000L };

	nanosleep(&ts, NULL);
}

/*
 * Ask cond(arg) every 10 ms until it says yes or limit_ms have passed;
 * returns its last answer (a wait in a test is always bounded).
 */
int
harness_poll(unsigned limit_ms, int (*cond)(void *), void *arg)
{
	uint64_t	 t0 = harness_now_ms();
	int		 yes;

	while (!(yes = cond(arg)) && harness_now_ms() - t0 < limit_ms)
		harness_sleep_ms(10);
	return yes;
}
