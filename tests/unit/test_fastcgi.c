/*
 * test_fastcgi.c -- the backends' wire formats and configuration:
 * FastCGI records (proto/fastcgi.c) encoded and decoded back, padding,
 * PARAMS split over records, long name-value lengths, every truncation
 * of a record, bad versions and END_REQUEST lengths; SCGI netstrings
 * (proto/scgi.c) with CONTENT_LENGTH first; and the "fastcgi", "scgi"
 * and "proxy" keys (core/config_apps.c): entries, their errors, and
 * which entry config_app_find() routes a path to.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/buf.h"
#include "core/config.h"
#include "core/config_apps.h"
#include "core/config_engine.h"
#include "harness.h"
#include "proto/fastcgi.h"
#include "proto/scgi.h"

static void
test_records(void)
{
	struct buf		 b = BUF_INIT;
	struct fastcgi_record	 rec;
	const char		*err = NULL;
	ssize_t			 r;
	size_t			 i;

	fastcgi_record(&b, FASTCGI_STDOUT, 1, "hello", 5);
	INT_EQ(b.len, 16, "5 bytes: header, content, 3 of padding");
	r = fastcgi_parse((const uint8_t *)b.data, b.len, &rec, &err);
	INT_EQ(r, 16, "decoded whole");
	INT_EQ(rec.type, FASTCGI_STDOUT, "type");
	INT_EQ(rec.id, 1, "request id");
	OK(rec.len == 5 && memcmp(rec.content, "hello", 5) == 0, "content");
	for (i = 0; i < b.len; i++)
		INT_EQ(fastcgi_parse((const uint8_t *)b.data, i, &rec, &err), 0,
		    "cut short: more must come");
	b.data[0] = 2;
	OK(fastcgi_parse((const uint8_t *)b.data, b.len, &rec, &err) == -1 &&
	    err != NULL, "version 2 refused");
	buf_free(&b);

	fastcgi_begin(&b, 7, 1);
	INT_EQ(b.len, 16, "BEGIN_REQUEST: 8 + 8");
	OK((unsigned char)b.data[1] == FASTCGI_BEGIN_REQUEST &&
	    b.data[3] == 7 && b.data[9] == 1 && b.data[10] == 1,
	    "responder role, FCGI_KEEP_CONN");
	buf_free(&b);

	{
		const uint8_t end[16] = { 1, 3, 0, 1, 0, 8, 0, 0,
		    0, 0, 1, 2, 0, 0, 0, 0 };
		const uint8_t bad[8] = { 1, 3, 0, 1, 0, 4, 0, 0 };
		uint8_t		 badf[12];

		r = fastcgi_parse(end, sizeof(end), &rec, &err);
		OK(r == 16 && rec.type == FASTCGI_END_REQUEST &&
		    rec.app_status == 258 && rec.protocol_status == 0,
		    "END_REQUEST: app and protocol status");
		memcpy(badf, bad, 8);
		memset(badf + 8, 0, 4);
		OK(fastcgi_parse(badf, sizeof(badf), &rec, &err) == -1,
		    "END_REQUEST of 4 bytes refused");
	}
}

static void
test_params(void)
{
	struct buf		 b = BUF_INIT;
	struct fastcgi_record	 rec;
	struct buf		 stream = BUF_INIT;
	const uint8_t		*name, *value;
	const char		*err;
	char			*big, *env[4];
	size_t			 off = 0, nlen, vlen, nrec = 0;
	ssize_t			 r;

	big = malloc(70000 + 6);
	memcpy(big, "LONG=", 5);
	memset(big + 5, 'v', 70000);
	big[70005] = '\0';
	env[0] = "A=1";
	env[1] = big;
	env[2] = "EMPTY";
	env[3] = NULL;
	fastcgi_params(&b, 1, env);
	while ((r = fastcgi_parse((const uint8_t *)b.data + off,
	    b.len - off, &rec, &err)) > 0) {
		OK(rec.type == FASTCGI_PARAMS, "PARAMS records only");
		buf_add(&stream, rec.content, rec.len);
		off += (size_t)r;
		nrec++;
	}
	INT_EQ(off, b.len, "the records fill the buffer");
	OK(nrec >= 3, "split over records, then the empty one (%zu)", nrec);
	INT_EQ(rec.len, 0, "the last record is empty");
	off = 0;
	r = fastcgi_pair((const uint8_t *)stream.data, stream.len, &name,
	    &nlen, &value, &vlen);
	OK(r == 4 && nlen == 1 && vlen == 1 && name[0] == 'A' &&
	    value[0] == '1', "a short pair");
	off += (size_t)r;
	r = fastcgi_pair((const uint8_t *)stream.data + off, stream.len - off,
	    &name, &nlen, &value, &vlen);
	OK(r > 0 && nlen == 4 && vlen == 70000 && value[69999] == 'v',
	    "a four-byte value length");
	off += (size_t)r;
	r = fastcgi_pair((const uint8_t *)stream.data + off, stream.len - off,
	    &name, &nlen, &value, &vlen);
	OK(r > 0 && nlen == 5 && vlen == 0, "no '=': an empty value");
	OK(fastcgi_pair((const uint8_t *)"\x05\x01" "AB", 4, &name, &nlen,
	    &value, &vlen) == -1, "a pair cut short");
	OK(fastcgi_pair((const uint8_t *)"\xff\xff\xff\xff\x01", 5, &name,
	    &nlen, &value, &vlen) == -1, "a length past the input");
	free(big);
	buf_free(&b);
	buf_free(&stream);
}

static void
test_scgi(void)
{
	struct buf	 b = BUF_INIT;
	const char	*d, *err = NULL;
	size_t		 dlen, i;
	char		*env[] = { "SCRIPT_NAME=/a", "CONTENT_LENGTH=9", NULL };
	static const char want[] = "CONTENT_LENGTH\0" "0\0" "SCGI\0" "1\0"
	    "SCRIPT_NAME\0" "/a\0";

	scgi_request(&b, env, 0);
	OK(scgi_netstring_parse(b.data, b.len, &d, &dlen, &err) ==
	    (ssize_t)b.len, "one netstring");
	OK(dlen == sizeof(want) - 1 && memcmp(d, want, dlen) == 0,
	    "CONTENT_LENGTH first, SCGI 1, the environment's not repeated");
	for (i = 0; i < b.len; i++)
		INT_EQ(scgi_netstring_parse(b.data, i, &d, &dlen, &err), 0,
		    "cut short: more must come");
	OK(scgi_netstring_parse("3:abc;", 6, &d, &dlen, &err) == -1,
	    "no ','");
	OK(scgi_netstring_parse("03:abc,", 7, &d, &dlen, &err) == -1,
	    "a leading zero");
	OK(scgi_netstring_parse(":abc,", 5, &d, &dlen, &err) == -1,
	    "no length");
	OK(scgi_netstring_parse("99999999999:", 12, &d, &dlen, &err) == -1,
	    "too long");
	OK(scgi_netstring_parse("0:,", 3, &d, &dlen, &err) == 3 && dlen == 0,
	    "the empty netstring");
	buf_free(&b);
}

static int
load(struct config *c, const char *yaml, char *err, size_t len)
{
	return config_load_buffer(c, "/etc/capsuled/x.yaml", yaml,
	    strlen(yaml), err, len);
}

static void
bad(const char *yaml, const char *want)
{
	struct config	 c;
	char		 err[512] = "";

	INT_EQ(load(&c, yaml, err, sizeof(err)), -1, want);
	OK(strstr(err, want) != NULL, "'%s' says '%s'", err, want);
}

/* "proxy" read as the configuration reads it: its engine on the value. */
static void
proxy_entries(struct config *c)
{
	static const char	 y[] = "- {host: example.org, prefix: /p,"
	    " backend: b.example:1965, client_cert: c.pem, client_key: k.pem,"
	    " fingerprint: 'AB:cd:00:00:00:00:00:00:00:00:00:00:00:00:00:00:"
	    "00:00:00:00:00:00:00:00:00:00:00:00:00:00:00:01'}";
	static const struct cfe_field f = { "proxy", NULL, 0, 0, 0, 0, 0,
				    NULL };
	struct cfe		 l;
	yaml_event_t		 ev;
	char			 msg[256] = "";
	int			 rv = -1, i;

	memset(&l, 0, sizeof(l));
	l.name = "y";
	l.data = y;
	l.len = sizeof(y) - 1;
	l.confdir = "/etc/capsuled";
	l.err = msg;
	l.errlen = sizeof(msg);
	if (cfe_begin(&l) == 0) {
		/* STREAM-START, DOCUMENT-START, then the list. */
		for (i = 0; i < 3 && cfe_next(&l, &ev) == 0; i++) {
			if (i == 2)
				rv = config_apps_parse(&l, &f, &ev, 0,
				    &c->apps, &c->napps);
			yaml_event_delete(&ev);
		}
		cfe_end(&l);
	}
	INT_EQ(rv, 0, msg);
}

