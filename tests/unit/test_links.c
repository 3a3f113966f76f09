/*
 * test_links.c -- content/links.c over capsules made in a temp
 * directory: the writer's old web URLs (link_aliases), links by their
 * meaning, and a link resolved to a file only as the server would serve
 * it.  (Links within test_archive.c's capsule are checked there.)
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "content/archive.h"
#include "content/links.h"
#include "core/buf.h"
#include "core/config.h"
#include "core/log.h"
#include "files.h"
#include "harness.h"
#include "core/util.h"

static char	 top[64];	/* the temp dir; each check makes its capsule */

static void
config_for(struct config *c, const char *dir)
{
	memset(c, 0, sizeof(*c));
	c->capsule_dir = (char *)dir;
	c->site_title = "Config title";
	c->lang = "en";
	c->hostname = "localhost";
}

/* Does url, linked from the file from, resolve to want (NULL: none)? */
static void
link_is(struct archive *a, const char *from, const char *url,
    const char *want)
{
	char	*got;

	got = links_resolve(a, from, url);
	OK(want == NULL ? got == NULL : got != NULL && strcmp(got, want) == 0,
	    "%s from %s: got %s, want %s", url, from, got ? got : "NULL",
	    want ? want : "NULL");
	free(got);
}

/* link_aliases: the writer's old web URLs name posts. */
static void
test_aliases(void)
{
	struct config	 c;
	struct archive	*a;
	char		*dir, *aliases[] = { "https://old.blog/",
			    "gemini://Old.Example/posts/" };
	const char	*h = "posts/2024-01-10-hello.md";

	dir = xasprintf("%s/aliases", top);
	mkdir(dir, 0755);
	{
		char *posts = xasprintf("%s/posts", dir);

		mkdir(posts, 0755);
		free(posts);
	}
	test_put(dir, "posts/2024-01-10-hello.md",
	    "---\ntitle: Hello\ndate: 2024-01-10\n---\n"
	    "[found](https://old.blog/2021/03/second.html)\n"
	    "[gone](https://old.blog/2021/03/gone/)\n"
	    "[blog root](https://old.blog/)\n"
	    "[elsewhere](https://elsewhere.org/second.html)\n"
	    "[lookalike](https://old.blogger.com/second)\n"
	    "[by path](/posts/second) [again](/posts/second/?x#y)\n"
	    "[the archive](/posts/) [no such path](/posts/nope)\n");
	test_put(dir, "posts/2021-03-01-second.md",
	    "---\ntitle: Second\ndate: 2021-03-01\n---\nBody.\n");
	config_for(&c, dir);
	c.link_aliases = aliases;
	c.nlink_aliases = nitems(aliases);
	a = archive_load(&c);
	OK(a != NULL && a->nposts == 2, "alias capsule loads");
	if (a != NULL) {
		link_is(a, h, "https://old.blog/2021/03/second.html",
		    "/posts/second");
		link_is(a, h, "https://OLD.BLOG/second/", "/posts/second");
		link_is(a, h, "https://old.blog/2021-03-01-second?x#y",
		    "/posts/second");
		link_is(a, h, "gemini://old.example/posts/second.gmi",
		    "/posts/second");
		link_is(a, h, "gemini://old.example/POSTS/second.gmi", NULL);
		link_is(a, h, "https://old.blog/gone/", NULL);
		link_is(a, h, "https://old.blogger.com/second", NULL);
		link_is(a, h, "https://old.blog", NULL);
		link_is(a, h, "http://old.blog/second", NULL);
		OK(links_is_alias(a, "https://old.blog/x"), "is an alias");
		OK(!links_is_alias(a, "https://elsewhere.org/second.html"),
		    "not an alias");
		/* The old URL and the /posts/ path that name no post. */
		INT_EQ(a->nwarnings, 0, "the load checks no link");
		INT_EQ(links_check(a), 2, "two missing-post warnings");
		INT_EQ(a->nwarnings, 2, "counted with the warnings");
		archive_unref(a);
	}
	config_for(&c, dir);
	a = archive_load(&c);
	if (a != NULL) {
		link_is(a, h, "https://old.blog/2021/03/second.html", NULL);
		INT_EQ(links_check(a), 1, "no aliases: only /posts/nope");
		archive_unref(a);
	}
	free(dir);
}

