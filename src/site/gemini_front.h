/*
 * gemini_front.h -- the Gemini surface's front end: what a request line
 * asks of the server (an upload, a program, or the router's answer),
 * and what goes before the body.  Its entry in fronts[] (site/front.h).
 *
 * conn.c hands gemini_front_answer() the request line and what only the
 * connection knows (the TLS server name, the client's certificate, the
 * address it reached), and does what the answer says; so every decision
 * about a Gemini request can be tested without a socket.  The request
 * line itself is parsed by proto/gemini.c.
 */
#ifndef CAPSULED_GEMINI_FRONT_H
#define CAPSULED_GEMINI_FRONT_H

#include <stddef.h>

#include "site/front.h"

struct response;

/*
 * Decide the request line line[0..len) (no CRLF): parsed into app->req
 * (gemini_request_parse()), an IP literal that is not our address 53, a
 * titan:// scheme FRONT_UPLOAD (the upload parses the line again, with
 * its parameters), the URL's host (which the TLS name must agree with:
 * gemini_request_host()) into app->host; then the router's answer in r
 * (with writer set when the certificate is one of the host's
 * titan_writers, the user capsules on host 0 only), or FRONT_APP for a
 * program or backend the router admitted.  A request that fails any
 * check is FRONT_ANSWER with r's status and META saying why.
 */
enum front_do	 gemini_front_answer(const struct front_gen *,
		    const struct front_client *, const char *line,
		    size_t len, struct front_app *app, struct response *r);
void		 gemini_front_too_long(struct response *r);	/* 59 */
void		 gemini_front_slow_down(unsigned wait, struct response *r);
/* "NN META" CRLF; only 2x keeps its body. */
size_t		 gemini_front_header(struct response *r, char *out,
		    size_t outlen);

#endif
