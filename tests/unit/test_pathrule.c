/*
 * test_pathrule.c -- the path-rule matcher (core/pathrule.c): a table
 * of rule sets and paths (prefixes segment by segment, exact rules,
 * '*' in a segment and at the end, runs of '/', decoded bytes, the tie
 * rule, a host's rule over everyone's, captures, no match); the index
 * against a plain scan of every rule on a few thousand random paths;
 * and the matcher at work in its adopters (redirects, fastcgi/scgi/
 * proxy prefixes, path_meta, the CGI directory).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "core/buf.h"
#include "core/config.h"
#include "core/config_apps.h"
#include "core/config_types.h"
#include "core/layout.h"
#include "core/pathrule.h"
#include "core/redirect.h"
#include "harness.h"

#define MAX_RULES	600

/* An entry of a test set: the rule first, as pathrule_index() wants. */
struct entry {
	struct pathrule	 rule;
	char		 text[64];
	char		 host[32];
};

static struct entry	 set[MAX_RULES];
static size_t		 nset;

/*
 * Fill set from rules: words split at ' ', each "[host:][=]text" ('='
 * for PATHRULE_EXACT, "-" for the empty text).
 */
static void
make(const char *rules)
{
	const char	*w = rules, *colon, *end;
	struct entry	*e;
	unsigned	 flags;

	for (nset = 0; *w != '\0'; w = *end == ' ' ? end + 1 : end) {
		end = w + strcspn(w, " ");
		e = &set[nset++];
		memset(e, 0, sizeof(*e));
		colon = memchr(w, ':', (size_t)(end - w));
		if (colon != NULL) {
			snprintf(e->host, sizeof(e->host), "%.*s",
			    (int)(colon - w), w);
			w = colon + 1;
		}
		flags = *w == '=' ? PATHRULE_EXACT : 0;
		w += *w == '=';
		if (!(end - w == 1 && *w == '-'))
			snprintf(e->text, sizeof(e->text), "%.*s",
			    (int)(end - w), w);
		pathrule_compile(&e->rule, e->text, flags,
		    colon != NULL ? e->host : NULL);
	}
	pathrule_index(set, nset, sizeof(set[0]));
}

/* The captures of m joined by '|'. */
static const char *
caps(const struct pathrule_match *m)
{
	static char	 out[256];
	size_t		 i, o = 0;

	out[0] = '\0';
	for (i = 0; i < m->ncap && i < PATHRULE_CAPS; i++)
		o += (size_t)snprintf(out + o, sizeof(out) - o, "%s%.*s",
		    i > 0 ? "|" : "", (int)m->caplen[i], m->cap[i]);
	return out;
}

