/*
 * test_robots.c -- the robots setting (core/robots.c): rules read from
 * the configuration and refused where a value could break a line or a
 * rule, written back the same, made into the robots.txt of Gemini's
 * crawlers (the companion specification's own example and test table),
 * of Gopher's (the indexer's rules for Veronica) and of the web's (what
 * webproxy keeps out is everyone's), the text form kept as written and
 * read for the web view's X-Robots-Tag.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/buf.h"
#include "core/config.h"
#include "core/robots.h"
#include "core/util.h"
#include "harness.h"

static struct config	 c;

static int
load(const char *yaml, char *err, size_t errlen)
{
	return config_load_buffer(&c, "/etc/capsuled/c.yaml", yaml,
	    strlen(yaml), err, errlen);
}

static void
expect_ok(const char *yaml)
{
	char	 err[512] = "";

	INT_EQ(load(yaml, err, sizeof(err)), 0, yaml);
	OK(err[0] == '\0', "unexpected error %s", err);
}

static void
expect_err(const char *yaml, const char *want)
{
	char	 err[512] = "";
	char	*full = xasprintf("/etc/capsuled/c.yaml:%s", want);

	INT_EQ(load(yaml, err, sizeof(err)), -1, yaml);
	STR_EQ(err, full, yaml);
	free(full);
}

/* c's robots.txt for who, as a string (static until the next call). */
static const char *
txt(enum robots_for who)
{
	static struct buf	 b;

	buf_free(&b);
	if (!robots_txt(c.robots, who, &b))
		return NULL;
	buf_addc(&b, '\0');
	return b.data;
}

/*
 * Is path kept from crawler category agent by text, read as the Gemini
 * companion specification says: the agent's group and "*", Disallow
 * prefixes only.
 */
static int
denied(const char *text, const char *agent, const char *path)
{
	const char	*line, *end;
	char		 ua[64], v[256];
	int		 in = 0, rules = 0;
	size_t		 n;

	for (line = text; *line != '\0'; line = *end ? end + 1 : end) {
		end = line + strcspn(line, "\n");
		n = (size_t)(end - line);
		if (n >= sizeof(v))
			continue;
		memcpy(v, line, n);
		v[n] = '\0';
		if (sscanf(v, "User-agent: %63s", ua) == 1) {
			if (rules)
				in = 0;
			rules = 0;
			in |= strcmp(ua, agent) == 0 || strcmp(ua, "*") == 0;
		} else if (strncmp(v, "Disallow:", 9) == 0) {
			rules = 1;
			if (in && v[9] == ' ' && strncmp(path, v + 10,
			    strlen(v + 10)) == 0)
				return 1;
		}
	}
	return 0;
}

static void
test_gemini(void)
{
	const char	*t;

	/* The companion specification's example, as rules. */
	expect_ok("robots:\n  disallow: [/cgi-bin/, /drafts/]\n"
	    "  agents:\n    webproxy: /\n    archiver: [/]\n");
	t = txt(ROBOTS_GEMINI);
	STR_EQ(t, "User-agent: webproxy\nDisallow: /\nDisallow: /cgi-bin/\n"
	    "Disallow: /drafts/\n\n"
	    "User-agent: archiver\nDisallow: /\nDisallow: /cgi-bin/\n"
	    "Disallow: /drafts/\n\n"
	    "User-agent: *\nDisallow: /cgi-bin/\nDisallow: /drafts/\n",
	    "the Gemini robots.txt");
	/* Its test table. */
	OK(!denied(t, "indexer", "/gemlog/a.gmi"), "indexer /gemlog/a.gmi");
	OK(denied(t, "indexer", "/cgi-bin/x"), "indexer /cgi-bin/x");
	OK(denied(t, "webproxy", "/"), "webproxy /");
	OK(!denied(t, "researcher", "/drafts"), "researcher /drafts");
	OK(denied(t, "researcher", "/drafts/x"), "researcher /drafts/x");
	config_free(&c);

	/* Nothing kept out: one group that says so. */
	expect_ok("robots: {}\n");
	STR_EQ(txt(ROBOTS_GEMINI), "User-agent: *\nDisallow:\n", "empty");
	config_free(&c);
	/* Paths are written percent-encoded, as crawlers compare them. */
	expect_ok("robots:\n  agents:\n    indexer: [\"/caf\xc3\xa9/\"]\n");
	HAS(txt(ROBOTS_GEMINI), "Disallow: /caf%C3%A9/\n", "encoded");
	config_free(&c);
}

