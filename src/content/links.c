/*
 * links.c -- links between the files of a capsule: resolving them, and
 * reporting those that name no post.
 *
 * links_resolve() is what the renderers' link hook calls for every link
 * of a post or page: a link to another Markdown file of the capsule, to
 * a file it serves (where the generator kept it: beside the post, in
 * its asset folder, in a folder at the top), or to a post's old web URL
 * (config link_aliases), becomes the path the server answers it at.
 * The check also finds the files at the top that links name, the only
 * ones of such folders served (links_asset()).  The link check asks the
 * same question of every link the archive found in its posts and pages
 * (scan_links(), kept with each file, so an unchanged file is not
 * scanned again) and warns about those that name nothing:
 * "posts/a.md:12:5: link to missing post b.md".  The application runs
 * the check after each load (app/reload.c), before the snapshot is
 * served.  What it logs is bounded: at most LINKS_WARN_MAX lines a file,
 * then a total; each line is said through archive_say(), which logs it
 * once (again only when its file's bytes change, or when it is new: a
 * post it names came or went), so a rebuild for another file's save
 * logs nothing.
 *
 * Knows the archive's lookups and URL path syntax; nothing of rendering
 * or requests.  Every string returned is malloc'd for the caller.
 */
#include <limits.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "content/archive.h"
#include "content/links.h"
#include "core/buf.h"
#include "core/capfile.h"
#include "core/date.h"
#include "core/fsafe.h"
#include "core/layout.h"
#include "core/log.h"
#include "core/url.h"
#include "core/util.h"
#include "markdown/scan.h"

/* ---- resolving ----------------------------------------------------- */

/*
 * Resolve url[0..len) against the directory of from_path into a
 * normalised capsule path ("posts/x.md"), percent-decoded; NULL when it
 * climbs out of the capsule.
 */
static char *
capsule_path(const char *from_path, const char *url, size_t len)
{
	struct buf	 dec = BUF_INIT, out = BUF_INIT;
	const char	*slash, *seg;
	size_t		 i, seglen, cut;
	int		 hi, lo;

	if (url[0] != '/' && (slash = strrchr(from_path, '/')) != NULL)
		buf_add(&dec, from_path, (size_t)(slash - from_path) + 1);
	for (i = 0; i < len; i++) {
		if (url[i] == '%' && len - i > 2 &&
		    (hi = url_hexval((unsigned char)url[i + 1])) >= 0 &&
		    (lo = url_hexval((unsigned char)url[i + 2])) >= 0 &&
		    (hi | lo) != 0) {
			buf_addc(&dec, hi << 4 | lo);
			i += 2;
		} else
			buf_addc(&dec, url[i]);
	}
	buf_add(&out, "", 0);		/* NUL-terminated even when empty */
	for (i = 0; i < dec.len; i += seglen + 1) {
		seg = dec.data + i;
		slash = memchr(seg, '/', dec.len - i);
		seglen = slash ? (size_t)(slash - seg) : dec.len - i;
		if (seglen == 0 || (seglen == 1 && seg[0] == '.'))
			continue;
		if (seglen == 2 && seg[0] == '.' && seg[1] == '.') {
			if (out.len == 0) {
				buf_free(&dec);
				buf_free(&out);
				return NULL;
			}
			cut = out.len;
			while (cut > 0 && out.data[cut - 1] != '/')
				cut--;
			buf_truncate(&out, cut > 0 ? cut - 1 : 0);
			continue;
		}
		if (out.len > 0)
			buf_addc(&out, '/');
		buf_add(&out, seg, seglen);
	}
	buf_free(&dec);
	return buf_release(&out);
}

/*
 * The part of url after the link_aliases prefix it starts with (the
 * scheme and host compared without case), or NULL when none matches.
 */
static const char *
alias_rest(const struct archive *a, const char *url)
{
	const char	*pfx, *host;
	size_t		 i, len, hostend;

	for (i = 0; i < a->nlink_aliases; i++) {
		pfx = a->link_aliases[i];
		len = strlen(pfx);
		host = strstr(pfx, "://") + 3;
		hostend = (size_t)(host - pfx) + strcspn(host, "/");
		if (strncasecmp(url, pfx, hostend) != 0 ||
		    strncmp(url + hostend, pfx + hostend, len - hostend) != 0)
			continue;
		/* "https://old.blog" is not "https://old.blogger.com". */
		if (hostend == len && strchr("/?#", url[len]) == NULL)
			continue;
		return url + len;
	}
	return NULL;
}

/*
 * A file's path of the site ("/posts/x/", "a#b.png"), as links_resolve()
 * returns paths: decoded, but for '%', '#' and '?', which a file's name
 * may hold and a link would read as an escape, a fragment or a query;
 * those percent-encoded ("a%23b.png").  Malloc'd.
 */
static char *
file_link(const char *prefix, const char *name, const char *suffix)
{
	struct buf	 b = BUF_INIT;

	buf_addstr(&b, prefix);
	for (; *name != '\0'; name++)
		if (*name == '%' || *name == '#' || *name == '?')
			buf_printf(&b, "%%%02X", (unsigned char)*name);
		else
			buf_addc(&b, *name);
	buf_addstr(&b, suffix);
	buf_addc(&b, '\0');
	return buf_release(&b);
}

/* ---- by meaning ---------------------------------------------------- */

#define MAX_SEGS	32

/* Sections of a web site's addresses that name a series or a topic. */
static const struct {
	const char	*name;
	int		 series;
} sections[] = {
	{ "series", 1 }, { "tags", 0 }, { "tag", 0 }, { "categories", 0 },
	{ "category", 0 }, { "topics", 0 }, { "topic", 0 },
};

/* Split path at '/' into at most MAX_SEGS non-empty segments. */
static size_t
split(char *path, char *segs[MAX_SEGS])
{
	char	*p, *slash;
	size_t	 n = 0;

	for (p = path; *p != '\0' && n < MAX_SEGS; p = slash + 1) {
		if ((slash = strchr(p, '/')) != NULL)
			*slash = '\0';
		if (*p != '\0')
			segs[n++] = p;
		if (slash == NULL)
			break;
	}
	return n;
}

