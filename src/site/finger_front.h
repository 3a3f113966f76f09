/*
 * finger_front.h -- the Finger surface's front end (RFC 1288): its entry
 * in fronts[] (site/fronts.h).
 *
 * "finger @host" asks for the site's plan, "finger user@host" for a
 * user capsule's (with "userdirs"); both are the router's "/.plan" of
 * that site (site/nav.c, nav_plan()), in plain text.  No user list, no
 * forwarding, nothing looked up but the capsules the server publishes.
 */
#ifndef CAPSULED_FINGER_FRONT_H
#define CAPSULED_FINGER_FRONT_H

#include <stddef.h>

#include "site/front.h"

struct response;

/*
 * Answer the query line[0..len): the site's plan for an empty one (or
 * "/W"), a user capsule's plan for its name, "Finger forwarding service
 * denied" for any '@', a "no such user" line for anything else.  The
 * text is sent with CRLF lines and without control characters.
 */
enum front_do	 finger_front_answer(const struct front_gen *,
		    const struct front_client *, const char *line,
		    size_t len, struct front_app *app, struct response *r);
void		 finger_front_too_long(struct response *r);	/* 59 */
void		 finger_front_slow_down(unsigned wait, struct response *r);
size_t		 finger_front_header(struct response *r, char *out,
		    size_t outlen);		/* none: 0 */

#endif
