/*
 * test_redirect.c -- "redirects" rules (core/redirect.c): prefix rules
 * with the rest carried over ('*', "$1"), patterns with a '*' inside a
 * segment ("/blog/" "*.gmi" to "/posts/$1"), "%p", exact before prefix and
 * the longest prefix first, targets percent-encoded, and the loops
 * config.c refuses at load (a cycle of two, a prefix rule that feeds
 * itself, a chain too long) beside chains it accepts.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/buf.h"
#include "core/config.h"
#include "core/redirect.h"
#include "harness.h"

static int
load(struct config *c, const char *yaml, char *err, size_t len)
{
	return config_load_buffer(c, "/tmp/r.yaml", yaml, strlen(yaml), err,
	    len);
}

/* cfg's target for path, "-" for none; static, valid until the next. */
static struct buf	 out;

static const char *
target(const struct config *c, const char *path, int *status)
{
	int	 st = 0;

	buf_free(&out);
	buf_init(&out);
	if (!redirect_find(c->redirects, c->nredirects, path, 1, &out, &st))
		return "-";
	if (status != NULL)
		*status = st;
	return out.data;
}

static void
test_rules(void)
{
	struct config	 c;
	char		 err[512] = "";
	int		 st = 0;

	INT_EQ(load(&c, "redirects:\n"
	    "  /blog/*: /posts/*\n"
	    "  /blog/2019/*: gemini://old.example/$1?from=2019\n"
	    "  /blog/about: /about\n"
	    "  /wiki*: /w%p\n"
	    "  /e: \"/posts/\\u00e9t\\u00e9\"\n"
	    "  /*: ~\n"
	    "  temporary:\n"
	    "    /t/*: /posts/*\n", err, sizeof(err)), -1,
	    "a null target is refused");
	INT_EQ(load(&c, "redirects:\n"
	    "  /blog/*: /posts/*\n"
	    "  /blog/2019/*: gemini://old.example/$1?from=2019\n"
	    "  /blog/about: /about\n"
	    "  /blog/: /posts/\n"
	    "  /wiki*: /w%p\n"
	    "  /e: \"/posts/\\u00e9t\\u00e9\"\n"
	    "  temporary:\n"
	    "    /t/*: /posts/*\n", err, sizeof(err)), 0, err);
	STR_EQ(target(&c, "/blog/a/b", &st), "/posts/a/b", "the rest kept");
	INT_EQ(st, 31, "permanent");
	STR_EQ(target(&c, "/blog/2019/x", NULL),
	    "gemini://old.example/x?from=2019", "longest prefix, $1");
	STR_EQ(target(&c, "/blog/about", NULL), "/about", "exact first");
	STR_EQ(target(&c, "/blog/", NULL), "/posts/",
	    "an exact rule beside a prefix rule of the same text");
	STR_EQ(target(&c, "/blog", NULL), "-", "not below the prefix");
	STR_EQ(target(&c, "/wikipedia", NULL), "/w/wikipedia", "%p");
	STR_EQ(target(&c, "/blog/caf\xc3\xa9 au lait?", NULL),
	    "/posts/caf%C3%A9%20au%20lait%3F", "the rest encoded");
	STR_EQ(target(&c, "/e", NULL), "/posts/%C3%A9t%C3%A9",
	    "a non-ASCII target encoded");
	STR_EQ(target(&c, "/t/x", &st), "/posts/x", "temporary prefix");
	INT_EQ(st, 30, "temporary: 30");
	STR_EQ(target(&c, "/other", NULL), "-", "no rule");
	buf_free(&out);
	config_free(&c);
}

/*
 * A '*' inside a segment (molly-brown's "^/blog/(.*)\\.gmi$" ->
 * "/posts/$1"): the suffix is matched, not captured, and the rule holds
 * that segment only.
 */
static void
test_patterns(void)
{
	struct config	 c;
	char		 err[512] = "";
	int		 st = 0;

	INT_EQ(load(&c, "redirects:\n"
	    "  /blog/*.gmi: /posts/$1\n"
	    "  /blog/special.gmi: /about\n"
	    "  /notes/*/*.txt: /n/$1-$2\n"
	    "  /tags/*.gmi*: /t/$1$2\n"
	    "  temporary:\n"
	    "    /drafts/*.md: /posts/*\n", err, sizeof(err)), 0, err);
	STR_EQ(target(&c, "/blog/hello.gmi", &st), "/posts/hello",
	    "the suffix stripped");
	INT_EQ(st, 31, "a pattern is permanent by default");
	STR_EQ(target(&c, "/blog/special.gmi", NULL), "/about",
	    "an exact rule over the pattern");
	STR_EQ(target(&c, "/blog/hello.txt", NULL), "-", "another suffix");
	STR_EQ(target(&c, "/blog/a/b.gmi", NULL), "-",
	    "a '*' inside a segment takes no '/'");
	STR_EQ(target(&c, "/blog/.gmi", NULL), "/posts/",
	    "an empty capture");
	STR_EQ(target(&c, "/notes/2024/x.txt", NULL), "/n/2024-x",
	    "two captures");
	STR_EQ(target(&c, "/tags/go.gmi/rss", NULL), "/t/go/rss",
	    "a pattern that ends a prefix rule");
	STR_EQ(target(&c, "/drafts/caf\xc3\xa9.md", &st), "/posts/caf%C3%A9",
	    "a temporary pattern, its capture encoded");
	INT_EQ(st, 30, "temporary: 30");
	buf_free(&out);
	config_free(&c);
}

static void
refused(const char *yaml, const char *want)
{
	struct config	 c;
	char		 err[512] = "";

	INT_EQ(load(&c, yaml, err, sizeof(err)), -1, yaml);
	HAS(err, want, yaml);
}

static void
test_loops(void)
{
	struct config	 c;
	char		 err[512] = "";

	refused("redirects: {/loop1: /loop2, /loop2: /loop1}\n",
	    "redirects: a loop: /loop1 -> /loop2 -> /loop1");
	refused("redirects: {/a: /b, /b: /c, /c: /a}\n",
	    "a loop: /a -> /b -> /c -> /a");
	refused("redirects: {/a: /b?x=1, /b: /a}\n", "a loop: /a -> /b -> /a");
	refused("redirects: {/x/*: /x/y/*}\n", "more than 8 redirects");
	refused("redirects: {/*: /new/*}\n", "a loop");
	refused("redirects: {/old/*: /new/*, /new/*: /old/*}\n",
	    "a loop: /new/x -> /old/x -> /new/x");
	refused("redirects: {/a*b: /a*b}\n", "redirects to itself");
	refused("redirects: {/a/*: /b, /a/*: /c}\n", "listed twice");
	INT_EQ(load(&c, "redirects: {/a: /b, /b: /c, /c: gemini://e.x/a, "
	    "/d/*: /b/*, /posts/plain: /posts/deutsch}\n", err, sizeof(err)),
	    0, "chains that end are fine");
	config_free(&c);
}

static const struct harness_test tests[] = {
	TEST(test_rules),
	TEST(test_patterns),
	TEST(test_loops),
};

int
main(int argc, char **argv)
{
	HARNESS_INIT(argc, argv, tests);
	harness_run();
	return harness_done();
}
