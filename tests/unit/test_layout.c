/*
 * test_layout.c -- the URL layout (core/layout.c): every builder's path
 * parsed back to its kind and name, the fixed paths, the reserved
 * top-level names, and the odd paths ("//", "..", '%', slashes) read
 * as the router has always read them.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "content/archive.h"
#include "core/layout.h"
#include "harness.h"

static struct layout_ref
parse(const char *path, int flags)
{
	struct layout_ref	 ref;

	layout_parse(path, flags, &ref);
	return ref;
}

/* path parses to kind, name (NULL: none), rest and bare. */
static void
is(const char *path, int flags, enum layout_kind kind, const char *name,
    const char *rest, int bare)
{
	struct layout_ref	 ref = parse(path, flags);
	char			 buf[256];

	OK(ref.kind == kind, "%s: kind %d, want %d", path, (int)ref.kind,
	    (int)kind);
	if (name == NULL)
		OK(ref.name == NULL, "%s: a name", path);
	else
		OK(layout_name(&ref, buf, sizeof(buf)) == 0 &&
		    strcmp(buf, name) == 0, "%s: name \"%s\", want \"%s\"",
		    path, buf, name);
	OK(strcmp(ref.rest, rest) == 0, "%s: rest \"%s\", want \"%s\"",
	    path, ref.rest, rest);
	OK(ref.bare == bare, "%s: bare %d", path, ref.bare);
}

/* Each kind's path is that kind again, with the same name and rest. */
static void
test_roundtrip(void)
{
	static const char *const slugs[] = { "x", "hello-world", "a.b",
	    "100%", "caf\xc3\xa9" };
	static const struct {
		enum layout_kind kind;
		int		 named;	/* the slug is its name (else rest) */
		const char	*rest;	/* besides the slug, or NULL */
		int		 flags;
	} kinds[] = {
		{ LAYOUT_POST, 1, NULL, 0 },
		{ LAYOUT_POST_MENU, 1, NULL, 0 },
		{ LAYOUT_BUNDLE_FILE, 1, "img/a.png", 0 },
		{ LAYOUT_SERIES, 1, NULL, 0 },
		{ LAYOUT_SERIES_FEED, 1, NULL, 0 },
		{ LAYOUT_TAG, 1, NULL, 0 },
		{ LAYOUT_TAG_FEED, 1, NULL, 0 },
		{ LAYOUT_FILES, 0, NULL, 0 },
		{ LAYOUT_PAGE, 1, NULL, 0 },
		{ LAYOUT_PAGE_MENU, 1, NULL, 0 },
		{ LAYOUT_DRAFT, 1, NULL, 0 },
		{ LAYOUT_USER, 1, "/", LAYOUT_USERDIRS },
		{ LAYOUT_USER, 1, "/posts/x", LAYOUT_USERDIRS },
	};
	size_t	 i, k;
	char	*p;

	for (i = 0; i < sizeof(slugs) / sizeof(slugs[0]); i++)
		for (k = 0; k < sizeof(kinds) / sizeof(kinds[0]); k++) {
			p = kinds[k].named ? layout_path(kinds[k].kind,
			    slugs[i], kinds[k].rest) : layout_path(
			    kinds[k].kind, NULL, slugs[i]);
			is(p, kinds[k].flags, kinds[k].kind, kinds[k].named ?
			    slugs[i] : NULL, kinds[k].named ? (kinds[k].rest ?
			    kinds[k].rest : "") : slugs[i], 0);
			free(p);
		}
	p = layout_path(LAYOUT_FILES, NULL, "a/b/c.txt");
	STR_EQ(p, "/files/a/b/c.txt", "a file's path");
	free(p);
	p = layout_path(LAYOUT_SERIES_FEED, "s", NULL);
	STR_EQ(p, "/series/s/atom.xml", "a series feed's path");
	free(p);
	p = layout_path(LAYOUT_USER, "jo", "/");
	STR_EQ(p, "/~jo/", "a user's path");
	free(p);
	p = layout_path(LAYOUT_TAGS, NULL, NULL);
	STR_EQ(p, LAYOUT_PATH_TAGS, "a fixed path");
	free(p);
	p = layout_path(LAYOUT_NONE, "x", NULL);
	STR_EQ(p, "", "no path");
	free(p);
}

