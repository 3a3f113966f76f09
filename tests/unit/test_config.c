/*
 * test_config.c -- config_load(), config_load_buffer(), config_defaults().
 *
 * Writes small YAML files under a mkdtemp() directory (removed at the
 * end) and checks the values read, the paths resolved, and every error
 * message to the byte, line and column included.  Also loads the real
 * config/capsuled.yaml (from $CAPSULED_TOP, else the working directory).
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/config.h"
#include "core/robots.h"
#include "files.h"
#include "harness.h"
#include "core/util.h"

/* The robots setting's text form, or NULL (core/robots.h). */
static const char *
robots_text(const struct config *c)
{
	return c->robots != NULL ? c->robots->text : NULL;
}

static char	 tmp[PATH_MAX];		/* realpath of the mkdtemp dir */
static char	 conf[PATH_MAX + 32];	/* tmp/etc/c.yaml */

/* Write yaml to conf and load it. */
static int
load(struct config *c, const char *yaml, char *err, size_t errlen)
{
	test_write(conf, "%s", yaml);
	return config_load(c, conf, err, errlen);
}

static int
is_zero(const struct config *c)
{
	static const struct config	 zero;

	return memcmp(c, &zero, sizeof(zero)) == 0;
}

/* Loading yaml must fail with "CONF:" followed by want. */
static void
expect_err(const char *yaml, const char *want)
{
	struct config	 c;
	char		 err[512], *full;

	memset(&c, 0xA5, sizeof(c));
	full = xasprintf("%s:%s", conf, want);
	INT_EQ(load(&c, yaml, err, sizeof(err)), -1, yaml);
	STR_EQ(err, full, yaml);
	OK(is_zero(&c), "struct not reset after failing on: %s", yaml);
	config_free(&c);
	free(full);
}

/* Loading yaml must succeed; c is filled, the caller frees it. */
static void
expect_ok(struct config *c, const char *yaml)
{
	char	 err[512] = "";

	INT_EQ(load(c, yaml, err, sizeof(err)), 0, yaml);
	OK(err[0] == '\0', "unexpected error %s", err);
}

static void
check_defaults(const struct config *c, const char *top, const char *what)
{
	char	*capsule = xasprintf("%s/capsule", top);
	char	*certs = xasprintf("%s/certs", top);

	STR_EQ(c->hostname, "localhost", what);
	INT_EQ(c->nbind, 2, what);
	if (c->nbind == 2) {
		STR_EQ(c->bind[0], "127.0.0.1", what);
		STR_EQ(c->bind[1], "::1", what);
	}
	INT_EQ(c->port[SURFACE_GEMINI], 1965, what);
	INT_EQ(c->port[SURFACE_GOPHER], 7070, what);
	INT_EQ(c->public_port[SURFACE_GOPHER], 0, what);
	STR_EQ(c->capsule_dir, capsule, what);
	STR_EQ(c->cert_dir, certs, what);
	INT_EQ(c->workers, 0, what);
	INT_EQ(c->request_timeout_ms, 10000, what);
	INT_EQ(c->idle_timeout_ms, 30000, what);
	INT_EQ(c->max_connections, 1024, what);
	STR_EQ(c->lang, "en", what);
	INT_EQ(c->latest_posts, 10, what);
	INT_EQ(c->gopher_width, 70, what);
	INT_EQ(c->gopher_charset, CONFIG_CHARSET_UTF8, what);
	STR_EQ(c->log_file, NULL, what);
	INT_EQ(c->log_level, LOG_LEVEL_INFO, what);
	INT_EQ(c->access_log, 1, what);
	INT_EQ(c->log_peer, LOG_PEER_FULL, what);
	INT_EQ(c->nredirects, 0, what);
	INT_EQ(c->nhosts, 0, what);
	INT_EQ(config_nhosts(c), 1, what);
	STR_EQ(robots_text(c), CONFIG_ROBOTS_DEFAULT, what);
	INT_EQ(c->ntitan_writers, 0, what);
	INT_EQ(c->titan_max_size, 1 << 20, what);
	STR_EQ(c->ticket_keys, NULL, what);
	INT_EQ(c->nproxy_protocol, 0, what);
	free(capsule);
	free(certs);
}

static void
test_defaults(void)
{
	struct config	 c;
	char		*etc = xasprintf("%s/etc", tmp);
	static const char *const empty[] = {
		"", "\n", "# nothing but a comment\n", "---\n", "---\n...\n",
		"~\n", "null\n", "{}\n",
	};
	size_t		 i;

	config_defaults(&c, etc);
	check_defaults(&c, tmp, "config_defaults");
	STR_EQ(c.path, NULL, "defaults: no path");
	STR_EQ(c.site_title, NULL, "default title: the load names the site");
	STR_EQ(c.site_subtitle, NULL, "default subtitle");
	STR_EQ(c.author, NULL, "default author");
	config_free(&c);
	OK(is_zero(&c), "config_free resets");
	config_free(&c);		/* twice is fine */

	for (i = 0; i < nitems(empty); i++) {
		expect_ok(&c, empty[i]);
		check_defaults(&c, tmp, empty[i]);
		STR_EQ(c.path, conf, "path kept as given");
		STR_EQ(c.site_title, NULL, empty[i]);
		STR_EQ(c.author, NULL, empty[i]);
		config_free(&c);
	}
	free(etc);
}

static void
test_full(void)
{
	struct config	 c;
	char		*want;

	expect_ok(&c,
	    "# every key, none at its default\n"
	    "hostname: Gemini.Example.ORG\n"
	    "bind:\n"
	    "  - 0.0.0.0\n"
	    "  - \"::\"\n"
	    "  - 192.0.2.7\n"
	    "gemini_port: 11965\n"
	    "gopher_port: 70\n"
	    "gopher_public_port: 7000\n"
	    "capsule: /srv/gemini/./site/../capsule/\n"
	    "certs: keys\n"
	    "workers: 4\n"
	    "request_timeout: 2.5\n"
	    "idle_timeout: \"750ms\"\n"
	    "max_connections: 20000\n"
	    "lang: pt-BR\n"
	    "title: 'Caf\xc3\xa9: notes'\n"
	    "subtitle: \"A \\\"quoted\\\" subtitle\"\n"
	    "author: Ada Lovelace\n"
	    "latest_posts: 0\n"
	    "gopher_width: 200\n"
	    "gopher_charset: US-ASCII\n"
	    "log: ../log/capsuled.log\n"
	    "log_level: debug\n"
	    "access_log: false\n");
	STR_EQ(c.hostname, "gemini.example.org", "hostname lower-cased");
	INT_EQ(c.nbind, 3, "nbind");
	if (c.nbind == 3) {
		STR_EQ(c.bind[0], "0.0.0.0", "bind 0");
		STR_EQ(c.bind[1], "::", "bind 1");
		STR_EQ(c.bind[2], "192.0.2.7", "bind 2");
	}
	INT_EQ(c.port[SURFACE_GEMINI], 11965, "gemini_port");
	INT_EQ(c.port[SURFACE_GOPHER], 70, "gopher_port");
	INT_EQ(c.public_port[SURFACE_GOPHER], 7000, "gopher_public_port");
	STR_EQ(c.capsule_dir, "/srv/gemini/capsule", "absolute normalised");
	want = xasprintf("%s/etc/keys", tmp);
	STR_EQ(c.cert_dir, want, "relative certs");
	free(want);
	INT_EQ(c.workers, 4, "workers");
	INT_EQ(c.request_timeout_ms, 2500, "request_timeout");
	INT_EQ(c.idle_timeout_ms, 750, "idle_timeout");
	INT_EQ(c.max_connections, 20000, "max_connections");
	STR_EQ(c.lang, "pt-BR", "lang");
	STR_EQ(c.site_title, "Caf\xc3\xa9: notes", "title");
	STR_EQ(c.site_subtitle, "A \"quoted\" subtitle", "subtitle");
	STR_EQ(c.author, "Ada Lovelace", "author");
	INT_EQ(c.latest_posts, 0, "latest_posts");
	INT_EQ(c.gopher_width, 200, "gopher_width");
	INT_EQ(c.gopher_charset, CONFIG_CHARSET_ASCII, "gopher_charset");
	want = xasprintf("%s/log/capsuled.log", tmp);
	STR_EQ(c.log_file, want, "log relative to the config dir");
	free(want);
	INT_EQ(c.log_level, LOG_LEVEL_DEBUG, "log_level");
	INT_EQ(c.access_log, 0, "access_log");
	config_free(&c);

	/* Flow style, CRLF line ends, other spellings. */
	expect_ok(&c, "{hostname: h, workers: AUTO, access_log: Off,\r\n"
	    " log: stderr, log_level: WARN, author: ~, subtitle: '',\r\n"
	    " request_timeout: 7s, idle_timeout: 1 ms, gopher_port: 0}\r\n");
	STR_EQ(c.hostname, "h", "flow hostname");
	INT_EQ(c.workers, 0, "workers auto");
	INT_EQ(c.access_log, 0, "Off");
	STR_EQ(c.log_file, NULL, "log: stderr");
	INT_EQ(c.log_level, LOG_LEVEL_WARN, "WARN");
	STR_EQ(c.author, NULL, "author ~");
	STR_EQ(c.site_subtitle, NULL, "empty subtitle");
	INT_EQ(c.request_timeout_ms, 7000, "7s");
	INT_EQ(c.idle_timeout_ms, 1, "1 ms");
	INT_EQ(c.port[SURFACE_GOPHER], 0, "gopher off");
	config_free(&c);

	expect_ok(&c, "log: \"-\"\nrequest_timeout: .25\nidle_timeout: 86400\n"
	    "access_log: yes\nhostname: \"::1\"\n");
	STR_EQ(c.log_file, NULL, "log: -");
	INT_EQ(c.request_timeout_ms, 250, ".25");
	INT_EQ(c.idle_timeout_ms, 86400000, "a day");
	INT_EQ(c.access_log, 1, "yes");
	STR_EQ(c.hostname, "::1", "IPv6 literal host");
	config_free(&c);

	/* molly-brown's AccessLog: a file of its own, from the config dir. */
	expect_ok(&c, "access_log: access/gemini.log\n");
	want = xasprintf("%s/etc/access/gemini.log", tmp);
	STR_EQ(c.access_log_file, want, "access_log: a file");
	free(want);
	INT_EQ(c.access_log, 1, "access_log: a file is on");
	config_free(&c);

	expect_ok(&c, "log:\ngemini_port: \"1965\"\nworkers: 256\n");
	STR_EQ(c.log_file, NULL, "log: null");
	INT_EQ(c.port[SURFACE_GEMINI], 1965, "quoted number");
	INT_EQ(c.workers, 256, "workers max");
	config_free(&c);
}

