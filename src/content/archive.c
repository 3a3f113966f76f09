/*
 * archive.c -- scan a capsule directory into an immutable snapshot.
 *
 * archive_load() lists index.md, series/, posts/ and pages/ (dirscan.c),
 * takes a record of each Markdown file (and each post in gemtext,
 * posts/x.gmi, and each page bundle's index, posts/x/index.md): its
 * bytes, front matter and what is derived from them (record.c), then
 * makes posts, series, tags and pages of the records, links posts to
 * series and tags and builds the slug indexes (index.c; the slugs are
 * slug.c's).  A broken file is logged as "posts/x.md:LINE:COL: why" and
 * skipped; nothing a writer puts in the capsule makes loading fail.
 *
 * archive_reload() does the same next to a previous snapshot: a file
 * whose stat (device, inode, size, mtime, ctime) is unchanged is not
 * read again; its record (bytes, front matter, first heading, word
 * count) is shared.  Everything built from the records -- posts,
 * series, tags, indexes -- is made anew, which is cheap
 * (linking 10,000 posts takes milliseconds) and keeps every page that
 * lists a post in step with it.
 *
 * archive_reload_held() asks a watch too: a file being written, or
 * found empty, or changing while it is read, keeps the record the
 * previous snapshot has (a new one is left out), so no half-written
 * post is published (record.c).
 *
 * What of files/ and of a bundle's folder is served is files.c's rule.
 * record.c and dirscan.c read for it through a struct archive_scan
 * (archive_int.h) and call nothing here: their warnings come back
 * through the scan's sink, their records in its list, and this file
 * decides what becomes of them.  Knows struct meta and the records;
 * nothing of protocols, sockets or rendering.  The snapshot owns every
 * string and struct reachable from it (each type has its free function
 * below), and one reference to each file record it holds; the indexes
 * borrow their keys from the structs they point to.
 */
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <stdint.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "content/archive.h"
#include "content/archive_int.h"
#include "content/authors.h"
#include "content/frontmatter.h"
#include "content/slug.h"
#include "core/capfile.h"
#include "core/config.h"
#include "core/date.h"
#include "core/hash.h"
#include "core/hashset.h"
#include "core/layout.h"
#include "core/log.h"
#include "core/userdir.h"
#include "core/util.h"

#define ARCHIVE_MAX_FILE	(8u << 20)	/* max_post_size when unset */
#define WORDS_PER_MIN		200

/* A line of the build, decided once every file is read (archive_say()). */
struct said_line {
	char		*rel;		/* owned, or NULL */
	char		*line;		/* owned */
	enum archive_said_kind kind;
	unsigned	 n;
	enum log_level	 lvl;
};

/*
 * What the snapshot keeps beyond struct archive; archive_load() only.
 * Posts' strings other than slug are borrowed from their file records.
 */
struct archive_priv {
	struct archive	 pub;
	/* The reading that built it: its records, one reference each. */
	struct archive_scan scan;
	struct index	 file_rel;	/* "posts/x.md" -> its record */
	struct addr_tables addr;	/* old addresses (address.c) */
	archive_unlisted_fn unlisted;	/* while building, or NULL */
	void		*unlisted_arg;
	struct index	 post_slug;	/* slug -> post */
	struct index	 post_file;	/* "2024-01-01-x.md" -> post */
	struct index	 post_base;	/* "x" (no date, no .md) -> post */
	struct index	 series_slug;
	struct index	 tag_slug;
	struct index	 doc_name;
	/*
	 * What the load said (archive_say()): the hashes of its lines, the
	 * previous snapshot's (a reference: it lives as long as this one,
	 * and refers to nothing), the files whose bytes are not what the
	 * previous snapshot read (by the hash of rel), the lines of the
	 * build waiting for those, and a summarised load's counts.
	 */
	struct hashset	*said;
	struct hashset	*said_prev;
	struct hashset	*changed;
	struct said_line *pending;	/* owned, while building */
	size_t		 npending;
	bool		 building;
	bool		 summarise;
	unsigned	 said_n[ARCHIVE_SAID_NKINDS];
	char		*said_first[ARCHIVE_SAID_FIRST];	/* owned */
	size_t		 nsaid_first;
};

static struct archive_priv *
inner(const struct archive *a)
{
	return container_of(a, struct archive_priv, pub);
}

/* The reading of a snapshot being built (record.c, dirscan.c). */
static struct archive_scan *
scan(struct archive *a)
{
	return &inner(a)->scan;
}

/*
 * Is the post of that slug (LAYOUT_POST) or the page of that name
 * (LAYOUT_PAGE) to be in no list?  The hook says, from its URL.
 */
static bool
listed_not(const struct archive *a, enum layout_kind kind, const char *name)
{
	const struct archive_priv *ap = inner(a);
	char		*url;
	int		 no;

	if (ap->unlisted == NULL)
		return false;
	url = layout_path(kind, name, NULL);
	no = ap->unlisted(ap->unlisted_arg, url);
	free(url);
	return no != 0;
}

/* ---- what the load says ------------------------------------------------ */

/* The line said now: logged, or counted by a summarised load. */
static void
say_now(struct archive_priv *ap, const char *rel, enum archive_said_kind kind,
    unsigned n, enum log_level lvl, const char *line)
{
	uint64_t	 h = hash_str(line);

	(void)hashset_put(ap->said, h);
	/* Counted for the summary; each line only where debug is kept. */
	if (ap->summarise) {
		ap->said_n[kind] += n;
		if (lvl <= LOG_LEVEL_WARN &&
		    ap->nsaid_first < ARCHIVE_SAID_FIRST)
			ap->said_first[ap->nsaid_first++] = xstrdup(line);
		log_debug("%s", line);
		return;
	}
	/* Said before, about a file whose bytes did not change: once. */
	if (hashset_has(ap->said_prev, h) && (rel == NULL ||
	    !hashset_has(ap->changed, hash_str(rel))))
		return;
	if (lvl <= LOG_LEVEL_WARN)
		log_warnx("%s", line);
	else
		log_info("%s", line);
}

void
archive_say(struct archive *a, const char *rel, enum archive_said_kind kind,
    unsigned n, enum log_level lvl, const char *line)
{
	struct archive_priv	*ap = inner(a);
	struct said_line	*l;

	if (!ap->building) {
		say_now(ap, rel, kind, n, lvl, line);
		return;
	}
	if (ap->npending % 64 == 0)
		ap->pending = xreallocarray(ap->pending, ap->npending + 64,
		    sizeof(*ap->pending));
	l = &ap->pending[ap->npending++];
	l->rel = xstrdup_null(rel);
	l->line = xstrdup(line);
	l->kind = kind;
	l->n = n;
	l->lvl = lvl;
}

