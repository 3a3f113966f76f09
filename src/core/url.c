/*
 * url.c -- a Gemini request URL, parsed and checked in place
 * (gmid iri.c shape).
 *
 * url_parse() walks an RFC 3986 absolute URI once, splits it into the
 * parts of struct url and rejects every request the Gemini specification
 * says to reject.  The struct points into the caller's string, which is
 * rewritten in place (scheme and host are shifted and NUL-terminated, the
 * path is percent-decoded); nothing is allocated.  The encoders and
 * small helpers below it are shared with the renderers, the archive
 * and the page model.  Knows nothing of hosts we serve, the archive or
 * sockets: gemini.c decides 53 vs 59.
 *
 * Decisions (the Gemini specification leaves them to us):
 *  - ASCII is held to RFC 3986: only pchar, "/" (and "?" in the query)
 *    pass; spaces, controls, '"', '<', '>', '\', '^', '`', '{', '|', '}'
 *    and brackets outside an IPv6 literal are a 59.  Raw non-ASCII UTF-8
 *    is accepted anywhere but the scheme (IRIs: many clients send it).
 *  - The path is decoded, then checked again: it must be UTF-8, free of
 *    control characters and of "." and ".." segments.  An encoded "/"
 *    (%2F) is refused, so a decoded "/" always was a raw one.
 *  - Empty segments ("/a//b") are left alone: the router answers 51.
 *  - The query stays encoded; only its escapes are checked (%XX, not %00).
 *  - A '%' in a host is refused (no percent-encoded reg-names), as are
 *    IPvFuture literals and IPv6 zone identifiers.
 */
#include <arpa/inet.h>
#include <stdint.h>
#include <string.h>
#include <strings.h>

#include "core/buf.h"
#include "core/url.h"
#include "core/utf8.h"

/* Locale-free ASCII classes: a request is bytes, not text in a locale. */
#define IS_ALPHA(c)	(((c) | 0x20) >= 'a' && ((c) | 0x20) <= 'z')
#define IS_DIGIT(c)	((c) >= '0' && (c) <= '9')
#define IS_UPPER(c)	((c) >= 'A' && (c) <= 'Z')

/* unreserved = ALPHA / DIGIT / "-" / "." / "_" / "~" */
static int
unreserved(unsigned char c)
{
	return IS_ALPHA(c) || IS_DIGIT(c) || c == '-' || c == '.' ||
	    c == '_' || c == '~';
}

/* sub-delims = "!" / "$" / "&" / "'" / "(" / ")" / "*" / "+" / "," / ";"
 *            / "=" */
static int
subdelim(unsigned char c)
{
	return c != '\0' && strchr("!$&'()*+,;=", c) != NULL;
}

int
url_hexval(int c)
{
	if (IS_DIGIT(c))
		return c - '0';
	c |= 0x20;
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	return -1;
}

static void
lower(char *s)
{
	for (; *s != '\0'; s++)
		if (IS_UPPER((unsigned char)*s))
			*s = (char)(*s | 0x20);
}

int
url_decode(char *s)
{
	char	*r, *w;
	int	 h, l;

	for (r = w = s; *r != '\0'; w++) {
		if (*r != '%') {
			*w = *r++;
			continue;
		}
		/* pct-encoded = "%" HEXDIG HEXDIG; r[2] is read only if r[1]
		 * was a digit, so never past the NUL. */
		if ((h = url_hexval((unsigned char)r[1])) == -1 ||
		    (l = url_hexval((unsigned char)r[2])) == -1)
			return -1;
		if (h == 0 && l == 0)
			return -1;
		*w = (char)(h << 4 | l);
		r += 3;
	}
	*w = '\0';
	return 0;
}

void
url_encode_path(const char *s, struct buf *out)
{
	static const char	 hex[] = "0123456789ABCDEF";
	unsigned char		 c;
	char			 esc[3];

	for (; *s != '\0'; s++) {
		c = (unsigned char)*s;
		if (unreserved(c) || c == '/') {
			buf_addc(out, c);
			continue;
		}
		esc[0] = '%';
		esc[1] = hex[c >> 4];
		esc[2] = hex[c & 0xF];
		buf_add(out, esc, sizeof(esc));
	}
}

/* Printable ASCII that may not stand in a URL as it is (RFC 3986). */
static int
unsafe(unsigned char c)
{
	switch (c) {
	case '"': case '<': case '>': case '\\': case '^': case '`':
	case '{': case '|': case '}':
		return 1;
	default:
		return 0;
	}
}

void
url_encode_link(const char *url, struct buf *out)
{
	static const char	 hex[] = "0123456789ABCDEF";
	const unsigned char	*p;

	buf_add(out, "", 0);		/* a terminated "" even if empty */
	for (p = (const unsigned char *)url; *p != '\0'; p++) {
		if (*p <= 0x20 || *p >= 0x7f || unsafe(*p) ||
		    (*p == '%' && (url_hexval(p[1]) == -1 ||
		    url_hexval(p[2]) == -1))) {
			buf_addc(out, '%');
			buf_addc(out, hex[*p >> 4]);
			buf_addc(out, hex[*p & 15]);
		} else
			buf_addc(out, *p);
	}
}

