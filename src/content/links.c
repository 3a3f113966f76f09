/*
 * links.c -- links between the files of a capsule: resolving them, and
 * reporting those that name no post.
 *
 * links_resolve() is what the renderers' link hook calls for every link
 * of a post or page: a link to another Markdown file of the capsule, or
 * to a post's old web URL (config link_aliases), becomes the path the
 * server answers it at.  The link check asks the same question of every
 * link the archive found in its posts and pages (scan_links(), kept
 * with each file, so an unchanged file is not scanned again) and warns
 * about those that name nothing: "posts/a.md:12:5: link to missing post
 * b.md".  The application runs the check after each load (app/reload.c),
 * before the snapshot is served.
 *
 * Knows the archive's lookups and URL path syntax; nothing of rendering
 * or requests.  Every string returned is malloc'd for the caller.
 */
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "content/archive.h"
#include "content/links.h"
#include "core/buf.h"
#include "core/date.h"
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
 * An old web URL of a post, "https://old.example/2021/03/kernel-notes-
 * 01.html" under the alias "https://old.example/": its last path
 * segment without an extension, malloc'd ("kernel-notes-01"); NULL when
 * url is not under an alias or has no segment there (the old blog's
 * home page is no post).
 */
static char *
alias_name(const struct archive *a, const char *url)
{
	const char	*rest, *seg, *dot;
	size_t		 len;

	if ((rest = alias_rest(a, url)) == NULL)
		return NULL;
	len = strcspn(rest, "?#");
	while (len > 0 && rest[len - 1] == '/')
		len--;
	for (seg = rest + len; seg > rest && seg[-1] != '/'; seg--)
		;
	len -= (size_t)(seg - rest);
	if ((dot = memchr(seg, '.', len)) != NULL)
		len = (size_t)(dot - seg);
	return len > 0 ? xstrndup(seg, len) : NULL;
}

/*
 * The post an old web URL names, by slug or by file name (with or
 * without its date prefix): "/posts/<slug>", or NULL.
 */
static char *
alias_resolve(const struct archive *a, const char *url)
{
	struct post	*p;
	struct date	 dd;
	char		*name;

	if ((name = alias_name(a, url)) == NULL)
		return NULL;
	if ((p = archive_post(a, name)) == NULL &&
	    (p = archive_post_base(a, name)) == NULL &&
	    date_from_filename(name, &dd) == 0 && strlen(name) > 11 &&
	    (p = archive_post_base(a, name + 11)) == NULL)
		p = archive_post(a, name + 11);
	free(name);
	return p != NULL ? xasprintf("/posts/%s", p->slug) : NULL;
}

int
links_is_alias(const struct archive *a, const char *url)
{
	char	*name;

	if (url == NULL || (name = alias_name(a, url)) == NULL)
		return 0;
	free(name);
	return 1;
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
	struct post	*p;
	const char	*rest;
	char		*key;
	size_t		 len;
	int		 i, index;

	if (strncmp(path, "posts/", 6) != 0 || path[6] == '\0')
		return NULL;
	len = strcspn(path + 6, "/");
	rest = path + 6 + len;
	if (*rest == '/')
		rest++;
	index = *rest == '\0' || strcmp(rest, "index.md") == 0 ||
	    strcmp(rest, "index.gmi") == 0;
	/* Other .md and .gmi names are posts' (links_resolve() goes on). */
	if (archive_md_name(*rest ? rest : path) ||
	    archive_gmi_name(*rest ? rest : path))
		if (*rest == '\0' || !index)
			return NULL;
	for (i = 0, p = NULL; i < 2 && p == NULL; i++) {
		key = xasprintf("%.*s/%s", (int)len, path + 6,
		    i == 0 ? "index.md" : "index.gmi");
		p = archive_post_file(a, key);
		free(key);
	}
	if (p == NULL || !p->bundle)
		return NULL;
	if (index)
		return xasprintf("/posts/%s", p->slug);
	return xasprintf("/posts/%s/%s", p->slug, rest);
}

/*
 * Links between Markdown files, resolved against from_path's directory
 * (query and fragment dropped, percent-escapes decoded):
 *   posts/F.md    the post whose file is F.md, else whose file name
 *   posts/F.gmi   without date prefix is F, else whose slug is F
 *                 -> "/posts/<slug>"
 *   posts/D/X     in the page bundle D: its post for D/index.md (or
 *                 .gmi) or D/, else "/posts/<slug>/X"
 *   pages/N.md    -> "/N";  series/S.md -> "/series/<slug>/";
 *   index.md      -> "/"
 *   F.md, F.gmi   (no '/' at all) when nothing above matched: as a post
 * Anything with a scheme, "//host", or climbing out: left alone (NULL).
 */
