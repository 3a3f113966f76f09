/*
 * limit.c -- per-address connection counts and request rates, shared by
 * every worker thread.
 *
 * One open-addressing table (linear probing, backward-shift deletion)
 * keyed by address, behind one mutex.  An entry lives while its address
 * has connections open or its token bucket is not full again; entries
 * that are neither are dropped when their last connection closes, or
 * swept when the table fills.  The table doubles up to a bound derived
 * from max_connections; at the bound, entries without connections are
 * dropped (their buckets forgotten: the worst case is a fresh burst), so
 * there is always room for every open connection.  Buckets count
 * thousandths of a request; a request costs 1000.  The hash is keyed
 * with a random seed, so clients cannot choose colliding addresses.
 * Knows nothing of libuv or the protocols.
 */
#include <netinet/in.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>

#include "core/clock.h"
#include "core/util.h"
#include "net/limit.h"

#define LIMIT_MIN_CAP	64

struct entry {
	struct limit_key key;
	uint32_t	 used;		/* 0: an empty slot */
	uint32_t	 conns;		/* open connections */
	uint64_t	 tokens;	/* thousandths of a request */
	uint64_t	 slow;		/* thousandths of a handshake that may
					   go on over the rate, to a 44 */
	uint64_t	 stamp;		/* ms of the last refill */
	uint64_t	 reported;	/* ms of the last refusal reported */
	uint32_t	 refused;	/* handshakes refused since then */
};

struct limits {
	pthread_mutex_t	 mu;		/* guards everything below */
	struct entry	*tab;		/* owned; cap slots */
	size_t		 cap;		/* a power of two */
	size_t		 maxcap;	/* the table never grows past this */
	size_t		 n;		/* slots in use */
	uint64_t	 seed;
	struct limit_conf lc;		/* of the call in progress */
};

static uint64_t
mix(uint64_t x)
{
	/* splitmix64's finaliser. */
	x ^= x >> 30;
	x *= 0xbf58476d1ce4e5b9ULL;
	x ^= x >> 27;
	x *= 0x94d049bb133111ebULL;
	return x ^ (x >> 31);
}

static size_t
index_of(const struct limits *l, const struct limit_key *k)
{
	uint64_t	 a, b;

	memcpy(&a, k->b, 8);
	memcpy(&b, k->b + 8, 8);
	return (size_t)mix(mix(a ^ l->seed) ^ b) & (l->cap - 1);
}

/* Add what the time since the last refill earned; cap at the burst. */
static void
refill(const struct limits *l, struct entry *e, uint64_t now)
{
	uint64_t	 full = (uint64_t)l->lc.burst * 1000, dt, earned;

	if (now <= e->stamp)
		return;
	dt = now - e->stamp;
	if (dt > 1000000000ULL)
		dt = 1000000000ULL;	/* keeps the product below 2^63 */
	e->stamp = now;
	earned = l->lc.rate_milli == 0 ? full : dt * l->lc.rate_milli / 1000;
	e->tokens = e->tokens + earned < full ? e->tokens + earned : full;
	e->slow = e->slow + earned < full ? e->slow + earned : full;
}

/* Nothing open and both buckets full again: the entry can go. */
static int
idle(const struct limits *l, struct entry *e, uint64_t now)
{
	if (e->conns > 0)
		return 0;
	refill(l, e, now);
	return e->tokens >= (uint64_t)l->lc.burst * 1000 &&
	    e->slow >= (uint64_t)l->lc.burst * 1000;
}

static void
insert(struct limits *l, const struct entry *e)
{
	size_t	 i;

	for (i = index_of(l, &e->key); l->tab[i].used; i = (i + 1) &
	    (l->cap - 1))
		;
	l->tab[i] = *e;
	l->n++;
}

/*
 * Rebuild the table at newcap slots with the entries keep() accepts.
 * all: keep every entry with a connection, drop the rest.
 */
