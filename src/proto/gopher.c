/*
 * gopher.c -- the Gopher request line (RFC 1436), and the
 * Gopher reading of the router's answers.
 *
 * Finds the end of a request, splits "selector TAB search TAB gopher+"
 * in place and turns the selector into a site path the router can take.
 * Selectors are opaque: no percent-decoding, '?' and '#' are part of
 * them.  An HTTP request line is recognised (browsers pointed at the
 * Gopher port) so that it gets a short HTTP reply instead of a menu.
 * Also formats the answers that need no router: a type-3 error menu,
 * that HTTP reply and the page for a "URL:" link.  gopher_respond()
 * puts it together: the router answers in Gemini statuses, and Gopher
 * has only menus, texts and errors.  Knows nothing of sockets; every
 * pointer in struct gopher_request points into the caller's line, and
 * the formatters append to the caller's buf.
 */
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "content/archive.h"
#include "core/buf.h"
#include "core/config.h"
#include "core/escape.h"
#include "core/gemini_limits.h"
#include "core/url.h"
#include "core/utf8.h"
#include "core/util.h"
#include "proto/gopher.h"
#include "site/router.h"
#include "site/site.h"

ssize_t
gopher_request_end(const char *buf, size_t len)
{
	const char	*lf;
	size_t		 n;

	n = len < GOPHER_REQUEST_MAX ? len : GOPHER_REQUEST_MAX;
	if ((lf = memchr(buf, '\n', n)) == NULL)
		return len >= GOPHER_REQUEST_MAX ? GOPHER_TOO_LONG :
		    GOPHER_INCOMPLETE;
	n = (size_t)(lf - buf);
	if (n > 0 && buf[n - 1] == '\r')
		n--;
	return n > GOPHER_LINE_MAX ? GOPHER_TOO_LONG : (ssize_t)n;
}

/* No control characters (C0, DEL), valid UTF-8. */
static int
check_text(const char *s, int search, const char **errstr)
{
	const unsigned char	*p;

	for (p = (const unsigned char *)s; *p != '\0'; p++) {
		if (*p < 0x20 || *p == 0x7F) {
			*errstr = search ? "Control character in search" :
			    "Control character in selector";
			return -1;
		}
	}
	if (!utf8_valid(s, strlen(s))) {
		*errstr = search ? "Search is not valid UTF-8" :
		    "Selector is not valid UTF-8";
		return -1;
	}
	return 0;
}

/*
 * gopher+ = "+" [ mimetype ] / "!" [ "+" word ] / "$" [ "+" word ]
 * mimetype = token "/" token [ SP language ]
 * A lone search string starting with '+' ("+cats") is not taken for one
 * unless it looks like a MIME type.
 */
static int
gopher_plus(const char *f)
{
	const char	*p;
	size_t		 n;

	if ((f[0] == '+' || f[0] == '!' || f[0] == '$') && f[1] == '\0')
		return 1;
	if ((f[0] == '!' || f[0] == '$') && f[1] == '+') {
		for (p = f + 2; *p != '\0'; p++)
			if (!((*p >= 'A' && *p <= 'Z') ||
			    (*p >= 'a' && *p <= 'z')))
				return 0;
		return p > f + 2;
	}
	if (f[0] != '+')
		return 0;
	/* "+type/subtype", optionally " lang" */
	n = strspn(f + 1, "abcdefghijklmnopqrstuvwxyz"
	    "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789!#$&^_.+-");
	if (n == 0 || f[1 + n] != '/')
		return 0;
	p = f + 2 + n;
	n = strspn(p, "abcdefghijklmnopqrstuvwxyz"
	    "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789!#$&^_.+-");
	if (n == 0)
		return 0;
	p += n;
	return *p == '\0' || (*p == ' ' && strchr(p + 1, ' ') == NULL &&
	    p[1] != '\0');
}

