/*
 * links.c -- report links to Markdown files that resolve to no post.
 *
 * A byte scan, not a cmark parse: loading stays cheap on large archives.
 * It sees inline links "[text](dest)" and reference definitions
 * "[label]: dest", skips fenced code blocks and code spans, and asks
 * archive_resolve_link() about every destination ending in ".md" and
 * every old web URL of a post (config link_aliases), and the archive
 * about every "/posts/<slug>" path.
 *
 * The scan depends on the file alone, the answer on the whole archive:
 * links_scan() keeps what it found (the archive stores it with the
 * file, and a reload reuses it while the file is unchanged), and
 * links_report() asks the snapshot about it.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "content/archive.h"
#include "content/links.h"
#include "core/log.h"
#include "core/util.h"

struct scan {
	unsigned	 line0;		/* file line of the body's first line */
	struct links_ref *refs;		/* what was found */
	size_t		 n;
};

/*
 * Is dest (len bytes) worth keeping: a relative link to a .md file, or
 * an absolute URL ("scheme://"), which may be one of the writer's old
 * web URLs?  Which URLs are old ones is configuration (link_aliases),
 * and the scan must depend on the bytes alone, so every absolute URL
 * is kept and links_report() asks the snapshot.
 */
static int
is_checked_link(const char *dest, size_t len)
{
	size_t	 end = len, i;

	/* A post's own path, as a gemtext page would write it. */
	if (len > 7 && memcmp(dest, "/posts/", 7) == 0)
		return 1;
	for (i = 0; i < len; i++) {
		if (dest[i] == '#' || dest[i] == '?') {
			end = i;
			break;
		}
		if (dest[i] == ':')
			return len - i > 3 && memcmp(dest + i, "://", 3) == 0;
	}
	return end >= 4 && strncmp(dest + end - 3, ".md", 3) == 0;
}

static void
check_dest(struct scan *s, const char *dest, size_t len, unsigned line,
    unsigned col)
{
	struct links_ref	*r;

	if (len == 0 || len > 1024 || !is_checked_link(dest, len))
		return;
	if (s->n % 8 == 0)
		s->refs = xreallocarray(s->refs, s->n + 8, sizeof(*s->refs));
	r = &s->refs[s->n++];
	r->url = xstrndup(dest, len);
	r->line = line;
	r->col = col;
}

/* The destination starting at p: "<...>" or up to blank or ')'. */
static size_t
dest_len(const char *p, const char *end, int *angle)
{
	const char	*q = p;

	*angle = (q < end && *q == '<');
	if (*angle) {
		for (q++; q < end && *q != '>' && *q != '\n'; q++)
			;
		return (size_t)(q - p - 1);
	}
	while (q < end && !isspace((unsigned char)*q) && *q != ')')
		q++;
	return (size_t)(q - p);
}

static void
scan_text(struct scan *s, const char *md, size_t len)
{
	const char	*p = md, *end = md + len, *bol = md, *q;
	unsigned	 line = s->line0;
	int		 fenced = 0, angle;
	char		 fence = 0;
	size_t		 n;

	while (p < end) {
		if (p == bol) {
			/* A fence line opens or closes a code block. */
			q = p;
			while (q < end && *q == ' ' && q - p < 4)
				q++;
			if (end - q >= 3 && (q[0] == '`' || q[0] == '~') &&
			    q[1] == q[0] && q[2] == q[0] &&
			    (!fenced || q[0] == fence)) {
				fenced = !fenced;
				fence = q[0];
			}
			/* "[label]: dest", a reference definition. */
			if (!fenced && q < end && *q == '[' &&
			    (q = memchr(q, ']', (size_t)(end - q))) != NULL &&
			    q + 1 < end && q[1] == ':') {
				q += 2;
				while (q < end && (*q == ' ' || *q == '\t'))
					q++;
				n = dest_len(q, end, &angle);
				check_dest(s, q + angle, n, line,
				    (unsigned)(q - bol) + 1);
			}
		}
		if (*p == '\n') {
			line++;
			bol = ++p;
			continue;
		}
		if (fenced) {
			p++;
			continue;
		}
		if (*p == '`') {	/* skip a code span on this line */
			q = p + 1;
			while (q < end && *q != '`' && *q != '\n')
				q++;
			p = (q < end && *q == '`') ? q + 1 : p + 1;
			continue;
		}
		if (*p == ']' && p + 1 < end && p[1] == '(') {
			q = p + 2;
			n = dest_len(q, end, &angle);
			check_dest(s, q + angle, n, line,
			    (unsigned)(q - bol) + 1);
			p = q;
			continue;
		}
		p++;
	}
}

struct links_ref *
links_scan(const char *md, size_t len, unsigned line0, size_t *np)
{
	struct scan	 s;

	memset(&s, 0, sizeof(s));
	s.line0 = line0;
	scan_text(&s, md, len);
	*np = s.n;
	return s.refs;
}

void
links_free(struct links_ref *refs, size_t n)
{
	size_t	 i;

	for (i = 0; i < n; i++)
		free(refs[i].url);
	free(refs);
}

/*
 * Does "/posts/" + rest name a post ("slug", "slug/", with a query or
 * fragment), or the archive itself ("")?
 */
static int
post_path_found(const struct archive *a, const char *rest)
{
	size_t	 len = strcspn(rest, "?#");
	char	*slug;
	int	 found;

	while (len > 0 && rest[len - 1] == '/')
		len--;
	if (len == 0)
		return 1;
	slug = xstrndup(rest, len);
	found = archive_post(a, slug) != NULL;
	free(slug);
	return found;
}

/* Is url, found in the file path, a link to a post that is not there? */
static int
names_missing_post(const struct archive *a, const char *path, const char *url)
{
	char	*to;

	if ((to = archive_resolve_link(a, path, url)) != NULL) {
		free(to);
		return 0;
	}
	if (strncmp(url, "/posts/", 7) == 0)
		return !post_path_found(a, url + 7);
	/* An absolute URL is ours to judge only when it is an old one. */
	if (strstr(url, "://") != NULL)
		return archive_is_alias(a, url);
	return 1;			/* a .md file that names nothing */
}

unsigned
links_report(const struct archive *a, const char *path,
    const struct links_ref *refs, size_t n)
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

/* Scan and report in one go, for a snapshot built without the cache. */
static unsigned
check_body(struct archive *a, const char *path, const char *md, size_t len,
    unsigned line0)
{
	struct links_ref	*refs;
	size_t			 n;
	unsigned		 found;

	refs = links_scan(md, len, line0, &n);
	found = links_report(a, path, refs, n);
	links_free(refs, n);
	return found;
}

unsigned
links_check(struct archive *a)
{
	unsigned	 found = 0;
	size_t		 i;

	for (i = 0; i < a->nposts; i++) {
		const struct post *p = a->posts[i];

		found += check_body(a, p->path, p->src + p->body_off,
		    p->srclen - p->body_off, p->body_line);
	}
	for (i = 0; i < a->ndocs; i++) {
		const struct doc *d = a->docs[i];
		const char *nl;
		unsigned line = 1;

		/* Pages keep no body line: count the front matter's. */
		for (nl = d->src; (nl = memchr(nl, '\n', (size_t)(d->src +
		    d->body_off - nl))) != NULL; nl++)
			line++;
		found += check_body(a, d->path, d->src + d->body_off,
		    d->srclen - d->body_off, line);
	}
	a->nwarnings += found;
	return found;
}