static void
rebuild(struct limits *l, size_t newcap, int all, uint64_t now)
{
	struct entry	*old = l->tab;
	size_t		 oldcap = l->cap, i;

	l->tab = xcalloc(newcap, sizeof(*l->tab));
	l->cap = newcap;
	l->n = 0;
	for (i = 0; i < oldcap; i++) {
		if (!old[i].used)
			continue;
		if (all ? old[i].conns == 0 : idle(l, &old[i], now))
			continue;
		insert(l, &old[i]);
	}
	free(old);
}

/* Room for one more entry: sweep, grow, or forget idle buckets. */
static void
make_room(struct limits *l, uint64_t now)
{
	if ((l->n + 1) * 4 <= l->cap * 3)
		return;
	rebuild(l, l->cap, 0, now);
	if ((l->n + 1) * 2 <= l->cap)
		return;
	if (l->cap < l->maxcap) {
		rebuild(l, l->cap * 2, 0, now);
		return;
	}
	if ((l->n + 1) * 4 > l->cap * 3)
		rebuild(l, l->cap, 1, now);
}

/* The entry for k; created (full bucket) when create is set. */
static struct entry *
find(struct limits *l, const struct limit_key *k, int create, uint64_t now)
{
	struct entry	 e;
	size_t		 i;

	for (i = index_of(l, k); l->tab[i].used; i = (i + 1) & (l->cap - 1))
		if (memcmp(l->tab[i].key.b, k->b, sizeof(k->b)) == 0)
			return &l->tab[i];
	if (!create)
		return NULL;
	make_room(l, now);
	if ((l->n + 1) * 4 > l->cap * 3)
		return NULL;		/* every slot holds a connection */
	memset(&e, 0, sizeof(e));
	e.key = *k;
	e.used = 1;
	e.tokens = e.slow = (uint64_t)l->lc.burst * 1000;
	e.stamp = now;
	insert(l, &e);
	return find(l, k, 0, now);
}

/* Remove the entry at slot i; later entries of its run move up. */
static void
remove_at(struct limits *l, size_t i)
{
	size_t	 j = i, k, mask = l->cap - 1;

	l->tab[i].used = 0;
	l->n--;
	for (;;) {
		j = (j + 1) & mask;
		if (!l->tab[j].used)
			return;
		k = index_of(l, &l->tab[j].key);
		if (i <= j ? (i < k && k <= j) : (i < k || k <= j))
			continue;	/* already as close as it can be */
		l->tab[i] = l->tab[j];
		l->tab[j].used = 0;
		i = j;
	}
}

struct limits *
limits_new(unsigned maxconns)
{
	struct limits	*l;
	size_t		 want;

	l = xcalloc(1, sizeof(*l));
	pthread_mutex_init(&l->mu, NULL);
	if (getrandom(&l->seed, sizeof(l->seed), 0) != sizeof(l->seed))
		l->seed = (uint64_t)time(NULL) ^ (uint64_t)(uintptr_t)l;
	/* Four slots per connection, never less than 64 Ki addresses. */
	want = (size_t)maxconns * 4;
	if (want < 65536)
		want = 65536;
	for (l->maxcap = LIMIT_MIN_CAP; l->maxcap < want; l->maxcap *= 2)
		;
	l->cap = LIMIT_MIN_CAP;
	l->tab = xcalloc(l->cap, sizeof(*l->tab));
	return l;
}

void
limits_free(struct limits *l)
{
	if (l == NULL)
		return;
	pthread_mutex_destroy(&l->mu);
	free(l->tab);
	free(l);
}

/* Under the mutex: the limits of this call. */
static void
use(struct limits *l, const struct limit_conf *lc)
{
	l->lc = *lc;
	if (l->lc.burst == 0)
		l->lc.burst = 1;
}

int
limit_key(const struct sockaddr *sa, struct limit_key *k)
{
	memset(k, 0, sizeof(*k));
	if (sa->sa_family == AF_INET) {
		const struct sockaddr_in *sin = (const void *)sa;

		/* As ::ffff:a.b.c.d, so it cannot meet an IPv6 prefix. */
		k->b[10] = k->b[11] = 0xff;
		memcpy(k->b + 12, &sin->sin_addr, 4);
		return 0;
	}
	if (sa->sa_family == AF_INET6) {
		const struct sockaddr_in6 *sin6 = (const void *)sa;
		const unsigned char *a = sin6->sin6_addr.s6_addr;

		if (IN6_IS_ADDR_V4MAPPED(&sin6->sin6_addr)) {
			memcpy(k->b, a, 16);	/* one IPv4 host */
			return 0;
		}
		memcpy(k->b, a, 8);		/* the /64 */
		return 0;
	}
	return -1;
}