/* What the Gopher+ field f (gopher_plus() says it is one) asks for. */
static void
plus_form(struct gopher_request *req, char *f)
{
	switch (f[0]) {
	case '+':
		req->form = GOPHERPLUS_DATA;
		if (f[1] != '\0')
			req->view = f + 1;
		break;
	case '!':
		req->form = GOPHERPLUS_INFO;
		if (f[1] == '+')
			req->block = f + 2;
		break;
	default:
		req->form = GOPHERPLUS_DIR;
		if (f[1] == '+')
			req->block = f + 2;
		break;
	}
}

/* A site path: '/' ensured, UTF-8, no controls, no dot segment. */
static int
make_path(struct gopher_request *req, const char *s, const char **errstr)
{
	size_t		 len, off;

	off = s[0] == '/' ? 0 : 1;
	len = strlen(s);
	if (off + len >= sizeof(req->path)) {
		*errstr = "Selector too long";
		return -1;
	}
	req->path[0] = '/';
	memcpy(req->path + off, s, len + 1);
	if (check_text(req->path, 0, errstr) == -1)
		return -1;
	if (url_has_dot_segment(req->path)) {
		*errstr = "Dot segment in selector";
		return -1;
	}
	return 0;
}

/*
 * http = method SP request-target SP "HTTP/" DIGIT [ "." DIGIT ]
 * Returns the request-target, NUL-terminated in place, or NULL.
 */
static char *
http_target(char *line)
{
	static const char *const methods[] = {
		"GET", "HEAD", "POST", "PUT", "DELETE", "CONNECT", "OPTIONS",
		"TRACE", "PATCH", "PRI",
	};
	char	*sp, *target, *ver;
	size_t	 i, mlen;

	if ((sp = strchr(line, ' ')) == NULL)
		return NULL;
	mlen = (size_t)(sp - line);
	for (i = 0; i < nitems(methods); i++)
		if (strlen(methods[i]) == mlen &&
		    memcmp(line, methods[i], mlen) == 0)
			break;
	if (i == nitems(methods))
		return NULL;
	target = sp + 1;
	if ((sp = strchr(target, ' ')) == NULL || sp == target)
		return NULL;
	ver = sp + 1;
	if (strncmp(ver, "HTTP/", 5) != 0 || !(ver[5] >= '0' && ver[5] <= '9'))
		return NULL;
	if (!(ver[6] == '\0' || (ver[6] == '.' && ver[7] >= '0' &&
	    ver[7] <= '9' && ver[8] == '\0')))
		return NULL;
	*sp = '\0';
	return target;
}

/* origin-form "/p?q" or absolute-form "http://h/p?q": the path, decoded. */
static int
http_path(struct gopher_request *req, const char *target,
    const char **errstr)
{
	char		 tmp[GOPHER_LINE_MAX + 1];
	const char	*p = target;
	size_t		 len;

	if (strncasecmp(p, "http://", 7) == 0 ||
	    strncasecmp(p, "https://", 8) == 0) {
		p = strchr(p, '/') + 2;		/* past "//" */
		p += strcspn(p, "/?#");
		if (*p != '/')
			p = "/";
	}
	if (*p != '/') {
		*errstr = "Not a path";
		return -1;
	}
	len = strcspn(p, "?#");
	memcpy(tmp, p, len);		/* len <= strlen(line) <= 1024 */
	tmp[len] = '\0';
	if (url_decode(tmp) == -1) {
		*errstr = "Bad percent escape";
		return -1;
	}
	return make_path(req, tmp, errstr);
}