/*
 * A file the old site served ("/assets/img/x.png"), when the writer put
 * it in files/: at the same path, else at the longest tail of it that
 * is there ("img/x.png", then "x.png").  "/files/..." or NULL.  Opened
 * as the server opens it (archive_files_open(): follow_symlinks,
 * files_hardlinks), so a link never leads to what it would refuse.
 */
static char *
in_files(const struct archive *a, const char *path)
{
	struct stat	 st;
	enum fsafe_kind	 kind;
	const char	*tail = path;
	char		*rel;
	int		 fd;

	while (tail != NULL && *tail != '\0') {
		rel = xasprintf(CAPFILE_FILES "/%s", tail);
		fd = archive_files_open(a, rel, a->files_links,
		    a->files_hardlinks, &st, &kind);
		free(rel);
		if (fd != -1) {
			close(fd);
			if (kind == FSAFE_FILE)
				return file_link(LAYOUT_PATH_FILES, tail, "");
		}
		if ((tail = strchr(tail, '/')) != NULL)
			tail++;
	}
	return NULL;
}

/*
 * Is rel ("assets/img/y.png", decoded, no dot segment) a file of the
 * capsule that a link may name as an asset: in a folder of the top level
 * that is none of the capsule's own and whose name no generated page has
 * (docs/operating.md, "URL layout"), no source, not hidden, and served by
 * the rules of files/ (archive_files_open())?  It is then served at
 * "/<rel>", the path a site that kept its files so served it at.
 */
static int
asset_file(const struct archive *a, const char *rel)
{
	struct stat	 st;
	enum fsafe_kind	 kind;
	const char	*slash = strchr(rel, '/');
	char		 top[NAME_MAX + 1];
	int		 fd;

	if (slash == NULL || slash == rel || slash[1] == '\0' ||
	    (size_t)(slash - rel) >= sizeof(top) ||
	    capfile_ext(rel, strlen(rel)) != 0)
		return 0;
	memcpy(top, rel, (size_t)(slash - rel));
	top[slash - rel] = '\0';
	if (layout_reserved(top) || capfile_entry(CAPFILE_TOP_DIR, top, true,
	    NULL) != CAPFILE_IGNORED || (a->static_root != NULL &&
	    strcmp(top, a->static_root) == 0))
		return 0;
	if ((fd = archive_files_open(a, rel, a->files_links,
	    a->files_hardlinks, &st, &kind)) == -1)
		return 0;
	close(fd);
	return kind == FSAFE_FILE;
}

static int
cmp_asset(const void *key, const void *elt)
{
	return strcmp(key, *(char *const *)elt);
}

int
links_asset(const struct archive *a, const char *rel)
{
	return a->nassets > 0 && bsearch(rel, a->assets, a->nassets,
	    sizeof(*a->assets), cmp_asset) != NULL;
}

/*
 * A file a relative link names by its place in the capsule (path,
 * decoded and normalised, not a source), when the server serves it
 * at a path of its own: in files/ ("/files/..."), in the static tree
 * at "/" (its path there), or an asset (asset_file(): "/<path>").
 * NULL otherwise.
 */
static char *
file_resolve(const struct archive *a, const char *path)
{
	struct stat	 st;
	enum fsafe_kind	 kind;
	size_t		 n;
	int		 fd;

	if (strncmp(path, CAPFILE_FILES "/", sizeof(CAPFILE_FILES)) == 0) {
		if ((fd = archive_files_open(a, path, a->files_links,
		    a->files_hardlinks, &st, &kind)) == -1)
			return NULL;
		close(fd);
		return file_link("/", path, kind == FSAFE_DIR ? "/" : "");
	}
	if (a->static_root != NULL && (n = strlen(a->static_root)) > 0 &&
	    strncmp(path, a->static_root, n) == 0 && path[n] == '/') {
		if ((fd = archive_files_open(a, path, a->files_links,
		    a->files_hardlinks, &st, &kind)) == -1)
			return NULL;
		close(fd);
		return file_link("", path + n, kind == FSAFE_DIR ? "/" : "");
	}
	return asset_file(a, path) ? file_link("/", path, "") : NULL;
}

/*
 * What an address of the writer's old site names in the capsule, by its
 * meaning: path is its path, percent-decoded, without query, fragment
 * and leading '/' ("2020/12/15/slug/", "blog/series/x", "x.html").
 *   .../series/<x>, .../tags/<x> (tag, categories, category, topics)
 *                      -> "/series/<slug>/", "/tags/<slug>/"
 *   .../<name>.<ext>   -> "/files/..." when files/ has it (in_files()),
 *                         else "/<path>" when the capsule has it there
 *                         as an asset (asset_file())
 *   .../<name>[.html]  -> "/posts/<slug>" of the post that declares
 *                         the address, else that name names, by its
 *                         date when several do (archive_post_address():
 *                         never one of another date)
 *   <page>[.html]      -> "/<page>", a page of pages/
 * An index page ("x/index.html") stands for its folder.  NULL when it
 * names nothing the capsule has.
 */
