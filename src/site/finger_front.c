/*
 * finger_front.c -- the Finger surface's front end (finger_front.h).
 *
 * A query names a plan; the router serves it ("/.plan" of the site, or
 * of "/~name"), so that access rules and user capsules apply as on every
 * surface.  What goes out is text a terminal shows as it is: CRLF lines
 * and no control character, as Finger's text (FORMAT_TEXT) is made
 * (site/response.c), and this file's own lines.  No sockets: the query
 * is classified by proto/finger.c, r describes what conn.c sends.
 */
#include <stdio.h>
#include <string.h>

#include "core/buf.h"
#include "core/config.h"
#include "core/layout.h"
#include "proto/finger.h"
#include "site/finger_front.h"
#include "site/response.h"
#include "site/router.h"

/* r's body becomes the one line text, with its status for the log. */
static void
say(struct response *r, int status, const char *text)
{
	struct buf	 out = BUF_INIT;

	buf_printf(&out, "%s\r\n", text);
	response_take_body(r, &out, 0);
	response_status(r, status, "%s", text);
}

enum front_do
finger_front_answer(const struct front_gen *g, const struct front_client *fc,
    const char *line, size_t len, struct front_app *app, struct response *r)
{
	struct finger_query	 q;
	struct router_req	 rreq;
	char			 path[FINGER_NAME_MAX + 16], msg[128];
	int			 h;

	(void)app;
	finger_request_parse(line, len, &q);
	switch (q.kind) {
	case FINGER_FORWARD:
		say(r, 53, "Finger forwarding service denied");
		return FRONT_ANSWER;
	case FINGER_BAD:
		say(r, 51, "finger: no such user.");
		return FRONT_ANSWER;
	case FINGER_LIST:
		snprintf(path, sizeof(path), "%s", LAYOUT_PATH_PLAN);
		break;
	case FINGER_USER:
		/* A user capsule's plan; no other name is anyone's. */
		snprintf(path, sizeof(path), "%s%s%s", LAYOUT_PATH_USER,
		    q.user, LAYOUT_PATH_PLAN);
		break;
	}
	memset(&rreq, 0, sizeof(rreq));
	rreq.surface = SURFACE_FINGER;
	rreq.path = path;
	/* The port says whose capsule, as Gopher's. */
	if ((h = front_host_at(g, SURFACE_FINGER, fc->port)) == -1) {
		say(r, 53, "finger: no host is served on this port.");
		return FRONT_ANSWER;
	}
	rreq.users = h == 0 ? g->users : NULL;
	r->may_defer = 0;		/* a plan is quick to make */
	router_handle(&g->hosts[h], g->sites[h], &rreq, r);
	/* A plan is Finger's text: without control characters already. */
	if (r->status / 10 == 2)
		return FRONT_ANSWER;
	if (q.kind == FINGER_USER && r->status == 51) {
		snprintf(msg, sizeof(msg), "finger: %s: no such user.",
		    q.user);
		say(r, 51, msg);
	} else if (r->status / 10 == 6)
		say(r, r->status, "finger: this plan is not public.");
	else
		say(r, r->status, "finger: no plan here.");
	return FRONT_ANSWER;
}

void
finger_front_too_long(struct response *r)
{
	say(r, 59, "finger: query too long.");
}

void
finger_front_slow_down(unsigned wait, struct response *r)
{
	char	 msg[80];

	snprintf(msg, sizeof(msg), "finger: too many queries; try again in "
	    "%u second%s.", wait, wait == 1 ? "" : "s");
	say(r, 44, msg);
}

size_t
finger_front_header(struct response *r, char *out, size_t outlen)
{
	(void)r;
	(void)out;
	(void)outlen;
	return 0;
}