static void
test_bind_forms(void)
{
	struct config	 c;

	expect_ok(&c, "bind: 10.1.2.3\n");
	INT_EQ(c.nbind, 1, "scalar bind");
	STR_EQ(c.nbind ? c.bind[0] : NULL, "10.1.2.3", "scalar bind");
	config_free(&c);

	expect_ok(&c, "bind: \"2001:db8::1\"\n");
	INT_EQ(c.nbind, 1, "scalar v6 bind");
	STR_EQ(c.nbind ? c.bind[0] : NULL, "2001:db8::1", "scalar v6 bind");
	config_free(&c);

	expect_ok(&c, "bind: [127.0.0.1, '::1', \"fe80::1\"]\n");
	INT_EQ(c.nbind, 3, "flow list");
	if (c.nbind == 3)
		STR_EQ(c.bind[2], "fe80::1", "flow list");
	config_free(&c);

	expect_ok(&c, "bind:\n- ::1\n");
	INT_EQ(c.nbind, 1, "block list, plain ::1");
	STR_EQ(c.nbind ? c.bind[0] : NULL, "::1", "plain ::1");
	config_free(&c);
}

static void
test_paths(void)
{
	struct config	 c;
	char		 err[512], *sub, *link, *name, *want, cwd[PATH_MAX];
	int		 rv;

	/* A symlinked directory: paths follow the real one. */
	sub = xasprintf("%s/a/b", tmp);
	link = xasprintf("%s/link", tmp);
	name = xasprintf("%s/link/c.yaml", tmp);
	want = xasprintf("%s/a", tmp);
	OK(mkdir(want, 0700) == 0 && mkdir(sub, 0700) == 0, "mkdir a/b");
	free(want);
	if (symlink(sub, link) == -1)
		perror("symlink");
	test_write(name, "%s", "capsule: ../content\n");
	INT_EQ(config_load(&c, name, err, sizeof(err)), 0, "via symlink");
	want = xasprintf("%s/a/content", tmp);
	STR_EQ(c.capsule_dir, want, "realpath of the config dir");
	free(want);
	want = xasprintf("%s/a/certs", tmp);
	STR_EQ(c.cert_dir, want, "default certs next to it");
	free(want);
	STR_EQ(c.path, name, "path as given");
	config_free(&c);

	/* A relative name: resolved from the working directory. */
	OK(getcwd(cwd, sizeof(cwd)) != NULL, "getcwd");
	if (chdir(tmp) == 0) {
		rv = config_load(&c, "link/c.yaml", err, sizeof(err));
		INT_EQ(rv, 0, "relative name");
		want = xasprintf("%s/a/content", tmp);
		STR_EQ(rv == 0 ? c.capsule_dir : NULL, want, "relative name");
		free(want);
		config_free(&c);
		test_write("top.yaml", "%s", "certs: .\ncapsule: ../../..\n"
		    "gemini_port: x\n");
		INT_EQ(config_load(&c, "top.yaml", err, sizeof(err)), -1,
		    "bare name");
		STR_EQ(err, "top.yaml:3:14: gemini_port: expected an integer,"
		    " got 'x'", "message names the path as given");
		unlink("top.yaml");
		OK(chdir(cwd) == 0, "chdir back");
	}
	unlink(name);
	unlink(link);
	rmdir(sub);
	free(sub);
	free(name);
	sub = xasprintf("%s/a", tmp);
	rmdir(sub);
	free(sub);
	free(link);

	/* config_load_buffer: the name need not exist. */
	rv = config_load_buffer(&c, "/no/such/dir/x.yaml",
	    "capsule: ../capsule\ncerts: /k//\nhostname: abcdef",
	    strlen("capsule: ../capsule\ncerts: /k//\nhostname: abc"), err,
	    sizeof(err));
	INT_EQ(rv, 0, "load_buffer");
	STR_EQ(c.capsule_dir, "/no/such/capsule", "lexical fallback");
	STR_EQ(c.cert_dir, "/k", "trailing slashes");
	STR_EQ(c.hostname, "abc", "len respected (no NUL needed)");
	STR_EQ(c.path, "/no/such/dir/x.yaml", "path from name");
	config_free(&c);

	/* "..." is a name like any other (found by fuzz_config). */
	rv = config_load_buffer(&c, "/d/x.yaml",
	    "capsule: /srv/./g/../capsule//...:t x/.../..\ncerts: .../.x/.",
	    60, err, sizeof(err));
	INT_EQ(rv, 0, "dots");
	STR_EQ(c.capsule_dir, "/srv/capsule/...:t x", "... kept, .. applied");
	STR_EQ(c.cert_dir, "/d/.../.x", "dot names");
	config_free(&c);

	rv = config_load_buffer(&c, "/x.yaml", "capsule: ../..\n", 15, err,
	    sizeof(err));
	INT_EQ(rv, 0, "root dir");
	STR_EQ(c.capsule_dir, "/", "cannot climb above /");
	STR_EQ(c.cert_dir, "/certs", "default under /");
	config_free(&c);
}