/*
 * Every file read: which changed since the previous snapshot (sc->prev
 * still set), then the build's lines said, in their order.
 */
static void
say_pending(struct archive_priv *ap)
{
	const struct archive_scan	*sc = &ap->scan;
	const struct archive_file	*f, *old;
	size_t				 i;

	for (i = 0; i < sc->nfiles; i++) {
		f = sc->files[i];
		old = sc->prev != NULL ? index_get(sc->prev, f->rel) : NULL;
		if (old == NULL || (old != f && old->src_hash != f->src_hash))
			(void)hashset_put(ap->changed, hash_str(f->rel));
	}
	ap->building = false;
	for (i = 0; i < ap->npending; i++) {
		say_now(ap, ap->pending[i].rel, ap->pending[i].kind,
		    ap->pending[i].n, ap->pending[i].lvl, ap->pending[i].line);
		free(ap->pending[i].rel);
		free(ap->pending[i].line);
	}
	free(ap->pending);
	ap->pending = NULL;
	ap->npending = 0;
}

int
archive_said(const struct archive *a, struct archive_said *s)
{
	const struct archive_priv	*ap = inner(a);
	size_t				 i;

	if (!ap->summarise)
		return 0;
	memcpy(s->n, ap->said_n, sizeof(s->n));
	for (i = 0; i < ap->nsaid_first; i++)
		s->first[i] = ap->said_first[i];
	s->nfirst = ap->nsaid_first;
	return 1;
}

/*
 * "rel:line:col: why" ("rel: why" with line 0), said and, for a
 * warning, counted; skipped: a file left out, which the line says when
 * why does not.  The scan's sink: what record.c and dirscan.c find
 * comes here.
 */
static void
tell(struct archive *a, enum log_level lvl, const char *rel, unsigned line,
    unsigned col, const char *why, int skipped)
{
	/* A skipped file says so: the writer must know it is not served. */
	const char		*said = skipped && strstr(why, "skipped") ==
				    NULL ? "; file skipped, not served" : "";
	enum archive_said_kind	 kind;
	char			*text;

	if (line == 0)
		text = xasprintf("%s: %s%s", rel, why, said);
	else
		text = xasprintf("%s:%u:%u: %s%s", rel, line, col, why, said);
	/* record.c's wording: "template: removed ...", "... approximated". */
	if (skipped)
		kind = ARCHIVE_SAID_SKIPPED;
	else if (strncmp(why, "template: ", 10) != 0)
		kind = lvl <= LOG_LEVEL_WARN ? ARCHIVE_SAID_OTHER :
		    ARCHIVE_SAID_NOTE;
	else
		kind = lvl <= LOG_LEVEL_WARN ? ARCHIVE_SAID_TEMPLATE :
		    ARCHIVE_SAID_APPROX;
	archive_say(a, rel, kind, 1, lvl, text);
	free(text);
	if (lvl > LOG_LEVEL_WARN)
		return;
	a->nwarnings++;
	if (skipped)
		a->nskipped++;
}

/* A warning of this file's: tell() at LOG_LEVEL_WARN. */
static void
archive_warn(struct archive *a, const char *rel, unsigned line,
    unsigned col, const char *why, int skipped)
{
	tell(a, LOG_LEVEL_WARN, rel, line, col, why, skipped);
}

static void
scan_said(void *arg, enum log_level lvl, const char *rel, unsigned line,
    unsigned col, const char *why, int skipped)
{
	tell(arg, lvl, rel, line, col, why, skipped);
}

/* Title: front matter, else the body's first heading, else fallback. */
static char *
pick_title(const struct archive_file *f, const char *fallback)
{
	if (f->m.title != NULL)
		return xstrdup(f->m.title);
	if (f->heading != NULL)
		return xstrdup(f->heading);
	return xstrdup(fallback);
}

/* ---- index.md ------------------------------------------------------- */

/*
 * The last name of the folder dir ("/home/ann/writing": "writing"),
 * malloc'd, or NULL for "/" or a name that is no title (a dot-name).
 */
static char *
folder_name(const char *dir)
{
	size_t	 len = strlen(dir), at;

	while (len > 0 && dir[len - 1] == '/')
		len--;
	for (at = len; at > 0 && dir[at - 1] != '/'; at--)
		;
	if (at == len || dir[at] == '.')
		return NULL;
	return xstrndup(dir + at, len - at);
}

static void
load_index(struct archive *a, int dfd, const struct config *c)
{
	struct archive_file	*f;
	const struct meta	*m = NULL;

	if ((f = record_get(scan(a), dfd, CAPFILE_HOME, CAPFILE_HOME, 1)) !=
	    NULL) {
		m = &f->m;
		a->index_src = f->src;
		a->index_len = f->len;
		a->index_body_off = m->body_off;
	}
	/*
	 * The site's name, never the program's: what the writer called it
	 * (index.md, then "title:"), else the folder it is written in,
	 * else the host (capsuled.yaml(5), "title").
	 */
	if (m != NULL && m->title)
		a->title = xstrdup(m->title);
	else if (c->site_title && *c->site_title)
		a->title = xstrdup(c->site_title);
	else if (f != NULL && f->heading != NULL)
		a->title = xstrdup(f->heading);
	else
		a->title = folder_name(a->dir);
	if (a->title == NULL || *a->title == '\0') {
		free(a->title);
		a->title = xstrdup(c->hostname && *c->hostname ? c->hostname :
		    "capsule");
	}
	if (m != NULL && m->subtitle)
		a->subtitle = xstrdup(m->subtitle);
	else if (c->site_subtitle && *c->site_subtitle)
		a->subtitle = xstrdup(c->site_subtitle);
	if (m != NULL && m->author)
		a->author = xstrdup(m->author);
	else if (c->author && *c->author)
		a->author = xstrdup(c->author);
	if (m != NULL && m->lang)
		a->lang = xstrdup(m->lang);
	else
		a->lang = xstrdup(c->lang && *c->lang ? c->lang : "en");
}

/* ---- series/ -------------------------------------------------------- */

static struct series *
series_new(struct archive *a, char *slug, char *title)
{
	struct series	*s;

	s = xcalloc(1, sizeof(*s));
	s->slug = slug;
	s->title = title;
	a->series[a->nseries++] = s;	/* sized in archive_load() */
	index_put(&inner(a)->series_slug, s->slug, s);
	return s;
}

