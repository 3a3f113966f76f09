/*
 * nex_front.c -- the Nex surface's front end (nex_front.h).
 *
 * Nex has no status: a failure is said in the body, a line of text, and
 * a redirect to a path is followed here (a directory asked for without
 * its slash gets its listing, as a Nex client expects).  No sockets: the
 * request is parsed by proto/nex.c, r describes what conn.c sends.
 */
#include <stdio.h>
#include <string.h>

#include "core/buf.h"
#include "core/config.h"
#include "core/url.h"
#include "proto/nex.h"
#include "site/nex_front.h"
#include "site/response.h"
#include "site/router.h"

/* r's body becomes a line of text saying what went wrong with path. */
static void
say(struct response *r, const char *why, const char *path)
{
	struct buf	 out = BUF_INIT;

	buf_printf(&out, "Error: %s%s%s\n", why, path != NULL ? ": " : "",
	    path != NULL ? path : "");
	/* A directory's path is shown as a directory: a way on. */
	if (path != NULL && path[0] != '\0' && path[strlen(path) - 1] == '/')
		buf_addstr(&out, "=> /\n");
	response_take_body(r, &out, 0);
}

enum front_do
nex_front_answer(const struct front_gen *g, const struct front_client *fc,
    const char *line, size_t len, struct front_app *app, struct response *r)
{
	struct nex_request	 req;
	struct router_req	 rreq;
	const char		*err;
	char			 path[sizeof(r->meta)], to[sizeof(r->meta)];
	int			 h, hops, defer = r->may_defer;

	(void)app;
	if (nex_request_parse(line, len, &req, &err) == -1) {
		response_status(r, 59, "Bad request");
		say(r, "bad request", err);
		return FRONT_ANSWER;
	}
	snprintf(path, sizeof(path), "%s", req.path);
	memset(&rreq, 0, sizeof(rreq));
	rreq.surface = SURFACE_NEX;
	rreq.path = path;
	rreq.query = req.query;
	/* Nex has no host names: the port says whose capsule, as Gopher's. */
	if ((h = front_host_at(g, SURFACE_NEX, fc->port)) == -1) {
		response_status(r, 53, "No host");
		say(r, "no host is served on this port", NULL);
		return FRONT_ANSWER;
	}
	rreq.users = h == 0 ? g->users : NULL;
	router_handle(&g->hosts[h], g->sites[h], &rreq, r);
	for (hops = 0; r->status / 10 == 3 && r->meta[0] == '/' && hops < 2;
	    hops++) {
		memcpy(to, r->meta, sizeof(to));
		if (url_decode(to) == -1)
			break;
		memcpy(path, to, sizeof(path));
		response_free(r);
		response_init(r);
		r->may_defer = defer;
		router_handle(&g->hosts[h], g->sites[h], &rreq, r);
	}
	if (r->status / 10 == 3) {
		memcpy(to, r->meta, sizeof(to));
		say(r, "moved", NULL);
		buf_truncate(&r->owned, 0);
		buf_printf(&r->owned, "Moved:\n=> %s\n", to);
		response_use_owned(r);
	} else if (r->status / 10 != 2)
		say(r, r->status == 51 ? "not found" : r->meta, path);
	return FRONT_ANSWER;
}

void
nex_front_too_long(struct response *r)
{
	response_status(r, 59, "Request too long");
	say(r, "request too long", NULL);
}

void
nex_front_slow_down(unsigned wait, struct response *r)
{
	char	 why[80];

	response_status(r, 44, "Slow down");
	snprintf(why, sizeof(why), "too many requests: try again in %u "
	    "second%s", wait, wait == 1 ? "" : "s");
	say(r, why, NULL);
}

size_t
nex_front_header(struct response *r, char *out, size_t outlen)
{
	/* No status on the wire: the body says it all. */
	(void)r;
	(void)out;
	(void)outlen;
	return 0;
}