static void
test_table(void)
{
	static const struct {
		const char	*rules;
		const char	*host;
		const char	*path;
		int		 win;	/* the entry that wins, -1: none */
		const char	*caps;	/* captures joined by '|' */
		const char	*rest;	/* NULL: not checked */
	} t[] = {
		/* Prefixes: whole segments, the trailing '/' no matter. */
		{ "/family", NULL, "/family", 0, "", "" },
		{ "/family", NULL, "/family/x/y", 0, "", "/x/y" },
		{ "/family", NULL, "/familyx", -1, "", NULL },
		{ "/family/", NULL, "/family", 0, "", "" },
		{ "/family/", NULL, "/fam", -1, "", NULL },
		{ "/app/", NULL, "/app/x", 0, "", "/x" },
		{ "/app", NULL, "/apple", -1, "", NULL },
		{ "/fr/old", NULL, "/fr", -1, "", NULL },
		{ "/", NULL, "/x", 0, "", "/x" },
		{ "-", NULL, "/", 0, "", "/" },
		{ "/", NULL, "", -1, "", NULL },
		{ "/", NULL, "x", -1, "", NULL },
		/* Runs of '/', in the path and in the rule, are one. */
		{ "/family", NULL, "//family//x", 0, "", "//x" },
		{ "/a//b", NULL, "/a/b/c", 0, "", "/c" },
		{ "/a/b", NULL, "/a///b", 0, "", "" },
		{ "/club", NULL, "/club/", 0, "", "/" },
		{ "=/blog/", NULL, "/blog//", 0, "", "" },
		/* Exact rules: the path itself, its slash counting. */
		{ "=/blog/", NULL, "/blog", -1, "", NULL },
		{ "=/blog", NULL, "/blog/", -1, "", NULL },
		{ "=/blog", NULL, "/blog/x", -1, "", NULL },
		/* A final '*': the rest, '/' and all, maybe empty. */
		{ "=/old/*", NULL, "/old", -1, "", NULL },
		{ "=/old/*", NULL, "/old/", 0, "", "" },
		{ "=/old/*", NULL, "/old/x/y", 0, "x/y", "x/y" },
		{ "=/old/*", NULL, "/old//x", 0, "x", NULL },
		{ "=/wiki*", NULL, "/wikipedia", 0, "pedia", NULL },
		{ "=/wiki*", NULL, "/wiki/x", 0, "/x", NULL },
		{ "=/wiki*", NULL, "/wiki", 0, "", NULL },
		{ "=/*", NULL, "/any/thing", 0, "any/thing", NULL },
		/* Any other '*': part of one segment. */
		{ "=/blog/*.gmi", NULL, "/blog/x.gmi", 0, "x", "" },
		{ "=/blog/*.gmi", NULL, "/blog/.gmi", 0, "", NULL },
		{ "=/blog/*.gmi", NULL, "/blog/a/x.gmi", -1, "", NULL },
		{ "=/blog/*.gmi", NULL, "/blog/x.gmix", -1, "", NULL },
		{ "=/blog/*.gmi", NULL, "/blog/x.gmi/y", -1, "", NULL },
		{ "/blog/*.gmi", NULL, "/blog/x.gmi/y", 0, "x", "/y" },
		{ "=/users/*/public", NULL, "/users/bob/public", 0, "bob",
		    NULL },
		{ "=/users/*/public", NULL, "/users//public", -1, "", NULL },
		{ "=/a*b*c/x", NULL, "/aXbYc/x", 0, "X|Y", NULL },
		{ "=/a*b*c/x", NULL, "/abc/x", 0, "|", NULL },
		{ "=/a*b*c/x", NULL, "/aXbYbZc/x", 0, "X|YbZ", NULL },
		{ "=/a*b*c/x", NULL, "/aXbY/x", -1, "", NULL },
		{ "=/a*b*", NULL, "/axbz/q", 0, "x|z/q", NULL },
		{ "=/*/*/*", NULL, "/1/2/3/4", 0, "1|2|3/4", NULL },
		/* Bytes as they come: decoding is the URL parser's. */
		{ "=/caf\xc3\xa9/*", NULL, "/caf\xc3\xa9/x", 0, "x", NULL },
		{ "=/caf\xc3\xa9", NULL, "/caf%C3%A9", -1, "", NULL },
		{ "=/a%20b", NULL, "/a b", -1, "", NULL },
		/* The tie rule: the longest; '*' counts nothing. */
		{ "/a /a/b", NULL, "/a/b/c", 1, "", "/c" },
		{ "/a/b /a", NULL, "/a/b/c", 0, "", "/c" },
		{ "/a/b /a", NULL, "/a/bc", 1, "", "/bc" },
		{ "=/blog/* =/blog/", NULL, "/blog/", 1, "", NULL },
		{ "=/blog/* =/blog/about", NULL, "/blog/about", 1, "", NULL },
		{ "=/blog/* =/blog/about", NULL, "/blog/other", 0, "other",
		    NULL },
		{ "=/blog/* =/blog/2019/*", NULL, "/blog/2019/x", 1, "x",
		    NULL },
		{ "/a/* /a/b", NULL, "/a/b/c", 1, "", NULL },
		{ "/a/b/* /a/b", NULL, "/a/b/c", 0, "c", NULL },
		{ "=/a/*/c =/a/b/*", NULL, "/a/b/c", 1, "c", NULL },
		{ "=/a/b/* =/a/*/c", NULL, "/a/b/c", 0, "c", NULL },
		{ "/x /x", NULL, "/x", 0, "", NULL },
		/* A host's rule wins a tie over everyone's, no more. */
		{ "h.example:/a /a", "h.example", "/a/x", 0, "", NULL },
		{ "/a h.example:/a", "h.example", "/a/x", 1, "", NULL },
		{ "/a H.Example:/a", "h.example", "/a/x", 1, "", NULL },
		{ "/a h.example:/a", "other.example", "/a/x", 0, "", NULL },
		{ "/a h.example:/a", NULL, "/a/x", 0, "", NULL },
		{ "h.example:/a", "other.example", "/a", -1, "", NULL },
		{ "h.example:/a /a/b", "h.example", "/a/b", 1, "", NULL },
		/* None. */
		{ "/x /y =/z/*", NULL, "/z", -1, "", NULL },
		{ "fr", NULL, "/fr", -1, "", NULL },
		{ "", NULL, "/x", -1, "", NULL },
	};
	struct pathrule_match	 m;
	const struct entry	*e;
	size_t			 i;
	int			 win;

	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		make(t[i].rules);
		memset(&m, 0, sizeof(m));
		e = pathrule_find(set, nset, sizeof(set[0]), t[i].host,
		    t[i].path, NULL, NULL, &m);
		win = e == NULL ? -1 : (int)(e - set);
		OK(win == t[i].win, "{%s} %s: entry %d won, want %d",
		    t[i].rules, t[i].path, win, t[i].win);
		if (e == NULL || win != t[i].win)
			continue;
		OK(strcmp(caps(&m), t[i].caps) == 0, "{%s} %s: captured "
		    "\"%s\", want \"%s\"", t[i].rules, t[i].path, caps(&m),
		    t[i].caps);
		if (t[i].rest != NULL)
			OK(strcmp(m.rest, t[i].rest) == 0, "{%s} %s: rest "
			    "\"%s\", want \"%s\"", t[i].rules, t[i].path,
			    m.rest, t[i].rest);
		/* The one rule alone says the same. */
		OK(pathrule_match(&e->rule, t[i].path, NULL), "{%s} %s: "
		    "pathrule_match()", t[i].rules, t[i].path);
	}
}

