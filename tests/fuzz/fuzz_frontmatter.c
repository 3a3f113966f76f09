/*
 * fuzz_frontmatter.c -- libFuzzer target for frontmatter.c, date.c and
 * archive_slugify().
 *
 * The input is a whole Markdown file.  frontmatter_parse() must either
 * fill a struct meta whose body offset lies inside the input and whose
 * one-line fields hold no line break or control byte, or fail with a
 * position and a message; read as an authors file (authors.c), the names
 * it gives are one line too.  The same bytes are also a date: a parsed date
 * must print as RFC 3339 and parse back to the same instant.  As a tag
 * name they must slugify to [a-z0-9]+ words joined by single '-'.  As a
 * link in a post of a small capsule (made once in a temp directory) they
 * must resolve to a site path or to nothing, and as an old address name
 * one post or none.  A date in them as a path, and their old-address key,
 * are well formed.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "content/archive.h"
#include "content/authors.h"
#include "content/frontmatter.h"
#include "content/links.h"
#include "core/config.h"
#include "core/date.h"
#include "core/layout.h"
#include "core/util.h"

int	 LLVMFuzzerTestOneInput(const uint8_t *, size_t);

#define CHECK(c)	do { if (!(c)) abort(); } while (0)

/* One line, trimmed, no control character (C0, DEL, C1). */
static void
check_line(const char *s)
{
	const unsigned char	*p = (const unsigned char *)s;
	size_t			 len, i;

	if (s == NULL)
		return;
	len = strlen(s);
	CHECK(len > 0);
	CHECK(p[0] != ' ' && p[len - 1] != ' ');
	for (i = 0; i < len; i++) {
		CHECK(p[i] >= 0x20 && p[i] != 0x7F);
		CHECK(!(p[i] == 0xC2 && i + 1 < len && p[i + 1] >= 0x80 &&
		    p[i + 1] < 0xA0));
		CHECK(!(p[i] == ' ' && p[i + 1] == ' '));
	}
}

static void
check_slug(const char *s)
{
	size_t	 i, len = strlen(s);

	if (len == 0)
		return;
	CHECK(s[0] != '-' && s[len - 1] != '-');
	for (i = 0; i < len; i++) {
		CHECK((s[i] >= 'a' && s[i] <= 'z') ||
		    (s[i] >= '0' && s[i] <= '9') || s[i] == '-');
		CHECK(!(s[i] == '-' && s[i + 1] == '-'));
	}
}

static const char *const files[][2] = {
	{ "posts/2024-01-01-a.md", "---\ntitle: A\n---\nx\n" },
	{ "posts/b.md", "---\ndate: 2024-02-02\nslug: bee\n---\n" },
	{ "pages/about.md", "# About\n" },
	{ "series/s.md", "---\ntitle: S\n---\n" },
	{ "posts/2020/01/02/c/index.gmi", "# C\n" },
	{ "posts/blog/d@2.md", "+++\npath = \"blog/2021/01/d\"\n"
	    "aliases = [\"/old/d/\", \"https://x.example/d.html\"]\n+++\n" },
};
/* The folders of files[], parents first. */
static const char *const dirs[] = { "posts", "posts/2020", "posts/2020/01",
    "posts/2020/01/02", "posts/2020/01/02/c", "posts/blog", "pages",
    "series" };
static char		 capsule[64];
static struct archive	*arch;

static void
cleanup(void)
{
	char	 path[128];
	size_t	 i;

	archive_unref(arch);
	for (i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		snprintf(path, sizeof(path), "%s/%s", capsule, files[i][0]);
		unlink(path);
	}
	for (i = sizeof(dirs) / sizeof(dirs[0]); i-- > 0;) {
		snprintf(path, sizeof(path), "%s/%s", capsule, dirs[i]);
		rmdir(path);
	}
	rmdir(capsule);
}