/*
 * Links by their meaning: the addresses a post had on the
 * writer's old web site, root-relative or under link_aliases.
 */
static void
test_meaning(void)
{
	struct config	 c;
	struct archive	*a;
	char		*dir, *aliases[] = { "https://old.blog/" };
	const char	*h = "posts/2024-01-10-hello.md";
	static const char *const sub[] = { "posts", "files", "files/img",
	    "pages", "series" };
	size_t		 i;

	dir = xasprintf("%s/meaning", top);
	mkdir(dir, 0755);
	for (i = 0; i < nitems(sub); i++)
		test_mkdir(dir, sub[i]);
	test_put(dir, "posts/2024-01-10-hello.md",
	    "---\ntitle: Hello\ntags: [Small Web]\n---\n"
	    "[a](/2021/03/01/tool-0.70.0-release/) [b](/blog/nothing-here)\n"
	    "[c](/posts/nope) [d](#design) [e](/tags/small-web/)\n"
	    "[f](/files/nothing.png) [g](/files/logo.svg)\n"
	    "[h](//localhost/gone/) [i](//elsewhere.example/x)\n");
	test_put(dir, "posts/2021-03-01-tool-0.70.0-release.md",
	    "---\ntitle: Tool\nseries: Build Log\n---\nBody.\n");
	test_put(dir, "posts/2020-05-05-award.md", "---\ntitle: A\n---\nx\n");
	test_put(dir, "posts/2021-06-06-award.md", "---\ntitle: B\n---\nx\n");
	test_put(dir, "files/img/photo.png", "png");
	test_put(dir, "files/logo.svg", "svg");
	test_put(dir, "pages/about.md", "About.\n");
	config_for(&c, dir);
	c.link_aliases = aliases;
	c.nlink_aliases = nitems(aliases);
	a = archive_load(&c);
	OK(a != NULL && a->nposts == 4, "meaning capsule loads");
	if (a == NULL)
		goto done;
	/* Date paths, dots in the name, endings, index pages. */
	link_is(a, h, "/2021/03/01/tool-0.70.0-release/",
	    "/posts/tool-0-70-0-release");
	link_is(a, h, "/blog/tool-0.70.0-release.html",
	    "/posts/tool-0-70-0-release");
	link_is(a, h, "/blog/tool-0.70.0-release/index.html#x",
	    "/posts/tool-0-70-0-release");
	link_is(a, h, "/2021-03-01-tool-0.70.0-release",
	    "/posts/tool-0-70-0-release");
	link_is(a, h, "https://old.blog/2021/03/tool-0.70.0-release.html",
	    "/posts/tool-0-70-0-release");
	/* One name, two posts: the date in the address picks. */
	link_is(a, h, "/2021/06/06/award/", "/posts/award-2021-06-06");
	link_is(a, h, "/2020/05/05/award/", "/posts/award");
	/* No date to pick by: neither, rather than maybe the wrong one. */
	link_is(a, h, "/award/", "");
	link_is(a, h, "/2021/06/award.html", "/posts/award-2021-06-06");
	link_is(a, h, "/2022/01/01/award/", "");
	/* Series and topics go to the capsule's own pages. */
	link_is(a, h, "/blog/series/build-log", "/series/build-log/");
	link_is(a, h, "/categories/Small%20Web/", "/tags/small-web/");
	link_is(a, h, "https://old.blog/tag/small-web", "/tags/small-web/");
	link_is(a, h, "/tags/nothing/", "");
	/* Files the writer kept in files/. */
	link_is(a, h, "/assets/img/photo.png", "/files/img/photo.png");
	link_is(a, h, "/img/photo.png", "/files/img/photo.png");
	link_is(a, h, "/static/logo.svg", "/files/logo.svg");
	link_is(a, h, "/assets/missing.png", "");
	/* What the capsule answers itself stays as written. */
	link_is(a, h, "/", NULL);
	link_is(a, h, "/about", NULL);
	link_is(a, h, "/about/", NULL);
	link_is(a, h, "/about/index.html", "/about");
	/* One '/' too many: no host is named "2021". */
	link_is(a, h, "//2021/03/01/tool-0.70.0-release/",
	    "/posts/tool-0-70-0-release");
	/*
	 * "//host/x" is https: another host's page; on the capsule's own
	 * host (config hostname) or under link_aliases, the capsule's.
	 */
	link_is(a, h, "//example.org/2021/03/01/x/",
	    "https://example.org/2021/03/01/x/");
	link_is(a, h, "//LOCALHOST/2021/03/01/tool-0.70.0-release/",
	    "/posts/tool-0-70-0-release");
	link_is(a, h, "//localhost/about", "/about");
	link_is(a, h, "//localhost/x", "");
	link_is(a, h, "//old.blog/2021/03/tool-0.70.0-release.html",
	    "/posts/tool-0-70-0-release");
	link_is(a, h, "//old.blog/gone.html", "https://old.blog/gone.html");
	link_is(a, h, "//localhost.example/x", "https://localhost.example/x");
	link_is(a, h, "/about.html", "/about");
	link_is(a, h, "/posts/award", NULL);
	link_is(a, h, "/tags/small-web/", NULL);
	link_is(a, h, "/files/nothing.png", NULL);
	link_is(a, h, "/atom.xml", NULL);
	/* The rest: plain text, and warned about. */
	link_is(a, h, "/blog/nothing-here", "");
	link_is(a, h, "/posts/nope", "");
	link_is(a, h, "#design", "");
	link_is(a, h, "https://old.blog/gone/", NULL);
	INT_EQ(links_check(a), 4, "nothing-here, nope, files/nothing.png, "
	    "//localhost/gone/ warned; not another host's page");
	archive_unref(a);

	/* With web_url, what names nothing goes to the old site. */
	config_for(&c, dir);
	c.web_url = "https://old.blog";
	a = archive_load(&c);
	if (a != NULL) {
		link_is(a, h, "/blog/nothing-here?x=1#y",
		    "https://old.blog/blog/nothing-here?x=1#y");
		link_is(a, h, "/2021/03/01/tool-0.70.0-release/",
		    "/posts/tool-0-70-0-release");
		link_is(a, h, "#design", "");
		/* web_url's host is the capsule's old self. */
		link_is(a, h, "//old.blog/blog/tool-0.70.0-release/",
		    "/posts/tool-0-70-0-release");
		link_is(a, h, "//OLD.blog/nothing?x",
		    "https://old.blog/nothing?x");
		link_is(a, h, "//old.blogger.com/x",
		    "https://old.blogger.com/x");
		INT_EQ(links_check(a), 4, "still warned");
		archive_unref(a);
	}
done:
	free(dir);
}