static void
load_series_files(struct archive *a, int dfd, char **names, size_t n)
{
	struct archive_file	*f;
	struct series		*s;
	char			*rel, *slug, *stem, why[256];
	size_t			 i;

	for (i = 0; i < n; i++) {
		rel = xasprintf(CAPFILE_SERIES "/%s", names[i]);
		if ((f = record_get(scan(a), dfd, names[i], rel, 0)) == NULL) {
			free(rel);
			continue;
		}
		stem = xstrndup(names[i], strlen(names[i]) -
		    capfile_ext(names[i], strlen(names[i])));
		slug = archive_slugify(stem);
		if (*slug == '\0' || f->m.draft ||
		    index_get(&inner(a)->series_slug, slug) != NULL) {
			if (*slug == '\0')
				archive_warn(a, rel, 1, 1, "no usable "
				    "characters in the file name, skipped", 1);
			else if (!f->m.draft) {
				snprintf(why, sizeof(why), "another file "
				    "already has the series slug \"%s\", "
				    "skipped", slug);
				archive_warn(a, rel, 1, 1, why, 1);
			}
			free(slug);
			free(stem);
			free(rel);
			continue;
		}
		s = series_new(a, slug, pick_title(f, stem));
		s->path = xstrdup(rel);
		s->summary = xstrdup_null(f->m.summary);
		s->level = xstrdup_null(f->m.level);
		s->audience = xstrdup_null(f->m.audience);
		s->src = f->src;
		s->srclen = f->len;
		s->body_off = f->m.body_off;
		free(stem);
		free(rel);
	}
}

/* ---- posts/ --------------------------------------------------------- */

/* An undated draft takes the day its file last changed (UTC). */
static int
draft_date(const struct archive_file *f, struct date *d)
{
	struct tm	 tm;
	time_t		 t = f->mtim.tv_sec;
	const char	*errstr;
	char		 ymd[16];

	if (gmtime_r(&t, &tm) == NULL ||
	    strftime(ymd, sizeof(ymd), "%Y-%m-%d", &tm) != 10)
		return -1;
	return date_parse(ymd, 10, d, &errstr);
}

/*
 * A post's date, from the first place that has one (docs/writing.md,
 * "Where a post's date comes from"): the front matter's date keys; a date
 * in its address (path, url or permalink) or slug, "2026/03/26/x",
 * "blog/2021-01-05-x"; the file or bundle name's "YYYY-MM-DD-" prefix (or
 * a name that is the date); the folders below posts/,
 * "2020/01/02/x/index.gmi".  A month without a day, in the address or the
 * folders ("/blog/2021/01/x/"), is the first of it.  Never a file time,
 * but for a draft, which has its file's day until it has one.  0, or -1
 * with why the reason it is skipped.
 */
static int
post_date(const struct archive_file *f, const char *name, bool draft,
    struct date *d, char *why, size_t size)
{
	const struct meta	*m = &f->m;
	const char		*vals[2] = { m->address, m->slug };
	char			 stem[NAME_MAX + 1], near[40];
	size_t			 i, dirlen;
	int			 day;

	if (m->has_date) {
		*d = m->date;
		return 0;
	}
	for (i = 0; i < nitems(vals); i++)
		if (vals[i] != NULL && date_from_path(vals[i],
		    strlen(vals[i]), 0, d, &day) == 0)
			return 0;
	slug_post_stem(name, stem, sizeof(stem));
	if (date_from_filename(stem, d) > 0 ||
	    date_ymd(stem, strlen(stem), d) == strlen(stem))
		return 0;		/* "2024-01-02.md": the date is all */
	/* The folders: "2020/01/02/x.md", a bundle's "2020/01/02/x/". */
	dirlen = capfile_bundle_path(name) ? strlen(name) :
	    (size_t)(strrchr(name, '/') ? strrchr(name, '/') - name : 0);
	if (dirlen > 0 && date_from_path(name, dirlen, 0, d, &day) == 0)
		return 0;
	for (i = 0; i < nitems(vals); i++)
		if (vals[i] != NULL && date_from_path(vals[i],
		    strlen(vals[i]), 1, d, &day) == 0)
			return 0;
	if (dirlen > 0 && date_from_path(name, dirlen, 1, d, &day) == 0)
		return 0;
	if (draft && draft_date(f, d) == 0)
		return 0;		/* an undated draft */
	near[0] = '\0';
	for (i = 0; i < nitems(vals) && near[0] == '\0'; i++)
		if (vals[i] != NULL)
			date_near(vals[i], strlen(vals[i]), near,
			    sizeof(near));
	if (near[0] == '\0')
		date_near(name, strlen(name), near, sizeof(near));
	snprintf(why, size, "no date (looked in the front matter's date, "
	    "path, url, permalink and slug, the file name's YYYY-MM-DD- "
	    "and the folders YYYY/MM/DD/); %s%s", near[0] ? "nearest: " :
	    "nothing date-like", near);
	return -1;
}

/* ---- authors files ------------------------------------------------ */

#define AUTHORS_MAX_SIZE	(1u << 20)	/* bytes of one file */

/* A folder looked at for an authors file while the posts load. */
struct authors_dir {
	char		*dir;		/* beneath posts/; NULL: the top */
	struct authors	*a;		/* owned; NULL: no file there */
};

/* What loading the posts holds besides the snapshot. */
struct post_load {
	int		 pfd;		/* posts/ */
	int		 topfd;		/* the capsule; -1: posts are there */
	struct authors_dir *dirs;	/* owned: each folder once */
	size_t		 ndirs;
};

/*
 * The folder dir beneath the folder open at fd ("": fd itself), each
 * segment opened without following a link, or -1.
 */
static int
open_below(struct archive_scan *s, int fd, const char *dir)
{
	const char	*p = dir, *slash;
	char		 seg[NAME_MAX + 1];
	int		 cur = fd, nfd;

	while (*p != '\0') {
		if ((slash = strchr(p, '/')) == NULL)
			slash = p + strlen(p);
		snprintf(seg, sizeof(seg), "%.*s", (int)(slash - p), p);
		nfd = openat(cur, seg, O_RDONLY | O_DIRECTORY | O_NOFOLLOW |
		    O_CLOEXEC);
		if (cur != fd)
			close(cur);
		if (nfd == -1 || record_dir_not_owned(s, nfd, dir)) {
			if (nfd != -1)
				close(nfd);
			return -1;
		}
		cur = nfd;
		p = *slash == '/' ? slash + 1 : slash;
	}
	return cur == fd ? dup(fd) : cur;
}

