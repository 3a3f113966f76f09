/*
 * http_front.c -- the web view's front end (http_front.h).
 *
 * The router speaks in Gemini's statuses and this file says them in
 * HTTP: 20 is 200, 30 302 and 31 301 (Location), 51 404, 52 410, 53
 * 421, 59 400, 6x 403 (what an access rule guards: no certificate can
 * come over this surface), 42 and 43 502, 44 429 (Retry-After), the
 * rest of 4x 503 and 50 500; the access log keeps the Gemini status,
 * as it does for every surface.  The request is parsed by proto/http.c;
 * what the answer depends on (the method, the validators, whether the
 * client keeps the connection, whether the path is kept from indexes)
 * rides in the response to header() (struct ask).  No sockets: r
 * describes what conn.c sends.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <time.h>

#include "core/buf.h"
#include "core/cache.h"
#include "core/config.h"
#include "core/escape.h"
#include "core/hash.h"
#include "core/log.h"
#include "core/robots.h"
#include "core/url.h"
#include "core/utf8.h"
#include "core/util.h"
#include "proto/http.h"
#include "site/http_front.h"
#include "site/response.h"
#include "site/router.h"

/* What header() needs of the request answer() read (r->front). */
struct ask {
	enum http_method method;
	int		 keep;		/* the client keeps the connection */
	int		 minor;		/* HTTP/1.<minor> */
	int		 code;		/* an HTTP status decided before the
					   router (a bad request): 0 none */
	const char	*robots_tag;	/* X-Robots-Tag's value, or NULL */
	unsigned	 retry;		/* 429: seconds to wait */
	int64_t		 since;		/* If-Modified-Since, or -1 */
	char		 etags[HTTP_ETAGS_MAX + 1];	/* If-None-Match */
};

static struct ask *
ask_of(struct response *r)
{
	struct ask	*a;

	if (r->front == NULL) {
		a = r->front = xcalloc(1, sizeof(*a));
		a->since = -1;
	}
	return r->front;
}

/*
 * The query a search gets: a form's "q=words" ('+' for a space, then
 * percent-decoded, into buf), else the query as a Gemini client sends
 * it (*encoded: the router decodes it).  NULL when there is none or it
 * is not UTF-8 text.
 */
static const char *
search_query(const char *query, char *buf, size_t size, int *encoded)
{
	char	*p;

	*encoded = 0;
	if (query == NULL || *query == '\0')
		return NULL;
	if (strncmp(query, "q=", 2) != 0) {
		*encoded = 1;
		return query;
	}
	snprintf(buf, size, "%.*s", (int)strcspn(query + 2, "&"), query + 2);
	for (p = buf; *p != '\0'; p++)
		if (*p == '+')
			*p = ' ';
	if (url_decode(buf) == -1 || !utf8_valid(buf, strlen(buf)))
		return NULL;
	return buf;
}

enum front_do
http_front_answer(const struct front_gen *g, const struct front_client *fc,
    const char *head, size_t len, struct front_app *app, struct response *r)
{
	struct http_request	 req;
	struct router_req	 rreq;
	struct ask		*a = ask_of(r);
	const char		*err;
	char			 q[HTTP_TARGET_MAX + 1];
	int			 h, status;

	(void)app;
	status = http_request_parse(head, len, &req, &err);
	a->method = req.method;
	a->minor = req.minor;
	a->keep = req.keep && fc->nth < HTTP_KEEP_MAX;
	a->since = req.since;
	memcpy(a->etags, req.etags, sizeof(a->etags));
	if (status == 0 && req.method == HTTP_OTHER) {
		status = 405;
		err = "Only GET and HEAD are served here";
	} else if (status == 0 && (h = front_host(g, SURFACE_HTTP, fc->port,
	    req.host)) == -1) {
		status = 421;
		err = "Not a host of this server: it proxies no other";
	}
	if (status != 0) {
		a->code = status;
		/* After a malformed head, where the next one starts is a
		 * guess: close.  A 405's request had no body: go on. */
		a->keep &= status == 405 || status == 421;
		response_status(r, 59, "%s", err);
		return FRONT_ANSWER;
	}
	memset(&rreq, 0, sizeof(rreq));
	rreq.surface = SURFACE_HTTP;
	rreq.path = req.path;
	rreq.query = search_query(req.query, q, sizeof(q),
	    &rreq.query_encoded);
	rreq.users = h == 0 ? g->users : NULL;
	router_handle(&g->hosts[h], g->sites[h], &rreq, r);
	/* What a zone guards, or the robots rules keep out, is no one's. */
	a->robots_tag = r->status / 10 == 6 ? "noindex" :
	    robots_tag(g->hosts[h].robots, req.path);
	return FRONT_ANSWER;
}