int
gopher_request_parse(char *line, size_t len, struct gopher_request *req,
    const char **errstr)
{
	char	*tab, *next, *target;

	req->selector = req->search = req->url = NULL;
	req->view = req->block = NULL;
	req->form = GOPHERPLUS_NONE;
	req->is_http = 0;
	req->path[0] = '\0';
	if (len > GOPHER_LINE_MAX) {
		*errstr = "Selector too long";
		return -1;
	}
	if (memchr(line, '\0', len) != NULL) {
		*errstr = "NUL in selector";
		return -1;
	}
	line[len] = '\0';

	if ((target = http_target(line)) != NULL) {
		req->is_http = 1;
		req->selector = target;
		if (check_text(target, 0, errstr) == -1)
			return -1;
		return http_path(req, target, errstr);
	}

	/* selector [ TAB search ] [ TAB gopher+ ... ] */
	req->selector = line;
	if ((tab = strchr(line, '\t')) != NULL) {
		*tab++ = '\0';
		if ((next = strchr(tab, '\t')) != NULL)
			*next++ = '\0';
		if (gopher_plus(tab))
			plus_form(req, tab);
		else {
			req->search = tab;
			if (check_text(req->search, 1, errstr) == -1)
				return -1;
			if (next != NULL) {
				if ((tab = strchr(next, '\t')) != NULL)
					*tab = '\0';	/* later: ignored */
				if (gopher_plus(next))
					plus_form(req, next);
			}
		}
	}
	if (strncmp(req->selector, "URL:", 4) == 0)
		req->url = req->selector + 4;
	return make_path(req, req->selector, errstr);
}

#define GOPHER_DUMMY	"\tfake\t(NULL)\t0\r\n"	/* as page.c's i lines */
#define GOPHER_MSG_MAX	70

void
gopher_error_menu(struct buf *out, const char *msg)
{
	const unsigned char	*p;
	size_t			 len = 0, n, start;

	if (msg == NULL || msg[0] == '\0')
		msg = "Error";
	buf_addc(out, '3');
	start = out->len;
	for (p = (const unsigned char *)msg; *p != '\0'; p += n) {
		n = 1;
		if (*p >= 0x80) {
			n = *p >= 0xF0 ? 4 : *p >= 0xE0 ? 3 : 2;
			if (strnlen((const char *)p, n) < n ||
			    !utf8_valid((const char *)p, n)) {
				n = 1;
				if (len + 1 > GOPHER_MSG_MAX)
					break;
				buf_addc(out, '?');
				len++;
				continue;
			}
		}
		if (len + n > GOPHER_MSG_MAX)
			break;
		if (*p < 0x20 || *p == 0x7F)
			buf_addc(out, ' ');
		else
			buf_add(out, p, n);
		len += n;
	}
	if (out->len == start)
		buf_addstr(out, "Error");
	buf_addstr(out, GOPHER_DUMMY ".\r\n");
}

void
gopher_http_reply(struct buf *out, const char *hostname, int port)
{
	struct buf	 body = BUF_INIT;
	int		 v6;

	v6 = strchr(hostname, ':') != NULL && hostname[0] != '[';
	buf_printf(&body, "This is a Gopher server, not a web server.\r\n"
	    "Open gopher://%s%s%s", v6 ? "[" : "", hostname, v6 ? "]" : "");
	if (port != 70)
		buf_printf(&body, ":%d", port);
	buf_addstr(&body, "/ with a Gopher client.\r\n");
	buf_printf(out, "HTTP/1.0 400 Bad Request\r\n"
	    "Content-Type: text/plain; charset=utf-8\r\n"
	    "Content-Length: %zu\r\n"
	    "Connection: close\r\n"
	    "\r\n", body.len);
	buf_add(out, body.data, body.len);
	buf_free(&body);
}

void
gopher_url_page(struct buf *out, const char *url)
{
	buf_addstr(out, "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\">"
	    "<meta http-equiv=\"refresh\" content=\"1;url=");
	escape_html(out, url, strlen(url));
	buf_addstr(out, "\"><title>Link</title></head><body>\n"
	    "<p>This Gopher link leads elsewhere: <a href=\"");
	escape_html(out, url, strlen(url));
	buf_addstr(out, "\">");
	escape_html(out, url, strlen(url));
	buf_addstr(out, "</a></p>\n</body></html>\n");
}