static void
test_errors(void)
{
	/* Keys. */
	expect_err("hostname: x\nfoo: 1\n", "2:1: unknown key 'foo'");
	expect_err("  port: 1\n", "1:3: unknown key 'port'");
	expect_err("gemini_port: 1965\ngemini_port: 1966\n",
	    "2:1: duplicate key 'gemini_port'");
	expect_err("'title': a\n\"title\": b\n", "2:1: duplicate key 'title'");
	expect_err("? [a]\n: b\n", "1:3: expected a key, got a list");
	expect_err("gemini_port: 70000\n",
	    "1:14: gemini_port: 70000 is out of range (1 to 65535)");

	/* YAML features a config has no use for. */
	expect_err("hostname: &h example.org\n",
	    "1:11: anchors (&name) are not allowed");
	expect_err("hostname: *h\n", "1:11: aliases (*name) are not allowed");
	expect_err("hostname: !!str x\n",
	    "1:11: tags (!name) are not allowed");
	expect_err("bind: [&a 1.2.3.4]\n",
	    "1:8: bind: anchors (&name) are not allowed");

	/* Document shape. */
	expect_err("- hostname\n",
	    "1:1: expected a mapping of keys to values, got a list");
	expect_err("hello\n", "1:1: expected a mapping of keys to values,"
	    " got a single value");
	expect_err("hostname: x\n---\nhostname: y\n",
	    "2:1: only one YAML document is allowed");

	/* Syntax and encoding. */
	expect_err("hostname: \"open\n", "1:11: a quoted scalar opened here"
	    " is never closed");
	expect_err("hostname: b: c\n",
	    "1:12: mapping values are not allowed in this context");
	expect_err("hostname: x\n\ttitle: a\n",
	    "2:1: found a tab character that violates indentation"
	    " (while scanning a plain scalar)");
	expect_err("title: ok\n\x01\n",
	    "2:1: control characters are not allowed (#x1)");
	expect_err("title: caf\xc3\xa9\nauthor: \xff\n",
	    "2:9: invalid leading UTF-8 octet (#xFF)");
	expect_err("bind: [::1]\n", "1:8: did not find expected node content"
	    " (while parsing a flow node)");
	/* libyaml ends a line at a lone CR; so does an encoding error. */
	expect_err("title: a\rauthor: \xff\n",
	    "2:9: invalid leading UTF-8 octet (#xFF)");

	/* Wrong types. */
	expect_err("hostname: [a]\n",
	    "1:11: hostname: expected a string, got a list");
	expect_err("author:\n  name: x\n",
	    "2:3: author: expected a string, got a mapping");
	expect_err("gemini_port: [1]\n",
	    "1:14: gemini_port: expected an integer, got a list");
	expect_err("access_log: {a: b}\n",
	    "1:13: access_log: expected true, false or a file name, got a "
	    "mapping");
	expect_err("request_timeout: [1]\n",
	    "1:18: request_timeout: expected a number of seconds, got a list");
	expect_err("bind:\n  - 1.2.3.4\n  - [x]\n",
	    "3:5: bind: expected an IP address, got a list");
	expect_err("bind: {a: 1}\n",
	    "1:7: bind: expected an IP address, got a mapping");
	expect_err("log: [a]\n",
	    "1:6: log: expected a file name or stderr, got a list");

	/* Bad values. */
	expect_err("gemini_port: 0\n",
	    "1:14: gemini_port: 0 is out of range (1 to 65535)");
	expect_err("gopher_port: -1\n",
	    "1:14: gopher_port: -1 is out of range (0 to 65535)");
	expect_err("gopher_public_port: 65536\n",
	    "1:21: gopher_public_port: 65536 is out of range (0 to 65535)");
	expect_err("gemini_port: 99999999999999999999999\n",
	    "1:14: gemini_port: 99999999999999999999999 is out of range"
	    " (1 to 65535)");
	expect_err("gemini_port: 19.65\n",
	    "1:14: gemini_port: expected an integer, got '19.65'");
	expect_err("gemini_port:\n", "1:13: gemini_port: a value is required");
	expect_err("gopher_port: 1965\n",
	    "1:14: gopher_port: port 1965 is used by both Gemini and Gopher");
	expect_err("gopher_port: 1966\ngemini_port: 1966\n",
	    "2:14: gemini_port: port 1966 is used by both Gemini and Gopher");
	expect_err("request_timeout: -1\n",
	    "1:18: request_timeout: must not be negative");
	expect_err("idle_timeout: -0.5\n",
	    "1:15: idle_timeout: must not be negative");
	expect_err("request_timeout: 0\n",
	    "1:18: request_timeout: 0 is out of range (1ms to 86400s)");
	expect_err("idle_timeout: 86401\n",
	    "1:15: idle_timeout: 86401 is out of range (1ms to 86400s)");
	expect_err("request_timeout: 1e3\n", "1:18: request_timeout: expected"
	    " seconds such as 10 or 2.5, or \"500ms\", got '1e3'");
	expect_err("request_timeout: 5.\n", "1:18: request_timeout: expected"
	    " seconds such as 10 or 2.5, or \"500ms\", got '5.'");
	expect_err("request_timeout: 3 min\n", "1:18: request_timeout:"
	    " expected seconds such as 10 or 2.5, or \"500ms\", got '3 min'");
	/*
	 * One decimal reader for durations and rate_limit: ".5" (YAML's
	 * float) once worked only for durations; now for both.
	 */
	expect_err("request_timeout: .\n", "1:18: request_timeout: expected"
	    " seconds such as 10 or 2.5, or \"500ms\", got '.'");
	expect_err("rate_limit: .\n", "1:13: rate_limit: expected requests"
	    " per second such as 10 or 0.5, or off, got '.'");
	{
		struct config	 c;

		expect_ok(&c, "rate_limit: .5\n");
		INT_EQ(c.rate_limit_milli, 500, "rate_limit .5");
		config_free(&c);
	}
	{
		struct config	 c;

		expect_ok(&c, "request_timeout: 0.5\nidle_timeout: 1.5h\n"
		    "handshake_timeout: 250 ms\n");
		INT_EQ(c.request_timeout_ms, 500, "0.5 s");
		INT_EQ(c.idle_timeout_ms, 5400000, "1.5 h");
		INT_EQ(c.handshake_timeout_ms, 250, "250 ms");
		config_free(&c);
	}
	expect_err("max_connections: 0\n",
	    "1:18: max_connections: 0 is out of range (1 to 1000000)");
	expect_err("latest_posts: 1001\n",
	    "1:15: latest_posts: 1001 is out of range (0 to 1000)");
	expect_err("gopher_width: 19\n",
	    "1:15: gopher_width: 19 is out of range (20 to 200)");
	expect_err("gopher_charset: latin1\n",
	    "1:17: gopher_charset: expected utf-8 or ascii, got 'latin1'");
	expect_err("workers: 0\n",
	    "1:10: workers: expected auto or 1 to 256, got '0'");
	expect_err("workers: 257\n",
	    "1:10: workers: expected auto or 1 to 256, got '257'");
	expect_err("workers: many\n",
	    "1:10: workers: expected auto or 1 to 256, got 'many'");
	expect_err("log_level: verbose\n", "1:12: log_level: expected error,"
	    " warn, info or debug, got 'verbose'");
	expect_err("access_log: ''\n", "1:13: access_log: expected true, "
	    "false or a file name, got ''");
	expect_err("hostname:\n", "1:10: hostname: must not be empty");
	expect_err("hostname: ''\n", "1:11: hostname: must not be empty");
	expect_err("hostname: a b\n",
	    "1:11: hostname: expected a host name, got 'a b'");
	expect_err("hostname: a..b\n",
	    "1:11: hostname: expected a host name, got 'a..b'");
	expect_err("hostname: -a.b\n",
	    "1:11: hostname: expected a host name, got '-a.b'");
	expect_err("hostname: a.b.\n",
	    "1:11: hostname: expected a host name, got 'a.b.'");
	expect_err("hostname: \"\\0x\"\n",
	    "1:11: hostname: contains a NUL byte");
	expect_err("lang: en_US\n", "1:7: lang: expected a language tag like"
	    " en or pt-BR, got 'en_US'");
	expect_err("lang: en-\n",
	    "1:7: lang: expected a language tag like en or pt-BR, got 'en-'");
	expect_err("lang: 1en\n",
	    "1:7: lang: expected a language tag like en or pt-BR, got '1en'");
	expect_err("lang: aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\n",
	    "1:7: lang: must be 1 to 35 bytes long");
	expect_err("title: \"\"\n", "1:8: title: must not be empty");
	expect_err("title: \"a\\tb\"\n",
	    "1:8: title: must be one line without control characters");
	expect_err("author: |\n  two\n  lines\n",
	    "1:9: author: must be one line without control characters");
	expect_err("capsule:\n", "1:9: capsule: must not be empty");
	expect_err("log: ''\n", "1:6: log: must not be empty");
	expect_err("bind:\n", "1:6: bind: an address is required");
	expect_err("bind: []\n",
	    "1:7: bind: the list must hold at least one entry");
	expect_err("bind: [1.2.3.4, 1.2.3.4]\n",
	    "1:17: bind: '1.2.3.4' is listed twice");
	expect_err("bind: localhost\n",
	    "1:7: bind: expected an IPv4 or IPv6 address, got 'localhost'");
	expect_err("bind: \"[::1]\"\n",
	    "1:7: bind: expected an IPv4 or IPv6 address, got '[::1]'");
	/* Long and control-laden values are shortened in messages. */
	expect_err("unknown_key_that_goes_on_and_on_and_on_forever: 1\n",
	    "1:1: unknown key 'unknown_key_that_goes_on_and_on_and_on_f...'");
	expect_err("workers: \"a\\nb\"\n",
	    "1:10: workers: expected auto or 1 to 256, got 'a?b'");
	/* Columns count characters, not bytes. */
	expect_err("title: \xc3\xa9\xc3\xa9\nlang: \xc3\xa9\n",
	    "2:7: lang: expected a language tag like en or pt-BR, got"
	    " '\xc3\xa9'");
	expect_err("{title: \xc3\xa9, gopher_width: 1}\n",
	    "1:26: gopher_width: 1 is out of range (20 to 200)");
}

#define FP_A	"0123456789abcdef0123456789abcdef" \
		"0123456789abcdef0123456789abcdef"
#define FP_B	"fedcba9876543210fedcba9876543210" \
		"fedcba9876543210fedcba9876543210"

/* titan_writers, titan_max_size: the keys of Titan uploads. */
static void
test_titan(void)
{
	struct config	 c;

	expect_ok(&c, "titan_writers: [" FP_A ", \"" FP_B "\"]\n"
	    "titan_max_size: 2 MiB\n");
	INT_EQ(c.ntitan_writers, 2, "two writers");
	if (c.ntitan_writers == 2) {
		STR_EQ(c.titan_writers[0], FP_A, "first");
		STR_EQ(c.titan_writers[1], FP_B, "second");
	}
	INT_EQ(c.titan_max_size, 2 << 20, "2 MiB");
	config_free(&c);
	/* One, upper-case, with colons (as openssl x509 -fingerprint). */
	expect_ok(&c, "titan_writers: \"01:23:45:67:89:AB:CD:EF:01:23:45:67:"
	    "89:AB:CD:EF:01:23:45:67:89:AB:CD:EF:01:23:45:67:89:AB:CD:EF\"\n");
	INT_EQ(c.ntitan_writers, 1, "a single fingerprint");
	if (c.ntitan_writers == 1)
		STR_EQ(c.titan_writers[0], FP_A, "normalised to lower hex");
	config_free(&c);
	expect_ok(&c, "titan_writers:\n  - " FP_A "\n");
	INT_EQ(c.ntitan_writers, 1, "block list");
	config_free(&c);
	expect_ok(&c, "titan_writers: ~\n");
	INT_EQ(c.ntitan_writers, 0, "null: nobody");
	config_free(&c);
	expect_ok(&c, "titan_writers: []\n");
	INT_EQ(c.ntitan_writers, 0, "empty list: nobody");
	config_free(&c);
	expect_err("titan_writers: [abc]\n", "1:17: titan_writers: expected "
	    "a SHA-256 fingerprint (64 hex digits), got 'abc'");
	expect_err("titan_writers: [" FP_A "00]\n", "1:17: titan_writers: "
	    "expected a SHA-256 fingerprint (64 hex digits), got "
	    "'0123456789abcdef0123456789abcdef01234567...'");
	expect_err("titan_writers: [" FP_A ", " FP_A "]\n", "1:83: "
	    "titan_writers: '0123456789abcdef0123456789abcdef01234567...' is "
	    "listed twice");
	expect_err("titan_writers: {a: b}\n", "1:16: titan_writers: expected "
	    "a SHA-256 fingerprint, got a mapping");
	expect_err("titan_max_size: 10\n", "1:17: titan_max_size: 10 is out "
	    "of range (1 KiB to 1024 MiB)");
}

