/*
 * test_gemini.c -- every request rule of the Gemini specification, byte
 * for byte, through gemini_request_end() and gemini_request_parse(), and
 * its response header lines from gemini_header().
 */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "proto/gemini.h"
#include "harness.h"
#include "core/util.h"

#define NO_ANSWER	(-1)	/* keep reading: a timeout closes silently */

static const struct gemini_host hosts[] = {
	{ "example.org", 1965, 0 },
	{ "Capsule.Test", 1965, 0 },
};

/*
 * What conn.c does with the bytes received so far: 0 (serve), the status
 * it answers with, or NO_ANSWER.  On 0, *req is filled.
 */
static int
wire(const char *bytes, size_t len, struct gemini_request *req,
    const char **meta)
{
	ssize_t	 n;

	*meta = NULL;
	n = gemini_request_end(bytes, len);
	if (n == GEMINI_INCOMPLETE)
		return NO_ANSWER;
	if (n == GEMINI_TOO_LONG) {
		*meta = "Bad request: URL longer than 1024 bytes";
		return 59;
	}
	return gemini_request_parse(bytes, (size_t)n, hosts, nitems(hosts),
	    req, meta);
}

struct row {
	const char	*in;	/* on the wire, CRLF included */
	size_t		 len;	/* 0: strlen(in) */
	int		 want;	/* 0, 53, 59 or NO_ANSWER */
	const char	*path;	/* when want == 0 */
	const char	*query;
};

#define BIN(s)		s, sizeof(s) - 1	/* a literal holding a NUL */