/* segment = *(any byte but "/"); a dot segment is "." or ".." */
int
url_has_dot_segment(const char *path)
{
	const char	*seg;
	size_t		 len;

	for (seg = path + (path[0] == '/');; seg += len + 1) {
		len = strcspn(seg, "/");
		if ((len == 1 && seg[0] == '.') ||
		    (len == 2 && seg[0] == '.' && seg[1] == '.'))
			return 1;
		if (seg[len] == '\0')
			return 0;
	}
}

/* scheme = ALPHA *( ALPHA / DIGIT / "+" / "-" / "." ) ":" */
int
url_has_scheme(const char *s)
{
	const unsigned char	*p = (const unsigned char *)s;

	if (!IS_ALPHA(*p))
		return 0;
	for (p++; IS_ALPHA(*p) || IS_DIGIT(*p) || *p == '+' || *p == '-' ||
	    *p == '.'; p++)
		;
	return *p == ':';
}

int
url_dangerous(const char *s)
{
	static const char *const images[] = { "data:image/png",
	    "data:image/gif", "data:image/jpeg", "data:image/webp" };
	size_t	 i;

	if (!url_has_scheme(s))
		return 0;
	if (strncasecmp(s, "data:", 5) == 0) {
		for (i = 0; i < sizeof(images) / sizeof(images[0]); i++)
			if (strncasecmp(s, images[i], strlen(images[i])) == 0)
				return 0;
		return 1;
	}
	return strncasecmp(s, "javascript:", 11) == 0 ||
	    strncasecmp(s, "vbscript:", 9) == 0 ||
	    strncasecmp(s, "file:", 5) == 0;
}

/*
 * Check the raw characters of a path (query == 0) or query (query == 1):
 *   path  = *( pchar / "/" )
 *   query = *( pchar / "/" / "?" )
 *   pchar = unreserved / pct-encoded / sub-delims / ":" / "@"
 * plus raw bytes >= 0x80 (already known to be UTF-8).  Escapes must be
 * well formed and not %00; an escaped "/" is refused in the path.
 */
static int
check_chars(const char *s, int query, const char **errstr)
{
	const unsigned char	*p;

	for (p = (const unsigned char *)s; *p != '\0'; p++) {
		if (*p == '%') {
			if (url_hexval(p[1]) == -1 || url_hexval(p[2]) == -1) {
				*errstr = "Bad request: invalid percent escape";
				return -1;
			}
			if (p[1] == '0' && p[2] == '0') {
				*errstr = "Bad request: encoded NUL";
				return -1;
			}
			if (!query && p[1] == '2' && (p[2] | 0x20) == 'f') {
				*errstr = "Bad request: encoded slash in path";
				return -1;
			}
			p += 2;
			continue;
		}
		if (*p >= 0x80 || unreserved(*p) || subdelim(*p) ||
		    *p == ':' || *p == '@' || *p == '/' ||
		    (query && *p == '?'))
			continue;
		*errstr = query ? "Bad request: invalid character in query" :
		    "Bad request: invalid character in path";
		return -1;
	}
	return 0;
}

/*
 * The decoded path: UTF-8, no control characters, no "." or ".."
 * segment.  It starts with '/', so every segment follows a '/'.
 */
static int
check_decoded(const char *path, const char **errstr)
{
	const char	*p;

	if (!utf8_valid(path, strlen(path))) {
		*errstr = "Bad request: path is not valid UTF-8";
		return -1;
	}
	for (p = path; *p != '\0'; p++) {
		if ((unsigned char)*p < 0x20 || *p == 0x7F) {
			*errstr = "Bad request: control character in path";
			return -1;
		}
	}
	if (url_has_dot_segment(path)) {
		*errstr = "Bad request: dot segment in path";
		return -1;
	}
	return 0;
}

/*
 * host = IP-literal / reg-name         (IPv4address is a valid reg-name)
 * IP-literal = "[" IPv6address "]"
 * reg-name = *( unreserved / sub-delims )    plus UTF-8 (IRI), no '%'
 * On success *endp points just past the host.
 */