static char *
by_meaning(const struct archive *a, const char *path)
{
	struct post	*p;
	struct doc	*d;
	char		*copy, *segs[MAX_SEGS], *slug, *res = NULL;
	size_t		 n, i, k;
	int		 ambiguous;

	copy = xstrdup(path);
	n = split(copy, segs);
	if (n > 0 && layout_index_page(segs[n - 1]))
		n--;
	if (n == 0)
		goto out;
	for (i = 0; i + 1 < n; i++)
		for (k = 0; k < nitems(sections); k++) {
			if (strcasecmp(segs[i], sections[k].name) != 0)
				continue;
			slug = archive_slugify(segs[i + 1]);
			if (sections[k].series && archive_series(a, slug))
				res = layout_path(LAYOUT_SERIES, slug, NULL);
			else if (!sections[k].series && archive_tag(a, slug))
				res = layout_path(LAYOUT_TAG, slug, NULL);
			free(slug);
			goto out;
		}
	if (layout_page_ext(segs[n - 1]) == 0 && strchr(segs[n - 1], '.') !=
	    NULL && ((res = in_files(a, path)) != NULL ||
	    (asset_file(a, path) && (res = file_link("/", path, "")) !=
	    NULL)))
		goto out;
	segs[n - 1][strlen(segs[n - 1]) - layout_page_ext(segs[n - 1])] =
	    '\0';
	/* Never a post of the same name but another date: none, then. */
	if ((p = archive_post_address(a, path, &ambiguous)) != NULL)
		res = layout_path(LAYOUT_POST, p->slug, NULL);
	else if (n == 1 && !ambiguous && (d = archive_doc(a, segs[0])) !=
	    NULL)
		/* "/about/index.html" */
		res = layout_path(LAYOUT_PAGE, d->name, NULL);
out:
	free(copy);
	return res;
}

/*
 * Is path (no leading '/') a file or a directory of the static tree at
 * "/" (config "root"), by the rules that serve it (site/static.c)?
 */
static int
in_tree(const struct archive *a, const char *path)
{
	struct stat	 st;
	enum fsafe_kind	 kind;
	char		*rel;
	int		 fd;

	rel = *path != '\0' ? xasprintf("%s/%.*s", a->static_root,
	    (int)strcspn(path, "?#"), path) : xstrdup(a->static_root);
	fd = archive_files_open(a, rel, a->files_links, a->files_hardlinks,
	    &st, &kind);
	free(rel);
	if (fd == -1)
		return 0;
	close(fd);
	return 1;
}

/*
 * Does the capsule answer path (as by_meaning() takes it: no leading
 * '/') with a generated page, as the router reads it (core/layout.h): its home, a
 * post, series or tag that is there, its lists and feeds, files/ (a
 * missing file answers 51 there), a page, an asset its links name?
 */
static int
generated(const struct archive *a, const char *path)
{
	struct layout_ref ref;
	char		*full, name[512];
	int		 found;

	full = xasprintf("/%s", path);
	layout_parse(full, 0, &ref);
	if (ref.name != NULL && layout_name(&ref, name, sizeof(name)) == -1)
		ref.kind = LAYOUT_NONE;
	if (ref.kind == LAYOUT_NONE)
		found = links_asset(a, path);	/* "assets/y.png" */
	else if (ref.kind == LAYOUT_USERS || ref.kind == LAYOUT_USER)
		found = 0;
	else if (ref.name == NULL || ref.kind == LAYOUT_DRAFT)
		found = 1;	/* home, a list, a feed, files/, search */
	else if (ref.kind == LAYOUT_POST || ref.kind == LAYOUT_POST_MENU)
		found = archive_post(a, name) != NULL;
	else if (ref.kind == LAYOUT_BUNDLE_FILE)
		/* "posts/<slug>/<file>": a file of the post's folder. */
		found = archive_post(a, name) != NULL;
	else if (ref.kind == LAYOUT_SERIES || ref.kind == LAYOUT_SERIES_FEED)
		found = archive_series(a, name) != NULL;
	else if (ref.kind == LAYOUT_TAG || ref.kind == LAYOUT_TAG_FEED)
		found = archive_tag(a, name) != NULL;
	else	/* a page or its menu */
		found = archive_doc(a, name) != NULL;
	free(full);
	return found;
}

/* The capsule's own pages, or a file or folder of its static tree. */
static int
served(const struct archive *a, const char *path)
{
	return generated(a, path) || (a->static_root != NULL &&
	    in_tree(a, path));
}

int
links_generated(const struct archive *a, const char *path)
{
	return layout_site_path(path) && generated(a, path + 1);
}

/*
 * An old web URL of a post, "https://old.example/2021/03/kernel-notes-
 * 01.html" under the alias "https://old.example/": the path after the
 * alias, decoded, without query and fragment, malloc'd
 * ("2021/03/kernel-notes-01.html"); NULL when url is not under an alias
 * or has no segment there (the old blog's home page is no post).
 */
static char *
alias_path(const struct archive *a, const char *url)
{
	const char	*rest;
	char		*path;

	if ((rest = alias_rest(a, url)) == NULL)
		return NULL;
	if ((path = capsule_path("", rest, strcspn(rest, "?#"))) == NULL)
		return NULL;
	if (*path == '\0') {
		free(path);
		return NULL;
	}
	return path;
}

int
links_is_alias(const struct archive *a, const char *url)
{
	char	*path;

	if (url == NULL || (path = alias_path(a, url)) == NULL)
		return 0;
	free(path);
	return 1;
}

/*
 * Can host (up to '/', '?' or '#') be a host on the network: a name
 * with a dot, "localhost", or an address in brackets?  A writer's
 * "//2015/09/15/x/" (a site generator's url filter given one '/' too
 * many) names none, and is read as the path it meant.
 */
static int
net_host(const char *host)
{
	size_t	 len = strcspn(host, "/?#");

	return len > 0 && (memchr(host, '.', len) != NULL ||
	    host[0] == '[' || (len == 9 && strncasecmp(host, "localhost",
	    9) == 0));
}

/*
 * A root-relative link ("/2015/01/02/x/"), as the capsule serves it:
 * NULL when the capsule answers it as written, else what it means
 * (by_meaning()); what means nothing goes to the old web site when
 * web_url is set, else is shown as plain text ("") -- *lost says so.
 */
static char	*rooted_resolve(const struct archive *, const char *, int *);

/*
 * Is the host of "//host..." (len bytes after "//") host, without case?
 * A port or user part never matches: the capsule's own links have none.
 */
static int
same_host(const char *url, size_t len, const char *host)
{
	return host != NULL && strlen(host) == len &&
	    strncasecmp(url, host, len) == 0;
}