/* Weights as the header's tie rule has them, and a path each holds. */
static void
test_compile(void)
{
	static const struct {
		const char	*rule;
		size_t		 weight;
		const char	*example;
	} t[] = {
		{ "/fr/", 7, "/fr" },		/* "/fr": 3 bytes, no '*' */
		{ "/", 1, "" },			/* "": every path */
		{ "=/blog/", 13, "/blog/" },
		{ "=/blog/*", 12, "/blog/x" },
		{ "=/blog/*.gmi", 20, "/blog/x.gmi" },
		{ "/a//b///", 9, "/a/b" },
	};
	char	 buf[64];
	size_t	 i;

	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		make(t[i].rule);
		INT_EQ(set[0].rule.weight, t[i].weight, t[i].rule);
		OK(pathrule_example(&set[0].rule, buf, sizeof(buf)) == 0 &&
		    strcmp(buf, t[i].example) == 0, "%s: example \"%s\"",
		    t[i].rule, buf);
		if (buf[0] == '/')
			OK(pathrule_match(&set[0].rule, buf, NULL),
			    "%s: holds its example", t[i].rule);
	}
	make("=/a/b/c");
	OK(pathrule_example(&set[0].rule, buf, 6) == -1, "too long");
}

/* A little deterministic randomness (xorshift). */
static unsigned long	 seed = 88172645463325252UL;

static unsigned
rnd(unsigned n)
{
	seed ^= seed << 13;
	seed ^= seed >> 7;
	seed ^= seed << 17;
	return (unsigned)(seed % n);
}

/* A random path or rule over few bytes, so they meet often. */
static void
random_text(char *s, size_t size, int rule)
{
	static const char	 pieces[][4] = { "/", "a", "b", "ab", ".g",
				    "/", "//" };
	size_t			 o = 0, k, n = 1 + rnd(7);

	s[o++] = '/';
	for (k = 0; k < n && o + 4 < size; k++) {
		if (rule && rnd(6) == 0)
			s[o++] = '*';
		else
			o += (size_t)snprintf(s + o, size - o, "%s",
			    pieces[rnd(sizeof(pieces) / sizeof(pieces[0]))]);
	}
	s[o] = '\0';
}

