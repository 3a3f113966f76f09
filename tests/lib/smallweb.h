/*
 * smallweb.h -- clients of the small-web surfaces for the tests
 * (smallweb.c): Spartan's request and status line, Nex's path, a
 * Finger query, and a crawler that follows every link of a surface
 * from a start path and says which answered nothing (a dead link).
 *
 * Written from the protocols' texts, not from the server's code, so
 * that what they read is what a real client would: gemtext "=>" (and
 * Spartan's "=:") lines, Gopher menus (RFC 1436), Nex directories'
 * "=> " lines and a text's "[n] nex://" references.  Knows sockets
 * (through e2e.c), nothing of the server.
 */
#ifndef CAPSULED_TEST_SMALLWEB_H
#define CAPSULED_TEST_SMALLWEB_H

#include <stddef.h>

#include <openssl/ssl.h>

#include "core/buf.h"

/* A Spartan answer: its status line, and the body after it. */
struct sw_reply {
	int		 status;	/* its digit; -1: no status line */
	char		 meta[1100];
	struct buf	 body;		/* owned, NUL-terminated */
};

/*
 * Ask the Spartan server on port for path of host, with data[0..len)
 * as the data block: 0, or -1 without an answer.
 */
int	 sw_spartan(int port, const char *host, const char *path,
	    const char *data, size_t len, struct sw_reply *out);
void	 sw_reply_free(struct sw_reply *);
/* Nex: "path\r\n", the document until the server closes (a C string). */
int	 sw_nex(int port, const char *path, struct buf *out);
/* Finger: "query\r\n", the answer until the server closes. */
int	 sw_finger(int port, const char *query, struct buf *out);

enum sw_surface {
	SW_GEMINI,
	SW_GOPHER,
	SW_SPARTAN,
	SW_NEX,
};

#define SW_DEAD_SHOWN	8

/*
 * A crawl of one surface of host (its public name) on port.  A link is
 * followed when it names this surface of this host: a relative one, a
 * path, or an absolute URL with the scheme, host and port (Gopher: a
 * menu item of this host and port).  A link is dead when it answers a
 * failure (Gemini 4x, 5x, 6x; Spartan 4, 5; a Gopher error menu; a Nex
 * "Error:" text); a redirect is followed.
 */
struct sw_crawl {
	enum sw_surface	 surface;
	int		 port;
	const char	*host;
	SSL_CTX		*ctx;		/* Gemini's client context */
	size_t		 max;		/* requests at most */
	/* What it found. */
	size_t		 asked;		/* requests made */
	size_t		 documents;	/* answers read for links */
	size_t		 dead;
	char		 shown[SW_DEAD_SHOWN][400]; /* "path (from): why" */
};

/*
 * Follow every link from start (a path; Gopher: "TYPE" and selector,
 * "1/" for the top menu) until nothing is new or c->max requests.
 */
void	 sw_crawl(struct sw_crawl *c, const char *start);

#endif
