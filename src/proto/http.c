/*
 * http.c -- an HTTP/1.1 request head and the answer's parts (http.h).
 *
 * Written here rather than taken from Debian's libhttp-parser: that
 * library is a callback machine made for streaming bodies, archived
 * upstream, and its successor llhttp is not packaged in Debian 12; the
 * web view reads a bounded head and no body, which is this page of
 * code, measured as the other request parsers are (pure, fuzzed by
 * tests/fuzz/fuzz_http.c).
 */
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "core/url.h"
#include "core/utf8.h"
#include "proto/http.h"

ssize_t
http_request_end(const char *buf, size_t len)
{
	const char	*p, *end;
	size_t		 skip = 0, n;

	n = len > HTTP_HEAD_MAX ? HTTP_HEAD_MAX : len;
	/* Empty lines before the request line are ignored (9112 2.2). */
	while (skip < n && (buf[skip] == '\r' || buf[skip] == '\n'))
		skip++;
	end = buf + n;
	for (p = buf + skip; p < end &&
	    (p = memchr(p, '\n', (size_t)(end - p))) != NULL; p++) {
		if (p + 1 < end && p[1] == '\n')
			return (ssize_t)(p + 2 - buf);
		if (p + 2 < end && p[1] == '\r' && p[2] == '\n')
			return (ssize_t)(p + 3 - buf);
	}
	return len >= HTTP_HEAD_MAX ? HTTP_TOO_LONG : HTTP_INCOMPLETE;
}

/* tchar (RFC 9110 section 5.6.2): what a method or a field name is made of. */
static int
tchar(unsigned char c)
{
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') ||
	    (c >= 'A' && c <= 'Z') ||
	    (c != '\0' && strchr("!#$%&'*+-.^_`|~", c) != NULL);
}

/* The line at *p (up to end), without CR LF; *p moves past it. */
static int
next_line(const char **p, const char *end, const char **line, size_t *len)
{
	const char	*nl;

	if (*p >= end)
		return 0;
	if ((nl = memchr(*p, '\n', (size_t)(end - *p))) == NULL)
		nl = end;
	*line = *p;
	*len = (size_t)(nl - *p);
	if (*len > 0 && (*p)[*len - 1] == '\r')
		(*len)--;
	*p = nl < end ? nl + 1 : end;
	return 1;
}

/* Does the comma-separated list v[0..len) hold the token tok? */
static int
has_token(const char *v, size_t len, const char *tok)
{
	size_t	 i = 0, b, e, tl = strlen(tok);

	while (i < len) {
		while (i < len && (v[i] == ' ' || v[i] == '\t' || v[i] == ','))
			i++;
		b = i;
		while (i < len && v[i] != ',')
			i++;
		for (e = i; e > b && (v[e - 1] == ' ' || v[e - 1] == '\t');)
			e--;
		if (e - b == tl && strncasecmp(v + b, tok, tl) == 0)
			return 1;
	}
	return 0;
}

/*
 * host = uri-host [ ":" port ], into req->host lower-cased without the
 * port; -1 when it is not one (a byte no host name or IP literal has).
 */
static int
take_host(struct http_request *req, const char *v, size_t len)
{
	const char	*colon;
	size_t		 i;
	char		 c;

	if (len > 0 && v[0] == '[') {
		if ((colon = memchr(v, ']', len)) == NULL)
			return -1;
		colon++;
	} else
		colon = memchr(v, ':', len);
	if (colon != NULL && colon < v + len) {
		if (*colon != ':' || strspn(colon + 1, "0123456789") !=
		    (size_t)(v + len - colon - 1))
			return -1;
		len = (size_t)(colon - v);
	}
	if (len > HTTP_HOST_MAX)
		return -1;
	for (i = 0; i < len; i++) {
		c = v[i];
		if (c >= 'A' && c <= 'Z')
			c = (char)(c - 'A' + 'a');
		else if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
		    (c != '\0' && strchr("-._[]:", c) != NULL)))
			return -1;
		req->host[i] = c;
	}
	req->host[len] = '\0';
	return 0;
}