/* s on one line (controls made spaces), then CRLF. */
static void
one_line(struct buf *out, const char *s)
{
	for (; *s != '\0'; s++)
		buf_addc(out, (unsigned char)*s < 0x20 ? ' ' : *s);
	buf_addstr(out, "\r\n");
}

/* Gopher errors are one-line type-3 menus (RFC 1436). */
void
gopher_error(struct response *r, const char *msg)
{
	buf_truncate(&r->owned, 0);
	gopher_error_menu(&r->owned, msg);
	response_use_owned(r);
	if (r->fd != -1) {
		close(r->fd);
		r->fd = -1;
	}
}

/* The port menus give: the public one when set. */
static int
menu_port(const struct config *c)
{
	return c->gopher_public_port ? c->gopher_public_port : c->gopher_port;
}

void
gopher_caps(struct buf *out, const struct config *c, const char *title,
    const char *admin)
{
	/* The keys Gophernicus writes, CRLF-ended as it does. */
	buf_addstr(out, "CAPS\r\n\r\n"
	    "# What this Gopher server is, for the clients that ask.\r\n"
	    "\r\n"
	    "CapsVersion=1\r\n"
	    "ExpireCapsAfter=3600\r\n"
	    "\r\n"
	    "PathDelimeter=/\r\n"
	    "PathIdentity=.\r\n"
	    "PathParent=..\r\n"
	    "PathParentDouble=FALSE\r\n"
	    "PathKeepPreDelimeter=FALSE\r\n"
	    "\r\n"
	    "ServerSoftware=capsuled\r\n"
	    "ServerSoftwareVersion=" CAPSULED_VERSION "\r\n");
	buf_printf(out, "ServerDefaultEncoding=%s\r\n",
	    c->gopher_charset == CONFIG_CHARSET_ASCII ? "US-ASCII" : "UTF-8");
	if (title != NULL && *title != '\0') {
		buf_addstr(out, "ServerDescription=");
		one_line(out, title);
	}
	if (admin != NULL && *admin != '\0') {
		buf_addstr(out, "ServerAdmin=");
		one_line(out, admin);
	}
}

/* A Gopher error: a type-3 menu, or in the Gopher+ form asked for. */
static void
fail(struct response *r, const struct gopherplus_site *gs,
    enum gopherplus_form form, const char *msg)
{
	if (form == GOPHERPLUS_NONE)
		gopher_error(r, msg);
	else
		gopherplus_error(gs, msg, r);
}

_Static_assert(GEMINI_META_MAX < GOPHER_LINE_MAX + 2,
    "a redirect's target fits where a selector's path does");

/* What one Gopher answer is made from. */
struct answer_ctx {
	const struct config	*host;
	struct site		*site;
	const char		*search;	/* or NULL */
	const struct router_users *users; /* or NULL */
};

/*
 * The RFC 1436 answer at the site path path[] (a redirect's target is
 * written back into it): a "URL:" page, caps.txt, or the router's,
 * redirects to a path followed, twice at most.  r's status says how it
 * went; nothing is made of an error yet.
 */
static void
answer(const struct answer_ctx *ac, char path[GOPHER_LINE_MAX + 2],
    struct response *r)
{
	struct router_req	 rreq = { PROTO_GOPHER, NULL, NULL, 0, NULL };
	const struct archive	*a = ac->site != NULL ? ac->site->a : NULL;
	int			 hops;