static const struct row rows[] = {
	/* accepted; the empty path is "/" without a redirect */
	{ "gemini://example.org/\r\n", 0, 0, "/", NULL },
	{ "gemini://example.org\r\n", 0, 0, "/", NULL },
	{ "gemini://example.org/posts/\r\n", 0, 0, "/posts/", NULL },
	{ "gemini://example.org/posts\r\n", 0, 0, "/posts", NULL },
	{ "gemini://example.org:1965/\r\n", 0, 0, "/", NULL },
	{ "gemini://example.org:/\r\n", 0, 0, "/", NULL },
	{ "GEMINI://EXAMPLE.ORG/About\r\n", 0, 0, "/About", NULL },
	{ "gemini://capsule.test/\r\n", 0, 0, "/", NULL },
	{ "gemini://example.org./\r\n", 0, 0, "/", NULL },
	{ "gemini://example.org/search?caf%C3%A9\r\n", 0, 0, "/search",
	    "caf%C3%A9" },
	{ "gemini://example.org?q\r\n", 0, 0, "/", "q" },
	{ "gemini://example.org/a%20b\r\n", 0, 0, "/a b", NULL },
	{ "gemini://example.org/%C3%A9\r\n", 0, 0, "/\xC3\xA9", NULL },
	{ "gemini://example.org/\xC3\xA9\r\n", 0, 0, "/\xC3\xA9", NULL },
	/* IP literals are served (the spec leaves it to us) */
	{ "gemini://127.0.0.1/\r\n", 0, 0, "/", NULL },
	{ "gemini://127.0.0.1:1965/\r\n", 0, 0, "/", NULL },
	{ "gemini://[::1]:1965/\r\n", 0, 0, "/", NULL },
	{ "gemini://[::1]\r\n", 0, 0, "/", NULL },
	/* bytes after the first CRLF are ignored */
	{ "gemini://example.org/a\r\ngemini://evil/\r\n", 0, 0, "/a", NULL },
	{ BIN("gemini://example.org/\r\n\0\xFF junk"), 0, "/", NULL },
	{ "gemini://example.org/\r\n\r\n", 0, 0, "/", NULL },

	/* not complete: bare LF, bare CR, nothing yet */
	{ "", 0, NO_ANSWER, NULL, NULL },
	{ "gemini://example.org/", 0, NO_ANSWER, NULL, NULL },
	{ "gemini://example.org/\n", 0, NO_ANSWER, NULL, NULL },
	{ "gemini://example.org/\n\n\n", 0, NO_ANSWER, NULL, NULL },
	{ "gemini://example.org/\r", 0, NO_ANSWER, NULL, NULL },
	{ "\n", 0, NO_ANSWER, NULL, NULL },
	/* a bare LF inside a line later ended by CRLF is a bad request */
	{ "gemini://example.org/\nx\r\n", 0, 59, NULL, NULL },
	{ "gemini://example.org/\rx\r\n", 0, 59, NULL, NULL },

	/* userinfo, fragment */
	{ "gemini://u@example.org/\r\n", 0, 59, NULL, NULL },
	{ "gemini://u:pw@example.org/\r\n", 0, 59, NULL, NULL },
	{ "gemini://example.org/#top\r\n", 0, 59, NULL, NULL },
	{ "gemini://example.org/?q#f\r\n", 0, 59, NULL, NULL },

	/* no scheme, relative, empty, random text */
	{ "//example.org/\r\n", 0, 59, NULL, NULL },
	{ "/\r\n", 0, 59, NULL, NULL },
	{ "foo\r\n", 0, 59, NULL, NULL },
	{ "\r\n", 0, 59, NULL, NULL },
	{ "hello world\r\n", 0, 59, NULL, NULL },
	{ " \r\n", 0, 59, NULL, NULL },
	{ "gemini:example.org/\r\n", 0, 59, NULL, NULL },
	{ "gemini:/example.org/\r\n", 0, 59, NULL, NULL },
	{ "gemini://\r\n", 0, 59, NULL, NULL },
	{ "gemini:///\r\n", 0, 59, NULL, NULL },
	{ "gemini://example.org:99999/\r\n", 0, 59, NULL, NULL },
	{ "gemini://example.org:x/\r\n", 0, 59, NULL, NULL },

	/* not UTF-8, BOM, NUL */
	{ "\xDC\r\n", 0, 59, NULL, NULL },
	{ "gemini://example.org/\xDC\r\n", 0, 59, NULL, NULL },
	{ "\xEF\xBB\xBFgemini://example.org/\r\n", 0, 59, NULL, NULL },
	{ "http://example.org/\xDC\r\n", 0, 59, NULL, NULL },
	{ BIN("gemini://example.org/\0\r\n"), 59, NULL, NULL },
	{ BIN("\0\r\n"), 59, NULL, NULL },

	/* spaces and controls */
	{ "gemini://example.org/a b\r\n", 0, 59, NULL, NULL },
	{ "gemini://example.org/?a b\r\n", 0, 59, NULL, NULL },
	{ "gemini://example.org/ \r\n", 0, 59, NULL, NULL },
	{ " gemini://example.org/\r\n", 0, 59, NULL, NULL },
	{ "gemini://example.org/\t\r\n", 0, 59, NULL, NULL },

	/* other schemes: proxying refused */
	{ "http://example.org/\r\n", 0, 53, NULL, NULL },
	{ "https://example.org/\r\n", 0, 53, NULL, NULL },
	{ "gopher://example.org/\r\n", 0, 53, NULL, NULL },
	{ "gopher://example.org:70/1/\r\n", 0, 53, NULL, NULL },
	{ "http://\r\n", 0, 53, NULL, NULL },
	{ "https://\r\n", 0, 53, NULL, NULL },
	{ "gopher://\r\n", 0, 53, NULL, NULL },
	{ "HTTP://example.org/\r\n", 0, 53, NULL, NULL },
	{ "mailto:someone@example.org\r\n", 0, 53, NULL, NULL },
	{ "geminix://example.org/\r\n", 0, 53, NULL, NULL },

	/* other host or port */
	{ "gemini://example.com/\r\n", 0, 53, NULL, NULL },
	{ "gemini://www.example.org/\r\n", 0, 53, NULL, NULL },
	{ "gemini://example.org../\r\n", 0, 53, NULL, NULL },
	{ "gemini://org/\r\n", 0, 53, NULL, NULL },
	{ "gemini://example.org:1966/\r\n", 0, 53, NULL, NULL },
	{ "gemini://example.org:70/\r\n", 0, 53, NULL, NULL },
	{ "gemini://127.0.0.1:1966/\r\n", 0, 53, NULL, NULL },
	{ "gemini://[::1]:443/\r\n", 0, 53, NULL, NULL },
	{ "gemini://127.1/\r\n", 0, 53, NULL, NULL },

	/* dot segments in any encoding: never served */
	{ "gemini://example.org/..\r\n", 0, 59, NULL, NULL },
	{ "gemini://example.org/../\r\n", 0, 59, NULL, NULL },
	{ "gemini://example.org/../../etc/passwd\r\n", 0, 59, NULL, NULL },
	{ "gemini://example.org/./\r\n", 0, 59, NULL, NULL },
	{ "gemini://example.org/a/../b\r\n", 0, 59, NULL, NULL },
	{ "gemini://example.org/a/.\r\n", 0, 59, NULL, NULL },
	{ "gemini://example.org/%2e%2e\r\n", 0, 59, NULL, NULL },
	{ "gemini://example.org/%2E%2E/x\r\n", 0, 59, NULL, NULL },
	{ "gemini://example.org/.%2e/\r\n", 0, 59, NULL, NULL },
	{ "gemini://example.org/%2e./\r\n", 0, 59, NULL, NULL },
	{ "gemini://example.org/%2e/\r\n", 0, 59, NULL, NULL },
	{ "gemini://example.org/a/..?x\r\n", 0, 59, NULL, NULL },
	{ "gemini://example.org/%2f\r\n", 0, 59, NULL, NULL },
	{ "gemini://example.org/..%2f..%2fetc%2fpasswd\r\n", 0, 59, NULL,
	    NULL },
	{ "gemini://example.org/%2F\r\n", 0, 59, NULL, NULL },

	/* encoded NUL, bad escapes, decoded bytes not UTF-8 */
	{ "gemini://example.org/%00\r\n", 0, 59, NULL, NULL },
	{ "gemini://example.org/a%00.gmi\r\n", 0, 59, NULL, NULL },
	{ "gemini://example.org/?%00\r\n", 0, 59, NULL, NULL },
	{ "gemini://example.org/%zz\r\n", 0, 59, NULL, NULL },
	{ "gemini://example.org/%4\r\n", 0, 59, NULL, NULL },
	{ "gemini://example.org/%\r\n", 0, 59, NULL, NULL },
	{ "gemini://example.org/?%x1\r\n", 0, 59, NULL, NULL },
	{ "gemini://example.org/%ff\r\n", 0, 59, NULL, NULL },
	{ "gemini://example.org/%C0%AE%C0%AE/\r\n", 0, 59, NULL, NULL },
	{ "gemini://example.org/%0d%0a\r\n", 0, 59, NULL, NULL },

	/* characters RFC 3986 does not allow raw */
	{ "gemini://example.org/a\\b\r\n", 0, 59, NULL, NULL },
	{ "gemini://example.org/<script>\r\n", 0, 59, NULL, NULL },
	{ "gemini://exa%6Dple.org/\r\n", 0, 59, NULL, NULL },
};