/*
 * origin-form = absolute-path [ "?" query ], or the absolute form
 * "http://" authority path, whose authority stands for Host.
 */
static int
take_target(struct http_request *req, const char *t, size_t len,
    const char **err)
{
	const char	*auth, *slash;
	char		*p;

	if (len > HTTP_TARGET_MAX) {
		*err = "URI Too Long";
		return 414;
	}
	*err = "Bad Request: not a path of this server";
	if (len > 7 && (strncasecmp(t, "http://", 7) == 0 ||
	    (len > 8 && strncasecmp(t, "https://", 8) == 0))) {
		auth = t + (t[4] == ':' ? 7 : 8);
		slash = memchr(auth, '/', len - (size_t)(auth - t));
		if (slash == NULL || take_host(req, auth,
		    (size_t)(slash - auth)) == -1)
			return 400;
		len -= (size_t)(slash - t);
		t = slash;
	}
	if (len == 0 || t[0] != '/' || (len > 1 && t[1] == '/'))
		return 400;
	memcpy(req->target, t, len);
	req->target[len] = '\0';
	if (strchr(req->target, '#') != NULL)
		return 400;
	req->path = req->target;
	if ((p = strchr(req->target, '?')) != NULL) {
		*p = '\0';
		req->query = p + 1;
	}
	/* Encoded slashes, NULs and dots would name what the path hides. */
	for (p = req->path; (p = strchr(p, '%')) != NULL; p++)
		if (strncasecmp(p + 1, "2f", 2) == 0)
			return 400;
	if (url_decode(req->path) == -1 ||
	    !utf8_valid(req->path, strlen(req->path)) ||
	    url_has_dot_segment(req->path))
		return 400;
	for (p = req->path; *p != '\0'; p++)
		if ((unsigned char)*p < 0x20 || *p == 0x7f)
			return 400;
	return 0;
}

/* field-value bytes: VCHAR, obs-text, SP, HTAB (RFC 9110 section 5.5). */
static int
value_ok(const char *v, size_t len)
{
	size_t	 i;

	for (i = 0; i < len; i++)
		if (((unsigned char)v[i] < 0x20 && v[i] != '\t') ||
		    v[i] == 0x7f)
			return 0;
	return 1;
}

/* One field line: what it changes in req; 0, or a status with *err. */
static int
take_field(struct http_request *req, const char *l, size_t len, int *nhost,
    int *ka, int *close, const char **err)
{
	const char	*colon, *v;
	size_t		 nlen, vlen;

	*err = "Bad Request: a malformed field";
	if ((colon = memchr(l, ':', len)) == NULL || colon == l)
		return 400;
	nlen = (size_t)(colon - l);
	for (v = l; v < colon; v++)
		if (!tchar((unsigned char)*v))
			return 400;	/* also a space before the colon */
	v = colon + 1;
	vlen = len - nlen - 1;
	while (vlen > 0 && (*v == ' ' || *v == '\t')) {
		v++;
		vlen--;
	}
	while (vlen > 0 && (v[vlen - 1] == ' ' || v[vlen - 1] == '\t'))
		vlen--;
	if (!value_ok(v, vlen))
		return 400;
#define IS(name)	(nlen == sizeof(name) - 1 && \
			    strncasecmp(l, name, nlen) == 0)
	if (IS("host")) {
		if (++*nhost > 1 || take_host(req, v, vlen) == -1) {
			*err = "Bad Request: not one Host";
			return 400;
		}
	} else if (IS("connection")) {
		*close |= has_token(v, vlen, "close");
		*ka |= has_token(v, vlen, "keep-alive");
	} else if (IS("content-length")) {
		if (vlen == 0 || strspn(v, "0") < vlen) {
			*err = "Bad Request: a body is not accepted";
			return 400;
		}
	} else if (IS("transfer-encoding")) {
		*err = "Not Implemented: a transfer coding";
		return 501;
	} else if (IS("if-none-match")) {
		if (vlen <= HTTP_ETAGS_MAX) {
			memcpy(req->etags, v, vlen);
			req->etags[vlen] = '\0';
		}
	} else if (IS("if-modified-since"))
		req->since = http_date_parse(v, vlen);