/*
 * The authors file of the folder open at dfd (of kind in; reldir names
 * it in warnings, "" or ending in '/'): the first of capfile's names it
 * holds, read; NULL for none, or a broken one (warned).
 */
static struct authors *
authors_in(struct archive *a, int dfd, enum capfile_kind in,
    const char *reldir)
{
	struct authors	*t;
	struct fm_error	 err;
	const char	*name;
	char		*src, *rel;
	size_t		 i, len;
	int		 fd;

	for (i = 0; (name = capfile_authors(in, i)) != NULL; i++) {
		if ((fd = openat(dfd, name, O_RDONLY | O_NOFOLLOW |
		    O_NONBLOCK | O_CLOEXEC)) == -1)
			continue;
		rel = xasprintf("%s%s", reldir, name);
		src = record_dir_not_owned(scan(a), fd, rel) ? NULL :
		    util_read_fd(fd, AUTHORS_MAX_SIZE, &len);
		close(fd);
		t = src != NULL ? authors_parse(src, len, &err) : NULL;
		if (src != NULL && t == NULL && err.msg[0] != '\0')
			archive_warn(a, rel, err.line, err.col, err.msg, 0);
		free(src);
		free(rel);
		return t;		/* the first file there counts */
	}
	return NULL;
}

/* The authors file of the folder dir of posts/ (NULL: the top), once. */
static const struct authors *
authors_of(struct archive *a, struct post_load *pl, const char *dir)
{
	struct authors_dir	*d;
	char			*reldir;
	size_t			 i;
	int			 fd;

	for (i = 0; i < pl->ndirs; i++)
		if (dir == NULL ? pl->dirs[i].dir == NULL :
		    pl->dirs[i].dir != NULL && strcmp(pl->dirs[i].dir,
		    dir) == 0)
			return pl->dirs[i].a;
	pl->dirs = xreallocarray(pl->dirs, pl->ndirs + 1, sizeof(*pl->dirs));
	d = &pl->dirs[pl->ndirs++];
	d->dir = xstrdup_null(dir);
	d->a = NULL;
	if (dir == NULL)
		d->a = pl->topfd == -1 ? NULL : authors_in(a, pl->topfd,
		    CAPFILE_TOP_DIR, "");
	else if ((fd = open_below(scan(a), pl->pfd, dir)) != -1) {
		reldir = xasprintf(CAPFILE_POSTS "/%s%s", dir,
		    *dir != '\0' ? "/" : "");
		d->a = authors_in(a, fd, CAPFILE_POSTS_DIR, reldir);
		free(reldir);
		close(fd);
	}
	return d->a;
}

/*
 * The post name's author keys named through the authors file nearest
 * it (its folder's, each folder's up to posts/, then the capsule's
 * top): malloc'd, or NULL when no key is one of that file's.
 */
static char *
post_authors(struct archive *a, struct post_load *pl, const char *name,
    const char *author)
{
	const struct authors	*t = NULL;
	char			*dir, *slash;

	dir = xstrdup(name);
	while (t == NULL && (slash = strrchr(dir, '/')) != NULL) {
		*slash = '\0';
		t = authors_of(a, pl, dir);
	}
	free(dir);
	if (t == NULL && (t = authors_of(a, pl, "")) == NULL &&
	    (t = authors_of(a, pl, NULL)) == NULL)
		return NULL;
	return authors_resolve(t, author);
}

/* NULL when skipped (warned); a draft has p->draft set. */
static struct post *
load_post(struct archive *a, struct post_load *pl, const char *name)
{
	struct archive_priv	*ap = inner(a);
	struct archive_file	*f;
	const struct meta	*m;
	struct post		*p, *other;
	struct date		 date;
	const char		*rel;
	char			 stem[NAME_MAX + 1], why[320];
	size_t			 i;
	int			 used;
	bool			 draft;

	snprintf(why, sizeof(why), CAPFILE_POSTS "/%s", name);
	if ((f = dirscan_post_file(scan(a), pl->pfd, name, why)) == NULL)
		return NULL;
	rel = f->rel;
	m = &f->m;
	/* Draft by its front matter, or by its folder (_drafts/). */
	if ((draft = m->draft || capfile_in_drafts(name)))
		log_debug("%s: draft: only /drafts/ shows it", rel);
	slug_post_stem(name, stem, sizeof(stem));
	if (post_date(f, name, draft, &date, why, sizeof(why)) == -1) {
		archive_warn(a, rel, 1, 1, why, 1);
		return NULL;
	}

	p = xcalloc(1, sizeof(*p));
	p->path = f->rel;
	p->file = f;
	p->date = date;
	p->updated = m->has_updated ? m->updated : p->date;
	p->slug = archive_file_slug(m->slug, m->slug_from_title ? m->title :
	    NULL, stem, &used);
	if (m->slug != NULL && !used) {
		snprintf(why, sizeof(why), "slug \"%s\" has no usable "
		    "characters; using the file name", m->slug);
		archive_warn(a, rel, 1, 1, why, 0);
	}
	if (*p->slug == '\0') {
		free(p->slug);
		p->slug = xstrdup(p->date.ymd);
	}
	/*
	 * Drafts are in no index: their slugs are theirs alone.  Two
	 * posts with one slug are both kept: files are loaded in name
	 * order, so the first keeps it and the other is told apart by its
	 * date ("x-2024-01-12"), then by a number ("x-2024-01-12-2"), the
	 * same on every load.
	 */
	if ((other = draft ? archive_draft(a, p->slug) :
	    index_put(&ap->post_slug, p->slug, p)) != p && other != NULL) {
		char	*alt = xasprintf("%s-%s", p->slug, p->date.ymd);
		size_t	 n = 2;

		while (index_get(&ap->post_slug, alt) != NULL ||
		    archive_draft(a, alt) != NULL) {
			free(alt);
			alt = xasprintf("%s-%s-%zu", p->slug, p->date.ymd,
			    n++);
		}
		snprintf(why, sizeof(why), "slug \"%s\" already used by %s; "
		    "this post is /posts/%s", p->slug, other->path, alt);
		archive_warn(a, rel, 1, 1, why, 0);
		free(p->slug);
		p->slug = alt;
		if (!draft)
			index_put(&ap->post_slug, p->slug, p);
	}
	if (!draft) {
		index_put(&ap->post_file, p->path + sizeof(CAPFILE_POSTS), p);
		index_put(&ap->post_base, f->base, p);
	}

	p->src = f->src;
	p->srclen = f->len;
	p->body_off = m->body_off;
	p->body_line = m->body_line;
	/* Borrowed from the file record, like every string but the slug. */
	p->title = m->title ? m->title : f->heading ? f->heading : f->base;
	p->ntags = m->ntags;
	p->tagnames = xcalloc(p->ntags, sizeof(*p->tagnames));
	for (i = 0; i < p->ntags; i++)
		p->tagnames[i] = m->tags[i];
	p->tags = xcalloc(p->ntags, sizeof(*p->tags));
	p->series_name = m->series;
	p->part = m->part;
	p->summary = m->summary ? m->summary : f->summary;
	p->lang = m->lang;
	p->author = m->author;
	if (m->author != NULL && (p->author_names = post_authors(a, pl, name,
	    m->author)) != NULL)
		p->author = p->author_names;
	p->featured = m->featured;
	p->draft = draft;
	p->gemtext = f->gemtext;
	p->bundle = capfile_bundle_path(name);
	p->words = f->words;
	p->links = f->links;
	p->nlinks = f->nlinks;
	p->reading_min = (p->words + WORDS_PER_MIN / 2) / WORDS_PER_MIN;
	if (p->reading_min == 0)
		p->reading_min = 1;
	return p;
}