/*
 * A network-path reference "//host/path" (RFC 3986 4.2: the scheme of
 * the page it is on; the writer's was a web page), read as
 * "https://host/path": under a link_aliases prefix, by its meaning (the
 * https address when that names nothing); on the capsule's own host, or
 * under web_url, the root-relative path it names there, resolved and
 * warned about as one (rooted_resolve()); any other host, the https
 * link.  Never left as written: a Gemini client would read it as
 * gemini://host/path.
 */
static char *
netpath_resolve(const struct archive *a, const char *url, int *lost)
{
	const char	*host = url + 2, *rest, *wh;
	char		*abs, *path, *res;
	size_t		 hlen, wlen, whost;
	int		 own = 0;

	abs = xasprintf("https:%s", url);
	if ((path = alias_path(a, abs)) != NULL) {
		res = by_meaning(a, path);
		free(path);
		if (res == NULL) {
			*lost = 1;	/* the old address is still useful */
			return abs;
		}
		free(abs);
		return res;
	}
	hlen = strcspn(host, "/?#");
	rest = host + hlen;
	if (a->web_url != NULL && (wh = strstr(a->web_url, "://")) != NULL) {
		/* web_url's host, and its path, which its links are under. */
		wh += 3;
		wlen = strlen(wh);
		whost = strcspn(wh, "/");
		if (strncasecmp(host, wh, whost) == 0 &&
		    strncmp(host + whost, wh + whost, wlen - whost) == 0 &&
		    strchr("/?#", host[wlen]) != NULL) {
			rest = host + wlen;
			own = 1;
		}
	}
	if (own || same_host(host, hlen, a->hostname)) {
		free(abs);
		path = xasprintf("%s%s", *rest == '/' ? "" : "/", rest);
		if ((res = rooted_resolve(a, path, lost)) == NULL) {
			/* The capsule answers it: decoded, as resolve()'s. */
			free(path);
			path = capsule_path("", rest, strcspn(rest, "?#"));
			res = xasprintf("/%s%s", path != NULL ? path : "",
			    rest + strcspn(rest, "?#"));
		}
		free(path);
		return res;
	}
	return abs;
}

static char *
rooted_resolve(const struct archive *a, const char *url, int *lost)
{
	char	*path, *res = NULL;

	if ((path = capsule_path("", url, strcspn(url, "?#"))) == NULL)
		path = xstrdup("");
	if (!served(a, path) && (res = by_meaning(a, path)) == NULL) {
		*lost = 1;
		res = a->web_url != NULL ? xasprintf("%s%s", a->web_url,
		    url) : xstrdup("");
	}
	free(path);
	return res;
}

/* "/posts/<slug>/<name>" of the post p's file name (file_link()). */
static char *
bundle_link(const struct post *p, const char *name)
{
	char	*pre, *res;

	pre = layout_path(LAYOUT_BUNDLE_FILE, p->slug, NULL);
	res = file_link(pre, name, "");
	free(pre);
	return res;
}

/*
 * A capsule path into a page bundle, "posts/<folder>/<rest>": the
 * bundle's post when rest is its index (or empty), else the path its
 * file is served at, "/posts/<slug>/<rest>"; NULL when no bundle has
 * that folder, or rest names a .md or .gmi file (a post's, as
 * anywhere).  Whether the file is there is the server's to say, as for
 * files/.
 */
static char *
bundle_resolve(const struct archive *a, const char *path)
{
	struct post	*p = NULL;
	const char	*top = path + sizeof(CAPFILE_POSTS), *rest = NULL;
	const char	*q, *last;
	char		 key[PATH_MAX], idx[CAPFILE_INDEX_MAX];
	size_t		 len = 0, ilen, i;
	int		 index;

	if (strncmp(path, CAPFILE_POSTS "/", sizeof(CAPFILE_POSTS)) != 0 ||
	    *top == '\0')
		return NULL;
	/*
	 * A source that is no bundle's post is a post's, whatever folder
	 * it is in (resolve() goes on): most links between posts end here,
	 * before a lookup per folder of the path.
	 */
	last = (last = strrchr(top, '/')) != NULL ? last + 1 : top;
	if (capfile_link_ext(last, strlen(last)) > 0 &&
	    capfile_entry(CAPFILE_BUNDLE_DIR, last, false, NULL) !=
	    CAPFILE_BUNDLE)
		return NULL;
	/* The bundle at any depth: "posts/2020/01/02/x/pic.png". */
	for (q = top; p == NULL && *q != '\0'; q += *q == '/') {
		q += strcspn(q, "/");
		len = (size_t)(q - top);
		for (i = 0; p == NULL && capfile_bundle_index(i, idx,
		    sizeof(idx)); i++) {
			if (len + 1 + (ilen = strlen(idx)) >= sizeof(key))
				continue;
			memcpy(key, top, len);
			key[len] = '/';
			memcpy(key + len + 1, idx, ilen + 1);
			p = archive_post_file(a, key);
		}
		rest = *q == '/' ? q + 1 : q;
	}
	if (p == NULL || !p->bundle)
		return NULL;
	index = *rest == '\0' || capfile_entry(CAPFILE_BUNDLE_DIR, rest,
	    false, NULL) == CAPFILE_BUNDLE;
	/* Other .md and .gmi names are posts' (resolve() goes on). */
	if (!index && capfile_link_ext(rest, strlen(rest)) > 0)
		return NULL;
	if (index)
		return layout_path(LAYOUT_POST, p->slug, NULL);
	return bundle_link(p, rest);
}

/*
 * A file beside the single-file post from_path names ("posts/img/x.png"
 * from "posts/x.md"), at "/posts/<slug>/img/x.png", as a bundle's
 * (content/files.c says what of it is served); NULL when from_path is no
 * such post, url is root-relative, or path is not beside it, names a
 * post's source or is not served.
 */