/*
 * A link resolves to a file only as the server would serve it: symbolic
 * links in files/ as follow_symlinks says, a second hard link only with
 * files_hardlinks, a page bundle's files with no link at all; and a
 * link to one it would refuse is warned about, as a missing file.
 */
static void
test_links_served(void)
{
	struct config	 c;
	struct archive	*a;
	char		*dir, p1[4200], p2[4200];
	const char	*h = "posts/2024-01-10-hello.md";
	static const char *const sub[] = { "posts", "files", "files/img",
	    "posts/2024-02-02-trip" };
	size_t		 i;

	dir = xasprintf("%s/served", top);
	mkdir(dir, 0755);
	for (i = 0; i < nitems(sub); i++)
		test_mkdir(dir, sub[i]);
	test_put(dir, "posts/2024-01-10-hello.md",
	    "---\ntitle: Hello\n---\n"
	    "[a](/assets/link.png) [b](/files/link.png)\n"
	    "[c](/assets/hard.png) [d](/posts/2024-02-02-trip/map.png)\n"
	    "[e](/posts/2024-02-02-trip/gone.png)\n"
	    "[f](/posts/2024-02-02-trip/real.png)\n"
	    "[g](/posts/trip/gone.png) [h](//localhost/files/nope.png)\n"
	    "[i](/posts/trip/real.png) [j](//localhost/files/other%2epng)\n");
	test_put(dir, "posts/2024-02-02-trip/index.md",
	    "---\ntitle: Trip\n---\nBody.\n");
	test_put(dir, "posts/2024-02-02-trip/real.png", "png");
	test_put(dir, "files/img/photo.png", "png");
	test_put(dir, "files/other.png", "png");
	test_path(p1, sizeof(p1), dir, "files/link.png");
	OK(symlink("img/photo.png", p1) == 0, "symlink in files/");
	test_path(p1, sizeof(p1), dir, "files/other.png");
	test_path(p2, sizeof(p2), dir, "files/hard.png");
	OK(link(p1, p2) == 0, "hard link in files/");
	test_path(p2, sizeof(p2), dir, "posts/2024-02-02-trip/map.png");
	OK(symlink("real.png", p2) == 0, "symlink in a bundle");

	/* follow_symlinks: false (links that stay inside are followed). */
	config_for(&c, dir);
	a = archive_load(&c);
	OK(a != NULL && a->nposts == 2, "served capsule loads");
	if (a == NULL)
		goto done;
	/* Without openat2 no link is followed, as when serving. */
	link_is(a, h, "/assets/link.png", have_openat2() ? "/files/link.png" :
	    "");
	link_is(a, h, "/assets/hard.png", "");
	link_is(a, h, "/assets/other.png", "");
	link_is(a, h, "/posts/2024-02-02-trip/map.png", "/posts/trip/map.png");
	link_is(a, h, "/posts/2024-02-02-trip/real.png",
	    "/posts/trip/real.png");
	link_is(a, h, "//localhost/files/other%2epng", "/files/other.png");
	INT_EQ(links_check(a), have_openat2() ? 6 : 8, "hard.png (refused), "
	    "map.png (a link in a bundle), gone.png twice, nope.png and "
	    "other.png (a second hard link) warned, and link.png twice "
	    "without openat2");
	archive_unref(a);

	/* follow_symlinks: never; files_hardlinks: true. */
	config_for(&c, dir);
	c.follow_symlinks = CONFIG_LINKS_NONE;
	c.files_hardlinks = 1;
	a = archive_load(&c);
	if (a != NULL) {
		link_is(a, h, "/assets/link.png", "");
		link_is(a, h, "/assets/hard.png", "/files/hard.png");
		link_is(a, h, "/assets/other.png", "/files/other.png");
		INT_EQ(links_check(a), 6, "link.png twice (refused), map.png, "
		    "gone.png twice and nope.png warned");
		archive_unref(a);
	}
done:
	free(dir);
}