void
http_front_too_long(struct response *r)
{
	ask_of(r)->code = 431;
	response_status(r, 59, "The request's head is over %d bytes",
	    HTTP_HEAD_MAX);
}

void
http_front_slow_down(unsigned wait, struct response *r)
{
	ask_of(r)->retry = wait;
	response_status(r, 44, "Too many requests: slow down and try again "
	    "in %u second%s", wait, wait == 1 ? "" : "s");
}

/*
 * The router's status (Gemini's) said in HTTP: as the access log's
 * common format says it (core/log.h), but for a certificate, which no
 * client of this surface can show: 403, not 401.
 */
static int
http_status(int status)
{
	if (status / 10 == 6)
		return 403;
	if (status / 10 == 1)
		return 400;		/* nothing here asks for input */
	return log_status_http(status);
}

/* Date: the time now, made once a second per thread. */
static const char *
now_date(void)
{
	static _Thread_local int64_t	 at = -1;
	static _Thread_local char	 date[32];
	int64_t				 t = (int64_t)time(NULL);

	if (t != at) {
		http_date(t, date, sizeof(date));
		at = t;
	}
	return date;
}

/*
 * The validators of r's body: an entity tag (a hash of the bytes, or a
 * file's identity), and its modification time (0: unknown).
 */
static void
validators(struct response *r, char *etag, size_t size, int64_t *mtime)
{
	struct stat	 st;

	*mtime = 0;
	if (r->fd != -1 && fstat(r->fd, &st) == 0) {
		/* A file streamed: its identity, as nginx names one. */
		snprintf(etag, size, "\"%llx-%llx-%llx\"",
		    (unsigned long long)st.st_ino,
		    (unsigned long long)st.st_size,
		    (unsigned long long)st.st_mtime);
		*mtime = (int64_t)st.st_mtime;
		return;
	}
	if (r->blob != NULL) {
		snprintf(etag, size, "\"%016llx\"",
		    (unsigned long long)blob_tag(r->blob));
		*mtime = r->blob->made;
		return;
	}
	snprintf(etag, size, "\"%016llx\"",
	    (unsigned long long)hash_bytes(r->body != NULL ? r->body : "",
	    r->bodylen));
}

/* An error's page, r's body: small, in the site's style of no style. */
static void
error_page(struct response *r, int code)
{
	buf_truncate(&r->owned, 0);
	buf_printf(&r->owned, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n"
	    "<meta charset=\"utf-8\">\n<meta name=\"viewport\" "
	    "content=\"width=device-width, initial-scale=1\">\n"
	    "<title>%d %s</title>\n</head>\n<body>\n<h1>%d %s</h1>\n<p>",
	    code, http_reason(code), code, http_reason(code));
	escape_xml(&r->owned, r->meta, strlen(r->meta));
	buf_addstr(&r->owned, "</p>\n</body>\n</html>\n");
	if (r->fd != -1) {
		r->filelen = 0;		/* closed by response_free() */
	}
	response_use_owned(r);
}