/* The header's tie rule, as a plain scan of every entry. */
static const struct entry *
scan(const char *host, const char *path)
{
	const struct entry	*best = NULL;
	const struct pathrule	*r, *b;
	size_t			 i;
	int			 wins;

	for (i = 0; i < nset; i++) {
		r = &set[i].rule;
		if ((r->host != NULL && (host == NULL ||
		    strcasecmp(r->host, host) != 0)) ||
		    !pathrule_match(r, path, NULL))
			continue;
		if (best == NULL) {
			best = &set[i];
			continue;
		}
		b = &best->rule;
		if (r->weight != b->weight)
			wins = r->weight > b->weight;
		else if ((r->host != NULL) != (b->host != NULL))
			wins = r->host != NULL;
		else
			wins = r->anchor > b->anchor;
		if (wins)
			best = &set[i];
	}
	return best;
}

/* The index finds what a scan of every rule finds, whatever the set. */
static void
test_index(void)
{
	const struct entry	*got, *want;
	const char		*host;
	char			 path[64];
	size_t			 round, i, k, wrong = 0;

	for (round = 0; round < 40; round++) {
		nset = 1 + rnd(round < 20 ? 12 : MAX_RULES);
		for (i = 0; i < nset; i++) {
			memset(&set[i], 0, sizeof(set[i]));
			random_text(set[i].text, sizeof(set[i].text), 1);
			if (rnd(4) == 0)
				snprintf(set[i].host, sizeof(set[i].host),
				    "h%u", rnd(2));
			pathrule_compile(&set[i].rule, set[i].text,
			    rnd(2) ? PATHRULE_EXACT : 0,
			    set[i].host[0] != '\0' ? set[i].host : NULL);
		}
		pathrule_index(set, nset, sizeof(set[0]));
		for (k = 0; k < 200; k++) {
			random_text(path, sizeof(path), 0);
			host = rnd(3) ? "h0" : NULL;
			got = pathrule_find(set, nset, sizeof(set[0]), host,
			    path, NULL, NULL, NULL);
			want = scan(host, path);
			if (got != want && wrong++ < 5)
				OK(0, "round %zu, %zu rules, %s: index %d, "
				    "scan %d", round, nset, path,
				    got ? (int)(got - set) : -1,
				    want ? (int)(want - set) : -1);
		}
	}
	INT_EQ(wrong, 0, "index and scan disagree");
}

/* want: path_meta's filter, here "the entry's host is h1". */
static int
in_h1(const void *entry, void *arg)
{
	const struct entry	*e = entry;

	(void)arg;
	return strcmp(e->host, "h1") == 0;
}

static void
test_want(void)
{
	const struct entry	*e;

	make("h1:/a h0:/a/b h0:/a/b/c");
	e = pathrule_find(set, nset, sizeof(set[0]), NULL, "/a/b/c/d",
	    NULL, NULL, NULL);
	OK(e == NULL, "host rules only for their host");
	make("/a /a/b /a/b/c");
	memcpy(set[0].host, "h1", 3);
	e = pathrule_find(set, nset, sizeof(set[0]), NULL, "/a/b/c/d",
	    in_h1, NULL, NULL);
	OK(e == &set[0], "want: the longest of those wanted");
	e = pathrule_find(set, nset, sizeof(set[0]), NULL, "/x",
	    in_h1, NULL, NULL);
	OK(e == NULL, "want: none held");
}

static int
load(struct config *c, const char *yaml)
{
	char	 err[512] = "";
	int	 rv;

	rv = config_load_buffer(c, "/etc/capsuled/x.yaml", yaml, strlen(yaml),
	    err, sizeof(err));
	OK(rv == 0, "load: %s", err);
	return rv;
}