/* A small capsule to resolve links against, made on first use. */
static struct archive *
capsule_archive(void)
{
	struct config	 c;
	char		 path[128];
	FILE		*f;
	size_t		 i;

	if (arch != NULL)
		return arch;
	snprintf(capsule, sizeof(capsule), "/tmp/capsuled-fuzz-XXXXXX");
	if (mkdtemp(capsule) == NULL)
		abort();
	for (i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++) {
		snprintf(path, sizeof(path), "%s/%s", capsule, dirs[i]);
		mkdir(path, 0755);
	}
	for (i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		snprintf(path, sizeof(path), "%s/%s", capsule, files[i][0]);
		if ((f = fopen(path, "w")) == NULL)
			abort();
		fputs(files[i][1], f);
		fclose(f);
	}
	memset(&c, 0, sizeof(c));
	c.capsule_dir = capsule;
	c.lang = "en";
	if ((arch = archive_load(&c)) == NULL || arch->nposts != 4)
		abort();
	atexit(cleanup);
	return arch;
}

static void
check_resolved(const char *url, const char *link)
{
	if (link == NULL || link[0] == '/' || link[0] == '\0')
		return;
	/* "///x" loses a slash first, as "//2015/x/" does. */
	CHECK(strncmp(url, "//", 2) == 0 && strncmp(link, "https://", 8) == 0 &&
	    strstr(url, link + 6) != NULL);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char	*src = (const char *)data, *errstr;
	struct meta	 m;
	struct fm_error	 e;
	struct date	 d, d2;
	struct post	*p;
	struct authors	*t;
	char		 out[32], *s, *slug, *link, *key;
	size_t		 i;
	int		 day, ambiguous;

	if (frontmatter_parse(src, size, &m, &e) == 0) {
		CHECK(m.body_off <= size);
		CHECK(m.body_line >= 1);
		check_line(m.title);
		check_line(m.summary);
		check_line(m.series);
		check_line(m.author);
		for (i = 0; i < m.ntags; i++)
			check_line(m.tags[i]);
		if (m.has_date)
			CHECK(strlen(m.date.ymd) == 10);
		meta_free(&m);
	} else {
		CHECK(e.line >= 1 && e.col >= 1 && e.msg[0] != '\0');
		CHECK(m.title == NULL && m.tags == NULL);
	}

	/* As an authors file: a table whose names are one line each. */
	if ((t = authors_parse(src, size, &e)) != NULL) {
		CHECK(e.msg[0] == '\0');
		if ((s = authors_resolve(t, "ana, bo")) != NULL) {
			check_line(s);
			free(s);
		}
	} else
		CHECK(e.msg[0] == '\0' || (e.line >= 1 && e.col >= 1));
	authors_free(t);

	if (date_parse(src, size, &d, &errstr) == 0) {
		date_rfc3339(&d, out);
		CHECK(date_parse(out, strlen(out), &d2, &errstr) == 0);
		CHECK(d2.t == d.t && d2.tzoff == d.tzoff);
	} else
		CHECK(errstr != NULL);
	if (size > 10)
		(void)date_from_filename(src, &d);	/* may stop at a NUL */
	day = -1;
	if (date_from_path(src, size, 1, &d, &day) == 0)
		CHECK(strlen(d.ymd) == 10 && (day == 0 || day == 1));
	/* An old-address key (of a C string): segments joined by '/'. */
	if ((key = layout_old_key(src, strnlen(src, size))) != NULL) {
		CHECK(*key != '\0' && key[0] != '/' &&
		    key[strlen(key) - 1] != '/' && strstr(key, "//") == NULL);
		free(key);
	}

	s = frontmatter_oneline(src, size, FM_ENTITIES);
	CHECK(strchr(s, '\n') == NULL);
	free(s);

	s = xstrndup(src, size);		/* a tag name stops at a NUL */
	slug = archive_slugify(s);
	check_slug(slug);
	free(slug);
	/*
	 * A path of ours, or "" (plain text: names nothing, no web_url);
	 * a network-path reference ("//host/x") to another host is read
	 * as the https link it is.
	 */
	link = links_resolve(capsule_archive(), "posts/b.md", s);
	check_resolved(s, link);
	free(link);
	link = links_resolve(capsule_archive(), "index.md", s);
	check_resolved(s, link);
	free(link);
	link = links_resolve(capsule_archive(), "posts/blog/d@2.md", s);
	check_resolved(s, link);
	free(link);
	p = archive_post_address(capsule_archive(), s, &ambiguous);
	CHECK(p == NULL || !ambiguous);
	free(s);
	return 0;
}