	if (strncmp(path, "/URL:", 5) == 0) {
		/* An h-link followed by a client that does not know URL:. */
		gopher_url_page(&r->owned, path + 5);
		response_use_owned(r);
		r->gopher_type = 'h';
		response_status(r, 20, "text/html; charset=utf-8");
		return;
	}
	if (strcmp(path, "/caps.txt") == 0) {
		gopher_caps(&r->owned, ac->host, a != NULL ? a->title :
		    ac->host->site_title, a != NULL && a->author != NULL ?
		    a->author : ac->host->author);
		response_use_owned(r);
		r->gopher_type = '0';
		response_status(r, 20, "text/plain; charset=utf-8");
		return;
	}
	rreq.path = path;
	rreq.query = ac->search;
	rreq.users = ac->users;
	router_handle(ac->host, ac->site, &rreq, r);
	/*
	 * Gopher has no redirects: follow ours ("/posts" -> "/posts/", and
	 * config "redirects:" to a path).  One to a URL is told by the
	 * caller.
	 */
	for (hops = 0; r->status / 10 == 3 && r->meta[0] == '/' && hops < 2;
	    hops++) {
		int	defer = r->may_defer;

		snprintf(path, GOPHER_LINE_MAX + 2, "%s", r->meta);
		response_free(r);
		response_init(r);
		r->may_defer = defer;
		router_handle(ac->host, ac->site, &rreq, r);
	}
}

/* For Gopher+ views: how long the answer at path is, -1 if none. */
static long long
answer_size(void *ctx, const char *path)
{
	const struct answer_ctx	*ac = ctx;
	struct answer_ctx	 plain = { ac->host, ac->site, NULL, ac->users };
	struct response		 r;
	char			 p[GOPHER_LINE_MAX + 2];
	long long		 n = -1;

	if (strlen(path) >= sizeof(p))
		return -1;
	memcpy(p, path, strlen(path) + 1);
	response_init(&r);
	answer(&plain, p, &r);
	if (r.status / 10 == 2)
		n = (long long)r.bodylen + (r.fd != -1 ? (long long)r.filelen :
		    0);
	response_free(&r);
	return n;
}

int
gopher_respond(const struct config *host, struct site *site,
    const struct router_users *users, const char *line, size_t len,
    struct response *r)
{
	struct gopher_request	 req;
	struct gopherplus_site	 gs;
	struct answer_ctx	 ac = { host, site, NULL, users };
	const struct archive	*a = site != NULL ? site->a : NULL;
	const char		*err = NULL;
	char			 copy[GOPHER_LINE_MAX + 1];

	memset(&gs, 0, sizeof(gs));
	gs.host = host->hostname;
	gs.port = menu_port(host);
	gs.admin = a != NULL && a->author != NULL ? a->author : host->author;
	gs.a = a;
	gs.links = (enum fsafe_links)host->follow_symlinks;
	gs.size = answer_size;
	gs.size_ctx = &ac;

	/* The parser cuts the line in place; the caller's stays whole. */
	if (len > GOPHER_LINE_MAX) {	/* gopher_request_end() says so */
		gopher_error(r, "Selector too long");
		return 59;
	}
	memcpy(copy, line, len);
	if (gopher_request_parse(copy, len, &req, &err) == -1) {
		if (req.is_http)
			gopher_error(r, err);
		else
			fail(r, &gs, req.form, err);
		return 59;
	}
	if (req.is_http) {
		/* A web browser pointed at the Gopher port: tell the person. */
		gopher_http_reply(&r->owned, host->hostname, menu_port(host));
		response_use_owned(r);
		return 59;
	}
	ac.search = req.search;
	/* The Gopher+ forms frame the body: it must be there to frame. */
	if (req.form != GOPHERPLUS_NONE)
		r->may_defer = 0;
	answer(&ac, req.path, r);
	if (r->status / 10 == 3) {
		char msg[sizeof("Moved to ") + GEMINI_META_MAX];

		snprintf(msg, sizeof(msg), "Moved to %s", r->meta);
		fail(r, &gs, req.form, msg);
	} else if (r->status / 10 != 2)
		fail(r, &gs, req.form, r->status == 51 ? "Not found" :
		    r->meta);
	else
		gopherplus_answer(&gs, req.form, req.view, req.block,
		    req.selector, req.path, r);
	return r->status;
}
