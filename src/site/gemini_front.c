/*
 * gemini_front.c -- a Gemini request line to what answers it
 * (gemini_front.h).
 *
 * The checks run in the order a client can see: the URL, the address
 * it names, the scheme (Titan's uploads share the Gemini port), the
 * host and its TLS name, its certificate zones, the CGI directory, then
 * the router.  No
 * sockets and no I/O: the connection's knowledge comes through
 * gemini_front_conn's callbacks, and r describes what conn.c sends.
 */
#include <string.h>

#include "core/config.h"
#include "core/config_apps.h"
#include "core/layout.h"
#include "proto/gemini.h"
#include "proto/titan.h"
#include "site/gemini_front.h"
#include "site/router.h"
#include "site/zone.h"

enum gemini_front_do
gemini_front_answer(const struct gemini_front *gf,
    const struct gemini_front_conn *gc, const char *line, size_t len,
    struct gemini_request *req, int *hostp, struct response *r)
{
	struct router_req	 rreq;
	const char		*meta = NULL;
	long			 z;
	int			 status, h = 0;

	*hostp = 0;
	status = gemini_request_parse(line, len, gf->ghosts, gf->nhosts, req,
	    &meta);
	if (status == 0 && req->ip && !gc->own_address(gc->ctx, req)) {
		status = 53;
		meta = "Proxy request refused: not this server's address";
	}
	if (status == 0 && strcmp(req->url.scheme, "titan") == 0)
		return GEMINI_FRONT_UPLOAD;	/* a body follows */
	/* The URL's host picks the capsule, if the TLS name agrees. */
	if (status == 0 && (h = gemini_request_host(gf->ghosts, gf->nhosts,
	    req, gc->sni, &meta)) == -1)
		status = 53;
	if (status != 0) {
		response_status(r, status, "%s", meta);
		return GEMINI_FRONT_ANSWER;
	}
	*hostp = h;
	/* Certificate zones guard files, pages and programs alike. */
	if (gc->zone != NULL && (z = zone_find(gf->cfg,
	    gf->hosts[h].hostname, req->url.path)) != -1 &&
	    zone_check(gf->cfg, (size_t)z, gc->zone, r) == -1)
		return GEMINI_FRONT_ANSWER;
	/* Programs, and the servers of "fastcgi", "scgi" and "proxy". */
	if (layout_under(gf->hosts[h].cgi, req->url.path) ||
	    config_app_find(gf->hosts[h].apps, gf->hosts[h].napps,
	    gf->hosts[h].hostname, req->url.path) != NULL)
		return GEMINI_FRONT_CGI;
	rreq.proto = PROTO_GEMINI;
	rreq.path = req->url.path;
	rreq.query = req->url.query;
	/* Each host has its own writers (titan_writers is a site key). */
	rreq.writer = gf->hosts[h].ntitan_writers > 0 &&
	    titan_writer(&gf->hosts[h], gc->cert_hash(gc->ctx));
	/* User capsules are the top-level host's (README.md). */
	rreq.users = h == 0 ? gf->users : NULL;
	router_handle(&gf->hosts[h], gf->sites[h], &rreq, r);
	return GEMINI_FRONT_ANSWER;
}