static void
test_config(void)
{
	struct config		 c;
	const struct config_app	*a;
	char			 err[512] = "";

	OK(load(&c, "hostname: example.org\n"
	    "fastcgi:\n"
	    "  - {prefix: /app/, socket: unix:run/app.sock,"
	    " params: {SCRIPT_FILENAME: /srv/a}}\n"
	    "  - {prefix: /app/deep, socket: '127.0.0.1:9000',"
	    " max_connections: 3}\n"
	    "scgi: [{prefix: /s, socket: '[::1]:4000'}]\n", err,
	    sizeof(err)) == 0, "loads: %s", err);
	proxy_entries(&c);
	INT_EQ(c.napps, 4, "four entries");
	OK(config_has_backends(&c), "config_has_backends");
	a = config_app_find(c.apps, c.napps, "example.org", "/app/x");
	OK(a != NULL && a->kind == CONFIG_APP_FASTCGI &&
	    strcmp(a->prefix, "/app") == 0 &&
	    strcmp(a->path, "/etc/capsuled/run/app.sock") == 0 &&
	    a->nparams == 1 && strcmp(a->params[0],
	    "SCRIPT_FILENAME=/srv/a") == 0 && a->max_conns == 8,
	    "a prefix, a Unix socket beside the file, params");
	a = config_app_find(c.apps, c.napps, "example.org", "/app/deep/y");
	OK(a != NULL && a->addr != NULL && strcmp(a->addr, "127.0.0.1") ==
	    0 && a->port == 9000 && a->max_conns == 3, "the longest prefix");
	OK(config_app_find(c.apps, c.napps, "example.org", "/apple") == NULL,
	    "a prefix is whole segments");
	a = config_app_find(c.apps, c.napps, "example.org", "/s");
	OK(a != NULL && a->kind == CONFIG_APP_SCGI && strcmp(a->addr, "::1")
	    == 0 && a->port == 4000, "scgi on IPv6");
	a = config_app_find(c.apps, c.napps, "example.org", "/p/q");
	OK(a != NULL && a->kind == CONFIG_APP_PROXY && strcmp(a->sni,
	    "b.example") == 0 && strcmp(a->client_cert,
	    "/etc/capsuled/c.pem") == 0, "proxy: sni from backend");
	OK(a != NULL && a->fingerprint != NULL && strcmp(a->fingerprint,
	    "abcd0000000000000000000000000000"
	    "00000000000000000000000000000001") == 0,
	    "proxy: a fingerprint, colons dropped, lower case");
	OK(config_app_find(c.apps, c.napps, "other.org", "/p/q") == NULL,
	    "a host's entry only for that host");
	config_free(&c);
	OK(load(&c, "fastcgi: null\n", err, sizeof(err)) == 0 &&
	    !config_has_backends(&c), "null: none");
	config_free(&c);

	bad("fastcgi: /x\n", "fastcgi: expected a list");
	bad("fastcgi: [{socket: unix:/x}]\n", "needs a prefix");
	bad("fastcgi: [{prefix: /x}]\n", "needs a socket");
	bad("fastcgi: [{prefix: x, socket: unix:/x}]\n", "must start");
	bad("fastcgi: [{prefix: /a/../b, socket: unix:/x}]\n", "'..'");
	bad("fastcgi: [{prefix: /x, socket: 'host.example:9'}]\n",
	    "expected unix:PATH or ADDRESS:PORT");
	bad("fastcgi: [{prefix: /x, socket: '1.2.3.4:0'}]\n",
	    "expected unix:PATH or ADDRESS:PORT");
	bad("scgi: [{prefix: /x, socket: 'unix:'}]\n", "needs a path");
	bad("scgi: [{prefix: /x, socket: unix:/a, max_connections: 0}]\n",
	    "max_connections");
	bad("scgi: [{prefix: /x, socket: unix:/a, params: [a]}]\n",
	    "expected a mapping");
	bad("scgi: [{prefix: /x, socket: unix:/a, params: {'A B': 1}}]\n",
	    "expected an environment variable");
	bad("scgi: [{prefix: /x, socket: unix:/a, what: 1}]\n",
	    "unknown key 'what'");
	bad("scgi: [{prefix: /x, socket: unix:/a},"
	    " {prefix: /x/, socket: unix:/b}]\n", "routed twice");
	bad("proxy: [{prefix: /, backend: 'a:1', fingerprint: ab}]\n",
	    "expected a SHA-256 fingerprint");
	bad("proxy: [{prefix: /, backend: 'a:1', fingerprint: '"
	    "zz00000000000000000000000000000000000000000000000000000000000000"
	    "'}]\n", "expected a SHA-256 fingerprint");
	bad("fastcgi: &a [{prefix: /x, socket: unix:/a}]\n", "anchors");
}

static const struct harness_test tests[] = {
	TEST(test_records),
	TEST(test_params),
	TEST(test_scgi),
	TEST(test_config),
};

int
main(int argc, char **argv)
{
	HARNESS_INIT(argc, argv, tests);
	harness_run();
	return harness_done();
}