/*
 * Files where the generator keeps them: a Hexo post's asset folder
 * ("x.md" beside "x/"), Typora's ("x.assets/"), an mkdocs-material
 * blog's assets/ beside posts/ named "../assets/y.png" from the
 * post's file, and the order a relative link is read in: the file's
 * own folder, then the page's address, then the old site's.
 */
static void
test_kept_files(void)
{
	struct config	 c;
	struct archive	*a;
	char		*dir;
	const char	*h = "posts/_posts/2020-01-02-hexo.md";
	const char	*m = "posts/2023/mk.md";
	static const char *const sub[] = { "posts", "posts/_posts",
	    "posts/_posts/2020-01-02-hexo", "posts/2023", "posts/t.assets",
	    "assets", "assets/img", "files", "layouts", "site" };
	size_t		 i;

	dir = xasprintf("%s/kept", top);
	mkdir(dir, 0755);
	for (i = 0; i < nitems(sub); i++)
		test_mkdir(dir, sub[i]);
	test_put(dir, h, "---\ntitle: Hexo\n---\n![a](a.png)\n");
	test_put(dir, "posts/_posts/2020-01-02-hexo/a.png", "PNG");
	test_put(dir, "posts/_posts/a.png", "PNG beside");
	test_put(dir, "posts/_posts/2020-01-02-hexo/only.png", "PNG");
	test_put(dir, "posts/t.md", "---\ntitle: T\ndate: 2020-02-02\n---\n"
	    "![b](b.png)\n");
	test_put(dir, "posts/t.assets/b.png", "PNG");
	test_put(dir, m, "---\ntitle: Mk\ndate: 2023-01-01\n---\n"
	    "![y](../../assets/img/y.png) [f](../../files/f.png) "
	    "[gone](../../assets/gone.png) [old](../2020/01/02/hexo/)\n");
	test_put(dir, "assets/img/y.png", "PNG");
	test_put(dir, "assets/img/unlinked.png", "PNG");
	test_put(dir, "files/f.png", "PNG");
	test_put(dir, "layouts/base.html", "<html>");
	test_put(dir, "site/x.png", "PNG");
	test_put(dir, "config.toml", "title = 'x'");
	config_for(&c, dir);
	c.root = "site";
	a = archive_load(&c);
	OK(a != NULL && a->nposts == 3, "kept-files capsule loads");
	if (a == NULL)
		goto done;
	/* The asset folder first, then beside the post. */
	link_is(a, h, "a.png", "/posts/hexo/a.png");
	link_is(a, h, "only.png", "/posts/hexo/only.png");
	link_is(a, "posts/t.md", "b.png", "/posts/t/b.png");
	/* A file by its place: an asset at its path, files/, the tree. */
	link_is(a, m, "../../assets/img/y.png", "/assets/img/y.png");
	link_is(a, m, "../../files/f.png", "/files/f.png");
	link_is(a, m, "../../site/x.png", "/x.png");
	link_is(a, m, "../../config.toml", "");
	/* Then the page's address ("/posts/mk"), then the old site's. */
	link_is(a, m, "./", "/posts/");
	link_is(a, m, "../", "/");
	link_is(a, m, "../2020/01/02/hexo/", "/posts/hexo");
	link_is(a, m, "../../assets/gone.png", "");
	link_is(a, m, "", NULL);
	/* A root-relative link to an asset, as the old site served it. */
	link_is(a, "index.md", "/assets/img/y.png", "/assets/img/y.png");
	OK(!links_asset(a, "assets/img/y.png"), "no asset before the check");
	INT_EQ(links_check(a), 1, "gone.png said");
	OK(links_asset(a, "assets/img/y.png"), "the linked file is an asset");
	OK(!links_asset(a, "assets/img/unlinked.png") &&
	    !links_asset(a, "layouts/base.html") &&
	    !links_asset(a, "config.toml"), "no other file of its folder");
	OK(links_generated(a, "/assets/img/y.png"), "an asset is the site's");
	/* Served from the asset folder and beside, as it resolved. */
	if (a->nposts > 0) {
		struct post	*p = archive_post(a, "hexo");
		char		*rel;

		rel = p != NULL ? archive_bundle_rel(a, p, "a.png") : NULL;
		STR_EQ(rel, "posts/_posts/2020-01-02-hexo/a.png",
		    "the asset folder's a.png");
		free(rel);
		rel = p != NULL ? archive_bundle_rel(a, p, "x.png") : NULL;
		STR_EQ(rel, "posts/_posts/x.png", "else beside the post");
		free(rel);
	}
	archive_unref(a);
done:
	free(dir);
}

static const struct harness_test tests[] = {
	TEST(test_aliases),
	TEST(test_meaning),
	TEST(test_links_served),
	TEST(test_kept_files),
};

int
main(int argc, char **argv)
{
	HARNESS_INIT(argc, argv, tests);

	snprintf(top, sizeof(top), "/tmp/capsuled-links-XXXXXX");
	if (mkdtemp(top) == NULL) {
		perror("mkdtemp");
		return 2;
	}
	harness_run();
	test_rm_tree(top);
	return harness_done();
}
