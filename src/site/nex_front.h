/*
 * nex_front.h -- the Nex surface's front end (nex://, the Nex protocol):
 * its entry in fronts[] (site/fronts.h).
 *
 * A request is a path; the answer is the document, no status before it.
 * The router answers it in the Nex format (core/surface.h: directories
 * of "=> " links for navigation pages and listings, plain text for
 * posts), and this front end follows redirects to a path itself (Nex has
 * none) and says a failure in a line of text.  Plain TCP: no client
 * certificate, so what an access rule guards is refused, never served.
 */
#ifndef CAPSULED_NEX_FRONT_H
#define CAPSULED_NEX_FRONT_H

#include <stddef.h>

#include "site/front.h"

struct response;

/*
 * Answer the path line line[0..len) (no terminator): the router's
 * answer, a redirect to a path followed (twice at most), one to a URL a
 * "=> URL" line, any other failure "Error: why: path" and, for a
 * directory's path, "=> /" to go on from.  r's status is the router's,
 * for the log.
 */
enum front_do	 nex_front_answer(const struct front_gen *,
		    const struct front_client *, const char *line,
		    size_t len, struct front_app *app, struct response *r);
void		 nex_front_too_long(struct response *r);	/* 59 */
void		 nex_front_slow_down(unsigned wait, struct response *r);
size_t		 nex_front_header(struct response *r, char *out,
		    size_t outlen);		/* none: 0 */

#endif
