/*
 * gemini.c -- the Gemini request line and response header.
 *
 * Decides, from bytes alone, whether a request is complete, whether it
 * is well formed (else 59) and whether it is ours (else 53), and formats
 * a safe header line.  Knows nothing of sockets, TLS or the archive; the
 * URL grammar lives in url.c.  Every result points into caller-owned
 * memory or at static strings.
 */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "core/config.h"
#include "core/url.h"
#include "core/utf8.h"
#include "core/util.h"
#include "proto/gemini.h"

/*
 * The schemes we answer; any other well-formed scheme is a 53.  titan://
 * (uploads, titan.c) carries ";size=N;mime=T;token=X" after the path and
 * is followed by a body, so conn.c looks at req->url.scheme before
 * routing and hands a titan line to titan_request_parse().
 */
static const char *const gemini_schemes[] = {
	"gemini",
	"titan",
};

ssize_t
gemini_request_end(const char *buf, size_t len)
{
	size_t	 i, n;

	n = len < GEMINI_REQUEST_MAX ? len : GEMINI_REQUEST_MAX;
	for (i = 0; i + 1 < n; i++)
		if (buf[i] == '\r' && buf[i + 1] == '\n')
			return (ssize_t)i;
	return len >= GEMINI_REQUEST_MAX ? GEMINI_TOO_LONG : GEMINI_INCOMPLETE;
}

/* scheme = ALPHA *( ALPHA / DIGIT / "+" / "-" / "." ) ":"; its length. */
static size_t
scheme_len(const char *s)
{
	size_t	 i;
	char	 c;

	if (!((s[0] | 0x20) >= 'a' && (s[0] | 0x20) <= 'z'))
		return 0;
	for (i = 1;; i++) {
		c = s[i];
		if (((c | 0x20) >= 'a' && (c | 0x20) <= 'z') ||
		    (c >= '0' && c <= '9') || c == '+' || c == '-' || c == '.')
			continue;
		return c == ':' ? i : 0;
	}
}

static int
scheme_served(const char *s, size_t len)
{
	size_t	 i;

	for (i = 0; i < nitems(gemini_schemes); i++)
		if (strlen(gemini_schemes[i]) == len &&
		    strncasecmp(s, gemini_schemes[i], len) == 0)
			return 1;
	return 0;
}

/* Same name, ignoring case and one trailing dot on the request's host. */
static int
host_match(const char *want, const char *got)
{
	size_t	 wl, gl;

	wl = strlen(want);
	gl = strlen(got);
	if (gl > 1 && got[gl - 1] == '.')
		gl--;
	return wl == gl && strncasecmp(want, got, gl) == 0;
}

/*
 * The address an IP literal names, in 16 bytes: IPv4 mapped into IPv6,
 * so that 127.0.0.1 and [::ffff:127.0.0.1] are one address.  "[::1]"
 * (a URL's host) and "::1" (a configured name) both parse.  Returns 0,
 * or -1 when host is not an IP literal.
 */
static int
ip_addr(const char *host, unsigned char out[16])
{
	struct in_addr	 a4;
	char		 tmp[INET6_ADDRSTRLEN];
	size_t		 len;

	if (inet_pton(AF_INET, host, &a4) == 1) {
		memset(out, 0, 10);
		out[10] = out[11] = 0xff;
		memcpy(out + 12, &a4, 4);
		return 0;
	}
	if (host[0] == '[') {
		len = strlen(host);
		if (len < 3 || host[len - 1] != ']' || len - 2 >= sizeof(tmp))
			return -1;
		memcpy(tmp, host + 1, len - 2);
		tmp[len - 2] = '\0';
		host = tmp;
	}
	return inet_pton(AF_INET6, host, out) == 1 ? 0 : -1;
}

/* The same address, once both are IP literals; 0 for names. */
static int
ip_match(const char *want, const char *got)
{
	unsigned char	 a[16], b[16];

	return ip_addr(want, a) == 0 && ip_addr(got, b) == 0 &&
	    memcmp(a, b, sizeof(a)) == 0;
}

int
gemini_request_parse(const char *line, size_t len,
    const struct gemini_host *hosts, size_t nhosts,
    struct gemini_request *req, const char **meta)
{
	const unsigned char	*p;
	const char		*err;
	unsigned char		 a6[16];
	size_t			 i, slen;
	int			 port, pub = 0;

