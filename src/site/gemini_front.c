/*
 * gemini_front.c -- the Gemini surface's front end (gemini_front.h).
 *
 * The checks run in the order a client can see: the URL, the address
 * it names, the scheme (Titan's uploads share the Gemini port), the
 * host and its TLS name; then the router, which resolves the path and
 * decides access (a certificate zone, the CGI directory and backends
 * included).  No sockets and no I/O: the connection's knowledge comes
 * through struct front_client's callbacks, and r describes what conn.c
 * sends.
 */
#include <stdio.h>
#include <string.h>

#include "core/config.h"
#include "proto/gemini.h"
#include "proto/titan.h"
#include "site/front.h"
#include "site/gemini_front.h"
#include "site/router.h"

enum front_do
gemini_front_answer(const struct front_gen *g, const struct front_client *fc,
    const char *line, size_t len, struct front_app *app, struct response *r)
{
	struct gemini_request	*req = &app->req;
	struct router_req	 rreq;
	const char		*meta = NULL;
	int			 status, h = 0, at;

	app->host = 0;
	status = gemini_request_parse(line, len, g->ghosts, g->nhosts, req,
	    &meta);
	if (status == 0 && req->ip && !fc->own_address(fc->ctx, req)) {
		status = 53;
		meta = "Proxy request refused: not this server's address";
	}
	if (status == 0 && strcmp(req->url.scheme, "titan") == 0)
		return FRONT_UPLOAD;	/* a body follows */
	/* The URL's host picks the capsule, if the TLS name agrees. */
	if (status == 0 && (h = gemini_request_host(g->ghosts, g->nhosts,
	    req, fc->sni, &meta)) == -1)
		status = 53;
	/* An IP literal and no TLS name: the listener's host. */
	else if (status == 0 && req->ip && fc->sni == NULL &&
	    (at = front_host_at(g, SURFACE_GEMINI, fc->port)) != -1)
		h = at;
	if (status == 0 && !front_serves(g, SURFACE_GEMINI, fc->port,
	    h)) {
		status = 53;
		meta = "Proxy request refused: that host is not served on "
		    "this port";
	}
	if (status != 0) {
		response_status(r, status, "%s", meta);
		return FRONT_ANSWER;
	}
	app->host = h;
	memset(&rreq, 0, sizeof(rreq));
	rreq.surface = SURFACE_GEMINI;
	rreq.path = req->url.path;
	rreq.query = req->url.query;
	rreq.query_encoded = 1;
	/* Each host has its own writers (titan_writers is a site key). */
	rreq.writer = g->hosts[h].ntitan_writers > 0 &&
	    titan_writer(&g->hosts[h], fc->cert_hash(fc->ctx));
	/* User capsules are the top-level host's (docs/operating.md). */
	rreq.users = h == 0 ? g->users : NULL;
	rreq.client = fc->zone;
	switch (router_handle(&g->hosts[h], g->sites[h], &rreq, r)) {
	case ROUTER_APP:
		return FRONT_APP;
	case ROUTER_ANSWER:
		break;
	}
	return FRONT_ANSWER;
}

void
gemini_front_too_long(struct response *r)
{
	response_status(r, 59, "Request too long");
}

void
gemini_front_slow_down(unsigned wait, struct response *r)
{
	response_status(r, 44, "%u", wait);
}

size_t
gemini_front_header(struct response *r, char *out, size_t outlen)
{
	if (r->status / 10 != 2) {
		/* Only 2x has a body (Gemini spec). */
		r->body = NULL;
		r->bodylen = 0;
	}
	return gemini_header(out, outlen, r->status, r->meta);
}