/* The fixed paths, with and without their slash. */
static void
test_fixed(void)
{
	is(LAYOUT_PATH_HOME, 0, LAYOUT_HOME, NULL, "", 0);
	is(LAYOUT_PATH_POSTS, 0, LAYOUT_POSTS, NULL, "", 0);
	is(LAYOUT_PATH_SERIES, 0, LAYOUT_SERIES_LIST, NULL, "", 0);
	is(LAYOUT_PATH_TAGS, 0, LAYOUT_TAGS, NULL, "", 0);
	is(LAYOUT_PATH_GEMLOG, 0, LAYOUT_GEMLOG, NULL, "", 0);
	is(LAYOUT_PATH_FEED, 0, LAYOUT_FEED, NULL, "", 0);
	is("/gemlog/atom.xml", 0, LAYOUT_FEED, NULL, "", 0);
	is(LAYOUT_PATH_SEARCH, 0, LAYOUT_SEARCH, NULL, "", 0);
	is(LAYOUT_PATH_DRAFTS, 0, LAYOUT_DRAFTS, NULL, "", 0);
	is(LAYOUT_PATH_FILES, 0, LAYOUT_FILES, NULL, "", 0);
	is(LAYOUT_PATH_USERS, LAYOUT_USERDIRS, LAYOUT_USERS, NULL, "", 0);
	is("/robots.txt", 0, LAYOUT_ROBOTS, NULL, "", 0);
	{
		static const enum layout_kind fixed[] = { LAYOUT_HOME,
		    LAYOUT_POSTS, LAYOUT_SERIES_LIST, LAYOUT_TAGS,
		    LAYOUT_GEMLOG, LAYOUT_FEED, LAYOUT_SEARCH, LAYOUT_ROBOTS,
		    LAYOUT_DRAFTS, LAYOUT_FILES };
		size_t	 i;
		char	*p;

		for (i = 0; i < sizeof(fixed) / sizeof(fixed[0]); i++) {
			p = layout_path(fixed[i], NULL, NULL);
			is(p, 0, fixed[i], NULL, "", 0);
			free(p);
		}
		p = layout_path(LAYOUT_USERS, NULL, NULL);
		is(p, LAYOUT_USERDIRS, LAYOUT_USERS, NULL, "", 0);
		free(p);
	}

	/* A list without its slash: redirected there. */
	is("/posts", 0, LAYOUT_POSTS, NULL, "", 1);
	is("/series", 0, LAYOUT_SERIES_LIST, NULL, "", 1);
	is("/tags", 0, LAYOUT_TAGS, NULL, "", 1);
	is("/gemlog", 0, LAYOUT_GEMLOG, NULL, "", 1);
	is("/drafts", 0, LAYOUT_DRAFTS, NULL, "", 1);
	is("/files", 0, LAYOUT_FILES, NULL, "", 1);
	is("/~", LAYOUT_USERDIRS, LAYOUT_USERS, NULL, "", 1);
	is("/series/s", 0, LAYOUT_SERIES, "s", "", 1);
	is("/tags/t", 0, LAYOUT_TAG, "t", "", 1);
	is("/~jo", LAYOUT_USERDIRS, LAYOUT_USER, "jo", "", 1);

	/* Leaves have no slash form. */
	is("/search/", 0, LAYOUT_NONE, NULL, "", 0);
	is("/atom.xml/", 0, LAYOUT_NONE, NULL, "", 0);
	is("/robots.txt/", 0, LAYOUT_NONE, NULL, "", 0);
}

/* One table: the names no page or CGI directory may take. */
static void
test_reserved(void)
{
	static const char *const names[] = { "posts", "series", "tags",
	    "gemlog", "drafts", "files", "atom.xml", "search", "robots.txt",
	    "caps.txt", "index" };
	char	 path[32];
	size_t	 i;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		OK(layout_reserved(names[i]), "%s reserved", names[i]);
		/* Never a page: a path of the server's own, or nothing. */
		snprintf(path, sizeof(path), "/%s", names[i]);
		OK(parse(path, 0).kind != LAYOUT_PAGE, "%s is no page", path);
		snprintf(path, sizeof(path), "/%s/", names[i]);
		OK(parse(path, 0).kind != LAYOUT_PAGE_MENU, "%s is no page",
		    path);
	}
	OK(layout_reserved("Posts") && layout_reserved("FILES"),
	    "reserved whatever the case");
	OK(!layout_reserved("about") && !layout_reserved("cgi-bin") &&
	    !layout_reserved("caps") && !layout_reserved("~") &&
	    !layout_reserved("post") && !layout_reserved("postss"),
	    "other names are free");
	is("/index", 0, LAYOUT_NONE, NULL, "", 0);
	is("/index/", 0, LAYOUT_NONE, NULL, "", 0);
	is("/Posts", 0, LAYOUT_PAGE, "Posts", "", 0);
}