	if (len == 0) {
		*meta = "Bad request: empty request";
		return 59;
	}
	if (len > GEMINI_URL_MAX) {
		*meta = "Bad request: URL longer than 1024 bytes";
		return 59;
	}
	if (memchr(line, '\0', len) != NULL) {
		*meta = "Bad request: NUL byte";
		return 59;
	}
	memcpy(req->line, line, len);
	req->line[len] = '\0';

	/*
	 * What is wrong whatever the scheme comes first, so that an http://
	 * line of invalid UTF-8 is a 59; url_parse() checks these again.
	 */
	if (len >= 3 && memcmp(req->line, "\xEF\xBB\xBF", 3) == 0) {
		*meta = "Bad request: byte order mark";
		return 59;
	}
	if (!utf8_valid(req->line, len)) {
		*meta = "Bad request: not valid UTF-8";
		return 59;
	}
	for (p = (const unsigned char *)req->line; *p != '\0'; p++) {
		if (*p <= 0x20 || *p == 0x7F) {
			*meta = "Bad request: space or control character";
			return 59;
		}
	}
	if ((slen = scheme_len(req->line)) == 0) {
		*meta = "Bad request: not an absolute URL";
		return 59;
	}
	if (!scheme_served(req->line, slen)) {
		*meta = "Proxy request refused: scheme not served";
		return 53;
	}

	if (url_parse(req->line, &req->url, &err) == -1) {
		*meta = err;
		return 59;
	}

	req->host = 0;
	req->ip = 0;
	for (i = 0; i < nhosts; i++)
		if (host_match(hosts[i].hostname, req->url.host) ||
		    ip_match(hosts[i].hostname, req->url.host))
			break;
	if (i < nhosts) {
		port = hosts[i].port;
		pub = hosts[i].public_port;
		req->host = i;
	} else if (ip_addr(req->url.host, a6) == 0) {
		/*
		 * Ours only if it is where the client came in (the caller),
		 * on a port of any host: which host is the caller's call.
		 */
		req->ip = 1;
		port = nhosts > 0 ? hosts[0].port : GEMINI_DEFAULT_PORT;
		pub = nhosts > 0 ? hosts[0].public_port : 0;
		for (i = 1; i < nhosts && req->url.port != -1 &&
		    req->url.port != port && req->url.port != pub; i++) {
			port = hosts[i].port;
			pub = hosts[i].public_port;
		}
	} else {
		*meta = "Proxy request refused: host not served";
		return 53;
	}
	if (req->url.port != -1 && req->url.port != port &&
	    (pub == 0 || req->url.port != pub)) {
		*meta = "Proxy request refused: port not served";
		return 53;
	}
	return 0;
}

int
gemini_request_local(const struct gemini_request *req,
    const struct sockaddr *local)
{
	unsigned char	 a[16], b[16];

	if (!req->ip)
		return 1;
	if (local == NULL || ip_addr(req->url.host, a) == -1)
		return 0;
	if (local->sa_family == AF_INET) {
		memset(b, 0, 10);
		b[10] = b[11] = 0xff;
		memcpy(b + 12, &((const struct sockaddr_in *)(const void *)
		    local)->sin_addr, 4);
	} else if (local->sa_family == AF_INET6)
		memcpy(b, &((const struct sockaddr_in6 *)(const void *)
		    local)->sin6_addr, 16);
	else
		return 0;
	return memcmp(a, b, sizeof(a)) == 0;
}

int
gemini_request_host(const struct gemini_host *hosts, size_t nhosts,
    const struct gemini_request *req, const char *sni, const char **meta)
{
	size_t	 i;

	if (sni == NULL || *sni == '\0')
		return (int)req->host;
	if (req->ip) {
		for (i = 0; i < nhosts; i++)
			if (host_match(hosts[i].hostname, sni))
				return (int)i;
		return 0;
	}
	if (req->host < nhosts && host_match(hosts[req->host].hostname, sni))
		return (int)req->host;
	*meta = "Proxy request refused: host differs from the TLS server name";
	return -1;
}

/* The defined codes, with the META sent when the caller gives none. */
static const struct {
	int		 status;
	const char	*meta;
} gemini_status[] = {
	{ 10, "Input" },
	{ 11, "Sensitive input" },
	{ 20, "text/gemini; charset=utf-8" },
	{ 30, "/" },
	{ 31, "/" },
	{ 40, "Temporary failure" },
	{ 41, "Server unavailable" },
	{ 42, "CGI error" },
	{ 43, "Proxy error" },
	{ 44, "10" },			/* seconds: both spec versions */
	{ 50, "Permanent failure" },
	{ 51, "Not found" },
	{ 52, "Gone" },
	{ 53, "Proxy request refused" },
	{ 59, "Bad request" },
	{ 60, "Client certificate required" },
	{ 61, "Certificate not authorised" },
	{ 62, "Certificate not valid" },
};