/* proxy_protocol, ticket_keys: behind a load balancer. */
static void
test_fleet(void)
{
	struct config	 c;
	char		*keys;

	expect_ok(&c, "proxy_protocol: [127.0.0.1, '::1', 10.0.0.0/8, "
	    "\"fd00::/8\", 192.0.2.0/0]\nticket_keys: ticket.keys\n");
	INT_EQ(c.nproxy_protocol, 5, "five proxies");
	if (c.nproxy_protocol == 5) {
		STR_EQ(c.proxy_protocol[0], "127.0.0.1", "first");
		STR_EQ(c.proxy_protocol[2], "10.0.0.0/8", "a prefix");
		STR_EQ(c.proxy_protocol[3], "fd00::/8", "an IPv6 prefix");
	}
	keys = xasprintf("%s/etc/ticket.keys", tmp);
	STR_EQ(c.ticket_keys, keys, "ticket_keys, next to the config");
	free(keys);
	config_free(&c);
	expect_ok(&c, "proxy_protocol: 127.0.0.1\nticket_keys: ~\n");
	INT_EQ(c.nproxy_protocol, 1, "one proxy, a scalar");
	STR_EQ(c.ticket_keys, NULL, "ticket_keys: null, our own keys");
	config_free(&c);
	expect_ok(&c, "proxy_protocol: []\n");
	INT_EQ(c.nproxy_protocol, 0, "empty list: off");
	config_free(&c);
	expect_ok(&c, "proxy_protocol:\n");
	INT_EQ(c.nproxy_protocol, 0, "null: off");
	config_free(&c);
	expect_err("proxy_protocol: [haproxy.local]\n", "1:18: "
	    "proxy_protocol: expected an IP address or a prefix like "
	    "10.0.0.0/8, got 'haproxy.local'");
	expect_err("proxy_protocol: [10.0.0.0/33]\n", "1:18: "
	    "proxy_protocol: expected an IP address or a prefix like "
	    "10.0.0.0/8, got '10.0.0.0/33'");
	expect_err("proxy_protocol: ['::/129']\n", "1:18: proxy_protocol: "
	    "expected an IP address or a prefix like 10.0.0.0/8, got '::/129'");
	expect_err("proxy_protocol: [10.0.0.0/08]\n", "1:18: "
	    "proxy_protocol: expected an IP address or a prefix like "
	    "10.0.0.0/8, got '10.0.0.0/08'");
	expect_err("proxy_protocol: [10.0.0.0/]\n", "1:18: "
	    "proxy_protocol: expected an IP address or a prefix like "
	    "10.0.0.0/8, got '10.0.0.0/'");
	expect_err("proxy_protocol: [1.2.3.4, 1.2.3.4]\n", "1:27: "
	    "proxy_protocol: '1.2.3.4' is listed twice");
	expect_err("proxy_protocol: {a: b}\n", "1:17: proxy_protocol: "
	    "expected an IP address, got a mapping");
	expect_err("ticket_keys: [a]\n", "1:14: ticket_keys: expected a "
	    "string, got a list");
}

/* atom_full_content, link_aliases: the feed and link keys. */
static void
test_feed_and_aliases(void)
{
	struct config	 c;
	char		*many;
	size_t		 i;

	expect_ok(&c, "atom_full_content: true\n"
	    "link_aliases: [\"https://old.blog/posts/\", "
	    "gemini://Old.Example]\n");
	INT_EQ(c.atom_full_content, 1, "full content");
	INT_EQ(c.nlink_aliases, 2, "two aliases");
	if (c.nlink_aliases == 2) {
		STR_EQ(c.link_aliases[0], "https://old.blog/posts/", "first");
		STR_EQ(c.link_aliases[1], "gemini://Old.Example", "second");
	}
	config_free(&c);
	expect_ok(&c, "link_aliases: https://old.blog/\n");
	INT_EQ(c.nlink_aliases, 1, "a single prefix");
	config_free(&c);
	expect_ok(&c, "link_aliases: ~\n");
	INT_EQ(c.nlink_aliases, 0, "null: none");
	config_free(&c);
	expect_ok(&c, "web_url: https://old.example/blog//\n");
	STR_EQ(c.web_url, "https://old.example/blog", "web_url, no '/'");
	config_free(&c);
	expect_ok(&c, "web_url: HTTP://old.example/\n");
	STR_EQ(c.web_url, "HTTP://old.example", "web_url: the host stays");
	config_free(&c);
	expect_ok(&c, "web_url: ~\n");
	OK(c.web_url == NULL, "web_url: null is none");
	config_free(&c);
	expect_err("web_url: old.example\n", "1:10: web_url: expected a web "
	    "address like 'https://example.org', got 'old.example'");
	expect_err("web_url: gemini://old.example\n", "1:10: web_url: "
	    "expected a web address like 'https://example.org', got "
	    "'gemini://old.example'");
	expect_err("web_url: \"https://a/?p=1\"\n", "1:10: web_url: "
	    "expected a web address like 'https://example.org', got "
	    "'https://a/?p=1'");
	expect_err("atom_full_content: sometimes\n", "1:20: "
	    "atom_full_content: expected true or false, got 'sometimes'");
	expect_err("link_aliases: [old.blog/posts/]\n", "1:16: link_aliases: "
	    "expected a URL prefix like 'https://example.org/posts/', got "
	    "'old.blog/posts/'");
	expect_err("link_aliases: [\"https:///x\"]\n", "1:16: link_aliases: "
	    "expected a URL prefix like 'https://example.org/posts/', got "
	    "'https:///x'");
	expect_err("link_aliases: [\"https://a/?p=\"]\n", "1:16: "
	    "link_aliases: expected a URL prefix like "
	    "'https://example.org/posts/', got 'https://a/?p='");
	expect_err("link_aliases: [https://a/, https://a/]\n", "1:28: "
	    "link_aliases: 'https://a/' is listed twice");
	many = xstrdup("link_aliases: [");
	for (i = 0; i < 33; i++) {
		char *next = xasprintf("%shttps://h%zu/%s", many, i,
		    i < 32 ? ", " : "]\n");

		free(many);
		many = next;
	}
	expect_err(many, "1:454: link_aliases: more than 32 prefixes");
	free(many);
}

