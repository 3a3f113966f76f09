/*
 * test_limit.c -- limit.c: per-address connection counts, token buckets,
 * the table's growth and sweeping, and many threads at once.
 */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "harness.h"
#include "net/limit.h"

static uint64_t
clock_ms(void)
{
	struct timespec	 ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

static struct limit_key
v4(const char *s)
{
	struct sockaddr_in	 sin;
	struct limit_key	 k;

	memset(&sin, 0, sizeof(sin));
	sin.sin_family = AF_INET;
	inet_pton(AF_INET, s, &sin.sin_addr);
	limit_key((struct sockaddr *)&sin, &k);
	return k;
}

static struct limit_key
v6(const char *s)
{
	struct sockaddr_in6	 sin6;
	struct limit_key	 k;

	memset(&sin6, 0, sizeof(sin6));
	sin6.sin6_family = AF_INET6;
	inet_pton(AF_INET6, s, &sin6.sin6_addr);
	limit_key((struct sockaddr *)&sin6, &k);
	return k;
}

static void
test_keys(void)
{
	struct limit_key	 a, b;
	struct sockaddr		 sa;

	a = v4("192.0.2.1");
	b = v4("192.0.2.2");
	OK(memcmp(&a, &b, sizeof(a)) != 0, "two IPv4 hosts differ");
	a = v6("2001:db8:1:2::1");
	b = v6("2001:db8:1:2:ffff::9");
	OK(memcmp(&a, &b, sizeof(a)) == 0, "one IPv6 /64 is one key");
	b = v6("2001:db8:1:3::1");
	OK(memcmp(&a, &b, sizeof(a)) != 0, "another /64 differs");
	a = v6("::ffff:192.0.2.1");
	b = v4("192.0.2.1");
	OK(memcmp(&a, &b, sizeof(a)) == 0, "v4-mapped is the IPv4 host");
	a = v6("::ffff:192.0.2.2");
	OK(memcmp(&a, &b, sizeof(a)) != 0, "v4-mapped hosts differ");
	memset(&sa, 0, sizeof(sa));
	sa.sa_family = AF_UNIX;
	INT_EQ(limit_key(&sa, &a), -1, "AF_UNIX has no key");
}

static void
test_conns(void)
{
	struct limits		*l = limits_new(100);
	struct limit_conf	 c3 = { 3, 0, 1 }, *lc = &c3;
	struct limit_key	 a = v4("10.0.0.1"), b = v4("10.0.0.2");
	int			 i;

	for (i = 0; i < 3; i++)
		INT_EQ(limits_open(l, &a, lc), 0, "within the limit");
	INT_EQ(limits_open(l, &a, lc), -1, "fourth from one address refused");
	INT_EQ(limits_open(l, &b, lc), 0, "another address is not affected");
	limits_close(l, &a, lc);
	INT_EQ(limits_open(l, &a, lc), 0, "a slot freed by a close");
	INT_EQ(limits_open(l, &a, lc), -1, "and taken again");
	INT_EQ(limits_count(l), 2, "two addresses in the table");
	for (i = 0; i < 3; i++)
		limits_close(l, &a, lc);
	limits_close(l, &b, lc);
	INT_EQ(limits_count(l), 0, "entries go with their last connection");
	limits_close(l, &b, lc);	/* one close too many: harmless */
	INT_EQ(limits_count(l), 0, "extra close ignored");

	c3.per_addr = 0;
	for (i = 0; i < 1000; i++)
		if (limits_open(l, &a, lc) != 0)
			break;
	INT_EQ(i, 1000, "per_addr 0: no connection limit");
	for (i = 0; i < 1000; i++)
		limits_close(l, &a, lc);
	INT_EQ(limits_count(l), 0, "all closed");
	limits_free(l);
	limits_free(NULL);
}

static void
test_rate(void)
{
	struct limits		*l = limits_new(100);
	struct limit_conf	 r = { 0, 2000, 3 }, *lc = &r;
	struct limit_key	 a = v4("10.0.0.1"), b = v4("10.0.0.2");
	uint64_t		 t = clock_ms() + 1000000;
	unsigned		 w;

	INT_EQ(limits_open(l, &a, lc), 0, "open");
	INT_EQ(limits_request(l, &a, lc, t), 0, "burst 1");
	INT_EQ(limits_request(l, &a, lc, t), 0, "burst 2");
	INT_EQ(limits_request(l, &a, lc, t), 0, "burst 3");
	w = limits_request(l, &a, lc, t);
	INT_EQ(w, 1, "fourth: wait a second (2/s)");
	INT_EQ(limits_request(l, &b, lc, t), 0, "another address has its own");
	INT_EQ(limits_request(l, &a, lc, t + 499), 1, "499 ms: not yet");
	INT_EQ(limits_request(l, &a, lc, t + 500), 0, "500 ms: one token");
	INT_EQ(limits_request(l, &a, lc, t + 500), 1, "and it is spent");
	INT_EQ(limits_request(l, &a, lc, t + 100000), 0, "long after: full");
	INT_EQ(limits_request(l, &a, lc, t + 100000), 0, "burst 2");
	INT_EQ(limits_request(l, &a, lc, t + 100000), 0, "burst 3");
	INT_EQ(limits_request(l, &a, lc, t + 100000), 1, "burst capped at 3");
	INT_EQ(limits_request(l, &a, lc, t + 99000), 1,
	    "time going back: no gift");

	/* Slow rate: the wait is whole seconds, rounded up. */
	r.rate_milli = 100;		/* 0.1/s: one every 10 s */
	r.burst = 1;
	INT_EQ(limits_request(l, &a, lc, t + 200000), 0, "one");
	INT_EQ(limits_request(l, &a, lc, t + 200000), 10, "wait 10 s");
	INT_EQ(limits_request(l, &a, lc, t + 201001), 9, "then 9 (8.999)");
	r.rate_milli = 0;
	INT_EQ(limits_request(l, &a, lc, t + 200000), 0,
	    "rate 0: never limited");
	limits_close(l, &a, lc);
	limits_free(l);
}

/*
 * Handshakes: each takes a request's token; over the rate a
 * burst more goes on to a 44; past that they are refused, reported at
 * most every 10 s.
 */
static void
test_handshakes(void)
{
	struct limits		*l = limits_new(100);
	struct limit_conf	 r = { 0, 2000, 3 }, *lc = &r;
	struct limit_key	 a = v4("10.0.0.1"), b = v4("10.0.0.2");
	uint64_t		 t = clock_ms() + 1000000;
	unsigned		 w, n;
	int			 i;

	INT_EQ(limits_open(l, &a, lc), 0, "open");
	for (i = 0; i < 3; i++) {
		INT_EQ(limits_handshake(l, &a, lc, t, &w, &n), LIMIT_PAID,
		    "within the burst: paid");
		INT_EQ(w, 0, "nothing to wait");
	}
	INT_EQ(limits_request(l, &a, lc, t), 1,
	    "handshakes spent the request bucket");
	for (i = 0; i < 3; i++) {
		INT_EQ(limits_handshake(l, &a, lc, t, &w, &n), LIMIT_SLOW,
		    "a burst more: on to a 44");
		INT_EQ(w, 1, "wait a second (2/s)");
		INT_EQ(n, 0, "nothing to report");
	}
	INT_EQ(limits_handshake(l, &a, lc, t, &w, &n), LIMIT_REFUSE,
	    "then refused");
	INT_EQ(n, 1, "the first refusal is reported");
	for (i = 0; i < 50; i++)
		limits_handshake(l, &a, lc, t + 100, &w, &n);
	INT_EQ(n, 0, "the next ones are not, within 10 s");
	INT_EQ(limits_handshake(l, &b, lc, t, &w, &n), LIMIT_PAID,
	    "another address has its own");
	INT_EQ(limits_handshake(l, &a, lc, t + 500, &w, &n), LIMIT_PAID,
	    "500 ms: a token again");
	INT_EQ(limits_handshake(l, &a, lc, t + 500, &w, &n), LIMIT_SLOW,
	    "and a 44's worth");
	INT_EQ(limits_handshake(l, &a, lc, t + 500, &w, &n), LIMIT_REFUSE,
	    "then refused again");

	/* A storm at a slow rate: reported again after 10 s, with a count. */
	r.rate_milli = 1;
	r.burst = 1;
	INT_EQ(limits_handshake(l, &a, lc, t + 20000, &w, &n), LIMIT_REFUSE,
	    "slow rate: refused");
	INT_EQ(n, 52, "reported after 10 s: every refusal since");
	INT_EQ(limits_handshake(l, &a, lc, t + 20001, &w, &n), LIMIT_REFUSE,
	    "refused");
	INT_EQ(n, 0, "not reported again at once");
	r.rate_milli = 0;
	INT_EQ(limits_handshake(l, &a, lc, t + 20001, &w, &n), LIMIT_PAID,
	    "rate 0: never limited");
	limits_close(l, &a, lc);
	limits_free(l);
}

/* Many addresses: the table grows, sweeps, and stays bounded. */
static void
test_many(void)
{
	struct limits		*l = limits_new(16);
	struct limit_conf	 c = { 0, 1000, 5 }, *lc = &c;
	struct limit_key	 k;
	uint64_t		 t = clock_ms();
	char			 s[64];
	size_t			 i, peak = 0;
	int			 bad = 0;

	for (i = 0; i < 100000; i++) {
		snprintf(s, sizeof(s), "2001:db8:%zx:%zx::1", i >> 16,
		    i & 0xffff);
		k = v6(s);
		if (limits_open(l, &k, lc) != 0 ||
		    limits_request(l, &k, lc, t) != 0)
			bad++;
		limits_close(l, &k, lc);
		if (limits_count(l) > peak)
			peak = limits_count(l);
	}
	INT_EQ(bad, 0, "100000 addresses, each served");
	OK(peak <= 65536, "table bounded (%zu entries at most)", peak);
	/* Buckets of forgotten addresses start full again: allowed. */
	limits_free(l);

	/* Open connections are never forgotten, even at the bound. */
	l = limits_new(16);
	c.per_addr = 1;
	c.burst = 1;
	for (i = 0; i < 1000; i++) {
		snprintf(s, sizeof(s), "10.1.%zu.%zu", i >> 8, i & 255);
		k = v4(s);
		if (limits_open(l, &k, lc) != 0)
			bad++;
	}
	INT_EQ(bad, 0, "1000 addresses with one connection each");
	for (i = 0; i < 100000; i++) {
		snprintf(s, sizeof(s), "2001:db8:%zx:%zx::1", i >> 16,
		    i & 0xffff);
		k = v6(s);
		(void)limits_request(l, &k, lc, t);
	}
	for (i = 0; i < 1000; i++) {
		snprintf(s, sizeof(s), "10.1.%zu.%zu", i >> 8, i & 255);
		k = v4(s);
		if (limits_open(l, &k, lc) != -1)
			bad++;
	}
	INT_EQ(bad, 0, "their counts survived 100000 other addresses");
	for (i = 0; i < 1000; i++) {
		snprintf(s, sizeof(s), "10.1.%zu.%zu", i >> 8, i & 255);
		k = v4(s);
		limits_close(l, &k, lc);
	}
	limits_free(l);
}

static struct limit_conf threads_lc = { 2, 1000000, 1000 };

struct worker_arg {
	struct limits	*l;
	int		 id;
	int		 refused;
};

static void *
hammer(void *p)
{
	struct worker_arg	*w = p;
	struct limit_key	 k;
	char			 s[32];
	int			 i;

	for (i = 0; i < 20000; i++) {
		snprintf(s, sizeof(s), "10.2.%d.%d", i % 7, w->id);
		k = v4(s);
		if (limits_open(w->l, &k, &threads_lc) == 0) {
			(void)limits_request(w->l, &k, &threads_lc,
			    clock_ms());
			limits_close(w->l, &k, &threads_lc);
		} else
			w->refused++;
	}
	return NULL;
}

static void
test_threads(void)
{
	struct limits		*l = limits_new(64);
	struct worker_arg	 a[4];
	pthread_t		 th[4];
	int			 i, refused = 0;

	for (i = 0; i < 4; i++) {
		a[i].l = l;
		a[i].id = i;
		a[i].refused = 0;
		pthread_create(&th[i], NULL, hammer, &a[i]);
	}
	for (i = 0; i < 4; i++) {
		pthread_join(th[i], NULL);
		refused += a[i].refused;
	}
	INT_EQ(refused, 0, "each thread has its own addresses: never refused");
	OK(limits_count(l) <= 28, "at most the 28 addresses left (%zu)",
	    limits_count(l));
	limits_free(l);
}

static const struct harness_test tests[] = {
	TEST(test_keys),
	TEST(test_conns),
	TEST(test_rate),
	TEST(test_handshakes),
	TEST(test_many),
	TEST(test_threads),
};

int
main(int argc, char **argv)
{
	HARNESS_INIT(argc, argv, tests);
	harness_run();
	return harness_done();
}