#undef IS
	return 0;
}

int
http_request_parse(const char *head, size_t len, struct http_request *req,
    const char **err)
{
	const char	*p = head, *end = head + len, *l, *sp1, *sp2;
	size_t		 llen, nfields = 0;
	int		 status, nhost = 0, ka = 0, close = 0;

	req->method = HTTP_OTHER;
	req->minor = 0;
	req->target[0] = '\0';
	req->path = req->target;
	req->query = NULL;
	req->host[0] = '\0';
	req->etags[0] = '\0';
	req->since = -1;
	req->keep = 0;
	*err = "Bad Request";
	while (p < end && (*p == '\r' || *p == '\n'))
		p++;
	/* request-line = method SP request-target SP HTTP-version */
	if (!next_line(&p, end, &l, &llen) || llen == 0 ||
	    (sp1 = memchr(l, ' ', llen)) == NULL ||
	    (sp2 = memchr(sp1 + 1, ' ', llen - (size_t)(sp1 + 1 - l))) ==
	    NULL || memchr(sp2 + 1, ' ', llen - (size_t)(sp2 + 1 - l)) != NULL)
		return 400;
	for (const char *m = l; m < sp1; m++)
		if (!tchar((unsigned char)*m))
			return 400;
	if (sp1 - l == 3 && memcmp(l, "GET", 3) == 0)
		req->method = HTTP_GET;
	else if (sp1 - l == 4 && memcmp(l, "HEAD", 4) == 0)
		req->method = HTTP_HEAD;
	if (l + llen - (sp2 + 1) != 8 || memcmp(sp2 + 1, "HTTP/", 5) != 0 ||
	    sp2[6] < '0' || sp2[6] > '9' || sp2[7] != '.' || sp2[8] < '0' ||
	    sp2[8] > '9')
		return 400;
	if (sp2[6] != '1' || sp2[8] > '1') {
		*err = "HTTP Version Not Supported";
		return 505;
	}
	req->minor = sp2[8] - '0';
	/* Fields: the few that change the answer are read. */
	while (next_line(&p, end, &l, &llen) && llen > 0) {
		if (++nfields > HTTP_FIELDS_MAX) {
			*err = "Request Header Fields Too Large";
			return 431;
		}
		if (l[0] == ' ' || l[0] == '\t') {	/* obs-fold */
			*err = "Bad Request: a folded field";
			return 400;
		}
		if ((status = take_field(req, l, llen, &nhost, &ka, &close,
		    err)) != 0)
			return status;
	}
	if (req->minor == 1 && nhost == 0) {
		*err = "Bad Request: no Host";
		return 400;
	}
	req->keep = !close && (req->minor == 1 || ka);
	/* A method we do not serve is answered 405 whatever its target. */
	if (req->method == HTTP_OTHER)
		return 0;
	return take_target(req, sp1 + 1, (size_t)(sp2 - sp1 - 1), err);
}

const char *
http_reason(int status)
{
	static const struct {
		int		 status;
		const char	*reason;
	} reasons[] = {
		{ 200, "OK" }, { 301, "Moved Permanently" }, { 302, "Found" },
		{ 304, "Not Modified" }, { 400, "Bad Request" },
		{ 403, "Forbidden" }, { 404, "Not Found" },
		{ 405, "Method Not Allowed" }, { 410, "Gone" },
		{ 414, "URI Too Long" }, { 421, "Misdirected Request" },
		{ 429, "Too Many Requests" },
		{ 431, "Request Header Fields Too Large" },
		{ 500, "Internal Server Error" }, { 501, "Not Implemented" },
		{ 502, "Bad Gateway" }, { 503, "Service Unavailable" },
		{ 505, "HTTP Version Not Supported" },
	};
	size_t	 i;

	for (i = 0; i < sizeof(reasons) / sizeof(reasons[0]); i++)
		if (reasons[i].status == status)
			return reasons[i].reason;
	return "Unknown";
}