/* cgi and its limits. */
static void
test_cgi(void)
{
	struct config	 c;

	expect_ok(&c, "");
	STR_EQ(c.cgi, NULL, "cgi: off by default");
	INT_EQ(c.cgi_timeout_ms, 10000, "cgi_timeout default");
	INT_EQ(c.cgi_max_output, 1 << 20, "cgi_max_output default");
	INT_EQ(c.cgi_max_programs, 4, "cgi_max_programs default");
	config_free(&c);
	expect_ok(&c, "cgi: cgi-bin\ncgi_timeout: 500ms\n"
	    "cgi_max_output: 64K\ncgi_max_programs: 2\n");
	STR_EQ(c.cgi, "cgi-bin", "cgi");
	INT_EQ(c.cgi_timeout_ms, 500, "cgi_timeout");
	INT_EQ(c.cgi_max_output, 64 << 10, "cgi_max_output");
	INT_EQ(c.cgi_max_programs, 2, "cgi_max_programs");
	config_free(&c);
	expect_ok(&c, "cgi: cgi-bin/\n");
	STR_EQ(c.cgi, "cgi-bin", "cgi: a trailing slash is the same");
	config_free(&c);
	expect_ok(&c, "cgi: ~\n");
	STR_EQ(c.cgi, NULL, "cgi: ~ is off");
	config_free(&c);
	expect_err("cgi: /cgi-bin\n", "1:6: cgi: expected a directory name"
	    " such as cgi-bin (letters, digits, '-', '_', '.' not first), got"
	    " '/cgi-bin'");
	expect_err("cgi: a/b\n", "1:6: cgi: expected a directory name such as"
	    " cgi-bin (letters, digits, '-', '_', '.' not first), got 'a/b'");
	expect_err("cgi: a//\n", "1:6: cgi: expected a directory name such as"
	    " cgi-bin (letters, digits, '-', '_', '.' not first), got 'a//'");
	expect_err("cgi: ..\n", "1:6: cgi: expected a directory name such as"
	    " cgi-bin (letters, digits, '-', '_', '.' not first), got '..'");
	expect_err("cgi: files\n", "1:6: cgi: 'files' is a path the server"
	    " answers itself");
	/* One table of such names (core/layout.c), any case. */
	expect_err("cgi: Files\n", "1:6: cgi: 'Files' is a path the server"
	    " answers itself");
	expect_err("cgi: index\n", "1:6: cgi: 'index' is a path the server"
	    " answers itself");
	expect_err("cgi: caps.txt\n", "1:6: cgi: 'caps.txt' is a path the "
	    "server answers itself");
	expect_err("cgi_max_programs: 0\n", "1:19: cgi_max_programs: 0 is out"
	    " of range (1 to 1000)");
	/*
	 * A static root that is the CGI directory would serve the programs'
	 * sources: refused at the later key, in either order, per host too.
	 */
	expect_err("root: cgi-bin\ncgi: cgi-bin\n", "2:6: cgi: 'cgi-bin' is "
	    "also the root: the programs would be served as files");
	expect_err("cgi: cgi-bin/\nroot: cgi-bin\n", "2:7: root: 'cgi-bin' is "
	    "also the cgi directory: the programs would be served as files");
	expect_err("cgi: cgi-bin\nroot: CGI-BIN\n", "2:7: root: 'CGI-BIN' is "
	    "also the cgi directory: the programs would be served as files");
	expect_err("cgi: progs\nhosts:\n  - hostname: b\n    root: progs\n",
	    "4:11: root: 'progs' is also the cgi directory of b: the "
	    "programs would be served as files");
	expect_err("hosts:\n  - {hostname: b, root: progs}\ncgi: progs\n",
	    "3:6: cgi: 'progs' is also the root of b: the programs would be "
	    "served as files");
	expect_err("root: site\nhosts:\n  - {hostname: b, cgi: site}\n",
	    "3:24: cgi: 'site' is also the root of b: the programs would be "
	    "served as files");
	/* A host that sets either of its own is checked as itself. */
	expect_ok(&c, "root: site\ncgi: cgi-bin\nhosts:\n"
	    "  - {hostname: b, root: cgi-bin, cgi: programs}\n");
	config_free(&c);
}

/*
 * Entries are tables of the same engine: every key validated, a repeated
 * one refused with its place, in fastcgi, scgi, proxy, mime_types and
 * path_meta alike (they used to overwrite, or check on their own).
 */
static void
test_entries(void)
{
	expect_err("fastcgi:\n  - prefix: /a\n    socket: 'unix:/s'\n"
	    "    prefix: /b\n", "4:5: fastcgi: duplicate key 'prefix'");
	expect_err("scgi: [{prefix: /a, socket: 'unix:/s', socket: "
	    "'unix:/t'}]\n", "1:40: scgi: duplicate key 'socket'");
	expect_err("proxy:\n  - {prefix: /p, backend: 'h:1', sni: a.example, "
	    "sni: b.example}\n", "2:50: proxy: duplicate key 'sni'");
	expect_err("scgi: [{prefix: /a, socket: 'unix:/s', params: {A: 1, "
	    "A: 2}}]\n", "1:55: scgi: params: 'A' is listed twice");
	expect_err("mime_types: {gmi: text/gemini, gmi: text/plain}\n",
	    "1:32: mime_types: 'gmi' is listed twice");
	expect_err("path_meta: [{path: /fr, lang: fr, lang: en}]\n",
	    "1:35: path_meta: duplicate key 'lang'");
	expect_err("cert_zones: [{path: /a, ca: /x, path: /b}]\n",
	    "1:33: cert_zones: duplicate key 'path'");
	/* host: is a host name now, validated as the top-level one. */
	expect_err("fastcgi: [{prefix: /a, socket: 'unix:/s', host: 'a b'}]\n",
	    "1:49: fastcgi: host: expected a host name, got 'a b'");
	expect_err("proxy: [{host: a..b, backend: 'h:1'}]\n",
	    "1:16: proxy: host: expected a host name, got 'a..b'");
	expect_err("proxy: [{host: a.example, backend: 'h:1', sni: 'x y'}]\n",
	    "1:48: proxy: sni: expected a host name, got 'x y'");
	/* The kind's keys only: a proxy has no socket, fastcgi no backend. */
	expect_err("proxy: [{prefix: /p, socket: 'unix:/s'}]\n",
	    "1:22: proxy: unknown key 'socket'");
	expect_err("fastcgi: [{prefix: /p, backend: 'h:1'}]\n",
	    "1:24: fastcgi: unknown key 'backend'");
	expect_err("fastcgi: [{prefix: /p, socket: [a]}]\n",
	    "1:32: fastcgi: socket: expected a string, got a list");
	expect_err("fastcgi: [{prefix: /p, socket: 'unix:/s', "
	    "max_connections: lots}]\n",
	    "1:60: fastcgi: max_connections: expected an integer, got 'lots'");
}

/* userdirs and its UID range; not with chroot (homes are out of it). */
static void
test_userdirs(void)
{
	struct config	 c;

	expect_ok(&c, "");
	STR_EQ(c.userdirs, NULL, "userdirs: off by default");
	INT_EQ(c.userdirs_uid_min, 1000, "userdirs_uid_min default");
	INT_EQ(c.userdirs_uid_max, 60000, "userdirs_uid_max default");
	OK(c.base == NULL && !c.owned, "the file's view has no base, no owner");
	config_free(&c);
	expect_ok(&c, "userdirs: public_gemini/\nuserdirs_uid_min: 500\n"
	    "userdirs_uid_max: 999\n");
	STR_EQ(c.userdirs, "public_gemini", "userdirs, slash dropped");
	INT_EQ(c.userdirs_uid_min, 500, "userdirs_uid_min");
	INT_EQ(c.userdirs_uid_max, 999, "userdirs_uid_max");
	config_free(&c);
	expect_ok(&c, "userdirs: ~\n");
	STR_EQ(c.userdirs, NULL, "userdirs: ~ is off");
	config_free(&c);
	expect_err("userdirs: ../etc\n", "1:11: userdirs: expected a directory"
	    " name such as public_gemini (letters, digits, '-', '_', '.' not"
	    " first), got '../etc'");
	expect_err("userdirs: .hidden\n", "1:11: userdirs: expected a"
	    " directory name such as public_gemini (letters, digits, '-', '_',"
	    " '.' not first), got '.hidden'");
	expect_err("userdirs: pub\nchroot: /var/empty\n", "1:11: userdirs: "
	    "users' home directories are out of reach in the chroot "
	    "/var/empty; use one or the other");
	expect_err("userdirs_uid_max: 10\n", "1:19: userdirs_uid_min: 1000 is "
	    "above userdirs_uid_max (10)");
	expect_err("userdirs_uid_min: 10\nuserdirs_uid_max: 9\n", "1:19: "
	    "userdirs_uid_min: 10 is above userdirs_uid_max (9)");
}