/* Paths that are odd, read as the router reads them. */
static void
test_odd(void)
{
	is("", 0, LAYOUT_NONE, NULL, "", 0);
	is("posts/x", 0, LAYOUT_NONE, NULL, "", 0);
	is("//", 0, LAYOUT_NONE, NULL, "", 0);
	is("//host/x", 0, LAYOUT_NONE, NULL, "", 0);
	is("/posts//x", 0, LAYOUT_NONE, NULL, "", 0);
	is("/posts/x//", 0, LAYOUT_BUNDLE_FILE, "x", "/", 0);
	is("/posts/x/a/", 0, LAYOUT_BUNDLE_FILE, "x", "a/", 0);
	is("/series//", 0, LAYOUT_NONE, NULL, "", 0);
	is("/series/s/x", 0, LAYOUT_NONE, NULL, "", 0);
	is("/series/s/atom.xml/", 0, LAYOUT_NONE, NULL, "", 0);
	is("/tags/t/atom.xml", 0, LAYOUT_TAG_FEED, "t", "", 0);
	is("/gemlog/x", 0, LAYOUT_NONE, NULL, "", 0);
	is("/files//", 0, LAYOUT_FILES, NULL, "/", 0);
	is("/files/..", 0, LAYOUT_FILES, NULL, "..", 0);
	is("/drafts/a/b", 0, LAYOUT_DRAFT, "a/b", "", 0);
	is("/..", 0, LAYOUT_PAGE, "..", "", 0);
	is("/a%2Fb", 0, LAYOUT_PAGE, "a%2Fb", "", 0);
	is("/about/", 0, LAYOUT_PAGE_MENU, "about", "", 0);
	is("/about/x", 0, LAYOUT_NONE, NULL, "", 0);
	is("/about//", 0, LAYOUT_NONE, NULL, "", 0);
	is("/postsx", 0, LAYOUT_PAGE, "postsx", "", 0);
	is("/caps.txt", 0, LAYOUT_NONE, NULL, "", 0);
	/* "/~..." is a page's path unless user capsules are on. */
	is("/~jo", 0, LAYOUT_PAGE, "~jo", "", 0);
	is("/~jo/posts/x", LAYOUT_USERDIRS, LAYOUT_USER, "jo", "/posts/x",
	    0);
	is("/~/x", LAYOUT_USERDIRS, LAYOUT_USER, "", "/x", 0);
	is("/~//", LAYOUT_USERDIRS, LAYOUT_USER, "", "//", 0);
}

/* layout_slug() is what archive_slugify() writes, and only that. */
static void
test_slug(void)
{
	static const char *const names[] = { "x", "hello-world", "a-b-c",
	    "2024", "Hello", "a--b", "-a", "a-", "", "a_b", "a.b",
	    "caf\xc3\xa9", "a b", "C#", "x+y", "don't", "a/b", "%41" };
	size_t	 i;
	char	*s;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		s = archive_slugify(names[i]);
		OK(*s == '\0' || layout_slug(s, strlen(s)), "slugify(%s) = %s "
		    "is a slug", names[i], s);
		OK(layout_slug(names[i], strlen(names[i])) ==
		    (*s != '\0' && strcmp(s, names[i]) == 0), "%s: a slug "
		    "exactly when slugify keeps it", names[i]);
		free(s);
	}
	OK(layout_slug("ab-x", 2), "a prefix");
}

static void
test_helpers(void)
{
	struct layout_ref	 ref;
	char			 small[3];

	layout_parse("/posts/abc", 0, &ref);
	INT_EQ(layout_name(&ref, small, sizeof(small)), -1, "too long");
	STR_EQ(small, "", "too long: empty");
	layout_parse("/", 0, &ref);
	INT_EQ(layout_name(&ref, small, sizeof(small)), -1, "no name");

	OK(layout_site_path("/x") && layout_site_path("/"), "site paths");
	OK(!layout_site_path("//h/x") && !layout_site_path("gemini://h/") &&
	    !layout_site_path("x"), "not site paths");

	OK(layout_under("cgi-bin", "/cgi-bin"), "the directory");
	OK(layout_under("cgi-bin", "/cgi-bin/x"), "beneath it");
	OK(!layout_under("cgi-bin", "/cgi-binx"), "not a prefix");
	OK(!layout_under("cgi-bin", "cgi-bin"), "not a site path");
	OK(!layout_under(NULL, "/cgi-bin"), "no directory");
	/* Configured prefixes: tests/unit/test_pathrule.c. */
}

int
main(void)
{
	test_roundtrip();
	test_fixed();
	test_reserved();
	test_odd();
	test_slug();
	test_helpers();
	return harness_done();
}
