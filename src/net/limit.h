/*
 * limit.h -- per-address limits shared by every worker thread: how many
 * connections one client address holds open, and how fast it may send
 * requests (a token bucket).
 *
 * An address is an IPv4 address, or the /64 prefix of an IPv6 one (a
 * single host usually owns a whole /64).  A TLS handshake counts as a
 * request (limits_handshake()): it is the costly part of one.  One table, guarded by one
 * mutex, serves all workers, so a limit holds for the whole server and
 * not per worker; it is touched three times per connection (accept,
 * the TLS handshake or the Gopher request, close), never while bytes
 * move.  The table's size follows
 * the number of addresses with open connections or unfinished buckets,
 * and is bounded.  Knows sockaddrs and time; nothing of libuv or of the
 * protocols.  A struct limits owns its table.
 */
#ifndef CAPSULED_LIMIT_H
#define CAPSULED_LIMIT_H

#include <stdint.h>
#include <sys/socket.h>

struct limits;

/* A client address as the table keys it. */
struct limit_key {
	unsigned char	 b[16];
};

/* The limits in force, as the configuration of the moment says. */
struct limit_conf {
	unsigned	 per_addr;	/* connections; 0: no limit */
	unsigned	 rate_milli;	/* requests a second x 1000; 0: off */
	unsigned	 burst;		/* requests in a burst (>= 1) */
};

/* A table for at most maxconns connections in all (sizes the table). */
struct limits	*limits_new(unsigned maxconns);
void		 limits_free(struct limits *);

/* The key of an AF_INET or AF_INET6 address; -1 for anything else. */
int		 limit_key(const struct sockaddr *, struct limit_key *);

/*
 * A connection from key was accepted.  Returns 0 (counted: call
 * limits_close() when it ends), or -1 when the address already holds
 * per_addr connections (not counted: close it).  Every call passes the
 * limits of its moment, so a reload takes effect at once.
 */
int		 limits_open(struct limits *, const struct limit_key *,
		    const struct limit_conf *);
void		 limits_close(struct limits *, const struct limit_key *,
		    const struct limit_conf *);

/*
 * A request from key at now_ms (any monotonic clock in milliseconds).
 * Returns 0 when it may be served (a token was taken), else the whole
 * seconds (>= 1) until one will be there.
 */
unsigned	 limits_request(struct limits *, const struct limit_key *,
		    const struct limit_conf *, uint64_t now_ms);

/* What limits_handshake() says of a TLS handshake about to begin. */
enum limit_verdict {
	LIMIT_PAID,	/* a token taken: it pays for the request too */
	LIMIT_SLOW,	/* over the rate: go on, and answer the request 44 */
	LIMIT_REFUSE,	/* far over the rate: close, no handshake */
};

/*
 * A TLS handshake from key begins at now_ms: it costs a request's
 * token, and its connection's request costs nothing more.  Over the
 * rate, a burst more of handshakes (at the same rate) may go on to be
 * answered 44 in *wait seconds (>= 1); past that they are refused.
 * *nrefused, when not 0, is the number refused since the last time it
 * was not 0 (at most every 10 s an address): the caller logs it.
 */
enum limit_verdict limits_handshake(struct limits *,
		    const struct limit_key *, const struct limit_conf *,
		    uint64_t now_ms, unsigned *wait, unsigned *nrefused);

/* Addresses the table holds now (tests). */
size_t		 limits_count(struct limits *);

#endif
