/*
 * front.h -- what a front end is: for a surface of core/surface.h,
 * where its request line ends, how a request is answered, and what goes
 * before the body; and whose capsule a listener's port serves.  The
 * table of them, fronts[], is fronts.h's, which the connection
 * (net/conn.c) reads, so that it knows no protocol by name.
 *
 * A front end parses its request line and writes its answer; it decides
 * nothing about what the path names or who may read it: that is the
 * router's (router.h), for every surface alike.  What only the
 * connection knows (the TLS name, the client certificate, the address
 * the client reached) comes through struct front_client; what the
 * server serves with (a generation's hosts and sites), through struct
 * front_gen.  No sockets, no I/O.
 */
#ifndef CAPSULED_FRONT_H
#define CAPSULED_FRONT_H

#include <stddef.h>
#include <sys/types.h>

#include "core/surface.h"
#include "proto/gemini.h"

struct config;
struct response;
struct router_users;
struct site;
struct zone_client;

/* request_end()'s answers besides a length. */
#define FRONT_INCOMPLETE	(-1)	/* more bytes may come */
#define FRONT_TOO_LONG		(-2)	/* the line is over request_max */

/* What to do with a request. */
enum front_do {
	FRONT_ANSWER,		/* r holds the answer (maybe an error) */
	FRONT_UPLOAD,		/* a Titan line: a body follows, for
				   net/titan_upload.c to take */
	FRONT_APP,		/* a program or backend of host app->host
				   answers app->req (net/cgi.h) */
};

/* What the server serves with: one generation's hosts and sites. */
struct front_gen {
	const struct config	*cfg;	/* the whole configuration */
	const struct config	*hosts;	/* nhosts views, [0] the top host */
	const struct gemini_host *ghosts; /* their names and ports */
	size_t			 nhosts;
	struct site *const	*sites;	/* hosts[i]'s site */
	const struct router_users *users; /* the user capsules (host 0's) */
};

/* What only the connection knows, asked when it matters. */
struct front_client {
	const char	*sni;		/* the TLS server name, or NULL */
	/* 1 when req's IP-literal host is where the client reached us */
	int		(*own_address)(void *ctx,
			    const struct gemini_request *req);
	/* The client certificate's hash (tlsconn.h), or NULL for none. */
	const char	*(*cert_hash)(void *ctx);
	void		*ctx;
	/*
	 * The certificate as access rules judge it (site/zone.h); NULL on
	 * a surface without client certificates.
	 */
	const struct zone_client *zone;
	int		 port;		/* ours the client reached: its
					   listener's, which says whose */
	/* The request's number on its connection: 1 for the first. */
	unsigned	 nth;
};

/* For FRONT_APP: which host's program or backend, and the request. */
struct front_app {
	int			 host;
	struct gemini_request	 req;
};

struct front {
	/*
	 * Where the request line in buf[0..len) ends: its length without
	 * its terminator, FRONT_INCOMPLETE or FRONT_TOO_LONG.
	 */
	ssize_t		(*request_end)(const char *buf, size_t len);
	size_t		 request_max;	/* bytes of a line with its end,
					   at most FRONT_REQUEST_MAX */
	/* The answer to a line over request_max, into r. */
	void		(*too_long)(struct response *r);
	/* The answer to a request over the rate: wait seconds, into r. */
	void		(*slow_down)(unsigned wait, struct response *r);
	/*
	 * Answer the line line[0..len) (no terminator) into r, which
	 * response_init() made (its may_defer the caller's).  For
	 * FRONT_APP, *app says who answers.
	 */
	enum front_do	(*answer)(const struct front_gen *,
			    const struct front_client *, const char *line,
			    size_t len, struct front_app *app,
			    struct response *r);
	/*
	 * The bytes before r's body (none: 0) into out[0..outlen), at most
	 * FRONT_HEADER_MAX, r's body dropped where the protocol sends none
	 * with r's status.  r->status is what the access log says (a
	 * Gemini status, whatever the protocol said).  Setting r->keep
	 * keeps the connection: once
	 * the answer is written it reads the next request, which starts
	 * right after the len bytes that request_end() measured for this
	 * one (a surface that keeps connections counts its request's end
	 * in that length).
	 */
	size_t		(*header)(struct response *r, char *out,
			    size_t outlen);
};

/* The bytes a header() may write: a META of 1024 and the rest. */
#define FRONT_HEADER_MAX	2048

/*
 * The host a request that names none (Gopher, Nex, Finger) is for, on
 * the listener at port of surface s: the top level's host on the port
 * every host shares, or the one host that set that port as its own; -1
 * when no host listens there any more (a reload changed its port: that
 * takes a restart, app/reload.c).
 */
int	 front_host_at(const struct front_gen *g, enum surface s, int port);

/*
 * Is host h (as a request named it) answered on the listener at port
 * of surface s?  A host with a port of its own is answered there only.
 */
int	 front_serves(const struct front_gen *g, enum surface s, int port,
	    int h);

/*
 * The host of g that answers a request of surface s naming name (lower
 * case, no port) on the listener at port: one we serve by that name (a
 * final '.' read as none) and on that port; for an IP literal or an
 * empty name, front_host_at()'s (the client dialled an address of
 * ours).  -1 for a name of another server, which a surface without
 * proxying refuses, or of a host answered on another port.
 */
int	 front_host(const struct front_gen *g, enum surface s, int port,
	    const char *name);

/*
 * The connection's request buffer: what any surface's request (its line
 * and end, and a data block that follows it) may take, 4 KiB (the
 * Spartan reference server's cap).  Each front end holds its lines to
 * its own request_max within it.
 */
#define FRONT_REQUEST_MAX	4096

#endif