static char *
beside_resolve(const struct archive *a, const char *from_path,
    const char *url, const char *path)
{
	struct post	*p;
	struct stat	 st;
	const char	*slash;
	size_t		 dirlen;
	int		 fd;

	if (url[0] == '/' || from_path == NULL ||
	    strncmp(from_path, CAPFILE_POSTS "/", sizeof(CAPFILE_POSTS)) != 0 ||
	    (p = archive_post_file(a, from_path + sizeof(CAPFILE_POSTS))) ==
	    NULL || p->bundle ||
	    (slash = strrchr(from_path, '/')) == NULL)
		return NULL;
	dirlen = (size_t)(slash - from_path) + 1;
	if (strncmp(path, from_path, dirlen) != 0 || path[dirlen] == '\0' ||
	    archive_md_name(path) || archive_gmi_name(path))
		return NULL;
	/*
	 * Only a file that is there: "other" in a post at /posts/x is the
	 * post /posts/other to a client, as it always was.
	 */
	if ((fd = archive_bundle_open(a, p, path + dirlen, a->files_hardlinks,
	    &st)) == -1)
		return NULL;
	close(fd);
	return bundle_link(p, path + dirlen);
}

/*
 * What a relative link that climbs out of the capsule names past its
 * dot segments: "img/x.png" of "../../../../img/x.png" (len bytes of
 * url; the rest, also len - the result's offset, is the caller's).
 */
static const char *
outside_path(const char *url, size_t *len)
{
	while (*len >= 2 && (strncmp(url, "./", 2) == 0 ||
	    (*len >= 3 && strncmp(url, "../", 3) == 0))) {
		*len -= url[1] == '/' ? 2 : 3;
		url += url[1] == '/' ? 2 : 3;
	}
	return url;
}

/*
 * The path a reader asks for the page made from the file from_path
 * ("posts/x.md" -> "/posts/<slug>", "pages/about.md" -> "/about",
 * "series/s.md" -> "/series/<slug>/", "index.md" -> "/"), malloc'd;
 * NULL for a file that makes no page.
 */
static char *
address_of(const struct archive *a, const char *from_path)
{
	struct post	*p;
	struct doc	*d;
	struct series	*se;
	char		*stem, *slug, *res = NULL;
	size_t		 plen = sizeof(CAPFILE_PAGES);
	size_t		 slen = sizeof(CAPFILE_SERIES);

	if (from_path == NULL)
		return NULL;
	if (strcmp(from_path, CAPFILE_HOME) == 0)
		return xstrdup(LAYOUT_PATH_HOME);
	if (strncmp(from_path, CAPFILE_POSTS "/", sizeof(CAPFILE_POSTS)) ==
	    0 && (p = archive_post_file(a, from_path +
	    sizeof(CAPFILE_POSTS))) != NULL)
		return layout_path(LAYOUT_POST, p->slug, NULL);
	if (strncmp(from_path, CAPFILE_PAGES "/", plen) == 0) {
		stem = xstrndup(from_path + plen, strcspn(from_path + plen,
		    "."));
		if ((d = archive_doc(a, stem)) != NULL)
			res = layout_path(LAYOUT_PAGE, d->name, NULL);
		free(stem);
	} else if (strncmp(from_path, CAPFILE_SERIES "/", slen) == 0) {
		stem = xstrndup(from_path + slen, strcspn(from_path + slen,
		    "."));
		slug = archive_slugify(stem);
		if ((se = archive_series(a, slug)) != NULL)
			res = layout_path(LAYOUT_SERIES, se->slug, NULL);
		free(slug);
		free(stem);
	}
	return res;
}

/*
 * url[0..len) (relative, as written: not decoded) resolved against the
 * site path base as a client resolves it (RFC 3986 5.2.2 and 5.2.4:
 * base's last segment replaced, dot segments removed, never above
 * "/"), a trailing '/' kept: "../assets/y.png" from "/posts/x" is
 * "/assets/y.png", "./" from "/posts/x" is "/posts/".  Malloc'd.
 */
static char *
merge_path(const char *base, const char *url, size_t len)
{
	struct buf	 in = BUF_INIT, out = BUF_INIT;
	const char	*seg, *slash;
	size_t		 i, n, cut;
	int		 dir = 0;	/* the path ends in a folder: '/' */

	slash = strrchr(base, '/');
	buf_add(&in, base, (size_t)(slash - base) + 1);
	buf_add(&in, url, len);
	for (i = 1; i <= in.len; i += n + 1) {
		seg = in.data + i;
		slash = i < in.len ? memchr(seg, '/', in.len - i) : NULL;
		n = slash != NULL ? (size_t)(slash - seg) : in.len - i;
		dir = slash != NULL;
		if (n == 0 || (n == 1 && seg[0] == '.')) {
			dir = 1;
			continue;
		}
		if (n == 2 && seg[0] == '.' && seg[1] == '.') {
			for (cut = out.len; cut > 0 && out.data[cut - 1] != '/';
			    cut--)
				;
			buf_truncate(&out, cut > 0 ? cut - 1 : 0);
			dir = 1;
			continue;
		}
		buf_addc(&out, '/');
		buf_add(&out, seg, n);
	}
	if (out.len == 0 || dir)
		buf_addc(&out, '/');
	buf_free(&in);
	buf_addc(&out, '\0');
	return buf_release(&out);
}

/*
 * A relative link that names no file beside its source (resolve()): as
 * a reader's client reads it, against the page's own address
 * (address_of()), a path the capsule answers as it is; else what that
 * path meant on the writer's old site (rooted_resolve(): by its
 * meaning, else the old site's page with web_url, else text, *lost
 * set).  NULL, the link left as written, for a file that makes no
 * page.
 */
static char *
address_resolve(const struct archive *a, const char *from_path,
    const char *url, size_t ulen, int *lost)
{
	char	*base, *path, *full, *res;

	if ((base = address_of(a, from_path)) == NULL)
		return NULL;
	path = merge_path(base, url, ulen);
	full = xasprintf("%s%s", path, url + ulen);
	if ((res = rooted_resolve(a, full, lost)) == NULL) {
		res = full;
		full = NULL;
	}
	free(full);
	free(path);
	free(base);
	return res;
}