/* log_peer, redirects, robots: the operators' keys. */
static void
test_peer_redirects_robots(void)
{
	struct config	 c;
	char		*big;
	size_t		 i;
	int		 status;

	expect_ok(&c, "log_peer: anonymise\n");
	INT_EQ(c.log_peer, LOG_PEER_ANONYMISE, "anonymise");
	config_free(&c);
	expect_ok(&c, "log_peer: Anonymize\n");
	INT_EQ(c.log_peer, LOG_PEER_ANONYMISE, "American spelling");
	config_free(&c);
	expect_ok(&c, "log_peer: none\n");
	INT_EQ(c.log_peer, LOG_PEER_NONE, "none");
	config_free(&c);
	expect_ok(&c, "log_peer: FULL\n");
	INT_EQ(c.log_peer, LOG_PEER_FULL, "full");
	config_free(&c);
	expect_err("log_peer: hash\n",
	    "1:11: log_peer: expected full, anonymise or none, got 'hash'");
	expect_err("log_peer: [full]\n",
	    "1:11: log_peer: expected full, anonymise or none, got a list");

	/* A block mapping, kept sorted; looked up exactly. */
	expect_ok(&c, "redirects:\n"
	    "  /posts/old-name: /posts/new-name\n"
	    "  /wiki: gemini://wiki.example.org/start?x=1\n"
	    "  \"/caf\\u00e9\": /cafe\n"
	    "  /blog/: /posts/\n");
	INT_EQ(c.nredirects, 4, "four redirects");
	/* A pair is one block: to follows from's NUL (config.h). */
	for (i = 0; i < c.nredirects; i++)
		OK(c.redirects[i].to == c.redirects[i].from +
		    strlen(c.redirects[i].from) + 1, "redirect %zu: one block",
		    i);
	for (i = 1; i < c.nredirects; i++)
		OK(strcmp(c.redirects[i - 1].from, c.redirects[i].from) < 0,
		    "sorted at %zu", i);
	STR_EQ(config_redirect(&c, "/posts/old-name", NULL), "/posts/new-name",
	    "path target");
	STR_EQ(config_redirect(&c, "/wiki", NULL),
	    "gemini://wiki.example.org/start?x=1", "URL target");
	STR_EQ(config_redirect(&c, "/caf\xc3\xa9", NULL), "/cafe", "UTF-8 key");
	STR_EQ(config_redirect(&c, "/blog/", NULL), "/posts/",
	    "trailing slash");
	STR_EQ(config_redirect(&c, "/blog", NULL), NULL, "exact match only");
	STR_EQ(config_redirect(&c, "/posts/old-name/", NULL), NULL, "exact");
	STR_EQ(config_redirect(&c, "/", NULL), NULL, "not listed");
	config_free(&c);

	/* Temporary ones (30) in a group of their own, beside permanent. */
	expect_ok(&c, "redirects:\n"
	    "  /old: /new\n"
	    "  temporary:\n"
	    "    /today: /posts/today\n"
	    "    /away: gemini://example.org/\n"
	    "  permanent: {/gone: /here}\n");
	INT_EQ(c.nredirects, 4, "groups: four redirects");
	for (i = 1; i < c.nredirects; i++)
		OK(strcmp(c.redirects[i - 1].from, c.redirects[i].from) < 0,
		    "groups: sorted at %zu", i);
	status = 0;
	STR_EQ(config_redirect(&c, "/today", &status), "/posts/today",
	    "temporary target");
	INT_EQ(status, 30, "temporary: 30");
	STR_EQ(config_redirect(&c, "/away", &status), "gemini://example.org/",
	    "temporary URL");
	INT_EQ(status, 30, "temporary URL: 30");
	STR_EQ(config_redirect(&c, "/old", &status), "/new", "ungrouped");
	INT_EQ(status, 31, "ungrouped: permanent");
	STR_EQ(config_redirect(&c, "/gone", &status), "/here", "permanent");
	INT_EQ(status, 31, "permanent group: 31");
	status = 0;
	STR_EQ(config_redirect(&c, "/temporary", &status), NULL,
	    "a group's name is no path");
	INT_EQ(status, 0, "status untouched when not listed");
	config_free(&c);
	expect_ok(&c, "redirects: {temporary: ~}\n");
	INT_EQ(c.nredirects, 0, "an empty group");
	config_free(&c);
	expect_err("redirects:\n  temporary: /a\n", "2:14: redirects:"
	    " temporary: expected a mapping of old paths to new ones, got a"
	    " single value");
	expect_err("redirects:\n  /a: /b\n  temporary:\n    /a: /c\n",
	    "4:5: redirects: '/a' is listed twice");
	expect_err("redirects:\n  temporary:\n    permanent: {/a: /b}\n",
	    "3:5: redirects: temporary: expected a path such as /old/name (one"
	    " line, at most 1024 bytes, no . or .. segments), got 'permanent'");
	expect_err("redirects:\n  temporary:\n    /a: new\n", "3:9:"
	    " redirects: temporary: expected a path (/new/name) or an absolute"
	    " URL (gemini://host/name), at most 1024 bytes without spaces, got"
	    " 'new'");

	expect_ok(&c, "redirects: {/a: /b, /c: 'gopher://h:70/1/'}\n");
	INT_EQ(c.nredirects, 2, "flow mapping");
	STR_EQ(config_redirect(&c, "/c", NULL), "gopher://h:70/1/", "flow");
	config_free(&c);
	expect_ok(&c, "redirects:\n");
	INT_EQ(c.nredirects, 0, "null: none");
	STR_EQ(config_redirect(&c, "/a", NULL), NULL, "none");
	config_free(&c);
	expect_ok(&c, "redirects: {}\n");
	INT_EQ(c.nredirects, 0, "empty mapping");
	config_free(&c);

	expect_err("redirects: /a\n", "1:12: redirects: expected a mapping of"
	    " old paths to new ones, got a single value");
	expect_err("redirects: [/a]\n", "1:12: redirects: expected a mapping"
	    " of old paths to new ones, got a list");
	expect_err("redirects:\n  old: /new\n", "2:3: redirects: expected a"
	    " path such as /old/name (one line, at most 1024 bytes, no . or"
	    " .. segments), got 'old'");
	expect_err("redirects:\n  /a/../b: /new\n", "2:3: redirects: expected"
	    " a path such as /old/name (one line, at most 1024 bytes, no . or"
	    " .. segments), got '/a/../b'");
	expect_err("redirects:\n  /a/.: /new\n", "2:3: redirects: expected a"
	    " path such as /old/name (one line, at most 1024 bytes, no . or"
	    " .. segments), got '/a/.'");
	expect_err("redirects:\n  /a: /b\n  /a: /c\n",
	    "3:3: redirects: '/a' is listed twice");
	expect_err("redirects:\n  /a:\n", "2:6: redirects: /a: a target is"
	    " required");
	expect_err("redirects:\n  /a: new\n", "2:7: redirects: expected a"
	    " path (/new/name) or an absolute URL (gemini://host/name), at"
	    " most 1024 bytes without spaces, got 'new'");
	expect_err("redirects:\n  /a: /b c\n", "2:7: redirects: expected a"
	    " path (/new/name) or an absolute URL (gemini://host/name), at"
	    " most 1024 bytes without spaces, got '/b c'");
	expect_err("redirects:\n  /a: '1x:y'\n", "2:7: redirects: expected a"
	    " path (/new/name) or an absolute URL (gemini://host/name), at"
	    " most 1024 bytes without spaces, got '1x:y'");
	expect_err("redirects:\n  /a: [/b]\n",
	    "2:7: redirects: expected a path or a URL, got a list");
	expect_err("redirects:\n  [/a]: /b\n",
	    "2:3: redirects: expected a key, got a list");
	expect_err("redirects:\n  /same: /same\n",
	    "2:10: redirects: '/same' redirects to itself");

	/* robots: a block of text, or nothing. */
	expect_ok(&c, "robots: |\n  User-agent: archiver\n  Disallow: /\n"
	    "\n  User-agent: *\n  Disallow: /files/\n");
	STR_EQ(robots_text(&c), "User-agent: archiver\nDisallow: /\n\n"
	    "User-agent: *\nDisallow: /files/\n", "robots block");
	config_free(&c);
	expect_ok(&c, "robots: ~\n");
	STR_EQ(robots_text(&c), NULL, "robots off");
	config_free(&c);
	expect_ok(&c, "robots: ''\n");
	STR_EQ(robots_text(&c), NULL, "robots empty: off");
	config_free(&c);
	expect_err("robots: \"a\\x01b\"\n", "1:9: robots: control characters"
	    " other than tab and line end are not allowed");
	expect_err("robots: [a]\n",
	    "1:9: robots: expected a block of text or rules, got a list");
	big = xmalloc(70000 + 16);
	memcpy(big, "robots: ", 8);
	memset(big + 8, 'a', 70000);
	memcpy(big + 8 + 70000, "\n", 2);
	expect_err(big, "1:9: robots: longer than 65536 bytes");
	free(big);
}

static void
test_files(void)
{
	struct config	 c;
	char		 err[512], *want, small[16];
	char		*missing = xasprintf("%s/missing.yaml", tmp);

	memset(&c, 0xA5, sizeof(c));
	INT_EQ(config_load(&c, missing, err, sizeof(err)), -1, "missing");
	want = xasprintf("%s: No such file or directory", missing);
	STR_EQ(err, want, "missing file");
	OK(is_zero(&c), "missing file: struct reset");
	free(want);

	INT_EQ(config_load(&c, tmp, err, sizeof(err)), -1, "directory");
	want = xasprintf("%s: Is a directory", tmp);
	STR_EQ(err, want, "directory");
	free(want);
	free(missing);

	/* A short buffer gets a truncated, terminated message. */
	INT_EQ(config_load_buffer(&c, "abc.yaml", "foo: 1\n", 7, small,
	    sizeof(small)), -1, "short err");
	STR_EQ(small, "abc.yaml:1:1: u", "truncated message");
	INT_EQ(config_load_buffer(&c, "a-very-long-name.yaml", "x: 1", 4,
	    small, sizeof(small)), -1, "name longer than err");
	INT_EQ(strlen(small), sizeof(small) - 1, "terminated");
	INT_EQ(config_load_buffer(&c, "a.yaml", "x: 1", 4, NULL, 0), -1,
	    "no err buffer");
	INT_EQ(config_load_buffer(&c, "a.yaml", "", 0, NULL, 0), 0,
	    "empty buffer");
	config_free(&c);
	INT_EQ(config_load_buffer(&c, "a.yaml", NULL, 0, err, sizeof(err)), 0,
	    "NULL buffer");
	STR_EQ(c.hostname, "localhost", "NULL buffer: defaults");
	config_free(&c);
}