static void
test_rows(void)
{
	struct gemini_request	*req;
	const char		*meta;
	char			 what[160];
	size_t			 i, len;
	int			 got;

	req = malloc(sizeof(*req));
	for (i = 0; i < nitems(rows); i++) {
		len = rows[i].len ? rows[i].len : strlen(rows[i].in);
		snprintf(what, sizeof(what), "row %zu \"%.*s\"", i,
		    (int)strcspn(rows[i].in, "\r\n"), rows[i].in);
		got = wire(rows[i].in, len, req, &meta);
		INT_EQ(got, rows[i].want, what);
		if (got == 53 || got == 59) {
			OK(meta != NULL && meta[0] != '\0', "%s: meta", what);
			OK(strstr(meta, got == 53 ? "Proxy" : "Bad") != NULL,
			    "%s: meta \"%s\"", what, meta);
		}
		if (got != 0 || rows[i].want != 0)
			continue;
		STR_EQ(req->url.scheme, "gemini", what);
		STR_EQ(req->url.path, rows[i].path, what);
		STR_EQ(req->url.query, rows[i].query, what);
	}
	/* titan:// is served (uploads, titan.c); the caller tells it apart. */
	got = wire("titan://example.org/x;size=1\r\n",
	    strlen("titan://example.org/x;size=1\r\n"), req, &meta);
	INT_EQ(got, 0, "titan:// accepted");
	if (got == 0)
		STR_EQ(req->url.scheme, "titan", "titan:// keeps its scheme");
	free(req);
}