static const char *
default_meta(int status)
{
	size_t	 i;

	for (i = 0; i < nitems(gemini_status); i++)
		if (gemini_status[i].status == status)
			return gemini_status[i].meta;
	return NULL;
}

/* A defined code, or its class's x0, or 40 for nonsense. */
static int
defined_status(int status)
{
	if (status < 10 || status > 69)
		return 40;
	if (default_meta(status) == NULL)
		return status / 10 * 10;
	return status;
}

/*
 * Copy src into dst (room for max bytes, no NUL), sanitised as
 * gemini_header() says; returns the length written.
 */
static size_t
copy_meta(char *dst, size_t max, const char *src)
{
	const unsigned char	*p = (const unsigned char *)src;
	size_t			 len = 0, kept = 0, n;
	unsigned int		 cp;

	while (*p != '\0') {
		n = 1;
		cp = *p;
		if (*p >= 0x80) {
			/* The length of a valid sequence, or 1 bad byte. */
			if (*p >= 0xF0)
				n = 4;
			else if (*p >= 0xE0)
				n = 3;
			else
				n = 2;
			if (strnlen((const char *)p, n) < n ||
			    !utf8_valid((const char *)p, n)) {
				n = 1;
				cp = '?';
			} else if (n == 2)
				cp = (p[0] & 0x1Fu) << 6 | (p[1] & 0x3Fu);
			else if (n == 3)
				cp = (p[0] & 0x0Fu) << 12 |
				    (p[1] & 0x3Fu) << 6 | (p[2] & 0x3Fu);
			else
				cp = 0x10000;	/* any astral plane is fine */
		}
		if (cp < 0x20 || cp == 0x7F || (cp >= 0x80 && cp <= 0x9F) ||
		    cp == 0x2028 || cp == 0x2029 || cp == 0xFEFF)
			cp = ' ';
		if (cp == ' ' && len == 0) {		/* no leading space */
			p += n;
			continue;
		}
		if (cp < 0x80) {
			if (len + 1 > max)
				break;
			dst[len++] = (char)cp;
		} else {
			if (len + n > max)
				break;
			memcpy(dst + len, p, n);
			len += n;
		}
		if (cp != ' ')
			kept = len;			/* no trailing space */
		p += n;
	}
	return kept;
}

size_t
gemini_header(char *out, size_t outlen, int status, const char *meta)
{
	size_t	 max, len;

	if (outlen < 7)			/* "NN X\r\n" and the NUL */
		return 0;
	status = defined_status(status);
	max = outlen - 6;
	if (max > GEMINI_META_MAX)
		max = GEMINI_META_MAX;
	out[0] = (char)('0' + status / 10);
	out[1] = (char)('0' + status % 10);
	out[2] = ' ';
	len = meta != NULL ? copy_meta(out + 3, max, meta) : 0;
	if (len == 0)
		len = copy_meta(out + 3, max, default_meta(status));
	len += 3;
	out[len++] = '\r';
	out[len++] = '\n';
	out[len] = '\0';
	return len;
}

ssize_t
gemini_header_parse(const char *p, size_t len, int *status)
{
	const char	*end;
	size_t		 i, hlen;

	end = memchr(p, '\n', len < GEMINI_HEADER_MAX ? len :
	    GEMINI_HEADER_MAX);
	if (end == NULL || end == p || end[-1] != '\r')
		return -1;
	hlen = (size_t)(end - p) - 1;		/* without the CRLF */
	if (hlen < 2 || p[0] < '1' || p[0] > '6' || p[1] < '0' || p[1] > '9')
		return -1;
	if (hlen > 2 && (p[2] != ' ' || hlen - 3 > GEMINI_META_MAX))
		return -1;
	for (i = 3; i < hlen; i++)
		if ((unsigned char)p[i] < 0x20 || p[i] == 0x7f)
			return -1;
	if (hlen > 3 && !utf8_valid(p + 3, hlen - 3))
		return -1;
	*status = (p[0] - '0') * 10 + (p[1] - '0');
	return (ssize_t)hlen + 2;
}