static const char	 days[7][4] = {
	"Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"
};
static const char	 months[12][4] = {
	"Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct",
	"Nov", "Dec"
};

size_t
http_date(int64_t t, char *out, size_t outlen)
{
	struct tm	 tm;
	time_t		 tt = (time_t)t;
	int		 n;

	if (gmtime_r(&tt, &tm) == NULL)
		memset(&tm, 0, sizeof(tm));
	n = snprintf(out, outlen, "%s, %02d %s %04d %02d:%02d:%02d GMT",
	    days[tm.tm_wday % 7], tm.tm_mday, months[tm.tm_mon % 12],
	    tm.tm_year + 1900, tm.tm_hour, tm.tm_min, tm.tm_sec);
	return n < 0 ? 0 : (size_t)n >= outlen ? outlen - 1 : (size_t)n;
}

/* The number of n digits at s, or -1. */
static int
digits(const char *s, int n)
{
	int	 v = 0;

	while (n-- > 0) {
		if (*s < '0' || *s > '9')
			return -1;
		v = v * 10 + (*s++ - '0');
	}
	return v;
}

/* IMF-fixdate = day-name "," SP DD SP month SP YYYY SP hh:mm:ss SP "GMT" */
int64_t
http_date_parse(const char *s, size_t len)
{
	struct tm	 tm;
	int		 mon;

	if (len != 29 || s[3] != ',' || s[4] != ' ' || s[7] != ' ' ||
	    s[11] != ' ' || s[16] != ' ' || s[19] != ':' || s[22] != ':' ||
	    memcmp(s + 25, " GMT", 4) != 0)
		return -1;
	for (mon = 0; mon < 12 && memcmp(s + 8, months[mon], 3) != 0; mon++)
		;
	memset(&tm, 0, sizeof(tm));
	if (mon == 12 || (tm.tm_mday = digits(s + 5, 2)) < 1 ||
	    tm.tm_mday > 31 || (tm.tm_year = digits(s + 12, 4)) < 1970 ||
	    (tm.tm_hour = digits(s + 17, 2)) < 0 || tm.tm_hour > 23 ||
	    (tm.tm_min = digits(s + 20, 2)) < 0 || tm.tm_min > 59 ||
	    (tm.tm_sec = digits(s + 23, 2)) < 0 || tm.tm_sec > 60)
		return -1;
	tm.tm_year -= 1900;
	tm.tm_mon = mon;
	return (int64_t)timegm(&tm);
}

/* The opaque part of an entity-tag at s ("W/" and quotes off). */
static const char *
opaque(const char *s, size_t *len)
{
	const char	*q;

	if (s[0] == 'W' && s[1] == '/')
		s += 2;
	if (*s != '"' || (q = strchr(s + 1, '"')) == NULL)
		return NULL;
	*len = (size_t)(q - s - 1);
	return s + 1;
}

int
http_etag_match(const char *etags, const char *etag)
{
	const char	*want, *have, *p = etags;
	size_t		 wlen, hlen;

	if ((want = opaque(etag, &wlen)) == NULL)
		return 0;
	for (;;) {
		p += strspn(p, " \t,");
		if (*p == '\0')
			return 0;
		if (*p == '*')
			return 1;
		if ((have = opaque(p, &hlen)) == NULL)
			return 0;
		if (hlen == wlen && memcmp(have, want, wlen) == 0)
			return 1;
		p = have + hlen + 1;
	}
}
