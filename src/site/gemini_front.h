/*
 * gemini_front.h -- what a Gemini request line asks of the server: an
 * upload, a CGI program, or the router's answer.
 *
 * The site-level counterpart of site/gopher_front.h: conn.c hands
 * gemini_front_answer() the request line and what only the connection
 * knows (the TLS server name, the client's certificate, the address it
 * reached), and does what the answer says; so every decision about a
 * Gemini request can be tested without a socket.  The request line
 * itself is parsed by proto/gemini.c.
 */
#ifndef CAPSULED_GEMINI_FRONT_H
#define CAPSULED_GEMINI_FRONT_H

#include <stddef.h>

#include "proto/gemini.h"

struct config;
struct response;
struct router_users;
struct site;
struct zone_client;

/* What to do with a request. */
enum gemini_front_do {
	GEMINI_FRONT_ANSWER,	/* r holds the answer (maybe an error) */
	GEMINI_FRONT_UPLOAD,	/* a titan:// line: a body follows, for
				   net/titan_upload.c to take */
	GEMINI_FRONT_CGI,	/* a program of host *hostp answers req
				   (net/cgi.h) */
};

/* What the server serves with: one generation's hosts and sites. */
struct gemini_front {
	const struct config	*cfg;	/* the whole configuration */
	const struct config	*hosts;	/* nhosts views, [0] the top host */
	const struct gemini_host *ghosts; /* their names and ports */
	size_t			 nhosts;
	struct site *const	*sites;	/* hosts[i]'s site */
	const struct router_users *users; /* the user capsules (host 0's) */
};

/* What only the connection knows, asked when it matters. */
struct gemini_front_conn {
	const char	*sni;		/* the TLS server name, or NULL */
	/* 1 when req's IP-literal host is where the client reached us */
	int		(*own_address)(void *ctx,
			    const struct gemini_request *req);
	/* The client certificate's hash (tlsconn.h), or NULL for none. */
	const char	*(*cert_hash)(void *ctx);
	void		*ctx;
	/* The certificate as zones judge it (site/zone.h); NULL: no zones. */
	const struct zone_client *zone;
};

/*
 * Decide the request line line[0..len) (no CRLF): parsed into *req
 * (gemini_request_parse()), an IP literal that is not our address 53, a
 * titan:// scheme GEMINI_FRONT_UPLOAD (the upload parses the line
 * again, with its parameters), the URL's host (which the TLS name must
 * agree with: gemini_request_host()) into *hostp, a certificate zone's
 * refusal (60, 61, 62: zone_check()), a path under that
 * host's "cgi" directory GEMINI_FRONT_CGI, anything else the router's
 * answer in r (with writer set when the certificate is one of
 * cfg->titan_writers, the user capsules on host 0 only).  A request
 * that fails any check is GEMINI_FRONT_ANSWER with r's status and META
 * saying why.  r came from response_init(); its may_defer is the
 * caller's.
 */
enum gemini_front_do gemini_front_answer(const struct gemini_front *gf,
	    const struct gemini_front_conn *gc, const char *line, size_t len,
	    struct gemini_request *req, int *hostp, struct response *r);

#endif