static int
parse_host(const char *auth, const char *aend, const char **endp,
    const char **errstr)
{
	const char	*p, *close;
	char		 tmp[INET6_ADDRSTRLEN];
	struct in6_addr	 a6;

	if (*auth == '[') {
		close = memchr(auth, ']', (size_t)(aend - auth));
		if (close == NULL || (size_t)(close - auth - 1) >= sizeof(tmp))
			goto bad6;
		memcpy(tmp, auth + 1, (size_t)(close - auth - 1));
		tmp[close - auth - 1] = '\0';
		if (inet_pton(AF_INET6, tmp, &a6) != 1)
			goto bad6;
		*endp = close + 1;
		return 0;
	}
	for (p = auth; p < aend && *p != ':'; p++) {
		if ((unsigned char)*p >= 0x80 || unreserved(*p) ||
		    subdelim(*p))
			continue;
		*errstr = "Bad request: invalid character in host";
		return -1;
	}
	if (p == auth) {
		*errstr = "Bad request: missing host";
		return -1;
	}
	*endp = p;
	return 0;
bad6:
	*errstr = "Bad request: invalid IPv6 literal";
	return -1;
}

/* port = *DIGIT; empty means absent (RFC 3986 §3.2.3).  1..65535. */
static int
parse_port(const char *p, const char *end, int *port, const char **errstr)
{
	long	 n = 0;

	*port = -1;
	if (p == end)
		return 0;
	for (; p < end; p++) {
		if (!IS_DIGIT((unsigned char)*p))
			goto bad;
		n = n * 10 + (*p - '0');
		if (n > 65535)
			goto bad;
	}
	if (n == 0)
		goto bad;
	*port = (int)n;
	return 0;
bad:
	*errstr = "Bad request: invalid port";
	return -1;
}

/*
 * absolute-URI = scheme ":" "//" authority path-abempty [ "?" query ]
 * scheme       = ALPHA *( ALPHA / DIGIT / "+" / "-" / "." )
 * authority    = host [ ":" port ]            (userinfo refused)
 *
 * In place: the ':' after the scheme becomes its NUL; the host is moved
 * two bytes left over the "//" so that it can be NUL-terminated without
 * touching the path; an empty path is written as "/" into the two bytes
 * freed that way.
 */
int
url_parse(char *s, struct url *u, const char **errstr)
{
	const unsigned char	*b;
	char			*p, *auth, *aend, *q;
	const char		*hend;
	size_t			 len, hlen;

	u->scheme = u->host = u->path = u->query = NULL;
	u->port = -1;

	len = strlen(s);
	if (len == 0) {
		*errstr = "Bad request: empty request";
		return -1;
	}
	if (len >= 3 && memcmp(s, "\xEF\xBB\xBF", 3) == 0) {
		*errstr = "Bad request: byte order mark";
		return -1;
	}
	if (!utf8_valid(s, len)) {
		*errstr = "Bad request: not valid UTF-8";
		return -1;
	}
	for (b = (const unsigned char *)s; *b != '\0'; b++) {
		if (*b <= 0x20 || *b == 0x7F) {
			*errstr = "Bad request: space or control character";
			return -1;
		}
	}
	if (strchr(s, '#') != NULL) {
		*errstr = "Bad request: fragment not allowed";
		return -1;
	}

	/* scheme */
	p = s;
	if (!IS_ALPHA((unsigned char)*p)) {
		*errstr = "Bad request: not an absolute URL";
		return -1;
	}
	while (IS_ALPHA((unsigned char)*p) || IS_DIGIT((unsigned char)*p) ||
	    *p == '+' || *p == '-' || *p == '.')
		p++;
	if (*p != ':') {
		*errstr = "Bad request: not an absolute URL";
		return -1;
	}
	*p++ = '\0';
	lower(s);
	u->scheme = s;

	/* authority */
	if (p[0] != '/' || p[1] != '/') {
		*errstr = "Bad request: missing authority";
		return -1;
	}
	auth = p + 2;
	aend = auth + strcspn(auth, "/?");
	if (memchr(auth, '@', (size_t)(aend - auth)) != NULL) {
		*errstr = "Bad request: userinfo not allowed";
		return -1;
	}
	if (parse_host(auth, aend, &hend, errstr) == -1)
		return -1;
	if (hend < aend) {
		if (*hend != ':') {
			*errstr = "Bad request: invalid host";
			return -1;
		}
		if (parse_port(hend + 1, aend, &u->port, errstr) == -1)
			return -1;
	}
	hlen = (size_t)(hend - auth);
	u->host = auth - 2;
	memmove(u->host, auth, hlen);
	u->host[hlen] = '\0';
	lower(u->host);

	/* path and query */
	if (*aend == '/') {
		u->path = aend;
		if ((q = strchr(aend, '?')) != NULL) {
			*q = '\0';
			u->query = q + 1;
		}
	} else {
		if (*aend == '?')
			u->query = aend + 1;
		u->path = aend - 1;	/* past the host's NUL, see above */
		u->path[0] = '/';
		u->path[1] = '\0';
	}
	if (check_chars(u->path, 0, errstr) == -1)
		return -1;
	if (u->query != NULL && check_chars(u->query, 1, errstr) == -1)
		return -1;
	if (url_decode(u->path) == -1) {	/* checked above: cannot fail */
		*errstr = "Bad request: invalid percent escape";
		return -1;
	}
	return check_decoded(u->path, errstr);
}