/* Content-Type (without lang=) and Content-Language from META. */
static void
add_type(struct buf *h, const char *meta)
{
	const char	*lang = strstr(meta, "; lang="), *end;

	if (lang == NULL) {
		buf_printf(h, "Content-Type: %s\r\n", meta);
		return;
	}
	end = lang + 7 + strcspn(lang + 7, ";");
	buf_printf(h, "Content-Type: %.*s%s\r\n", (int)(lang - meta), meta,
	    end);
	if (end > lang + 7)
		buf_printf(h, "Content-Language: %.*s\r\n",
		    (int)(end - lang - 7), lang + 7);
}

size_t
http_front_header(struct response *r, char *out, size_t outlen)
{
	struct ask	*a = ask_of(r);
	struct buf	 h = BUF_INIT;
	char		 etag[64];
	int64_t		 mtime = 0;
	uint64_t	 len;
	int		 code, matched = 0;
	size_t		 n;

	code = a->code != 0 ? a->code : http_status(r->status);
	if (code == 200) {
		validators(r, etag, sizeof(etag), &mtime);
		if (a->etags[0] != '\0')
			matched = http_etag_match(a->etags, etag);
		else if (a->since >= 0 && mtime > 0)
			matched = mtime <= a->since;
		if (matched)
			code = 304;
	} else if (code / 100 != 3)
		error_page(r, code);
	else {
		r->body = NULL;
		r->bodylen = 0;
	}
	len = r->bodylen + (r->fd != -1 ? r->filelen : 0);
	buf_printf(&h, "HTTP/1.1 %d %s\r\nDate: %s\r\nServer: capsuled\r\n",
	    code, http_reason(code), now_date());
	if (code == 200 || code == 304) {
		buf_printf(&h, "ETag: %s\r\n", etag);
		if (mtime > 0) {
			buf_addstr(&h, "Last-Modified: ");
			buf_reserve(&h, 32);
			h.len += http_date(mtime, h.data + h.len, 32);
			buf_addstr(&h, "\r\n");
		}
	}
	if (code == 200)
		add_type(&h, r->meta);
	else if (code / 100 == 3) {
		/* A path of ours or a URL; META is one line of ASCII. */
		buf_addstr(&h, "Location: ");
		for (n = 0; r->meta[n] != '\0'; n++)
			buf_addc(&h, (unsigned char)r->meta[n] <= 0x20 ||
			    (unsigned char)r->meta[n] >= 0x7f ? '_' :
			    r->meta[n]);
		buf_addstr(&h, "\r\n");
	} else if (code != 304)
		buf_addstr(&h, "Content-Type: text/html; charset=utf-8\r\n");
	if (code == 405)
		buf_addstr(&h, "Allow: GET, HEAD\r\n");
	if (code == 429 && a->retry > 0)
		buf_printf(&h, "Retry-After: %u\r\n", a->retry);
	if (a->robots_tag != NULL || code == 403)
		buf_printf(&h, "X-Robots-Tag: %s\r\n", a->robots_tag != NULL ?
		    a->robots_tag : "noindex");
	if (code != 304)
		buf_printf(&h, "Content-Length: %llu\r\n",
		    (unsigned long long)len);
	buf_addstr(&h, "X-Content-Type-Options: nosniff\r\n");
	/* Over a few statuses, as over a client's word, the link ends. */
	r->keep = a->keep && code != 400 && code != 431 && code != 414 &&
	    code != 501 && code != 505 && code / 100 != 5;
	if (!r->keep)
		buf_addstr(&h, "Connection: close\r\n");
	else if (a->minor == 0)
		buf_addstr(&h, "Connection: keep-alive\r\n");
	buf_addstr(&h, "\r\n");
	/* HEAD and 304 say what the body is, and send none. */
	if (a->method == HTTP_HEAD || code == 304) {
		r->body = NULL;
		r->bodylen = 0;
		r->filelen = 0;
	}
	n = h.len < outlen ? h.len : 0;
	if (n > 0)
		memcpy(out, h.data, n);
	buf_free(&h);
	return n;
}