static void
test_repo_config(void)
{
	struct config	 c;
	char		 err[512], top[PATH_MAX];
	const char	*env = getenv("CAPSULED_TOP");
	char		*path;

	path = env != NULL ? xasprintf("%s/config/capsuled.yaml", env) :
	    xstrdup("config/capsuled.yaml");
	if (realpath(env != NULL ? env : ".", top) == NULL) {
		OK(0, "realpath of the top directory: %s", strerror(errno));
		free(path);
		return;
	}
	err[0] = '\0';
	INT_EQ(config_load(&c, path, err, sizeof(err)), 0,
	    "config/capsuled.yaml loads");
	OK(err[0] == '\0', "config/capsuled.yaml: %s", err);
	if (c.path != NULL) {
		check_defaults(&c, top, "config/capsuled.yaml");
		STR_EQ(c.site_title, "capsuled sample capsule", "sample title");
		OK(c.author != NULL && c.author[0] != '\0', "sample author");
	}
	config_free(&c);
	free(path);
}

/* The hardening keys at their defaults. */
static void
check_hardening_defaults(const struct config *c, const char *what)
{
	INT_EQ(c->handshake_timeout_ms, 5000, what);
	INT_EQ(c->max_conns_per_ip, 32, what);
	INT_EQ(c->rate_limit_milli, 20000, what);
	INT_EQ(c->rate_burst, 100, what);
	INT_EQ(c->max_post_size, 8 << 20, what);
	INT_EQ(c->max_archive_size, 1LL << 30, what);
	INT_EQ(c->follow_symlinks, CONFIG_LINKS_INSIDE, what);
	INT_EQ(c->files_hardlinks, 0, what);
	INT_EQ(c->listings, 1, what);
	STR_EQ(c->user, NULL, what);
	STR_EQ(c->chroot_dir, NULL, what);
	INT_EQ(c->allow_root, 0, what);
	INT_EQ(c->ticket_rotation_ms, 12 * 3600 * 1000, what);
}

static void
test_hardening(void)
{
	struct config	 c;
	char		 err[512], *path, *want;
	const char	*env = getenv("CAPSULED_TOP");

	expect_ok(&c, "");
	check_hardening_defaults(&c, "hardening defaults");
	config_free(&c);
	path = env != NULL ? xasprintf("%s/config/capsuled.yaml", env) :
	    xstrdup("config/capsuled.yaml");
	if (config_load(&c, path, err, sizeof(err)) == 0) {
		check_hardening_defaults(&c, "config/capsuled.yaml");
		config_free(&c);
	} else
		OK(0, "%s", err);
	free(path);

	expect_ok(&c, "handshake_timeout: 1.5\n"
	    "max_connections_per_ip: 0\n"
	    "rate_limit: 0.5\n"
	    "rate_burst: 1\n"
	    "max_post_size: 512K\n"
	    "max_archive_size: \"2 GiB\"\n"
	    "follow_symlinks: true\n"
	    "files_hardlinks: true\n"
	    "listings: off\n"
	    "user: _gemini-1.x\n"
	    "chroot: ../jail/.\n"
	    "allow_root: yes\n"
	    "ticket_rotation: 1.5h\n");
	INT_EQ(c.handshake_timeout_ms, 1500, "handshake_timeout");
	INT_EQ(c.max_conns_per_ip, 0, "per-ip off");
	INT_EQ(c.rate_limit_milli, 500, "rate 0.5/s");
	INT_EQ(c.rate_burst, 1, "burst");
	INT_EQ(c.max_post_size, 512 << 10, "512K");
	INT_EQ(c.max_archive_size, 2LL << 30, "2 GiB");
	INT_EQ(c.follow_symlinks, CONFIG_LINKS_ANY, "follow any");
	INT_EQ(c.files_hardlinks, 1, "files_hardlinks");
	INT_EQ(c.listings, 0, "listings off");
	STR_EQ(c.user, "_gemini-1.x", "user");
	want = xasprintf("%s/jail", tmp);
	STR_EQ(c.chroot_dir, want, "chroot relative to the config dir");
	free(want);
	INT_EQ(c.allow_root, 1, "allow_root");
	INT_EQ(c.ticket_rotation_ms, 5400000, "1.5h");
	config_free(&c);

	expect_ok(&c, "rate_limit: 30/s\nmax_post_size: 1048576\n"
	    "max_archive_size: 1 t\nfollow_symlinks: never\nuser: ~\n"
	    "chroot:\nticket_rotation: 60\n");
	INT_EQ(c.rate_limit_milli, 30000, "30/s");
	INT_EQ(c.max_post_size, 1 << 20, "bytes");
	INT_EQ(c.max_archive_size, 1LL << 40, "1 t");
	INT_EQ(c.follow_symlinks, CONFIG_LINKS_NONE, "never");
	STR_EQ(c.user, NULL, "user ~");
	STR_EQ(c.chroot_dir, NULL, "chroot empty");
	INT_EQ(c.ticket_rotation_ms, 60000, "a minute");
	config_free(&c);
	expect_ok(&c, "rate_limit: off\nfollow_symlinks: Inside\n"
	    "max_post_size: 8MB\n");
	INT_EQ(c.rate_limit_milli, 0, "rate off");
	INT_EQ(c.follow_symlinks, CONFIG_LINKS_INSIDE, "inside");
	INT_EQ(c.max_post_size, 8 << 20, "8MB is 8 MiB");
	config_free(&c);

	expect_err("rate_limit: fast\n", "1:13: rate_limit: expected requests"
	    " per second such as 10 or 0.5, or off, got 'fast'");
	expect_err("rate_limit: 2/m\n", "1:13: rate_limit: expected requests"
	    " per second such as 10 or 0.5, or off, got '2/m'");
	expect_err("rate_limit: 1000001\n",
	    "1:13: rate_limit: 1000001 is out of range (0 to 1000000)");
	expect_err("rate_burst: 0\n",
	    "1:13: rate_burst: 0 is out of range (1 to 1000000)");
	expect_err("max_connections_per_ip: -1\n", "1:25: "
	    "max_connections_per_ip: -1 is out of range (0 to 1000000)");
	expect_err("max_post_size: 1023\n", "1:16: max_post_size: 1023 is"
	    " out of range (1 KiB to 1024 MiB)");
	expect_err("max_post_size: 2G\n", "1:16: max_post_size: 2G is"
	    " out of range (1 KiB to 1024 MiB)");
	expect_err("max_post_size: 8 XB\n", "1:16: max_post_size: expected a"
	    " size such as 8388608, \"512K\" or \"8 MiB\", got '8 XB'");
	expect_err("max_post_size: MiB\n", "1:16: max_post_size: expected a"
	    " size such as 8388608, \"512K\" or \"8 MiB\", got 'MiB'");
	expect_err("max_post_size: -5\n", "1:16: max_post_size: expected a"
	    " size such as 8388608, \"512K\" or \"8 MiB\", got '-5'");
	expect_err("max_archive_size: 99999999999999999999T\n",
	    "1:19: max_archive_size: 99999999999999999999T is out of range"
	    " (1024 KiB to 1048576 MiB)");
	expect_err("follow_symlinks: maybe\n", "1:18: follow_symlinks:"
	    " expected false, true or never, got 'maybe'");
	/* A keyword field names its words alike for a list and a bad word. */
	expect_err("follow_symlinks: [a]\n", "1:18: follow_symlinks:"
	    " expected false, true or never, got a list");
	expect_err("gopher_charset: [a]\n", "1:17: gopher_charset:"
	    " expected utf-8 or ascii, got a list");
	expect_err("user: -root\n", "1:7: user: expected a user name, got"
	    " '-root'");
	expect_err("user: a b\n", "1:7: user: expected a user name, got 'a b'");
	expect_err("user: [a]\n",
	    "1:7: user: expected a string, got a list");
	expect_err("allow_root: 2\n",
	    "1:13: allow_root: expected true or false, got '2'");
	expect_err("ticket_rotation: 59\n", "1:18: ticket_rotation: 59 is"
	    " out of range (60000ms to 604800s)");
	expect_err("ticket_rotation: 169h\n", "1:18: ticket_rotation: 169h is"
	    " out of range (60000ms to 604800s)");
	expect_err("handshake_timeout: 0\n", "1:20: handshake_timeout: 0 is"
	    " out of range (1ms to 86400s)");
	/* Found by fuzz_config: hours overflowed a long long (UBSan). */
	expect_err("request_timeout: 0000030000000000300000000000000.5h\n",
	    "1:18: request_timeout: 0000030000000000300000000000000.5h is out"
	    " of range (1ms to 86400s)");
	expect_err("ticket_rotation: 99999999999999999999999h\n",
	    "1:18: ticket_rotation: 99999999999999999999999h is out of range"
	    " (60000ms to 604800s)");
}