char *
links_resolve(const struct archive *a, const char *from_path,
    const char *url)
{
	struct post		*p;
	struct doc		*d;
	struct series		*s;
	struct date		 dd;
	const char		*file, *base;
	char			*path, *stem = NULL, *slug, *res = NULL;
	size_t			 ulen, len, dirlen;

	if (url != NULL && url_has_scheme(url))
		return alias_resolve(a, url);
	if (url == NULL || (url[0] == '/' && url[1] == '/'))
		return NULL;
	ulen = strcspn(url, "?#");	/* gemtext has no anchors: drop */
	if ((path = capsule_path(from_path ? from_path : "", url, ulen)) ==
	    NULL)
		return NULL;
	if ((res = bundle_resolve(a, path)) != NULL)
		goto out;
	file = strrchr(path, '/');
	file = file ? file + 1 : path;
	dirlen = (size_t)(file - path);
	if (*file == '\0' || *file == '.')
		goto out;
	/* Posts may be gemtext; the rest of the capsule is Markdown. */
	if (archive_gmi_name(file) && (dirlen == 0 ||
	    (dirlen == 6 && memcmp(path, "posts/", 6) == 0)))
		len = 4;
	else if (archive_md_name(file))
		len = 3;
	else
		goto out;
	stem = xstrndup(file, strlen(file) - len);

	if (dirlen == 6 && memcmp(path, "posts/", 6) == 0) {
		base = date_from_filename(stem, &dd) == 0 ? stem + 11 : stem;
		if ((p = archive_post_file(a, file)) == NULL &&
		    (p = archive_post_base(a, base)) == NULL)
			p = archive_post(a, base);
		if (p != NULL)
			res = xasprintf("/posts/%s", p->slug);
	} else if (dirlen == 6 && memcmp(path, "pages/", 6) == 0) {
		if ((d = archive_doc(a, stem)) != NULL)
			res = xasprintf("/%s", d->name);
	} else if (dirlen == 7 && memcmp(path, "series/", 7) == 0) {
		slug = archive_slugify(stem);
		if ((s = archive_series(a, slug)) != NULL)
			res = xasprintf("/series/%s/", s->slug);
		free(slug);
	} else if (dirlen == 0 && strcmp(file, "index.md") == 0)
		res = xstrdup("/");
	/* A bare "x.md" not found beside from_path: try the posts. */
	if (res == NULL && memchr(url, '/', ulen) == NULL) {
		base = date_from_filename(stem, &dd) == 0 ? stem + 11 : stem;
		if ((p = archive_post_file(a, file)) != NULL ||
		    (p = archive_post_base(a, base)) != NULL)
			res = xasprintf("/posts/%s", p->slug);
	}
out:
	free(stem);
	free(path);
	return res;
}

/* ---- the link check ------------------------------------------------ */

/*
 * Does "/posts/" + rest name a post ("slug", "slug/", with a query or
 * fragment), a page bundle's file ("slug/map.png": whether the file is
 * there is the server's to say), or the archive itself ("")?
 */
static int
post_path_found(const struct archive *a, const char *rest)
{
	struct post	*p;
	size_t		 len = strcspn(rest, "?#"), slen;
	char		*slug;

	while (len > 0 && rest[len - 1] == '/')
		len--;
	if (len == 0)
		return 1;
	slen = strcspn(rest, "/?#");
	slug = xstrndup(rest, slen);
	p = archive_post(a, slug);
	free(slug);
	return p != NULL && (slen == len || p->bundle);
}

/* Is url, found in the file path, a link to a post that is not there? */
static int
names_missing_post(const struct archive *a, const char *path, const char *url)
{
	char	*to;

	if ((to = links_resolve(a, path, url)) != NULL) {
		free(to);
		return 0;
	}
	if (strncmp(url, "/posts/", 7) == 0)
		return !post_path_found(a, url + 7);
	/* An absolute URL is ours to judge only when it is an old one. */
	if (strstr(url, "://") != NULL)
		return links_is_alias(a, url);
	return 1;			/* a .md file that names nothing */
}

unsigned
links_report(const struct archive *a, const char *path,
    const struct scan_link *refs, size_t n)
{
	unsigned	 found = 0;
	size_t		 i;

	for (i = 0; i < n; i++) {
		if (!names_missing_post(a, path, refs[i].url))
			continue;
		log_warnx("%s:%u:%u: link to missing post %s", path,
		    refs[i].line, refs[i].col, refs[i].url);
		found++;
	}
	return found;
}

unsigned
links_check(struct archive *a)
{
	unsigned	 found = 0;
	size_t		 i;

	for (i = 0; i < a->nposts; i++)
		found += links_report(a, a->posts[i]->path,
		    a->posts[i]->links, a->posts[i]->nlinks);
	for (i = 0; i < a->ndocs; i++)
		found += links_report(a, a->docs[i]->path,
		    a->docs[i]->links, a->docs[i]->nlinks);
	a->nwarnings += found;
	return found;
}