/* Newest first; the slug breaks ties so the order is total. */
static int
cmp_post_new(const void *x, const void *y)
{
	const struct post	*a = *(struct post *const *)x;
	const struct post	*b = *(struct post *const *)y;

	if (a->date.t != b->date.t)
		return a->date.t < b->date.t ? 1 : -1;
	return strcmp(a->slug, b->slug);
}

/* Parts: numbered ones first by number, then by date, then slug. */
static int
cmp_part(const void *x, const void *y)
{
	const struct post	*a = *(struct post *const *)x;
	const struct post	*b = *(struct post *const *)y;

	if ((a->part != 0) != (b->part != 0))
		return a->part != 0 ? -1 : 1;
	if (a->part != b->part)
		return a->part < b->part ? -1 : 1;
	if (a->date.t != b->date.t)
		return a->date.t < b->date.t ? -1 : 1;
	return strcmp(a->slug, b->slug);
}

static int
cmp_series(const void *x, const void *y)
{
	const struct series	*a = *(struct series *const *)x;
	const struct series	*b = *(struct series *const *)y;
	int			 r;

	if ((r = strcasecmp(a->title, b->title)) != 0)
		return r;
	return strcmp(a->slug, b->slug);
}

static int
cmp_tag(const void *x, const void *y)
{
	const struct tag	*a = *(struct tag *const *)x;
	const struct tag	*b = *(struct tag *const *)y;

	if (a->nposts != b->nposts)
		return a->nposts < b->nposts ? 1 : -1;
	return strcmp(a->slug, b->slug);
}

static int
cmp_doc(const void *x, const void *y)
{
	return strcmp((*(struct doc *const *)x)->name,
	    (*(struct doc *const *)y)->name);
}

/*
 * Attach posts to series, oldest post first so that a series without a
 * file is named as its first post wrote it; then order the parts.
 */
/*
 * The series file a post's series slug names when no file's name does:
 * the one whose title makes that slug ("series/sharpening.md" with
 * "title: Sharpening, From Scratch"), or NULL.
 */
static struct series *
series_by_title(struct archive *a, const char *slug)
{
	struct series	*s;
	char		*t;
	size_t		 i;
	int		 same;

	for (i = 0; i < a->nseries; i++) {
		if ((s = a->series[i])->path == NULL)
			continue;
		t = archive_slugify(s->title);
		same = strcmp(t, slug) == 0;
		free(t);
		if (same)
			return s;
	}
	return NULL;
}

/*
 * A series file no post names, by its file name or by its title, is
 * said, with the series of the posts nearest to it by name: the writer
 * meant one of them, or the posts are still to come.
 */
static void
warn_unmatched_series(struct archive *a, const char *const *names,
    size_t n, const struct series *const *spared, size_t nspared)
{
	const struct series *s;
	const char	*near;
	char		 why[512];
	size_t		 i, k, d, best;

	for (i = 0; i < a->nseries; i++) {
		if ((s = a->series[i])->path == NULL || s->nparts > 0)
			continue;
		for (k = 0; k < nspared && spared[k] != s; k++)
			;
		if (k < nspared)
			continue;
		near = NULL;
		best = SIZE_MAX;
		for (k = 0; k < n; k++)
			if ((d = slug_nearness(s->title, names[k])) < best) {
				best = d;
				near = names[k];
			}
		if (near == NULL)
			snprintf(why, sizeof(why), "no post names this series "
			    "(\"series: %s\" or \"series: %s\" would); "
			    "not on the home page", s->slug, s->title);
		else
			snprintf(why, sizeof(why), "no post names this series "
			    "by its file name (%s) or its title (%s); the "
			    "nearest series of the posts is \"%s\"",
			    s->slug, s->title, near);
		archive_warn(a, s->path, 1, 1, why, 0);
	}
}

static void
link_series(struct archive *a)
{
	struct series	*s;
	struct post	*p;
	const char	**names;
	const struct series **spared;
	char		*slug;
	size_t		 i, k, nnames = 0, nspared = 0;

	/* Each series name the posts and drafts give, once. */
	names = xcalloc(a->nposts + a->ndrafts + 1, sizeof(*names));
	for (i = 0; i < a->nposts + a->ndrafts; i++) {
		p = i < a->nposts ? a->posts[i] : a->drafts[i - a->nposts];
		if (p->series_name == NULL)
			continue;
		for (k = 0; k < nnames; k++)
			if (strcmp(names[k], p->series_name) == 0)
				break;
		if (k == nnames)
			names[nnames++] = p->series_name;
	}
	for (i = a->nposts; i-- > 0;) {
		p = a->posts[i];
		if (p->series_name == NULL)
			continue;
		slug = archive_slugify(p->series_name);
		if (*slug == '\0') {
			free(slug);
			continue;
		}
		/* By the file's name, else by its title (docs/writing.md). */
		if ((s = index_get(&inner(a)->series_slug, slug)) == NULL &&
		    (s = series_by_title(a, slug)) == NULL)
			s = series_new(a, slug, xstrdup(p->series_name));
		else
			free(slug);
		s->parts = xreallocarray(s->parts, s->nparts + 1,
		    sizeof(*s->parts));
		s->parts[s->nparts++] = p;
		p->series = s;
	}
	for (i = 0; i < a->nseries; i++) {
		s = a->series[i];
		if (s->nparts > 1)
			qsort(s->parts, s->nparts, sizeof(*s->parts),
			    cmp_part);
		for (k = 0; k < s->nparts; k++) {
			p = s->parts[k];
			p->series_pos = k + 1;
			p->prev = k > 0 ? s->parts[k - 1] : NULL;
			p->next = k + 1 < s->nparts ? s->parts[k + 1] : NULL;
			s->reading_min += p->reading_min;
		}
	}
	/* A series file a draft names is not unmatched: parts are coming. */
	spared = xcalloc(a->ndrafts + 1, sizeof(*spared));
	for (i = 0; i < a->ndrafts; i++) {
		if (a->drafts[i]->series_name == NULL)
			continue;
		slug = archive_slugify(a->drafts[i]->series_name);
		if ((s = index_get(&inner(a)->series_slug, slug)) == NULL)
			s = series_by_title(a, slug);
		free(slug);
		if (s != NULL)
			spared[nspared++] = s;
	}
	warn_unmatched_series(a, names, nnames, spared, nspared);
	free(spared);
	free(names);
	if (a->nseries > 1)
		qsort(a->series, a->nseries, sizeof(*a->series), cmp_series);
}