/* A URL may have 1024 bytes (Gemini spec), not 1025. */
static void
test_length(void)
{
	struct gemini_request	*req;
	const char		*meta;
	char			 w[2048];
	size_t			 url;

	req = malloc(sizeof(*req));
	for (url = 1020; url <= 1030; url++) {
		memset(w, 'a', sizeof(w));
		memcpy(w, "gemini://example.org/", 21);
		memcpy(w + url, "\r\n", 2);
		if (url <= 1024) {
			INT_EQ(gemini_request_end(w, url + 2), url, "end");
			INT_EQ(wire(w, url + 2, req, &meta), 0, "<= 1024");
			INT_EQ(strlen(req->url.path), url - 20, "path");
		} else {
			INT_EQ(gemini_request_end(w, url + 2),
			    GEMINI_TOO_LONG, "> 1024");
			INT_EQ(wire(w, url + 2, req, &meta), 59, "> 1024");
		}
		/* Never answered early: a prefix is incomplete. */
		INT_EQ(gemini_request_end(w, url < 1026 ? url : 1025),
		    GEMINI_INCOMPLETE, "prefix");
		INT_EQ(gemini_request_end(w, url + 1),
		    url + 1 >= 1026 ? GEMINI_TOO_LONG : GEMINI_INCOMPLETE,
		    "CR only");
	}
	/* Exactly 1026 bytes without CRLF: the cap is reached. */
	memset(w, 'a', sizeof(w));
	INT_EQ(gemini_request_end(w, 1026), GEMINI_TOO_LONG, "1026 no CRLF");
	INT_EQ(gemini_request_end(w, 1025), GEMINI_INCOMPLETE, "1025 no CRLF");
	INT_EQ(gemini_request_end(w, 2048), GEMINI_TOO_LONG, "2048 no CRLF");
	/* 1024 bytes of LF: still not a request. */
	memset(w, '\n', 1025);
	INT_EQ(gemini_request_end(w, 1025), GEMINI_INCOMPLETE, "all LF");
	/* The CRLF straddles the cap: byte 1026 would be the LF. */
	memset(w, 'a', sizeof(w));
	w[1025] = '\r';
	w[1026] = '\n';
	INT_EQ(gemini_request_end(w, 1027), GEMINI_TOO_LONG, "CR at 1025");
	/* The parser refuses over-long input on its own too. */
	INT_EQ(gemini_request_parse(w, 1025, hosts, nitems(hosts), req, &meta),
	    59, "parse 1025");
	HAS(meta, "1024", "too long meta");
	INT_EQ(gemini_request_parse("", 0, hosts, nitems(hosts), req, &meta),
	    59, "parse empty");
	free(req);
}

/* Which host answers, given the URL and the TLS server name (SNI). */
static void
test_sni(void)
{
	static const struct gemini_host two[] = {
		{ "a.test", 1965, 0 },
		{ "b.test", 1965, 0 },
	};
	struct gemini_request	 req;
	const char		*meta;

#define H(url, sni) (gemini_request_parse(url, strlen(url), two, 2, &req, \
	    &meta) != 0 ? -2 : gemini_request_host(two, 2, &req, sni, &meta))
	INT_EQ(H("gemini://a.test/", "a.test"), 0, "a with SNI a");
	INT_EQ(req.host, 0, "req.host a");
	INT_EQ(H("gemini://b.test/", "b.test"), 1, "b with SNI b");
	INT_EQ(req.host, 1, "req.host b");
	INT_EQ(H("gemini://B.Test./", "B.TEST"), 1, "case, trailing dot");
	INT_EQ(H("gemini://b.test/", "b.test."), 1, "SNI trailing dot");
	INT_EQ(H("gemini://b.test/", NULL), 1, "no SNI: the URL decides");
	INT_EQ(H("gemini://b.test/", ""), 1, "empty SNI: none");
	meta = NULL;
	INT_EQ(H("gemini://b.test/", "a.test"), -1, "b with SNI a");
	OK(meta != NULL && strstr(meta, "TLS server name") != NULL,
	    "53 says why: %s", meta ? meta : "(null)");
	INT_EQ(H("gemini://a.test/", "b.test"), -1, "a with SNI b");
	INT_EQ(H("gemini://a.test/", "c.test"), -1, "a with unknown SNI");
	INT_EQ(H("gemini://127.0.0.1/", NULL), 0, "literal: first host");
	INT_EQ(req.ip, 1, "literal flagged");
	INT_EQ(H("gemini://[::1]/", "b.test"), 1, "literal: the SNI's host");
	INT_EQ(H("gemini://[::1]/", "c.test"), 0, "literal, unknown SNI");
	INT_EQ(H("gemini://c.test/", "c.test"), -2, "not ours: parse 53");
