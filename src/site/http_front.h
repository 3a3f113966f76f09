/*
 * http_front.h -- the web view's front end (plain HTTP/1.1, meant to sit
 * behind a TLS front such as nginx or Caddy): its entry in fronts[]
 * (site/fronts.h).
 *
 * A GET or HEAD of a path of one of our hosts is answered by the router
 * in HTML (FORMAT_HTML), as Gemini's is in gemtext; nothing else is
 * served: another host is 421 (this server proxies nothing), another
 * method 405.  What an access rule guards is 403 (no client
 * certificates here), a redirect 301 or 302 with Location, an error a
 * small HTML page.  Answers carry an entity tag and, where known, a
 * modification time, and a conditional request that matches is 304.
 * The connection is kept for the next request (HTTP_KEEP_MAX at most)
 * unless the client or an error says otherwise.
 */
#ifndef CAPSULED_HTTP_FRONT_H
#define CAPSULED_HTTP_FRONT_H

#include <stddef.h>

#include "site/front.h"

struct config;
struct response;

/* Requests one connection may carry before it is closed. */
#define HTTP_KEEP_MAX	100

enum front_do	 http_front_answer(const struct front_gen *,
		    const struct front_client *, const char *head,
		    size_t len, struct front_app *app, struct response *r);
void		 http_front_too_long(struct response *r);	/* 431 */
void		 http_front_slow_down(unsigned wait, struct response *r);
/*
 * The status line and fields for r (r->status is the router's, a
 * Gemini status, which the access log keeps: it is said in HTTP here),
 * r's body dropped for HEAD and 304 and made a small page for an error;
 * r->keep set when the connection goes on.
 */
size_t		 http_front_header(struct response *r, char *out,
		    size_t outlen);

#endif