int
limits_open(struct limits *l, const struct limit_key *k,
    const struct limit_conf *lc)
{
	struct entry	*e;
	int		 rv = -1;

	pthread_mutex_lock(&l->mu);
	use(l, lc);
	if ((e = find(l, k, 1, clock_now_ms())) != NULL &&
	    (lc->per_addr == 0 || e->conns < lc->per_addr)) {
		e->conns++;
		rv = 0;
	}
	pthread_mutex_unlock(&l->mu);
	return rv;
}

void
limits_close(struct limits *l, const struct limit_key *k,
    const struct limit_conf *lc)
{
	struct entry	*e;

	pthread_mutex_lock(&l->mu);
	use(l, lc);
	if ((e = find(l, k, 0, 0)) != NULL && e->conns > 0 &&
	    --e->conns == 0 && idle(l, e, clock_now_ms()))
		remove_at(l, (size_t)(e - l->tab));
	pthread_mutex_unlock(&l->mu);
}

/* Seconds (>= 1) until e's bucket holds a token again. */
static unsigned
wait_for(const struct limits *l, const struct entry *e)
{
	uint64_t	 ms;

	ms = (1000 - e->tokens) * 1000 / l->lc.rate_milli;
	return ms < 1000 ? 1 : (unsigned)((ms + 999) / 1000);
}

unsigned
limits_request(struct limits *l, const struct limit_key *k,
    const struct limit_conf *lc, uint64_t now)
{
	struct entry	*e;
	unsigned	 wait = 0;

	if (lc->rate_milli == 0)
		return 0;
	pthread_mutex_lock(&l->mu);
	use(l, lc);
	if ((e = find(l, k, 1, now)) == NULL)
		goto done;
	refill(l, e, now);
	if (e->tokens >= 1000)
		e->tokens -= 1000;
	else
		wait = wait_for(l, e);
done:
	pthread_mutex_unlock(&l->mu);
	return wait;
}

/*
 * A handshake takes a token from the request bucket, as its request
 * would: a storm of handshakes that never send a request spends the
 * address's rate like requests do.  With no token left, a second bucket
 * of the same size and rate lets handshakes go on to a 44 (a client
 * that is a little fast learns why), and only when that is empty too
 * is the handshake refused: refusing costs nothing, a handshake costs
 * a signature.  Refusals are reported at most every LIMIT_REPORT_MS.
 */
#define LIMIT_REPORT_MS	10000

enum limit_verdict
limits_handshake(struct limits *l, const struct limit_key *k,
    const struct limit_conf *lc, uint64_t now, unsigned *wait,
    unsigned *nrefused)
{
	struct entry		*e;
	enum limit_verdict	 v = LIMIT_PAID;

	*wait = 0;
	*nrefused = 0;
	if (lc->rate_milli == 0)
		return LIMIT_PAID;
	pthread_mutex_lock(&l->mu);
	use(l, lc);
	if ((e = find(l, k, 1, now)) == NULL)
		goto done;
	refill(l, e, now);
	if (e->tokens >= 1000) {
		e->tokens -= 1000;
	} else if (e->slow >= 1000) {
		e->slow -= 1000;
		*wait = wait_for(l, e);
		v = LIMIT_SLOW;
	} else {
		v = LIMIT_REFUSE;
		e->refused++;
		if (e->reported == 0 || now - e->reported >= LIMIT_REPORT_MS) {
			*nrefused = e->refused;
			e->refused = 0;
			e->reported = now;
		}
	}
done:
	pthread_mutex_unlock(&l->mu);
	return v;
}

size_t
limits_count(struct limits *l)
{
	size_t	 n;

	pthread_mutex_lock(&l->mu);
	n = l->n;
	pthread_mutex_unlock(&l->mu);
	return n;
}