#undef H
}

/* Ports of IP literals and host entries; no hosts at all. */
static void
test_hosts(void)
{
	static const struct gemini_host odd[] = {
		{ "a.test", 1966, 0 },
		{ "b.test", 1965, 0 },
	};
	struct gemini_request	 req;
	const char		*meta;

#define P(s, h, n) gemini_request_parse(s, strlen(s), h, n, &req, &meta)
	INT_EQ(P("gemini://a.test:1966/", odd, 2), 0, "own port");
	INT_EQ(P("gemini://a.test/", odd, 2), 0, "absent port");
	INT_EQ(P("gemini://a.test:1965/", odd, 2), 53, "b's port for a");
	INT_EQ(P("gemini://b.test:1965/", odd, 2), 0, "b's port");
	INT_EQ(P("gemini://[::1]:1966/", odd, 2), 0, "literal: hosts[0]");
	INT_EQ(P("gemini://[::1]:1965/", odd, 2), 0,
	    "literal: another host's port (the caller picks the host)");
	INT_EQ(P("gemini://[::1]:1967/", odd, 2), 53, "literal: no host's");
	INT_EQ(P("gemini://10.0.0.1/", odd, 2), 0, "literal, no port");
	INT_EQ(P("gemini://a.test/", odd, 0), 53, "no hosts");
	INT_EQ(P("gemini://[::1]:1965/", odd, 0), 0, "no hosts, literal");
	{
		/* gemini_public_port: the port clients use is ours too. */
		static const struct gemini_host nat[] = {
			{ "a.test", 11965, 1965 },
		};

		INT_EQ(P("gemini://a.test:1965/", nat, 1), 0, "public port");
		INT_EQ(P("gemini://a.test:11965/", nat, 1), 0,
		    "listening port");
		INT_EQ(P("gemini://a.test:1966/", nat, 1), 53, "another port");
		INT_EQ(P("gemini://[::1]:1965/", nat, 1), 0,
		    "literal: the public port");
	}
	INT_EQ(P("gemini://[::1]:1966/", odd, 0), 53, "no hosts, 1966");
	INT_EQ(P("gemini://A.TEST:1966/X?Y", odd, 2), 0, "case");
	STR_EQ(req.url.host, "a.test", "host lower-cased");
	STR_EQ(req.url.path, "/X", "path case kept");
	STR_EQ(req.url.query, "Y", "query case kept");
	INT_EQ(req.url.port, 1966, "port kept");
#undef P
}

/*
 * An IP literal is ours only as the connection's own address, in any
 * spelling, or as a configured host name.
 */
static void
test_local(void)
{
	static const struct gemini_host named[] = {
		{ "a.test", 1965, 0 },
		{ "192.0.2.7", 1966, 0 },
		{ "2001:db8::7", 1967, 0 },
	};
	struct gemini_request	 req;
	struct sockaddr_in	 sin;
	struct sockaddr_in6	 sin6;
	const struct sockaddr	*v4 = (const struct sockaddr *)&sin;
	const struct sockaddr	*v6 = (const struct sockaddr *)&sin6;
	const char		*meta;

	memset(&sin, 0, sizeof(sin));
	sin.sin_family = AF_INET;
	inet_pton(AF_INET, "127.0.0.1", &sin.sin_addr);
	memset(&sin6, 0, sizeof(sin6));
	sin6.sin6_family = AF_INET6;
	inet_pton(AF_INET6, "::1", &sin6.sin6_addr);

#define L(url, sa) (gemini_request_parse(url, strlen(url), named, 3, &req, \
	    &meta) != 0 ? -2 : gemini_request_local(&req, sa))
	INT_EQ(L("gemini://a.test/", v4), 1, "a name: ours");
	INT_EQ(L("gemini://127.0.0.1/", v4), 1, "the local address");
	INT_EQ(L("gemini://[::ffff:127.0.0.1]/", v4), 1, "mapped, local");
	INT_EQ(L("gemini://8.8.8.8/", v4), 0, "another IPv4 address");
	INT_EQ(L("gemini://127.0.0.2/", v4), 0, "another loopback");
	INT_EQ(L("gemini://[::1]/", v4), 0, "::1 over IPv4");
	INT_EQ(L("gemini://[2001:db8::1]/", v4), 0, "another IPv6");
	INT_EQ(L("gemini://[::1]/", v6), 1, "::1 over ::1");
	INT_EQ(L("gemini://[0:0:0:0:0:0:0:1]/", v6), 1, "::1 spelt long");
	INT_EQ(L("gemini://127.0.0.1/", v6), 0, "127.0.0.1 over ::1");
	INT_EQ(L("gemini://127.0.0.1/", NULL), 0, "no local address");
	inet_pton(AF_INET6, "::ffff:127.0.0.1", &sin6.sin6_addr);
	INT_EQ(L("gemini://127.0.0.1/", v6), 1, "IPv4 on a dual-stack socket");
	/* Configured as a host: that host's, wherever the client came in. */
	INT_EQ(L("gemini://192.0.2.7:1966/", v4), 1, "configured IPv4");
	INT_EQ((int)req.host, 1, "configured IPv4: its host");
	INT_EQ(req.ip, 0, "configured IPv4: a name");
	INT_EQ(L("gemini://[2001:DB8:0::7]:1967/", v4), 1, "configured IPv6");
	INT_EQ((int)req.host, 2, "configured IPv6: its host");
	INT_EQ(L("gemini://192.0.2.7:1965/", v4), -2, "configured: its port");
