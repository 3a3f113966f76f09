/*
 * gopher.c -- the Gopher request line (RFC 1436) and the answers that
 * are wire format only.
 *
 * Finds the end of a request, splits "selector TAB search TAB gopher+"
 * in place and turns the selector into a site path the router can take.
 * Selectors are opaque: no percent-decoding, '?' and '#' are part of
 * them.  An HTTP request line is recognised (browsers pointed at the
 * Gopher port) so that it gets a short HTTP reply instead of a menu.
 * Also formats a type-3 error menu, that HTTP reply and the page for a
 * "URL:" link, and cleans text for a field of a Gopher line.  What
 * answers a request is site/gopher_front.c's.  Knows nothing of
 * sockets; every pointer in struct gopher_request points into the
 * caller's line, and the formatters append to the caller's buf.
 */
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "core/buf.h"
#include "core/config.h"
#include "core/escape.h"
#include "core/url.h"
#include "core/utf8.h"
#include "core/util.h"
#include "proto/gopher.h"

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

void
gopher_clean(struct buf *out, const char *s, size_t len)
{
	size_t	 i;

	for (i = 0; i < len; i++)
		buf_addc(out, s[i] == '\t' || s[i] == '\r' || s[i] == '\n' ?
		    ' ' : s[i]);
}