/* Tag grouping state while link_tags() runs. */
struct tagger {
	struct index	 bykey;		/* slug_tag_key() -> tag; borrowed */
};

/*
 * The tag that name (written in post p) belongs to, made on first
 * sight; NULL when the name has nothing to make a slug of.
 */
static struct tag *
tag_for(struct archive *a, struct tagger *tg, const struct post *p,
    const char *name, const char *key)
{
	struct archive_priv	*ap = inner(a);
	struct tag		*t, *o;
	char			*slug, *alt = NULL, why[512];
	size_t			 sfx;

	if ((t = index_get(&tg->bykey, key)) != NULL)
		return t;
	slug = archive_slugify(name);
	if (*slug == '\0') {
		free(slug);
		return NULL;
	}
	/* Another name already has this slug: "cafe" after "Café". */
	if ((o = index_get(&ap->tag_slug, slug)) != NULL) {
		sfx = 2;
		do {
			free(alt);
			alt = xasprintf("%s-%zu", slug, sfx++);
		} while (index_get(&ap->tag_slug, alt) != NULL);
		snprintf(why, sizeof(why), "tags \"%s\" and \"%s\" both "
		    "make the slug \"%s\"; using \"%s\"", o->name, name, slug,
		    alt);
		archive_warn(a, p->path, 1, 1, why, 0);
		free(slug);
		slug = alt;
	}
	t = xcalloc(1, sizeof(*t));
	t->slug = slug;
	t->name = xstrdup(name);
	index_put(&ap->tag_slug, t->slug, t);
	index_put(&tg->bykey, key, t);	/* the file record's key */
	a->tags[a->ntags++] = t;
	return t;
}

/*
 * Group tag names by slug_tag_key() ("Small Web", "small-web", "SMALL_WEB"
 * are one tag), oldest post first, so a tag keeps the display form it
 * was first written with.  Names whose keys differ but slugify alike
 * ("c++" is safe: it is "c-plus-plus"; "Café" and "cafe" are not) are
 * distinct tags, the later one with a "-2" suffix, and a warning.
 */
static void
link_tags(struct archive *a)
{
	struct tagger	 tg;
	struct tag	*t;
	struct post	*p;
	size_t		 i, j, k, n, total = 0;

	for (i = 0; i < a->nposts; i++)
		total += a->posts[i]->ntags;
	index_init(&tg.bykey, total);
	index_init(&inner(a)->tag_slug, total);
	a->tags = xcalloc(total, sizeof(*a->tags));

	for (i = a->nposts; i-- > 0;) {
		p = a->posts[i];
		for (j = 0, k = 0; j < p->ntags; j++) {
			/* Keys line up with the names until compacted. */
			t = tag_for(a, &tg, p, p->tagnames[j],
			    p->file->tagkeys[j]);
			for (n = 0; t != NULL && n < k; n++)
				if (p->tags[n] == t)
					t = NULL;	/* twice in one post */
			if (t == NULL)
				continue;	/* the name is borrowed */
			p->tagnames[k] = p->tagnames[j];
			p->tags[k++] = t;
			t->nposts++;
		}
		p->ntags = k;
	}
	for (i = 0; i < a->ntags; i++) {
		a->tags[i]->posts = xcalloc(a->tags[i]->nposts,
		    sizeof(struct post *));
		a->tags[i]->nposts = 0;
	}
	for (i = 0; i < a->nposts; i++) {		/* newest first */
		p = a->posts[i];
		for (j = 0; j < p->ntags; j++)
			p->tags[j]->posts[p->tags[j]->nposts++] = p;
	}
	if (a->ntags > 1)
		qsort(a->tags, a->ntags, sizeof(*a->tags), cmp_tag);
	index_free(&tg.bykey);
}

static void
load_posts(struct archive *a, int dfd, int here)
{
	struct archive_priv	*ap = inner(a);
	struct post		*p, **unlisted;
	struct post_load	 pl;
	char			**names;
	size_t			 n, i;
	int			 pfd;

	/* here: a bare folder of posts, named posts/ all the same. */
	pfd = dirscan_list(scan(a), dfd, here ? "." : CAPFILE_POSTS, 1,
	    &names, &n);
	memset(&pl, 0, sizeof(pl));
	pl.pfd = pfd;
	pl.topfd = here ? -1 : dfd;
	index_init(&ap->post_slug, n);
	index_init(&ap->post_file, n);
	index_init(&ap->post_base, n);
	a->posts = xcalloc(n, sizeof(*a->posts));
	a->drafts = xcalloc(n, sizeof(*a->drafts));
	unlisted = xcalloc(n, sizeof(*unlisted));
	for (i = 0; i < n; i++)
		if ((p = load_post(a, &pl, names[i])) == NULL)
			continue;
		else if (p->draft)
			a->drafts[a->ndrafts++] = p;
		else if ((p->unlisted = listed_not(a, LAYOUT_POST, p->slug)))
			unlisted[a->nunlisted++] = p;
		else
			a->posts[a->nposts++] = p;
	if (a->nposts > 1)
		qsort(a->posts, a->nposts, sizeof(*a->posts), cmp_post_new);
	if (a->nunlisted > 1)
		qsort(unlisted, a->nunlisted, sizeof(*unlisted), cmp_post_new);
	/* After the listed ones, with ids after theirs (number()). */
	memcpy(a->posts + a->nposts, unlisted, a->nunlisted *
	    sizeof(*unlisted));
	free(unlisted);
	if (a->ndrafts > 1)
		qsort(a->drafts, a->ndrafts, sizeof(*a->drafts), cmp_post_new);
	util_free_strings(names, n);
	for (i = 0; i < pl.ndirs; i++) {
		free(pl.dirs[i].dir);
		authors_free(pl.dirs[i].a);
	}
	free(pl.dirs);
	if (pfd != -1)
		close(pfd);
}