static void
test_gopher_web(void)
{
	expect_ok("robots:\n  disallow: /private/\n  agents:\n"
	    "    indexer: /tags/\n    webproxy: /\n    GPTBot: /\n");
	/* Veronica-2 is Gopher's indexer; the other virtual agents go. */
	STR_EQ(txt(ROBOTS_GOPHER), "User-agent: GPTBot\nDisallow: /\n"
	    "Disallow: /private/\n\n"
	    "User-agent: veronica\nDisallow: /tags/\nDisallow: /private/\n\n"
	    "User-agent: *\nDisallow: /private/\n", "the Gopher robots.txt");
	/* The web: no virtual agent; webproxy's paths are everyone's. */
	STR_EQ(txt(ROBOTS_WEB), "User-agent: GPTBot\nDisallow: /\n"
	    "Disallow: /private/\n\n"
	    "User-agent: *\nDisallow: /private/\nDisallow: /\n",
	    "the web robots.txt");
	STR_EQ(robots_tag(c.robots, "/posts/x"), "noindex, noarchive",
	    "webproxy keeps the web view's pages out");
	config_free(&c);

	/* A veronica the writer names takes the indexer's rules too. */
	expect_ok("robots:\n  agents:\n    indexer: /a/\n    veronica: /b/\n");
	STR_EQ(txt(ROBOTS_GOPHER), "User-agent: veronica\nDisallow: /a/\n"
	    "Disallow: /b/\n\nUser-agent: *\nDisallow:\n", "veronica named");
	STR_EQ(txt(ROBOTS_WEB), "User-agent: veronica\nDisallow: /b/\n\n"
	    "User-agent: *\nDisallow:\n", "the web: veronica as named");
	config_free(&c);
}

static void
test_tag(void)
{
	char	*web;

	expect_ok("robots:\n  disallow: /private/\n  agents:\n"
	    "    indexer: /tags/\n    archiver: [/tags/, /posts/]\n");
	STR_EQ(robots_tag(c.robots, "/private/x"), "noindex, noarchive",
	    "disallow");
	STR_EQ(robots_tag(c.robots, "/tags/a/"), "noindex, noarchive",
	    "indexer and archiver");
	STR_EQ(robots_tag(c.robots, "/posts/a"), "noarchive", "archiver");
	STR_EQ(robots_tag(c.robots, "/private"), NULL,
	    "/private/ is not a prefix of /private");
	STR_EQ(robots_tag(c.robots, "/"), NULL, "nothing");
	config_free(&c);

	/* The text form is served as written and read for the tag. */
	expect_ok("robots: |\n  # ours\n  User-agent: archiver\n"
	    "  User-agent: WebProxy\n  Disallow: /old/\n\n"
	    "  User-agent: indexer\n  Allow: /x/\n  Disallow: /x/\n"
	    "  Disallow: /*.gif$\n  User-agent: *\n  Disallow: /caf%C3%A9/\n");
	web = xstrdup(txt(ROBOTS_WEB));
	HAS(web, "# ours\nUser-agent: archiver\n", "as written");
	STR_EQ(txt(ROBOTS_GOPHER), web, "the same everywhere");
	free(web);
	STR_EQ(robots_tag(c.robots, "/old/a"), "noindex, noarchive",
	    "a group of two agents, webproxy in any case");
	STR_EQ(robots_tag(c.robots, "/x/y"), "noindex",
	    "after Allow, still the indexer's group");
	STR_EQ(robots_tag(c.robots, "/caf\xc3\xa9/"), "noindex, noarchive",
	    "a group after rules is a new one: '*', decoded");
	STR_EQ(robots_tag(c.robots, "/a.gif"), NULL, "patterns are not read");
	config_free(&c);

	/* The default allows everything; none at all is 51. */
	expect_ok("title: x\n");
	STR_EQ(txt(ROBOTS_GEMINI), CONFIG_ROBOTS_DEFAULT, "default");
	STR_EQ(robots_tag(c.robots, "/"), NULL, "default: no tag");
	config_free(&c);
	expect_ok("robots: ~\n");
	OK(txt(ROBOTS_GEMINI) == NULL, "off");
	STR_EQ(robots_tag(c.robots, "/"), NULL, "off: no tag");
	config_free(&c);
}