#undef L
}

static void
test_header(void)
{
	char	 out[GEMINI_HEADER_MAX + 1], big[3000], small[16];
	size_t	 n;

	n = gemini_header(out, sizeof(out), 20, "text/gemini; lang=en");
	STR_EQ(out, "20 text/gemini; lang=en\r\n", "20");
	INT_EQ(n, strlen(out), "length");
	gemini_header(out, sizeof(out), 51, "Not found");
	STR_EQ(out, "51 Not found\r\n", "51");
	gemini_header(out, sizeof(out), 31, "/docs/");
	STR_EQ(out, "31 /docs/\r\n", "31");
	gemini_header(out, sizeof(out), 44, "60");
	STR_EQ(out, "44 60\r\n", "44");

	/* defaults when META is empty, NULL or only blanks */
	gemini_header(out, sizeof(out), 20, "");
	STR_EQ(out, "20 text/gemini; charset=utf-8\r\n", "20 default");
	gemini_header(out, sizeof(out), 10, NULL);
	STR_EQ(out, "10 Input\r\n", "10 default");
	gemini_header(out, sizeof(out), 30, " \r\n ");
	STR_EQ(out, "30 /\r\n", "30 default");
	gemini_header(out, sizeof(out), 59, NULL);
	STR_EQ(out, "59 Bad request\r\n", "59 default");
	gemini_header(out, sizeof(out), 53, "");
	STR_EQ(out, "53 Proxy request refused\r\n", "53 default");
	gemini_header(out, sizeof(out), 62, NULL);
	STR_EQ(out, "62 Certificate not valid\r\n", "62 default");

	/* codes: undefined → class x0; nonsense → 40 */
	gemini_header(out, sizeof(out), 57, "x");
	STR_EQ(out, "50 x\r\n", "57");
	gemini_header(out, sizeof(out), 5, NULL);
	STR_EQ(out, "40 Temporary failure\r\n", "5");
	gemini_header(out, sizeof(out), 70, NULL);
	STR_EQ(out, "40 Temporary failure\r\n", "70");
	gemini_header(out, sizeof(out), -20, NULL);
	STR_EQ(out, "40 Temporary failure\r\n", "-20");

	/* sanitising: CR/LF injection, controls, bad UTF-8, blanks */
	gemini_header(out, sizeof(out), 59, "bad\r\n20 text/html\r\n");
	STR_EQ(out, "59 bad  20 text/html\r\n", "CRLF injection");
	gemini_header(out, sizeof(out), 59, "  a\tb\x7F" "c\x1B[0m  ");
	STR_EQ(out, "59 a b c [0m\r\n", "controls");
	gemini_header(out, sizeof(out), 59, "x\xDCy\xE2\x82z");
	STR_EQ(out, "59 x?y??z\r\n", "invalid UTF-8");
	gemini_header(out, sizeof(out), 59, "caf\xC3\xA9 \xF0\x9F\x98\x80");
	STR_EQ(out, "59 caf\xC3\xA9 \xF0\x9F\x98\x80\r\n", "UTF-8 kept");
	gemini_header(out, sizeof(out), 59,
	    "\xEF\xBB\xBFx\xC2\x85y\xE2\x80\xA8z\xE2\x80\xA9");
	STR_EQ(out, "59 x y z\r\n", "BOM, NEL, LS, PS");

	/* META cut to 1024 bytes, on a character boundary */
	memset(big, 'm', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	n = gemini_header(out, sizeof(out), 20, big);
	INT_EQ(n, 3 + 1024 + 2, "1024-byte meta");
	OK(memcmp(out + n - 2, "\r\n", 2) == 0, "ends in CRLF");
	INT_EQ(n, GEMINI_HEADER_MAX, "GEMINI_HEADER_MAX");
	big[1023] = '\xC3';
	big[1024] = '\xA9';
	n = gemini_header(out, sizeof(out), 20, big);
	INT_EQ(n, 3 + 1023 + 2, "cut before a 2-byte character");

	/* small buffers */
	n = gemini_header(small, sizeof(small), 51, "Not found here at all");
	STR_EQ(small, "51 Not found\r\n", "cut to fit, trailing blank");
	INT_EQ(n, 14, "small length");
	n = gemini_header(small, 7, 51, "xyz");
	STR_EQ(small, "51 x\r\n", "7 bytes");
	INT_EQ(gemini_header(small, 6, 51, "x"), 0, "6 bytes: nothing");
	INT_EQ(gemini_header(small, 0, 51, "x"), 0, "0 bytes");
}

/* A CGI program's header, as gemini_header_parse() takes it. */
static void
test_header_parse(void)
{
	char	 big[GEMINI_HEADER_MAX + 8];
	int	 st = 0;

	INT_EQ(gemini_header_parse("20 text/gemini\r\n# hi\n", 22, &st), 16,
	    "20 with META: its length");
	INT_EQ(st, 20, "status 20");
	INT_EQ(gemini_header_parse("51\r\n", 4, &st), 4, "no META");
	INT_EQ(st, 51, "status 51");
	INT_EQ(gemini_header_parse("30 /caf\xc3\xa9\r\n", 11, &st), 11,
	    "UTF-8 META");
	INT_EQ(gemini_header_parse("20 text/gemini\n", 15, &st), -1,
	    "LF without CR");
	INT_EQ(gemini_header_parse("20 text/gemini", 14, &st), -1, "no end");
	INT_EQ(gemini_header_parse("hello\r\n", 7, &st), -1, "not a status");
	INT_EQ(gemini_header_parse("70 x\r\n", 6, &st), -1, "7x");
	INT_EQ(gemini_header_parse("09 x\r\n", 6, &st), -1, "0x");
	INT_EQ(gemini_header_parse("2\r\n", 3, &st), -1, "one digit");
	INT_EQ(gemini_header_parse("200 x\r\n", 7, &st), -1, "three digits");
	INT_EQ(gemini_header_parse("20\tx\r\n", 6, &st), -1, "tab, no space");
	INT_EQ(gemini_header_parse("20 a\x01b\r\n", 8, &st), -1, "control");
	INT_EQ(gemini_header_parse("20 \xff\r\n", 6, &st), -1, "bad UTF-8");
	INT_EQ(gemini_header_parse("", 0, &st), -1, "nothing");
	memset(big, 'a', sizeof(big));
	memcpy(big, "20 ", 3);
	memcpy(big + 3 + GEMINI_META_MAX, "\r\n", 2);
	INT_EQ(gemini_header_parse(big, sizeof(big), &st),
	    GEMINI_HEADER_MAX, "META of GEMINI_META_MAX bytes");
	memcpy(big + 3 + GEMINI_META_MAX, "a\r\n", 3);
	INT_EQ(gemini_header_parse(big, sizeof(big), &st), -1,
	    "META one byte too long");
}

static const struct harness_test tests[] = {
	TEST(test_rows),
	TEST(test_length),
	TEST(test_hosts),
	TEST(test_local),
	TEST(test_sni),
	TEST(test_header),
	TEST(test_header_parse),
};

int
main(int argc, char **argv)
{
	HARNESS_INIT(argc, argv, tests);
	harness_run();
	return harness_done();
}