/* ---- pages/ --------------------------------------------------------- */

static void
load_pages(struct archive *a, int dfd)
{
	struct archive_file *f;
	struct doc	*d, **unlisted;
	char		**names, *rel, *name, why[320];
	size_t		 n, i;
	int		 fd;

	fd = dirscan_list(scan(a), dfd, CAPFILE_PAGES, 0, &names, &n);
	index_init(&inner(a)->doc_name, n);
	a->docs = xcalloc(n, sizeof(*a->docs));
	unlisted = xcalloc(n, sizeof(*unlisted));
	for (i = 0; i < n; i++) {
		rel = xasprintf(CAPFILE_PAGES "/%s", names[i]);
		name = xstrndup(names[i], strlen(names[i]) -
		    capfile_ext(names[i], strlen(names[i])));
		/* A name the router answers itself (core/layout.h). */
		if (layout_reserved(name)) {
			archive_warn(a, rel, 1, 1, "the name is one of the "
			    "server's own paths, skipped", 1);
			free(name);
			free(rel);
			continue;
		}
		/* "about.md" and "about.markdown": the first keeps /about. */
		if ((d = index_get(&inner(a)->doc_name, name)) != NULL) {
			snprintf(why, sizeof(why), "%s is already the page "
			    "/%s, skipped", d->path, name);
			archive_warn(a, rel, 1, 1, why, 1);
			free(name);
			free(rel);
			continue;
		}
		f = record_get(scan(a), fd, names[i], rel, 0);
		free(rel);
		if (f == NULL || f->m.draft) {
			free(name);
			continue;
		}
		d = xcalloc(1, sizeof(*d));
		d->name = name;
		d->path = f->rel;
		d->file = f;
		d->title = pick_title(f, name);
		d->lang = xstrdup_null(f->m.lang);
		d->src = f->src;
		d->srclen = f->len;
		d->body_off = f->m.body_off;
		d->links = f->links;
		d->nlinks = f->nlinks;
		if ((d->unlisted = listed_not(a, LAYOUT_PAGE, d->name)))
			unlisted[a->nunlisted_docs++] = d;
		else
			a->docs[a->ndocs++] = d;
		index_put(&inner(a)->doc_name, d->name, d);
	}
	/* Sorted by name already: dirscan_list() sorts "x.md" the same way. */
	if (a->ndocs > 1)
		qsort(a->docs, a->ndocs, sizeof(*a->docs), cmp_doc);
	if (a->nunlisted_docs > 1)
		qsort(unlisted, a->nunlisted_docs, sizeof(*unlisted), cmp_doc);
	memcpy(a->docs + a->ndocs, unlisted, a->nunlisted_docs *
	    sizeof(*unlisted));
	free(unlisted);
	util_free_strings(names, n);
	if (fd != -1)
		close(fd);
}

/* ---- the snapshot --------------------------------------------------- */

/* Ids, once every array has its final order: see archive.h. */
static void
number(struct archive *a)
{
	size_t	 i;

	for (i = 0; i < a->nposts + a->nunlisted; i++)
		a->posts[i]->id = i;
	for (i = 0; i < a->ndrafts; i++)
		a->drafts[i]->id = i;
	for (i = 0; i < a->nseries; i++)
		a->series[i]->id = i;
	for (i = 0; i < a->ntags; i++)
		a->tags[i]->id = i;
	for (i = 0; i < a->ndocs + a->nunlisted_docs; i++)
		a->docs[i]->id = i;
}

struct archive *
archive_load(const struct config *c)
{
	return archive_reload_held(c, NULL, NULL, NULL);
}

struct archive *
archive_reload(const struct config *c, const struct archive *prev)
{
	return archive_reload_held(c, prev, NULL, NULL);
}

struct archive *
archive_reload_held(const struct config *c, const struct archive *prev,
    archive_held_fn held, void *held_arg)
{
	struct archive_hooks	 h = { held, held_arg, NULL, NULL, 0 };

	return archive_reload_hooked(c, prev, &h);
}