static void
test_refused(void)
{
	/* Nothing that breaks a line, starts a comment or is a pattern. */
	expect_err("robots:\n  disallow: \"/a\\nDisallow: /\"\n",
	    "2:13: robots: disallow: must be one line without control "
	    "characters");
	expect_err("robots:\n  disallow: \"/a#b\"\n", "2:13: robots: "
	    "disallow: expected a path prefix such as /drafts/ (no spaces or "
	    "'#'; '*' and '$' are patterns Gemini crawlers do not read), got "
	    "'/a#b'");
	expect_err("robots:\n  disallow: /*.gif$\n", "2:13: robots: "
	    "disallow: expected a path prefix such as /drafts/ (no spaces or "
	    "'#'; '*' and '$' are patterns Gemini crawlers do not read), got "
	    "'/*.gif$'");
	expect_err("robots:\n  disallow: drafts/\n", "2:13: robots: "
	    "disallow: expected a path prefix such as /drafts/ (no spaces or "
	    "'#'; '*' and '$' are patterns Gemini crawlers do not read), got "
	    "'drafts/'");
	expect_err("robots:\n  agents:\n    \"bad bot\": /\n", "3:5: robots: "
	    "agents: expected a crawler's name (letters, '-' and '_'; every "
	    "crawler's paths go in disallow), got 'bad bot'");
	expect_err("robots:\n  agents:\n    \"*\": /\n", "3:5: robots: "
	    "agents: expected a crawler's name (letters, '-' and '_'; every "
	    "crawler's paths go in disallow), got '*'");
	expect_err("robots:\n  agents:\n    indexer: /\n    Indexer: /a/\n",
	    "4:5: robots: agents: 'Indexer' is listed twice");
	expect_err("robots:\n  agents:\n    indexer: [/a/, /a/]\n",
	    "3:20: robots: agents: indexer: '/a/' is listed twice");
	expect_err("robots:\n  allow: /\n", "2:3: robots: unknown key "
	    "'allow'");
	expect_err("robots:\n  agents: [/]\n", "2:11: robots: agents: "
	    "expected a mapping of names to paths, got a list");
	expect_err("robots: [a]\n",
	    "1:9: robots: expected a block of text or rules, got a list");
}

/* What config_print() writes, read back, prints the same. */
static void
test_print(void)
{
	struct buf	 a = BUF_INIT, b = BUF_INIT;
	char		 err[512] = "";

	expect_ok("robots:\n  disallow: [/a/, \"/b/\"]\n  agents:\n"
	    "    webproxy: /\n    researcher: ~\n"
	    "hosts:\n  - hostname: two.example\n    robots: |\n"
	    "      User-agent: *\n      Disallow: /x/\n");
	config_print(&c, &a);
	buf_addc(&a, '\0');
	HAS(a.data, "robots:\n    disallow: [\"/a/\", \"/b/\"]\n"
	    "    agents:\n        \"webproxy\": [\"/\"]\n"
	    "        \"researcher\": []\n", "rules printed");
	HAS(a.data, "robots: \"User-agent: *\\nDisallow: /x/\\n\"",
	    "a host's text printed");
	config_free(&c);
	INT_EQ(load(a.data, err, sizeof(err)), 0, err);
	config_print(&c, &b);
	buf_addc(&b, '\0');
	STR_EQ(b.data, a.data, "printed, read back, printed the same");
	config_free(&c);
	buf_free(&a);
	buf_free(&b);
}

static const struct harness_test tests[] = {
	TEST(test_gemini),
	TEST(test_gopher_web),
	TEST(test_tag),
	TEST(test_refused),
	TEST(test_print),
};

int
main(int argc, char **argv)
{
	HARNESS_INIT(argc, argv, tests);
	harness_run();
	return harness_done();
}
