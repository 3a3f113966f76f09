/*
 * spartan_front.c -- the Spartan surface's front end (spartan_front.h).
 *
 * The router speaks in Gemini's statuses; Spartan has four, and a
 * redirect may only name a path of the same host.  No sockets: the
 * request is parsed by proto/spartan.c, r describes what conn.c sends.
 */
#include <stdio.h>
#include <string.h>

#include "core/config.h"
#include "core/utf8.h"
#include "proto/spartan.h"
#include "site/response.h"
#include "site/router.h"
#include "site/spartan_front.h"

/* A redirect to a URL, which Spartan's 3 cannot carry: a page linking it. */
static void
link_page(struct response *r)
{
	char	 to[sizeof(r->meta)];

	memcpy(to, r->meta, sizeof(to));
	buf_truncate(&r->owned, 0);
	buf_printf(&r->owned, "# Moved\n\n=> %s\n", to);
	response_use_owned(r);
	response_status(r, 20, "text/gemini; charset=utf-8");
}

enum front_do
spartan_front_answer(const struct front_gen *g, const struct front_client *fc,
    const char *line, size_t len, struct front_app *app, struct response *r)
{
	struct spartan_request	 req;
	struct router_req	 rreq;
	const char		*err;
	char			 q[SPARTAN_DATA_MAX + 1];
	int			 h;

	(void)app;
	if (spartan_request_parse(line, len, &req, &err) == -1) {
		response_status(r, 59, "%s", err);
		return FRONT_ANSWER;
	}
	if ((h = front_host(g, SURFACE_SPARTAN, fc->port, req.host)) == -1) {
		response_status(r, 53, "No proxying to other hosts");
		return FRONT_ANSWER;
	}
	memset(&rreq, 0, sizeof(rreq));
	rreq.surface = SURFACE_SPARTAN;
	rreq.path = req.path;
	/* The query comes as the data block: text, or nothing. */
	if (req.datalen > 0) {
		if (memchr(req.data, '\0', req.datalen) != NULL ||
		    !utf8_valid(req.data, req.datalen)) {
			response_status(r, 59, "Bad request: the data is not "
			    "UTF-8 text");
			return FRONT_ANSWER;
		}
		memcpy(q, req.data, req.datalen);
		q[req.datalen] = '\0';
		rreq.query = q;
	}
	rreq.users = h == 0 ? g->users : NULL;
	router_handle(&g->hosts[h], g->sites[h], &rreq, r);
	if (r->status / 10 == 3 && r->meta[0] != '/')
		link_page(r);
	return FRONT_ANSWER;
}

void
spartan_front_too_long(struct response *r)
{
	response_status(r, 59, "Request too long");
}

void
spartan_front_slow_down(unsigned wait, struct response *r)
{
	response_status(r, 44, "Too many requests: slow down and try again "
	    "in %u second%s", wait, wait == 1 ? "" : "s");
}

/* mime without its lang parameter, into out. */
static void
without_lang(const char *mime, char *out, size_t outlen)
{
	const char	*p, *semi;
	size_t		 o = 0, n;

	for (p = mime; *p != '\0'; p = semi) {
		semi = strchr(p + 1, ';');
		if (semi == NULL)
			semi = p + strlen(p);
		n = (size_t)(semi - p);
		if (p != mime && strncmp(p + strspn(p, "; "), "lang=", 5) == 0)
			continue;
		if (o + n >= outlen)
			break;
		memcpy(out + o, p, n);
		o += n;
	}
	out[o] = '\0';
}

size_t
spartan_front_header(struct response *r, char *out, size_t outlen)
{
	char	 mime[sizeof(r->meta)];
	int	 d;

	switch (r->status / 10) {
	case 2:
		without_lang(r->meta, mime, sizeof(mime));
		return spartan_status_line(out, outlen, 2, mime);
	case 3:
		d = 3;
		break;
	case 4:
		d = 5;			/* the server cannot, for now */
		break;
	case 5:
		d = r->status == 50 ? 5 : 4;
		break;
	default:
		d = 4;			/* 6x: refused, never served */
		break;
	}
	r->body = NULL;
	r->bodylen = 0;
	return spartan_status_line(out, outlen, d, r->meta);
}
