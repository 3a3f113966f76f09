/*
 * smallweb.h -- clients of the small-web surfaces for the tests
 * (smallweb.c): Spartan's request and status line, Nex's path, a
 * Finger query, an HTTP/1.1 GET, and a crawler that follows every link
 * of a surface from a start path and says which answered nothing (a
 * dead link).
 *
 * Written from the protocols' texts, not from the server's code, so
 * that what they read is what a real client would: gemtext "=>" (and
 * Spartan's "=:") lines, Gopher menus (RFC 1436), Nex directories'
 * "=> " lines and a text's "[n] nex://" references, HTML's href, src
 * and action attributes (RFC 9112 for the answer's framing).  Knows
 * sockets (through e2e.c), nothing of the server.
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

/* An HTTP answer: its status, its head, and the body after it. */
struct sw_http_reply {
	int		 status;	/* -1: no status line */
	char		 head[4096];	/* the status line and fields, CRLFs */
	struct buf	 body;		/* owned, NUL-terminated */
	long long	 length;	/* Content-Length; -1: none (to close) */
};

/*
 * GET path (already percent-encoded) of host on the web view on port,
 * "Connection: close", the answer read to the close: 0, or -1 without
 * an answer.  out->body is what came after the head, all of it, so a
 * caller can compare it with out->length.
 */
int	 sw_http(int port, const char *host, const char *path,
	    struct sw_http_reply *out);
/* The value of field name in r's head, copied into v; 0 if absent. */
int	 sw_http_field(const struct sw_http_reply *r, const char *name,
	    char *v, size_t size);
void	 sw_http_reply_free(struct sw_http_reply *);

enum sw_surface {
	SW_GEMINI,
	SW_GOPHER,
	SW_SPARTAN,
	SW_NEX,
	SW_HTTP,
};

#define SW_DEAD_SHOWN	8

/*
 * A crawl of one surface of host (its public name) on port.  A link is
 * followed when it names this surface of this host: a relative one, a
 * path, or an absolute URL with the scheme, host and port (Gopher: a
 * menu item of this host and port).  A link is dead when it answers a
 * failure (Gemini 4x, 5x, 6x; Spartan 4, 5; a Gopher error menu; a Nex
 * "Error:" text; HTTP 4xx, 5xx, or a body that is not the length its
 * Content-Length says); a redirect is followed.  HTTP also follows an
 * absolute http://127.0.0.1:port/ link, and a gemini:// or gopher://
 * link of this host (a page's alternates) must name alt_gemini or
 * alt_gopher, or it is dead too; it is not followed.
 */
struct sw_crawl {
	enum sw_surface	 surface;
	int		 port;
	const char	*host;
	SSL_CTX		*ctx;		/* Gemini's client context */
	size_t		 max;		/* requests at most */
	int		 alt_gemini;	/* HTTP: the ports alternates name */
	int		 alt_gopher;
	/*
	 * Called, when not NULL, with each reference that answered a
	 * success (not a redirect; a Gemini prompt is one), and the type
	 * it said (Gemini's or Spartan's meta, HTTP's Content-Type; "" for
	 * a Gemini prompt, Gopher and Nex).
	 */
	void		(*reached)(void *arg, const char *ref,
			    const char *type);
	void		*arg;
	/* What it found. */
	size_t		 asked;		/* requests made */
	size_t		 documents;	/* answers read for links */
	size_t		 dead;
	size_t		 alternates;	/* HTTP: gemini:, gopher: links seen */
	char		 shown[SW_DEAD_SHOWN][400]; /* "path (from): why" */
};

/*
 * Follow every link from start (a path; Gopher: "TYPE" and selector,
 * "1/" for the top menu) until nothing is new or c->max requests.
 */
void	 sw_crawl(struct sw_crawl *c, const char *start);

#endif