struct archive *
archive_reload_hooked(const struct config *c, const struct archive *prev,
    const struct archive_hooks *h)
{
	struct archive_priv	*ap;
	struct archive		*a;
	struct archive_scan	*sc;
	struct timespec		 now;
	struct stat		 st;
	char			**names, *real;
	size_t			 n, i;
	int			 dfd, sfd;

	/* A user's capsule is no link (core/userdir.h), and stays the user's. */
	if ((dfd = open(c->capsule_dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC |
	    (c->owned ? O_NOFOLLOW : 0))) == -1) {
		log_warn("%s", c->capsule_dir);
		return NULL;
	}
	if (c->owned && (fstat(dfd, &st) == -1 ||
	    !userdir_owned(&st, (uid_t)c->owner_uid))) {
		log_warnx("%s: no longer the user's alone, not loaded",
		    c->capsule_dir);
		close(dfd);
		return NULL;
	}
	ap = xcalloc(1, sizeof(*ap));
	a = &ap->pub;
	atomic_init(&a->refs, 1);
	if ((real = realpath(c->capsule_dir, NULL)) != NULL) {
		a->dir = xstrdup(real);
		free(real);
	} else
		a->dir = xstrdup(c->capsule_dir);
	if (c->nlink_aliases > 0) {
		a->link_aliases = xreallocarray(NULL, c->nlink_aliases,
		    sizeof(*a->link_aliases));
		for (i = 0; i < c->nlink_aliases; i++)
			a->link_aliases[i] = xstrdup(c->link_aliases[i]);
		a->nlink_aliases = c->nlink_aliases;
	}
	a->web_url = xstrdup_null(c->web_url);
	a->hostname = xstrdup_null(c->hostname);
	a->files_links = c->follow_symlinks;
	a->files_hardlinks = c->files_hardlinks != 0;
	a->static_root = c->owned ? NULL : xstrdup_null(c->root);
	a->owned = c->owned;
	a->owner = (uid_t)c->owner_uid;
	sc = &ap->scan;
	sc->dir = a->dir;
	sc->owned = a->owned;
	sc->owner = a->owner;
	sc->hardlinks = a->files_hardlinks;
	sc->max_file = c->max_post_size > 0 ? c->max_post_size :
	    ARCHIVE_MAX_FILE;
	sc->max_total = c->max_archive_size > 0 ? c->max_archive_size :
	    (size_t)1 << 30;
	clock_gettime(CLOCK_REALTIME, &now);
	sc->t_scan = archive_ns(&now);
	/* Another capsule shares nothing with this one. */
	if (prev != NULL && strcmp(prev->dir, a->dir) == 0) {
		sc->prev = &inner(prev)->file_rel;
		ap->said_prev = inner(prev)->said;
		hashset_ref(ap->said_prev);
	}
	sc->warn = scan_said;
	sc->warn_arg = a;
	ap->said = hashset_new();
	ap->changed = hashset_new();
	ap->building = true;
	if (h != NULL) {
		sc->held = h->held;
		sc->held_arg = h->held_arg;
		ap->unlisted = h->unlisted;
		ap->unlisted_arg = h->unlisted_arg;
		ap->summarise = h->summarise && sc->prev == NULL;
	}

	load_index(a, dfd, c);

	sfd = dirscan_list(sc, dfd, CAPFILE_SERIES, 0, &names, &n);
	load_posts(a, dfd, c->posts_here);
	/* Unlisted posts had addresses too: access decides on them. */
	address_index(&ap->addr, a->posts, a->nposts + a->nunlisted);
	/* Series come from files and from posts: n + nposts at most. */
	index_init(&ap->series_slug, n + a->nposts);
	a->series = xcalloc(n + a->nposts, sizeof(*a->series));
	load_series_files(a, sfd, names, n);
	util_free_strings(names, n);
	if (sfd != -1)
		close(sfd);
	link_series(a);
	link_tags(a);
	load_pages(a, dfd);
	close(dfd);
	number(a);

	/* The next snapshot finds its unchanged files here. */
	index_init(&ap->file_rel, sc->nfiles);
	for (i = 0; i < sc->nfiles; i++)
		index_put(&ap->file_rel, sc->files[i]->rel, sc->files[i]);
	a->nread = sc->nread;
	a->nreused = sc->nreused;
	a->nheld = sc->nheld;
	a->nskipped += sc->nquiet;
	say_pending(ap);
	/* Only the records stay: the rest served this build alone. */
	sc->prev = NULL;
	sc->warn = NULL;
	sc->held = NULL;
	ap->unlisted = NULL;
	return a;
}

void
archive_ref(struct archive *a)
{
	atomic_fetch_add(&a->refs, 1);
}

/*
 * A post owns its slug, its authors' names and two arrays; the rest
 * borrows from p->file.
 */
static void
post_free(struct post *p)
{
	free(p->slug);
	free(p->author_names);
	free(p->tagnames);
	free(p->tags);
	free(p);
}

static void
series_free(struct series *s)
{
	free(s->slug);
	free(s->title);
	free(s->path);
	free(s->summary);
	free(s->level);
	free(s->audience);
	free(s->parts);
	free(s);
}

static void
tag_free(struct tag *t)
{
	free(t->slug);
	free(t->name);
	free(t->posts);
	free(t);
}

static void
doc_free(struct doc *d)
{
	free(d->name);
	free(d->title);
	free(d->lang);
	free(d);
}

void
archive_unref(struct archive *a)
{
	struct archive_priv	*ap;
	size_t			 i;

	if (a == NULL || atomic_fetch_sub(&a->refs, 1) != 1)
		return;
	ap = inner(a);
	for (i = 0; i < a->nposts + a->nunlisted; i++)
		post_free(a->posts[i]);
	for (i = 0; i < a->ndrafts; i++)
		post_free(a->drafts[i]);
	free(a->posts);
	free(a->drafts);
	for (i = 0; i < a->nseries; i++)
		series_free(a->series[i]);
	free(a->series);
	for (i = 0; i < a->ntags; i++)
		tag_free(a->tags[i]);
	free(a->tags);
	for (i = 0; i < a->ndocs + a->nunlisted_docs; i++)
		doc_free(a->docs[i]);
	free(a->docs);
	for (i = 0; i < a->nlink_aliases; i++)
		free(a->link_aliases[i]);
	free(a->link_aliases);
	free(a->web_url);
	free(a->static_root);
	for (i = 0; i < a->nassets; i++)
		free(a->assets[i]);
	free(a->assets);
	free(a->hostname);
	free(a->dir);
	free(a->title);
	free(a->subtitle);
	free(a->author);
	free(a->lang);
	for (i = 0; i < ap->scan.nfiles; i++)
		record_unref(ap->scan.files[i]);
	free(ap->scan.files);
	hashset_unref(ap->said);
	hashset_unref(ap->said_prev);
	hashset_unref(ap->changed);
	for (i = 0; i < ap->nsaid_first; i++)
		free(ap->said_first[i]);
	index_free(&ap->file_rel);
	address_free(&ap->addr);
	index_free(&ap->post_slug);
	index_free(&ap->post_file);
	index_free(&ap->post_base);
	index_free(&ap->series_slug);
	index_free(&ap->tag_slug);
	index_free(&ap->doc_name);
	free(ap);
}

struct post *
archive_post(const struct archive *a, const char *slug)
{
	return index_get(&inner(a)->post_slug, slug);
}

struct post *
archive_draft(const struct archive *a, const char *slug)
{
	size_t	 i;

	for (i = 0; i < a->ndrafts; i++)
		if (a->drafts[i] != NULL && strcmp(a->drafts[i]->slug, slug) == 0)
			return a->drafts[i];
	return NULL;
}

struct post *
archive_post_name(const struct archive *a, const char *name,
    int *ambiguous)
{
	return address_name(&inner(a)->addr, name, ambiguous);
}

struct post *
archive_post_address(const struct archive *a, const char *path,
    int *ambiguous)
{
	return address_find(&inner(a)->addr, path, ambiguous);
}

struct post *
archive_post_file(const struct archive *a, const char *name)
{
	return index_get(&inner(a)->post_file, name);
}

struct post *
archive_post_base(const struct archive *a, const char *base)
{
	return index_get(&inner(a)->post_base, base);
}

struct series *
archive_series(const struct archive *a, const char *slug)
{
	return index_get(&inner(a)->series_slug, slug);
}

struct tag *
archive_tag(const struct archive *a, const char *slug)
{
	return index_get(&inner(a)->tag_slug, slug);
}

struct doc *
archive_doc(const struct archive *a, const char *name)
{
	return index_get(&inner(a)->doc_name, name);
}