/* Redirects: runs of '/' read as one, captures, exact-only lookups. */
static void
test_redirects(void)
{
	struct config	 c;
	struct buf	 out = BUF_INIT;
	int		 st = 0;

	if (load(&c, "redirects:\n"
	    "  /blog/*: /posts/*\n"
	    "  /old: /new\n"
	    "  /wiki*: gemini://w.example%p\n") == -1)
		return;
	OK(redirect_find(c.redirects, c.nredirects, "/blog//a//b", 1, &out,
	    &st) && strcmp(out.data, "/posts/a//b") == 0,
	    "a run of '/' read as one: %s", out.data);
	OK(redirect_find(c.redirects, c.nredirects, "//old", 1, &out, &st) &&
	    strcmp(out.data, "/new") == 0, "//old");
	OK(redirect_find(c.redirects, c.nredirects, "/wiki/x y", 1, &out,
	    &st) && strcmp(out.data, "gemini://w.example/wiki/x%20y") == 0,
	    "%%p");
	STR_EQ(config_redirect(&c, "//old", NULL), "/new",
	    "config_redirect(): the same reading");
	STR_EQ(config_redirect(&c, "/blog/x", NULL), NULL,
	    "config_redirect(): exact rules only");
	config_free(&c);
	buf_free(&out);
}

/* fastcgi/scgi/proxy: the host's entry, runs of '/', patterns. */
static void
test_apps(void)
{
	struct config			 c;
	const struct config_app		*a;
	struct pathrule_match		 m;

	if (load(&c, "hostname: example.org\n"
	    "fastcgi: [{prefix: /app, socket: unix:/run/a.sock},\n"
	    "  {prefix: '/users/*/app', socket: unix:/run/u.sock}]\n"
	    "proxy: [{prefix: /app, host: Example.org, backend: 'b:1965'}]\n")
	    == -1)
		return;
	a = config_app_find(c.apps, c.napps, "example.org", "//app//x");
	OK(a != NULL && a->kind == CONFIG_APP_PROXY,
	    "a run of '/', the host's entry");
	OK(a != NULL && pathrule_match(&a->rule, "//app//x", &m) &&
	    strcmp(m.rest, "//x") == 0, "the rest below it");
	a = config_app_find(c.apps, c.napps, "other.org", "/app/x");
	OK(a != NULL && a->kind == CONFIG_APP_FASTCGI,
	    "everyone's entry for another host");
	a = config_app_find(c.apps, c.napps, "other.org", "/users/bob/app/y");
	OK(a != NULL && strcmp(a->path, "/run/u.sock") == 0, "a pattern");
	OK(config_app_find(c.apps, c.napps, "other.org",
	    "/users/bob/apple") == NULL, "whole segments");
	config_free(&c);
}

/* path_meta: each parameter its own longest rule, patterns, order. */
static void
test_path_meta(void)
{
	struct config	 c;
	const char	*lang, *charset;

	if (load(&c, "path_meta:\n"
	    "  - {path: /, charset: utf-8}\n"
	    "  - {path: /fr/, lang: fr}\n"
	    "  - {path: '/fr/*.txt', charset: iso-8859-1}\n") == -1)
		return;
	config_path_meta(c.types, "/fr//a.txt", &lang, &charset);
	OK(lang != NULL && strcmp(lang, "fr") == 0 && charset != NULL &&
	    strcmp(charset, "iso-8859-1") == 0, "a run of '/', a pattern");
	config_path_meta(c.types, "/fr/a.gmi", &lang, &charset);
	OK(charset != NULL && strcmp(charset, "utf-8") == 0,
	    "each parameter from its own longest");
	STR_EQ(c.types->meta[2].path, "/fr/*.txt", "kept in the file's order");
	config_free(&c);
}

/* The CGI directory (core/layout.c's layout_under()). */
static void
test_cgi_dir(void)
{
	OK(layout_under("cgi-bin", "//cgi-bin/x"), "a run of '/'");
	OK(!layout_under("cgi-bin", "/cgi-binx"), "whole segments");
}

static const struct harness_test tests[] = {
	TEST(test_table),
	TEST(test_compile),
	TEST(test_index),
	TEST(test_want),
	TEST(test_redirects),
	TEST(test_apps),
	TEST(test_path_meta),
	TEST(test_cgi_dir),
};

int
main(int argc, char **argv)
{
	HARNESS_INIT(argc, argv, tests);
	harness_run();
	return harness_done();
}