/*
 * A Zola internal link, "@/section/post.md" or "@/section/post/index.md"
 * (rest: after the "@/", query and fragment gone), names a file of the
 * site's content folder: the post of that file beneath posts/, the
 * content folder being posts/ or a section of it, so "section/post.md"
 * is tried, then "post.md"; a section's "_index.md" is its posts' list,
 * which the gemlog is here ("/gemlog/").  NULL when none is, *lost set.
 */
static char *
zola_resolve(const struct archive *a, const char *rest, size_t len,
    int *lost)
{
	struct post	*p = NULL;
	char		*key, *k;
	const char	*slash;

	key = xstrndup(rest, len);
	slash = strrchr(key, '/');
	if (capfile_entry(CAPFILE_POSTS_DIR, slash != NULL ? slash + 1 : key,
	    false, NULL) == CAPFILE_SECTION) {
		free(key);
		return xstrdup(LAYOUT_PATH_GEMLOG);
	}
	for (k = key; p == NULL && k != NULL && *k != '\0';
	    k = (slash = strchr(k, '/')) != NULL ? (char *)slash + 1 : NULL)
		p = archive_post_file(a, k);
	free(key);
	if (p == NULL) {
		*lost = 1;
		return xstrdup("");
	}
	return layout_path(LAYOUT_POST, p->slug, NULL);
}

/*
 * A file link's name ("notes" of "notes.md", "2024-01-01-notes") that
 * several posts have: the post it is the slug of, without its date
 * prefix, when one is.  A file is named by its name, and a slug is the
 * file name's unless the writer said otherwise; an old web address
 * (by_meaning()) gets no such guess.
 */
static struct post *
by_slug(const struct archive *a, const char *stem)
{
	struct date	 d;
	size_t		 plen = date_from_filename(stem, &d);

	return archive_post(a, stem[plen] != '\0' ? stem + plen : stem);
}

/*
 * Links between the files of a capsule, resolved against from_path's
 * directory (query and fragment dropped, percent-escapes decoded):
 *   posts/F.md    the post whose file is F.md, else whose file name
 *   posts/F.gmi   without date prefix is F, else whose slug is F
 *                 -> "/posts/<slug>"
 *   posts/D/X     in the page bundle D: its post for D/index.md (or
 *                 .gmi) or D/, else "/posts/<slug>/X"
 *   pages/N.md    -> "/N";  series/S.md -> "/series/<slug>/";
 *   index.md      -> "/"
 *   F.md, F.gmi   (no '/' at all) when nothing above matched: as a post
 *   P/X           beside a single-file post P, in its asset folder
 *                 first: "/posts/<slug>/X" (beside_resolve())
 *   files/X       -> "/files/X";  ROOT/X (the static tree) -> "/X";
 *   D/X           another file of a folder at the top: an asset,
 *                 "/D/X" (file_resolve())
 * A relative link that names no file of these is read as a reader's
 * client reads it, against the page's address, then by what that
 * address meant on the old site (address_resolve()).  A link under a
 * link_aliases prefix, or root-relative and not one the capsule
 * answers, is read by its meaning (by_meaning()); a link to a fragment
 * of the page ("#design") is plain text (""), gemtext having no
 * anchors; "//2015/x/", whose "host" can be none, is the path
 * "/2015/x/"; "//host/x" is read as https (netpath_resolve()).
 * Anything else with a scheme: left alone (NULL).  *lost is set when the link
 * names nothing it should (a missing post, a file that is not there, an
 * old address that means nothing here).
 */
