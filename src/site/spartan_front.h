/*
 * spartan_front.h -- the Spartan surface's front end (spartan://, the
 * Spartan protocol specification): its entry in fronts[] (site/fronts.h).
 *
 * A request names a host and a path, its query (if any) the data block;
 * the router answers it in gemtext as it answers Gemini, and this front
 * end says the answer in Spartan's four statuses.  Plain TCP: no client
 * certificate, so what an access rule guards is refused, never served;
 * no Titan uploads, no programs.
 */
#ifndef CAPSULED_SPARTAN_FRONT_H
#define CAPSULED_SPARTAN_FRONT_H

#include <stddef.h>

#include "site/front.h"

struct response;

/*
 * Answer the request whose line is line[0..len) (the data block follows
 * the line's end in the same buffer: spartan_request_end()): a request
 * that does not parse 59, a host not served here 53, else the router's
 * answer, a redirect to another host or scheme made a page that links
 * it (Spartan's 3 is a path of the same host).
 */
enum front_do	 spartan_front_answer(const struct front_gen *,
		    const struct front_client *, const char *line,
		    size_t len, struct front_app *app, struct response *r);
void		 spartan_front_too_long(struct response *r);	/* 59 */
void		 spartan_front_slow_down(unsigned wait, struct response *r);
/*
 * "2 mime" (without a lang parameter, which Spartan has not), "3 path",
 * "4 message" (not found, bad request, refused: 5x but 50, and 6x) or
 * "5 message" (the server failed or is busy: 4x, 50); CRLF.
 */
size_t		 spartan_front_header(struct response *r, char *out,
		    size_t outlen);

#endif