/* Live editing: watch, watch_debounce, cache_max_bytes. */
static void
test_live(void)
{
	struct config	 c;
	char		 err[512], *path;
	const char	*env = getenv("CAPSULED_TOP");

	expect_ok(&c, "");
	INT_EQ(c.watch, 1, "watch on by default");
	INT_EQ(c.watch_debounce_ms, 100, "debounce 100 ms");
	INT_EQ(c.cache_max_bytes, 64 << 20, "cache 64 MiB");
	config_free(&c);
	path = env != NULL ? xasprintf("%s/config/capsuled.yaml", env) :
	    xstrdup("config/capsuled.yaml");
	if (config_load(&c, path, err, sizeof(err)) == 0) {
		INT_EQ(c.watch, 1, "repo config: watch");
		INT_EQ(c.watch_debounce_ms, 100, "repo config: debounce");
		INT_EQ(c.cache_max_bytes, 64 << 20, "repo config: cache");
		config_free(&c);
	} else
		OK(0, "%s", err);
	free(path);

	expect_ok(&c, "watch: false\nwatch_debounce: 250ms\n"
	    "cache_max_bytes: 16 MiB\n");
	INT_EQ(c.watch, 0, "watch off");
	INT_EQ(c.watch_debounce_ms, 250, "250ms");
	INT_EQ(c.cache_max_bytes, 16 << 20, "16 MiB");
	config_free(&c);
	expect_ok(&c, "watch: yes\nwatch_debounce: 0\ncache_max_bytes: 0\n");
	INT_EQ(c.watch, 1, "watch yes");
	INT_EQ(c.watch_debounce_ms, 0, "debounce 0: next loop turn");
	INT_EQ(c.cache_max_bytes, 0, "0: no limit");
	config_free(&c);
	expect_ok(&c, "watch: \" Off \"\n");	/* blanks around: yaml.h */
	INT_EQ(c.watch, 0, "watch ' Off '");
	config_free(&c);
	expect_ok(&c, "watch_debounce: 1.5\ncache_max_bytes: 1048576\n");
	INT_EQ(c.watch_debounce_ms, 1500, "1.5 s");
	INT_EQ(c.cache_max_bytes, 1 << 20, "bytes");
	config_free(&c);

	expect_err("watch: sometimes\n",
	    "1:8: watch: expected true or false, got 'sometimes'");
	expect_err("watch_debounce: 11\n",
	    "1:17: watch_debounce: 11 is out of range (0ms to 10s)");
	expect_err("watch_debounce: -1\n",
	    "1:17: watch_debounce: must not be negative");
	expect_err("cache_max_bytes: lots\n",
	    "1:18: cache_max_bytes: expected a size such as 8388608, "
	    "\"512K\" or \"8 MiB\", got 'lots'");
	expect_err("cache_max_bytes: 2T\n",
	    "1:18: cache_max_bytes: 2T is out of range (0 KiB to 1048576 "
	    "MiB)");
}

/* "hosts": more names on the Gemini port (SNI), each with a capsule. */
static void
test_hosts(void)
{
	struct config	 c, v;
	char		 want[PATH_MAX + 64];

	expect_ok(&c, "hostname: First.Example\n"
	    "hosts:\n"
	    "  - hostname: Second.Example\n"
	    "    capsule: ../two\n"
	    "    certs: /srv/certs-two\n"
	    "    title: Second Site\n"
	    "    subtitle: Notes\n"
	    "    author: Bea\n"
	    "    lang: de\n"
	    "  - { hostname: third.example }\n"
	    "capsule: ../one\n"
	    "title: First Site\n");
	INT_EQ(c.nhosts, 2, "two more hosts");
	INT_EQ(config_nhosts(&c), 3, "three in all");
	if (c.nhosts == 2) {
		STR_EQ(c.hosts[0].site->hostname, "second.example", "lower case");
		snprintf(want, sizeof(want), "%s/two", tmp);
		STR_EQ(c.hosts[0].site->capsule_dir, want, "capsule from confdir");
		STR_EQ(c.hosts[0].site->cert_dir, "/srv/certs-two", "certs");
		STR_EQ(c.hosts[0].site->site_title, "Second Site", "title");
		STR_EQ(c.hosts[0].site->lang, "de", "lang");
		/* Omitted: the top-level capsule (given after "hosts"). */
		snprintf(want, sizeof(want), "%s/one", tmp);
		STR_EQ(c.hosts[1].site->capsule_dir, want, "capsule inherited");
		snprintf(want, sizeof(want), "%s/certs/third.example", tmp);
		STR_EQ(c.hosts[1].site->cert_dir, want,
		    "certs default: <certs>/<hostname>");
		OK(c.hosts[1].site->site_title == NULL, "title not given");
	}
	config_host_view(&c, 0, &v);
	STR_EQ(v.hostname, "first.example", "view 0: top level");
	STR_EQ(v.site_title, "First Site", "view 0 title");
	OK(v.hosts == NULL && v.nhosts == 0, "a view has no hosts");
	config_host_view(&c, 1, &v);
	STR_EQ(v.hostname, "second.example", "view 1 name");
	STR_EQ(v.site_title, "Second Site", "view 1 title");
	STR_EQ(v.site_subtitle, "Notes", "view 1 subtitle");
	STR_EQ(v.author, "Bea", "view 1 author");
	STR_EQ(v.lang, "de", "view 1 lang");
	INT_EQ(v.port[SURFACE_GEMINI], c.port[SURFACE_GEMINI], "view 1 shares the rest");
	config_host_view(&c, 2, &v);
	STR_EQ(v.hostname, "third.example", "view 2 name");
	STR_EQ(v.site_title, "First Site", "view 2: the top-level title");
	STR_EQ(v.lang, "en", "view 2: the top-level lang");
	config_free(&c);

	expect_ok(&c, "hosts:\n");
	INT_EQ(c.nhosts, 0, "hosts: null");
	config_free(&c);
	expect_ok(&c, "hosts: []\n");
	INT_EQ(c.nhosts, 0, "hosts: []");
	config_free(&c);

	expect_err("hosts:\n  - hostname: b.example\n"
	    "  - hostname: B.Example\n",
	    "3:15: hosts: b.example is listed twice");
	expect_err("hostname: a.example\nhosts:\n  - hostname: A.example\n",
	    "3:15: hosts: a.example is the top-level hostname already");
	expect_err("hosts:\n  - hostname: localhost\n",
	    "2:15: hosts: localhost is the top-level hostname already");
	expect_err("hosts:\n  - capsule: x\n",
	    "2:5: hosts: every item needs a hostname");
	expect_err("hosts:\n  - hostname: b\n    port: 3\n",
	    "3:5: hosts: unknown key 'port'");
	expect_err("hosts:\n  - hostname: b\n    hostname: c\n",
	    "3:5: hosts: duplicate key 'hostname'");
	expect_err("hosts:\n  - hostname: 'a b'\n",
	    "2:15: hosts: hostname: expected a host name, got 'a b'");
	expect_err("hosts:\n  - b.example\n",
	    "2:5: hosts: expected a mapping with a hostname, got a single "
	    "value");
	expect_err("hosts: b.example\n",
	    "1:8: hosts: expected a list of hosts, got a single value");
	expect_err("hosts:\n  - hostname: b\n    lang: '--'\n",
	    "3:11: hosts: lang: expected a language tag like en or pt-BR, got"
	    " '--'");
}

/*
 * config_set(): one key from a command line (serve --title), read as
 * the file's key is; a refusal leaves the value as it was.
 */
static void
test_set(void)
{
	struct config	 c;
	char		 err[256];

	config_defaults(&c, tmp);
	INT_EQ(config_set(&c, "title", "Ann's \"notes\": #1 - [x]", err,
	    sizeof(err)), 0, "title with quotes and YAML's bytes");
	STR_EQ(c.site_title, "Ann's \"notes\": #1 - [x]", "as given");
	INT_EQ(config_set(&c, "gopher_charset", "US-ASCII", err, sizeof(err)),
	    0, "gopher_charset");
	INT_EQ(c.gopher_charset, CONFIG_CHARSET_ASCII, "its other spelling");
	INT_EQ(config_set(&c, "gopher_charset", "latin1", err, sizeof(err)),
	    -1, "a bad value");
	STR_EQ(err, "gopher_charset: expected utf-8 or ascii, got 'latin1'",
	    "the file's wording, without a place");
	INT_EQ(c.gopher_charset, CONFIG_CHARSET_ASCII, "the value kept");
	INT_EQ(config_set(&c, "title", "", err, sizeof(err)), -1, "empty");
	STR_EQ(err, "title: must not be empty", "why");
	STR_EQ(c.site_title, "Ann's \"notes\": #1 - [x]", "the title kept");
	config_free(&c);
}

static const struct harness_test tests[] = {
	TEST(test_defaults),
	TEST(test_set),
	TEST(test_full),
	TEST(test_bind_forms),
	TEST(test_paths),
	TEST(test_errors),
	TEST(test_peer_redirects_robots),
	TEST(test_cgi),
	TEST(test_entries),
	TEST(test_userdirs),
	TEST(test_titan),
	TEST(test_feed_and_aliases),
	TEST(test_files),
	TEST(test_repo_config),
	TEST(test_hardening),
	TEST(test_live),
	TEST(test_hosts),
	TEST(test_fleet),
};

int
main(int argc, char **argv)
{
	char	 tmpl[] = "/tmp/test_config.XXXXXX", *etc;

	HARNESS_INIT(argc, argv, tests);

	if (mkdtemp(tmpl) == NULL || realpath(tmpl, tmp) == NULL) {
		perror("mkdtemp");
		return 1;
	}
	etc = xasprintf("%s/etc", tmp);
	mkdir(etc, 0700);
	snprintf(conf, sizeof(conf), "%s/c.yaml", etc);

	harness_run();

	unlink(conf);
	rmdir(etc);
	free(etc);
	if (rmdir(tmp) == -1)
		perror(tmp);
	return harness_done();
}