static char *
resolve(const struct archive *a, const char *from_path, const char *url,
    int *lost)
{
	struct post		*p;
	struct doc		*d;
	struct series		*s;
	const char		*file;
	char			*path, *stem = NULL, *slug, *res = NULL;
	size_t			 ulen, len, dirlen, elen;
	int			 inposts, ambiguous;

	*lost = 0;
	if (url != NULL && url_has_scheme(url)) {
		if ((path = alias_path(a, url)) == NULL)
			return NULL;
		if ((res = by_meaning(a, path)) == NULL)
			*lost = 1;	/* the old address is still useful */
		free(path);
		return res;
	}
	if (url != NULL && url[0] == '/' && url[1] == '/' && !net_host(url + 2))
		url++;		/* "//2015/09/15/x/": a path with one '/' too many */
	if (url == NULL || *url == '\0')
		return NULL;		/* "": the page itself */
	if (url[0] == '/' && url[1] == '/')
		return netpath_resolve(a, url, lost);
	if (url[0] == '#')
		return xstrdup("");
	ulen = strcspn(url, "?#");	/* gemtext has no anchors: drop */
	len = ulen;
	if (url[0] == '@' && url[1] == '/')
		return zola_resolve(a, url + 2, ulen - 2, lost);
	/* "/#calendar": the old site's home page, not the capsule's. */
	if (url[0] == '/' && url[1] == '#') {
		*lost = 1;
		return a->web_url != NULL ? xasprintf("%s%s", a->web_url,
		    url) : xstrdup("");
	}
	path = capsule_path(from_path ? from_path : "", url, ulen);
	/* Into a page bundle's folder: its post, or its file. */
	if (path != NULL && ((res = bundle_resolve(a, path)) != NULL ||
	    (res = beside_resolve(a, from_path, url, path)) != NULL)) {
		free(path);
		return res;
	}
	if (url[0] == '/' && capfile_link_ext(url, len) == 0) {
		free(path);
		return rooted_resolve(a, url, lost);
	}
	if (path == NULL && capfile_link_ext(url, len) == 0) {
		/*
		 * Climbs out of the capsule: out of a bundle, the old site's
		 * "../../../../img/x.png" was its "/img/x.png".
		 */
		file = outside_path(url, &ulen);
		path = xasprintf("/%.*s%s", (int)ulen, file, file + ulen);
		res = rooted_resolve(a, path, lost);
		free(path);
		return res;
	}
	if (path == NULL) {
		*lost = 1;		/* climbs out of the capsule */
		return xstrdup("");
	}
	len = strlen(path);
	if ((elen = capfile_link_ext(path, len)) == 0) {
		/*
		 * A file by its place in the capsule; else the page the link
		 * names by the post's address, or by the old site's.
		 */
		if ((res = file_resolve(a, path)) == NULL)
			res = address_resolve(a, from_path, url, ulen, lost);
		goto out;
	}
	file = strrchr(path, '/');
	file = file ? file + 1 : path;
	dirlen = (size_t)(file - path);
	if (*file == '\0' || *file == '.')
		goto out;
	/* Posts may be gemtext; the rest of the capsule is Markdown. */
	inposts = strncmp(path, CAPFILE_POSTS "/", sizeof(CAPFILE_POSTS)) ==
	    0;
	if (capfile_gemtext(path) && dirlen != 0 && !inposts)
		goto out;
	stem = xstrndup(file, strlen(file) - elen);

	if (inposts) {
		/* Its file, in any folder; else the one post of its name. */
		if ((p = archive_post_file(a, path + sizeof(CAPFILE_POSTS))) ==
		    NULL &&
		    (p = archive_post_name(a, stem, &ambiguous)) == NULL &&
		    ambiguous)
			p = by_slug(a, stem);
		if (p != NULL)
			res = layout_path(LAYOUT_POST, p->slug, NULL);
	} else if (dirlen == sizeof(CAPFILE_PAGES) &&
	    memcmp(path, CAPFILE_PAGES "/", dirlen) == 0) {
		if ((d = archive_doc(a, stem)) != NULL)
			res = layout_path(LAYOUT_PAGE, d->name, NULL);
	} else if (dirlen == sizeof(CAPFILE_SERIES) &&
	    memcmp(path, CAPFILE_SERIES "/", dirlen) == 0) {
		slug = archive_slugify(stem);
		if ((s = archive_series(a, slug)) != NULL)
			res = layout_path(LAYOUT_SERIES, s->slug, NULL);
		free(slug);
	} else if (dirlen == 0 && strcmp(file, CAPFILE_HOME) == 0)
		res = xstrdup("/");
	/* A bare "x.md" not found beside from_path: try the posts. */
	if (res == NULL && memchr(url, '/', ulen) == NULL &&
	    ((p = archive_post_file(a, file)) != NULL ||
	    (p = archive_post_name(a, stem, &ambiguous)) != NULL ||
	    (ambiguous && (p = by_slug(a, stem)) != NULL)))
		res = layout_path(LAYOUT_POST, p->slug, NULL);
	if (res == NULL) {
		/* A source that is not here: text, never a dead link. */
		*lost = 1;
		res = xstrdup("");
	}
out:
	free(stem);
	free(path);
	return res;
}

char *
links_resolve(const struct archive *a, const char *from_path,
    const char *url)
{
	int	 lost;

	return resolve(a, from_path, url, &lost);
}

/* ---- the link check ------------------------------------------------ */

/*
 * Would the server refuse the capsule path "/files/..." or
 * "/posts/<slug>/<name>" (query and fragment ignored; decoded, or as
 * links_resolve() returns it with encoded set: file_link()): a file
 * that is not there, or one it does not serve (archive_files_open(),
 * archive_bundle_open())?  It would answer 51: said at load, since the
 * writer can fix it.
 */
static int
file_refused(const struct archive *a, const char *path, int encoded)
{
	struct stat	 st;
	enum fsafe_kind	 kind;
	struct post	*p;
	char		*rel, *slash;
	int		 fd = -2;

	rel = xstrndup(path + 1, strcspn(path + 1, "?#"));
	if (encoded && url_decode(rel) == -1)
		;			/* no file has such a name */
	else if (strncmp(rel, "files/", 6) == 0)
		fd = archive_files_open(a, rel, a->files_links,
		    a->files_hardlinks, &st, &kind);
	else if (strncmp(rel, "posts/", 6) == 0 &&
	    (slash = strchr(rel + 6, '/')) != NULL && slash[1] != '\0') {
		*slash = '\0';
		/* A file of the post's folder (a bundle's or beside it). */
		if ((p = archive_post(a, rel + 6)) != NULL)
			fd = archive_bundle_open(a, p, slash + 1,
			    a->files_hardlinks, &st);
	}
	free(rel);
	if (fd >= 0)
		close(fd);
	return fd == -1;
}

/*
 * The warnings of one file: the first LINKS_WARN_MAX kept to be said,
 * the rest counted.
 */
struct warned {
	char		*first[LINKS_WARN_MAX];
	unsigned	 n;
};

static void
warned_add(struct warned *w, char *msg)
{
	if (w->n < LINKS_WARN_MAX)
		w->first[w->n] = msg;
	else
		free(msg);
	w->n++;
}

/*
 * refs' warnings into w; returns how many (refs found in the file at
 * path).
 */
/* The assets the links of a snapshot name (asset_file()), as found. */
struct found_assets {
	char		**v;		/* owned */
	size_t		 n, cap;
};

/* to, a link resolved (or as written, for a path), if it is an asset. */
static void
found_asset(const struct archive *a, const char *to,
    struct found_assets *fa)
{
	char	*rel;

	if (fa == NULL || to == NULL || to[0] != '/' || to[1] == '/')
		return;
	rel = xstrndup(to + 1, strcspn(to + 1, "?#"));
	if (url_decode(rel) == 0 && asset_file(a, rel)) {
		if (fa->n == fa->cap) {
			fa->cap = fa->cap ? fa->cap * 2 : 16;
			fa->v = xreallocarray(fa->v, fa->cap, sizeof(*fa->v));
		}
		fa->v[fa->n++] = rel;
		return;
	}
	free(rel);
}

/*
 * Is url a link to a post, which is said to name a missing post when it
 * names nothing: to a source file (".md", ".gmi") relative to its own,
 * or an old web URL of one?  Else it is a path (a root-relative one, a
 * relative one to a file or a page), said to name nothing.
 */
static int
source_link(const char *url)
{
	return url[0] != '/' && (url_has_scheme(url) ||
	    capfile_ext(url, strcspn(url, "?#")) != 0);
}

static unsigned
report(const struct archive *a, const char *path,
    const struct scan_link *refs, size_t n, struct warned *w,
    struct found_assets *fa)
{
	unsigned	 found = 0;
	size_t		 i;
	char		*to, *dec;
	int		 lost, refused;

	for (i = 0; i < n; i++) {
		to = resolve(a, path, refs[i].url, &lost);
		if (!lost)
			found_asset(a, to != NULL ? to : refs[i].url, fa);
		/* What resolved, or a root-relative link as written. */
		dec = NULL;
		if (!lost && to == NULL && refs[i].url[0] == '/') {
			dec = xstrdup(refs[i].url);
			if (url_decode(dec) == -1)
				dec[0] = '\0';
		}
		refused = !lost && (to != NULL ? to[0] == '/' &&
		    file_refused(a, to, 1) : dec != NULL && (dec[0] == '\0' ||
		    file_refused(a, dec, 0)));
		free(dec);
		if (refused) {
			warned_add(w, xasprintf("%s:%u:%u: link to missing "
			    "file %s", path, refs[i].line, refs[i].col,
			    refs[i].url));
			free(to);
			found++;
			continue;
		}
		if (lost && !source_link(refs[i].url) && (to == NULL ||
		    *to == '\0'))
			warned_add(w, xasprintf("%s:%u:%u: link to %s names "
			    "nothing in the capsule; shown as text (web_url "
			    "would link the old site)", path, refs[i].line,
			    refs[i].col, refs[i].url));
		else if (lost && !source_link(refs[i].url))
			warned_add(w, xasprintf("%s:%u:%u: link to %s names "
			    "nothing in the capsule; linked to %s", path,
			    refs[i].line, refs[i].col, refs[i].url, to));
		else if (lost)
			warned_add(w, xasprintf("%s:%u:%u: link to missing "
			    "post %s", path, refs[i].line, refs[i].col,
			    refs[i].url));
		free(to);
		found += lost;
	}
	return found;
}

/*
 * Say w's lines (its first LINKS_WARN_MAX, then the total): logged
 * through archive_say() when a is being built (once, as it decides),
 * else logged; free them.
 */
static void
warned_log(struct warned *w, const char *path, struct archive *a)
{
	unsigned	 i;
	char		*more = NULL;

	if (w->n > LINKS_WARN_MAX)
		more = xasprintf("%s: ... and %u more links that name nothing "
		    "(%u in all)", path, w->n - LINKS_WARN_MAX, w->n);
	for (i = 0; i < w->n && i < LINKS_WARN_MAX; i++) {
		if (a != NULL)
			archive_say(a, path, ARCHIVE_SAID_LINK, 1,
			    LOG_LEVEL_WARN, w->first[i]);
		else
			log_warnx("%s", w->first[i]);
		free(w->first[i]);
	}
	if (more != NULL && a != NULL)
		archive_say(a, path, ARCHIVE_SAID_LINK, w->n - LINKS_WARN_MAX,
		    LOG_LEVEL_WARN, more);
	else if (more != NULL)
		log_warnx("%s", more);
	free(more);
}

/*
 * The links refs[0..n) of the file path of a checked and their warnings
 * logged: through archive_say() of said, or as they are when said is
 * NULL; the files they name added to fa when not NULL.
 */
static unsigned
check_file(const struct archive *a, struct archive *said, const char *path,
    const struct scan_link *refs, size_t n, struct found_assets *fa)
{
	struct warned	 w = { .n = 0 };
	unsigned	 found;

	found = report(a, path, refs, n, &w, fa);
	warned_log(&w, path, said);
	return found;
}

unsigned
links_report(const struct archive *a, const char *path,
    const struct scan_link *refs, size_t n)
{
	return check_file(a, NULL, path, refs, n, NULL);
}

static int
cmp_str(const void *x, const void *y)
{
	return strcmp(*(char *const *)x, *(char *const *)y);
}

/*
 * The assets the home page's text links to, as a post's: it has no
 * warnings of its own (its links were never checked), only files.
 */
static void
index_assets(const struct archive *a, struct found_assets *fa)
{
	struct scan_link	*refs;
	size_t			 n, i;
	char			*to;
	int			 lost;

	if (a->index_src == NULL)
		return;
	refs = scan_links(a->index_src + a->index_body_off, a->index_len -
	    a->index_body_off, 1, &n);
	for (i = 0; i < n; i++) {
		to = resolve(a, CAPFILE_HOME, refs[i].url, &lost);
		if (!lost)
			found_asset(a, to != NULL ? to : refs[i].url, fa);
		free(to);
	}
	scan_links_free(refs, n);
}

unsigned
links_check(struct archive *a)
{
	struct found_assets	 fa = { NULL, 0, 0 };
	unsigned		 found = 0;
	size_t			 i, k;

	for (i = 0; i < a->nposts + a->nunlisted; i++)
		found += check_file(a, a, a->posts[i]->path, a->posts[i]->links,
		    a->posts[i]->nlinks, &fa);
	for (i = 0; i < a->ndocs + a->nunlisted_docs; i++)
		found += check_file(a, a, a->docs[i]->path, a->docs[i]->links,
		    a->docs[i]->nlinks, &fa);
	index_assets(a, &fa);
	/* Sorted and each once, for links_asset()'s bsearch(). */
	if (fa.n > 1)
		qsort(fa.v, fa.n, sizeof(*fa.v), cmp_str);
	for (i = k = 0; i < fa.n; i++)
		if (k > 0 && strcmp(fa.v[k - 1], fa.v[i]) == 0)
			free(fa.v[i]);
		else
			fa.v[k++] = fa.v[i];
	for (i = 0; i < a->nassets; i++)
		free(a->assets[i]);
	free(a->assets);
	a->assets = fa.v;
	a->nassets = k;
	a->nwarnings += found;
	return found;
}
