/*
 * listing.c -- a static tree's directory as a reader gets it when it
 * is no index file (listing.h): its gophermap's menu, its index.gph's
 * menu, or its listing; and the menu of any .gph file.
 *
 * A listing is made from the page model (page.h) of what a request for
 * each entry would get (tree_open()), leaving out what access rules
 * guard, so it is the same for every reader; a gophermap is read by
 * gophermap.c, whose includes and "*" listing come back here and stay
 * in the tree; a .gph menu by geomyidae.c, into menu lines for Gopher
 * and into the page model for every other format.  Either is made on
 * libuv's pool when the caller can wait (response_defer_make()), and is
 * bounded: a listing looks at
 * LISTING_READ_MAX names and shows LISTING_MAX, a menu's includes read
 * GOPHERMAP_INCLUDE_READ_MAX bytes, and no answer holds more than
 * DIR_ANSWER_MAX bytes; where a bound cuts, a line says so.
 *
 * In a tree the watcher follows (tree_watched()), an answer is made
 * once and kept in the site's cache for every reader (a slot named by
 * the directory, the URL it was reached by, the format and the host,
 * site_file_slot()): readers who ask at once wait for that one making.
 * Elsewhere it is made for each request, DIR_UNKEPT_MAX at a time, and
 * held against the budget of bodies made for one request
 * (response_hold()).  No socket I/O; owns the descriptors it is
 * handed, and its job while one is pending.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "content/archive.h"
#include "core/buf.h"
#include "core/cache.h"
#include "core/config.h"
#include "core/config_types.h"
#include "core/dirwalk.h"
#include "core/escape.h"
#include "core/fsafe.h"
#include "core/log.h"
#include "core/url.h"
#include "core/userdir.h"
#include "core/utf8.h"
#include "core/util.h"
#include "site/access.h"
#include "site/geomyidae.h"
#include "site/gophermap.h"
#include "site/listing.h"
#include "site/page.h"
#include "site/response.h"
#include "site/site.h"
#include "site/tree.h"

/*
 * A gophermap (or a .gph menu) is read up to this size; a larger one
 * is not read.
 */
#define GOPHERMAP_MAX	((size_t)1 << 20)
/* A directory's geomyidae menu (site/geomyidae.h). */
#define GPH_INDEX	"index.gph"
/*
 * What the answer of a tree's directory, a rendered gophermap (its
 * includes and its listing in) or a listing, holds at most: past it,
 * it is cut at a line, and a line says so.
 */
#define DIR_ANSWER_MAX	((size_t)1 << 20)
#define DIR_ANSWER_MAX_SAID	"1 MiB"
/*
 * A listing shows this many entries at most, and looks at this many
 * names of its directory at most (readdir(), then a stat or an open
 * each): its cost is bounded whatever the directory holds.
 */
#define LISTING_MAX	10000
#define LISTING_READ_MAX	100000
/*
 * Answers of unwatched trees' directories being made at once, at most
 * (the next is 41): each is made at every request, on libuv's pool of
 * four threads, which also reads every file of such a tree; two of
 * them stay free for that whatever a directory costs.
 */
#define DIR_UNKEPT_MAX	2
/* A .gmi file's first heading is looked for in its first bytes. */
#define TITLE_SCAN	4096
#define TITLE_MAX	200

/*
 * A name a request can ask for: valid UTF-8 without C0 controls or DEL,
 * as url.c and gopher.c want a path.  Other names are not listed: a
 * link to them could only ever get 59, and a text/gemini; charset=utf-8
 * listing must not carry their bytes.
 */
static int
listable(const char *name)
{
	const unsigned char	*p;

	for (p = (const unsigned char *)name; *p != '\0'; p++)
		if (*p < 0x20 || *p == 0x7f)
			return 0;
	return utf8_valid(name, strlen(name));
}

/*
 * name (listable()) as a listing shows it: C1 controls and U+2028/2029,
 * line breaks to some readers, as \xHH a byte at a time (as the log
 * writes them).  The caller frees the result.
 */
static char *
shown(const char *name)
{
	struct buf	 b = BUF_INIT;
	size_t		 len = strlen(name), i = 0, n, k;
	uint32_t	 cp;

	while (i < len) {
		n = utf8_decode(name + i, len - i, &cp);
		if ((cp >= 0x80 && cp < 0xa0) || cp == 0x2028 || cp == 0x2029)
			for (k = 0; k < n; k++)
				buf_printf(&b, "\\x%02x",
				    (unsigned char)name[i + k]);
		else
			buf_add(&b, name + i, n);
		i += n;
	}
	buf_addc(&b, '\0');
	return buf_release(&b);
}

/* One entry of a listing: what list_dir() keeps of a dirent. */
struct listed {
	char		*name;		/* owned */
	char		*title;		/* a .gmi file's first heading, or
					   NULL (owned) */
	time_t		 mtime;
	enum dirwalk_type type;		/* as read, then DIRWALK_FILE or
					   DIRWALK_DIR as served */
	bool		 opened;	/* entry() opened it as served (a
					   link, or no d_type) */
};

/* Listings sort as alphasort() would: by strcoll() of the names. */
static int
listed_cmp(const void *a, const void *b)
{
	return strcoll(((const struct listed *)a)->name,
	    ((const struct listed *)b)->name);
}

/* "listing_sort: date": newest first, then by name. */
static int
listed_date_cmp(const void *a, const void *b)
{
	const struct listed	*x = a, *y = b;

	if (x->mtime != y->mtime)
		return x->mtime < y->mtime ? 1 : -1;
	return listed_cmp(a, b);
}

/* "listing_reverse": each order backwards (molly-brown's DirectoryReverse). */
static int
listed_cmp_rev(const void *a, const void *b)
{
	return listed_cmp(b, a);
}

static int
listed_date_cmp_rev(const void *a, const void *b)
{
	return listed_date_cmp(b, a);
}

/*
 * The first heading ("# Title") in the first TITLE_SCAN bytes of the
 * gemtext file fd, malloc'd, or NULL: none, or not fit for a listing.
 */
static char *
first_heading(int fd)
{
	char		 data[TITLE_SCAN + 1];
	ssize_t		 n;
	char		*s, *e, *t;

	while ((n = pread(fd, data, TITLE_SCAN, 0)) == -1 && errno == EINTR)
		;
	if (n <= 0)
		return NULL;
	data[n] = '\0';
	for (s = data; s != NULL && *s != '\0'; s = e != NULL ? e + 1 : NULL) {
		e = strchr(s, '\n');
		if (s[0] == '`' && strncmp(s, "```", 3) == 0)
			return NULL;	/* the first heading is too far on */
		if (s[0] != '#')
			continue;
		if (e == NULL)
			return NULL;	/* cut by the scan: no title */
		s += strspn(s, "#");
		s += strspn(s, " \t");
		if (e > s && e[-1] == '\r')
			e--;
		if (e == s || (size_t)(e - s) > TITLE_MAX)
			return NULL;
		t = xstrndup(s, (size_t)(e - s));
		if (!listable(t)) {
			free(t);
			return NULL;
		}
		return t;
	}
	return NULL;
}

/* rel/name opened as a request for it would open it (tree_open()). */
static int
open_as_served(const struct route *rt, const struct tree *t, const char *rel,
    const char *name, struct stat *st)
{
	enum fsafe_kind	 kind;
	char		*path;
	int		 fd;

	path = tree_join(rel, name);
	fd = tree_open(rt, t, path, st, &kind);
	free(path);
	return fd;
}

/*
 * May the entry e->name (of type e->type) of the directory dfd (rel,
 * capsule-relative) be listed, that is: served?  What a request for it
 * would get decides: a symbolic link is opened as a request would open
 * it (a link that leads out, into posts/ or anywhere refused is not
 * listed).  Fills in e's type and time; its title is title()'s.
 */
static int
entry(const struct route *rt, const struct tree *t, int dfd,
    const char *rel, struct listed *e)
{
	struct stat	 st;
	int		 fd;

	switch (e->type) {
	case DIRWALK_LINK:
		/* As served: where it leads, if anywhere. */
		if ((fd = open_as_served(rt, t, rel, e->name, &st)) == -1)
			return 0;
		close(fd);
		e->type = S_ISDIR(st.st_mode) ? DIRWALK_DIR : DIRWALK_FILE;
		e->opened = true;
		break;
	case DIRWALK_FILE:
	case DIRWALK_DIR:
		if (fstatat(dfd, e->name, &st, AT_SYMLINK_NOFOLLOW) == -1)
			return 0;
		if (e->type == DIRWALK_FILE && !rt->cfg->files_hardlinks &&
		    st.st_nlink > 1)
			return 0;	/* never served: see static_file() */
		if (rt->cfg->owned && !userdir_owned(&st, rt->cfg->owner_uid))
			return 0;	/* never served: archive_files_open() */
		break;
	case DIRWALK_OTHER:
		return 0;		/* FIFOs, sockets, devices: never */
	}
	e->mtime = st.st_mtime;
	return 1;
}

/*
 * e's title, when the listing shows titles and e is a .gmi file: read
 * as entry() found it (a link as a request opens it, else beneath dfd,
 * following nothing).
 */
static void
title(const struct route *rt, const struct tree *t, int dfd,
    const char *rel, struct listed *e)
{
	struct stat	 st;
	int		 fd;

	if (e->type != DIRWALK_FILE || !rt->cfg->listing_titles ||
	    !archive_gmi_name(e->name))
		return;
	if (e->opened)
		fd = open_as_served(rt, t, rel, e->name, &st);
	else
		fd = openat(dfd, e->name, O_RDONLY | O_NONBLOCK | O_NOFOLLOW |
		    O_CLOEXEC);
	if (fd == -1)
		return;
	if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode))
		e->title = first_heading(fd);
	close(fd);
}

/*
 * May every reader know of the entry name of the directory rel (at the
 * site path urlpath)?  An entry an access rule guards is left out of
 * the listing, as from every list (site/access.h): so a listing is the
 * same for every reader, and may be kept for all of them.
 */
static int
entry_public(const struct route *rt, const struct tree *t, const char *rel,
    const char *urlpath, const char *name)
{
	struct ident	 id;
	char		*url, *file;
	int		 ok;

	if (!access_any(rt->host))
		return 1;
	url = xasprintf("%s%s%s", t->base != NULL ? t->base : "", urlpath,
	    name);
	file = tree_join(rel, name);
	id.url = url;
	id.file = file;
	ok = access_public(rt->host, rt->cfg, &id);
	free(file);
	free(url);
	return ok;
}

/* Is name a gemtext file's, by its type (config_file_type())? */
static int
gemtext_name(const struct route *rt, const char *name)
{
	char	 type;

	return strcasecmp(config_file_type(rt->cfg->types, name, &type),
	    "text/gemini") == 0;
}

/* Is name among hide[0..nhide)? (a gophermap's "-name" lines) */
static int
hidden(const char *name, char *const *hide, size_t nhide)
{
	size_t	 i;

	for (i = 0; i < nhide; i++)
		if (strcmp(name, hide[i]) == 0)
			return 1;
	return 0;
}

/* A switch: a new format is a decision here. */
int
listing_gopher_menu(enum format f)
{
	switch (f) {
	case FORMAT_GEMTEXT:
	case FORMAT_NEX:		/* its index file's links are Nex's */
	case FORMAT_TEXT:
	case FORMAT_HTML:
		return 0;
	case FORMAT_GOPHER:
		break;
	}
	return 1;
}

/*
 * The page of a listing, or its menu lines, written for the tree's base
 * (not the generated pages' mount) into out: gemtext, or the lines of a
 * Gopher menu without its closing "." (the caller's: dir_make()).
 */
static void
emit(const struct route *rt, const struct tree *t, const struct page *p,
    struct buf *out)
{
	struct page_target	 pt;
	char			*gem = NULL, *gph = NULL;

	memset(&pt, 0, sizeof(pt));
	pt.format = rt->format;
	pt.host = rt->cfg->hostname;
	pt.base = t->base;
	pt.width = rt->cfg->gopher_width;
	pt.ascii = rt->cfg->gopher_charset == CONFIG_CHARSET_ASCII;
	pt.types = rt->cfg->types;
	pt.port = response_public_port(rt);
	pt.open_menu = 1;		/* dir_make() closes it */
	switch (rt->format) {
	case FORMAT_GEMTEXT:
	case FORMAT_GOPHER:
	case FORMAT_NEX:
	case FORMAT_TEXT:
		break;
	case FORMAT_HTML:
		response_html_target(rt, p, &pt, &gem, &gph);
		break;
	}
	page_emit(p, &pt, 0, out);
	free(gem);
	free(gph);
}

/* dir_read()'s: the names kept so far. */
struct dir_read {
	char *const	*hide;
	size_t		 nhide;
	struct listed	*v;
	size_t		 n, cap;
};

static enum dirwalk_answer
dir_read_one(void *arg, struct dirwalk_entry *e)
{
	struct dir_read	*d = arg;

	if (e->event != DIRWALK_ENTRY || !listable(e->name) ||
	    strcmp(e->name, "gophermap") == 0 ||
	    strcmp(e->name, GPH_INDEX) == 0 ||
	    hidden(e->name, d->hide, d->nhide))
		return DIRWALK_NEXT;
	if (d->n == d->cap) {
		d->cap = d->cap ? d->cap * 2 : 32;
		d->v = xreallocarray(d->v, d->cap, sizeof(*d->v));
	}
	memset(&d->v[d->n], 0, sizeof(d->v[d->n]));
	d->v[d->n].name = xstrdup(e->name);
	d->v[d->n++].type = e->type;
	return DIRWALK_NEXT;		/* never into a folder */
}

/*
 * The names in the directory dfd that a listing may show (listable(),
 * no dot-file, no gophermap nor index.gph, none of hide[0..nhide)), of
 * the first LISTING_READ_MAX names it holds, into *ents (malloc'd, or
 * NULL); *more set when it has more.  The one place where a listing
 * reads a directory, by core/dirwalk's walk, one level deep.  dfd stays
 * the caller's.
 */
static size_t
dir_read(int dfd, char *const *hide, size_t nhide, struct listed **ents,
    bool *more)
{
	struct dir_read	 d = { hide, nhide, NULL, 0, 0 };
	struct dirwalk	 w = { 0, LISTING_READ_MAX, false, dir_read_one, &d,
	    0, false };

	(void)dirwalk_run(&w, dfd, "", NULL);
	*more = w.full;
	*ents = d.v;
	return d.n;
}

/*
 * A directory of the tree (dfd, rel; urlpath ends in '/'): a listing
 * made from the page model, into out.  whole: a page of its own (a
 * heading, ".."), else the lines a gophermap's "*" appends, without
 * the names it hides.  It shows LISTING_MAX entries at most, the first
 * in its order, and says so when there are more: whatever the
 * directory holds, a listing checks LISTING_READ_MAX names at most
 * (one or two system calls each), and reads the first bytes of
 * LISTING_MAX files for their titles.  dfd stays the caller's.
 */
static void
list_dir(const struct route *rt, const struct tree *t, int dfd,
    const char *rel, const char *urlpath, int whole, char *const *hide,
    size_t nhide, struct buf *out)
{
	struct page	 p;
	struct listed	*ents;
	size_t		 n, i, k = 0, len;
	bool		 more, by_date = rt->cfg->listing_sort ==
			    CONFIG_SORT_DATE, rev = rt->cfg->listing_reverse;
	char		*url, *name;
	char		 date[11];
	struct tm	 tm;

	n = dir_read(dfd, hide, nhide, &ents, &more);
	/*
	 * By name, the names sort first and only those shown are looked
	 * at; by date, every one is, for its time.  Either way ents[0..k)
	 * are the entries served, in order.
	 */
	if (!by_date && n > 1)
		qsort(ents, n, sizeof(*ents), rev ? listed_cmp_rev :
		    listed_cmp);
	for (i = 0; i < n; i++) {
		if ((by_date || k <= LISTING_MAX) &&
		    entry(rt, t, dfd, rel, &ents[i]) &&
		    entry_public(rt, t, rel, urlpath, ents[i].name)) {
			ents[k++] = ents[i];
			continue;
		}
		free(ents[i].name);
	}
	if (by_date && k > 1)
		qsort(ents, k, sizeof(*ents), rev ? listed_date_cmp_rev :
		    listed_date_cmp);
	if (k > LISTING_MAX) {
		more = true;
		for (i = LISTING_MAX; i < k; i++)
			free(ents[i].name);
		k = LISTING_MAX;
	}

	page_init(&p);
	page_self(&p, urlpath);
	if (whole) {
		name = shown(urlpath);
		page_heading(&p, 1, "Index of %s", name);
		free(name);
		page_blank(&p);
	}
	if (whole && strcmp(urlpath, t->url) != 0) {
		/* Absolute: a Gopher selector cannot be relative. */
		len = strlen(urlpath) - 1;
		while (len > 0 && urlpath[len - 1] != '/')
			len--;
		url = xstrndup(urlpath, len);
		page_link(&p, LINK_MENU, url, NULL, "..");
		free(url);
	}
	for (i = 0; i < k; i++) {
		int isdir = ents[i].type == DIRWALK_DIR;
		/*
		 * A directory's name ends in '/' where nothing else says it
		 * is one; a Gopher menu's item type does (and the classic
		 * client adds a '/' of its own: "2024//").
		 */
		const char *mark = "";

		switch (rt->format) {
		case FORMAT_GOPHER:
			break;
		case FORMAT_GEMTEXT:
		case FORMAT_NEX:
		case FORMAT_TEXT:
		case FORMAT_HTML:
			mark = isdir ? "/" : "";
			break;
		}

		title(rt, t, dfd, rel, &ents[i]);
		date[0] = '\0';
		if (by_date && gmtime_r(&ents[i].mtime, &tm) != NULL)
			strftime(date, sizeof(date), "%Y-%m-%d", &tm);
		url = xasprintf("%s%s%s", urlpath, ents[i].name,
		    isdir ? "/" : "");
		name = shown(ents[i].title != NULL ? ents[i].title :
		    ents[i].name);
		/*
		 * A .gph file is a menu (geomyidae.h), never a file; a
		 * gemtext file is a text with a menu over Gopher, as a
		 * post is (static.c).
		 */
		page_link(&p, isdir || tree_is_gph(ents[i].name) ? LINK_MENU :
		    gemtext_name(rt, ents[i].name) ? LINK_TEXT : LINK_FILE, url,
		    date[0] != '\0' ? date : NULL, "%s%s", name, mark);
		free(name);
		free(url);
		free(ents[i].name);
		free(ents[i].title);
	}
	free(ents);
	if (more) {
		page_blank(&p);
		page_text(&p, "(The first %d entries only: the directory "
		    "has more.)", LISTING_MAX);
	}
	emit(rt, t, &p, out);
	page_free(&p);
}

/* What a gophermap's callbacks need: its tree and directory. */
struct map_ctx {
	const struct route	*rt;
	const struct tree	*t;
	const char		*rel;		/* the directory */
	const char		*urlpath;	/* its path, "/x/" */
	int			 dfd;		/* the directory, or -1 once
						   listed (the caller's) */
};

/*
 * The bytes of the regular file fd (st), max at most: NULL when it is
 * larger (*len then its size) or cannot be read (*len 0).
 */
static char *
read_small(int fd, const struct stat *st, size_t max, size_t *len)
{
	char	*data;
	size_t	 got = 0;
	ssize_t	 n;

	*len = 0;
	if ((uint64_t)st->st_size > max) {
		*len = (size_t)st->st_size;
		return NULL;
	}
	data = xmalloc((size_t)st->st_size + 1);
	while (got < (size_t)st->st_size) {
		n = pread(fd, data + got, (size_t)st->st_size - got,
		    (off_t)got);
		if (n == -1 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		got += (size_t)n;
	}
	*len = got;
	return data;
}

/*
 * "=sel" of a gophermap: the gophermap sel names in the same tree (a
 * file the tree serves, or a directory's gophermap), never run, max
 * bytes at most.
 */
static char *
map_include(void *arg, const char *sel, size_t max, size_t *len)
{
	const struct map_ctx	*mc = arg;
	const struct tree	*t = mc->t;
	struct stat		 st;
	enum fsafe_kind		 kind;
	size_t			 blen = t->base != NULL ? strlen(t->base) : 0;
	char			*rel, *data = NULL;
	int			 fd;

	*len = 0;
	/* The selector is the tree's path, with the site's base. */
	if (strncmp(sel, t->base != NULL ? t->base : "", blen) != 0 ||
	    strncmp(sel + blen, t->url, strlen(t->url)) != 0 ||
	    url_has_dot_segment(sel))
		return NULL;
	rel = tree_rel(t, sel + blen);
	if (tree_is_gophermap(rel))	/* a menu, never served: read here */
		fd = *rel == '\0' ? -1 : archive_files_open(mc->rt->a, rel,
		    mc->rt->cfg->follow_symlinks, mc->rt->cfg->files_hardlinks,
		    &st, &kind);
	else
		fd = tree_open(mc->rt, t, rel, &st, &kind);
	free(rel);
	if (fd == -1)
		return NULL;
	if (kind == FSAFE_FILE)
		data = read_small(fd, &st, max, len);
	close(fd);
	return data;
}

/* "*" of a gophermap: the directory's listing, as menu lines. */
static void
map_listing(void *arg, char *const *hide, size_t nhide, struct buf *out)
{
	struct map_ctx	*mc = arg;

	if (mc->dfd == -1)
		return;			/* one listing per map */
	list_dir(mc->rt, mc->t, mc->dfd, mc->rel, mc->urlpath, 0, hide, nhide,
	    out);
	mc->dfd = -1;
}

/*
 * A directory's answer still to make, its listing or its gophermap:
 * made at once, or on the pool (response_defer_make()), which then owns
 * this.  Borrows the configuration (t), as the route does.
 */
struct dir_job {
	struct tree	 t;
	int		 kind;		/* 'M' its gophermap, 'G' a .gph menu,
					   'L' its listing */
	int		 dfd;		/* the directory: owned; -1 for a
					   .gph file's menu */
	int		 mfd;		/* its map, or -1: owned */
	struct stat	 mst;		/* the map's, when opened */
	char		*rel;		/* owned: the directory in the
					   capsule (a .gph file's: the file) */
	char		*urlpath;	/* owned: its path, ending in '/' */
	struct slot	*slot;		/* where it is kept for every reader,
					   or NULL: made for one request, */
	int		 counted;	/* and counted in unkept_making */
};

/* Jobs of answers made for one request, made or waiting: at most two. */
static atomic_int	 unkept_making;

static void
dir_job_free(void *arg)
{
	struct dir_job	*j = arg;

	if (j->counted)
		atomic_fetch_sub(&unkept_making, 1);
	if (j->dfd != -1)
		close(j->dfd);
	if (j->mfd != -1)
		close(j->mfd);
	free(j->rel);
	free(j->urlpath);
	free(j);
}

/*
 * The text of j's menu file (a gophermap, an index.gph: j->mfd), *len
 * bytes, and in *dir its directory's selector (the tree's base, then
 * its path), both malloc'd; env set for it (no callbacks).  NULL when
 * it cannot be read.
 */
static char *
menu_read(const struct route *rt, struct dir_job *j,
    struct gophermap_env *env, size_t *len, char **dir)
{
	char	*text;

	if ((text = read_small(j->mfd, &j->mst, GOPHERMAP_MAX, len)) == NULL)
		return NULL;
	*dir = xasprintf("%s%s", j->t.base != NULL ? j->t.base : "",
	    j->urlpath);
	memset(env, 0, sizeof(*env));
	env->host = rt->cfg->hostname;
	env->port = config_public_port(rt->cfg, SURFACE_GOPHER);
	env->dir = *dir;
	env->max = DIR_ANSWER_MAX;
	return text;
}

/*
 * The gophermap j->mfd, rendered as a menu into out (without the
 * closing "."): 0, or -1 when it cannot be read, and the caller lists
 * the directory instead.
 */
static int
dir_map(const struct route *rt, struct dir_job *j, struct buf *out)
{
	struct gophermap_env	 env;
	struct map_ctx		 mc = { rt, &j->t, j->rel, j->urlpath, j->dfd };
	char			*text, *dir;
	size_t			 len;

	if ((text = menu_read(rt, j, &env, &len, &dir)) == NULL)
		return -1;
	env.include = map_include;
	env.listing = map_listing;
	env.arg = &mc;
	gophermap_render(&env, text, len, out);
	free(dir);
	free(text);
	return 0;
}

/*
 * The .gph menu j->mfd, as Gopher menu lines, or as a page of rt's
 * format (its links paths from the server's top: no base is added),
 * into out (without a menu's closing "."): 0, or -1 when it cannot be
 * read.
 */
static int
dir_gph(const struct route *rt, struct dir_job *j, struct buf *out)
{
	struct gophermap_env	 env;
	struct tree		 top = j->t;
	struct page		 p;
	char			*text, *dir;
	size_t			 len;

	if ((text = menu_read(rt, j, &env, &len, &dir)) == NULL)
		return -1;
	if (listing_gopher_menu(rt->format))
		geomyidae_render(&env, text, len, out);
	else {
		page_init(&p);
		geomyidae_page(&env, text, len, &p);
		top.base = NULL;
		emit(rt, &top, &p, out);
		page_free(&p);
	}
	free(dir);
	free(text);
	return 0;
}

/*
 * Cut the answer out (without a Gopher menu's closing ".") to fit in
 * limit bytes, that closing line and the line saying why (a text line
 * of rt's format) in: at the end of its last whole line.  Nothing when
 * it fits.
 */
static void
cut(const struct route *rt, const struct tree *t, struct buf *out,
    size_t limit, const char *why)
{
	struct page	 p;
	struct buf	 note = BUF_INIT;
	size_t		 tail = listing_gopher_menu(rt->format) ? 3 : 0, at;

	if (out->len + tail <= limit)
		return;
	switch (rt->format) {
	case FORMAT_GEMTEXT:
	case FORMAT_GOPHER:
	case FORMAT_NEX:
	case FORMAT_TEXT:
		page_init(&p);
		page_text(&p, "%s", why);
		emit(rt, t, &p, &note);
		page_free(&p);
		break;
	case FORMAT_HTML:
		/* A document's end, not a second document. */
		buf_addstr(&note, "</ul>\n<p>");
		escape_xml(&note, why, strlen(why));
		buf_addstr(&note, "</p>\n</main>\n</body>\n</html>\n");
		break;
	}
	at = note.len + tail < limit ? limit - note.len - tail : 0;
	while (at > 0 && out->data[at - 1] != '\n')
		at--;
	buf_truncate(out, at);
	buf_add(out, note.data, note.len);
	buf_free(&note);
}

/*
 * The slots whose answers are being made, so that readers who ask for
 * one at once wait for one making of it instead of each making their
 * own (a big directory's listing is a second of a pool thread, a
 * menu's includes megabytes of memory).  As many as the pool has
 * threads, about; past that an answer is made without a word.
 */
#define MAKING_MAX	8
static pthread_mutex_t	 making_mtx = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t	 making_cv = PTHREAD_COND_INITIALIZER;
static struct slot	*making[MAKING_MAX];

/*
 * slot's answer, with a reference, once whoever is making it is done:
 * or NULL, and the caller makes it (making_done() then).
 */
static struct blob *
making_wait(struct slot *slot)
{
	struct blob	*b;
	size_t		 i, free_at;

	pthread_mutex_lock(&making_mtx);
	for (;;) {
		if ((b = cache_get(slot)) != NULL)
			break;
		free_at = MAKING_MAX;
		for (i = 0; i < MAKING_MAX; i++)
			if (making[i] == slot)
				break;
			else if (making[i] == NULL && free_at == MAKING_MAX)
				free_at = i;
		if (i == MAKING_MAX) {
			if (free_at < MAKING_MAX)
				making[free_at] = slot;
			break;
		}
		pthread_cond_wait(&making_cv, &making_mtx);
	}
	pthread_mutex_unlock(&making_mtx);
	return b;
}

/* slot's answer is made (or not: those waiting look again). */
static void
making_done(struct slot *slot)
{
	size_t	 i;

	pthread_mutex_lock(&making_mtx);
	for (i = 0; i < MAKING_MAX; i++)
		if (making[i] == slot)
			making[i] = NULL;
	pthread_cond_broadcast(&making_cv);
	pthread_mutex_unlock(&making_mtx);
}

/*
 * Make j's answer, the map or else the listing, and answer r with it:
 * kept in j->slot for every later reader (made once however many ask
 * at once), or r's alone, held against the budget of such bodies
 * (response_hold()).  A response_make_fn: any thread.
 */
static void
dir_make(const struct route *rt, void *arg, struct response *r)
{
	struct dir_job	*j = arg;
	struct buf	 out = BUF_INIT;
	struct blob	*b;
	size_t		 kept;
	int		 menus = listing_gopher_menu(rt->format);

	if (j->slot != NULL && (b = making_wait(j->slot)) != NULL) {
		response_use_blob(r, b);
		return;
	}
	/* Room for all of it at once: no copy as it grows. */
	buf_reserve(&out, DIR_ANSWER_MAX);
	if (j->kind == 'L' || (j->kind == 'M' ? dir_map(rt, j, &out) :
	    dir_gph(rt, j, &out)) == -1) {
		if (j->kind != 'L')
			log_warnx("%s/%s%s: cannot be read%s", rt->a->dir,
			    j->rel, j->kind == 'M' ? "/gophermap" :
			    j->dfd != -1 ? "/" GPH_INDEX : "", j->dfd != -1 ?
			    "; the directory is listed instead" : "");
		buf_truncate(&out, 0);
		if (j->dfd != -1)
			list_dir(rt, &j->t, j->dfd, j->rel, j->urlpath, 1,
			    NULL, 0, &out);
	}
	/* Each note a line of a Gopher menu, gopher_width 70. */
	cut(rt, &j->t, &out, DIR_ANSWER_MAX, menus ?
	    "(The rest of this menu is not shown: a menu holds "
	    DIR_ANSWER_MAX_SAID " at most.)" : "(The rest of this listing is "
	    "not shown: " DIR_ANSWER_MAX_SAID " at most.)");
	if (j->slot == NULL &&
	    (kept = response_hold(r, out.len + (menus ? 3 : 0))) <
	    out.len + (menus ? 3 : 0))
		cut(rt, &j->t, &out, kept, "(The rest is not shown now: the "
		    "server is busy. Ask again soon.)");
	if (menus)
		buf_addstr(&out, ".\r\n");
	b = blob_new(out.data, out.len);
	buf_free(&out);
	if (j->slot != NULL) {
		b = site_cache_put(rt->site, j->slot, b);
		making_done(j->slot);
	}
	response_use_blob(r, b);
}

/*
 * The slot of the answer of kind k ('L' a listing, 'M' a menu) of the
 * directory rel (at t's URL) in rt's format and for rt's host (whose
 * access rules filtered it), as site_file_slot() takes it: a name no
 * file has, since no request path holds a control character.
 */
static struct slot *
dir_slot(const struct route *rt, const struct tree *t, int k,
    const char *rel, int add)
{
	struct slot	*slot;
	char		*key;

	key = xasprintf("\001%c%d\001%s\001%s\001%s", k, (int)rt->format,
	    rt->host->hostname != NULL ? rt->host->hostname : "", t->url,
	    rel);
	slot = site_file_slot(rt->site, key, add);
	free(key);
	return slot;
}

/* r is the answer of kind k of a directory: its status and META. */
static void
dir_type(const struct route *rt, const struct tree *t, int k,
    struct response *r)
{
	const char	*lang, *charset;

	r->gopher_type = '1';
	if (k == 'M' || k == 'G') {
		response_status(r, 20, "%s; charset=utf-8",
		    response_page_type(rt));
		return;
	}
	/* A listing's names and titles are the tree's: its charset. */
	tree_path_meta(rt, t, &lang, &charset);
	response_status(r, 20, "%s; charset=%s%s%s", response_page_type(rt),
	    charset != NULL ? charset : "utf-8", lang != NULL ? "; lang=" : "",
	    lang != NULL ? lang : "");
}

int
listing_kept(const struct route *rt, const struct tree *t, const char *rel,
    struct response *r)
{
	/* A gophermap wins over an index.gph, which wins over a listing. */
	static const int	 kinds[] = { 'M', 'G', 'L' };
	struct slot		*slot;
	struct blob		*b;
	size_t			 i;

	if (!tree_watched(rt, t))
		return 0;
	for (i = listing_gopher_menu(rt->format) ? 0 : 1; i < nitems(kinds); i++)
		if ((slot = dir_slot(rt, t, kinds[i], rel, 0)) != NULL &&
		    (b = cache_get(slot)) != NULL) {
			dir_type(rt, t, kinds[i], r);
			response_use_blob(r, b);
			return 1;
		}
	return 0;
}

/*
 * Answer with the directory dfd (rel, at urlpath) of the tree: its
 * gophermap mfd (st), or its listing when mfd is -1.  Both fds pass to
 * the answer's job, made on the pool when the caller can wait; past
 * DIR_UNKEPT_MAX answers of unwatched trees in the making, 41.
 */
static void
dir_answer(const struct route *rt, const struct tree *t, int dfd,
    const char *rel, const char *urlpath, int k, int mfd,
    const struct stat *st, struct response *r)
{
	struct dir_job	*j;
	bool		 kept = tree_watched(rt, t);

	if (!kept && atomic_fetch_add(&unkept_making, 1) >= DIR_UNKEPT_MAX) {
		atomic_fetch_sub(&unkept_making, 1);
		if (dfd != -1)
			close(dfd);
		if (mfd != -1)
			close(mfd);
		response_status(r, 41, "Server busy: too many listings are "
		    "being made; try again in a moment");
		return;
	}
	dir_type(rt, t, k, r);
	j = xcalloc(1, sizeof(*j));
	j->counted = !kept;
	j->kind = k;
	j->t = *t;
	j->dfd = dfd;
	j->mfd = mfd;
	if (mfd != -1)
		j->mst = *st;
	j->rel = xstrdup(rel);
	j->urlpath = xstrdup(urlpath);
	j->slot = kept ? dir_slot(rt, t, k, rel, 1) : NULL;
	if (r->may_defer) {
		response_defer_make(rt, dir_make, j, dir_job_free, r);
		return;
	}
	dir_make(rt, j, r);
	dir_job_free(j);
}


int
listing_map(const struct route *rt, const struct tree *t, int dfd,
    const char *rel, const char *urlpath, struct response *r)
{
	struct stat	 st;
	enum fsafe_kind	 kind;
	char		*map;
	int		 mfd;

	if (!listing_gopher_menu(rt->format))
		return 0;
	/* The map is read as archive_files_open() allows. */
	map = tree_join(rel, "gophermap");
	mfd = archive_files_open(rt->a, map, rt->cfg->follow_symlinks,
	    rt->cfg->files_hardlinks, &st, &kind);
	if (mfd != -1 && (kind != FSAFE_FILE ||
	    (uint64_t)st.st_size > GOPHERMAP_MAX)) {
		if (kind == FSAFE_FILE)
			log_warnx("%s/%s: larger than %zu bytes, not read; "
			    "the directory is listed instead", rt->a->dir,
			    map, GOPHERMAP_MAX);
		close(mfd);
		mfd = -1;
	}
	free(map);
	if (mfd == -1)
		return 0;
	dir_answer(rt, t, dfd, rel, urlpath, 'M', mfd, &st, r);
	return 1;
}

void
listing_answer(const struct route *rt, const struct tree *t, int dfd,
    const char *rel, const char *urlpath, struct response *r)
{
	dir_answer(rt, t, dfd, rel, urlpath, 'L', -1, NULL, r);
}

/*
 * The .gph file rel (capsule-relative) open as files/ allows, no
 * larger than GOPHERMAP_MAX (a larger one is logged): its descriptor
 * and *st, or -1.
 */
static int
gph_open(const struct route *rt, const char *rel, struct stat *st)
{
	enum fsafe_kind	 kind;
	int		 fd;

	if ((fd = archive_files_open(rt->a, rel, rt->cfg->follow_symlinks,
	    rt->cfg->files_hardlinks, st, &kind)) == -1)
		return -1;
	if (kind != FSAFE_FILE || (uint64_t)st->st_size > GOPHERMAP_MAX) {
		if (kind == FSAFE_FILE)
			log_warnx("%s/%s: larger than %zu bytes, not read",
			    rt->a->dir, rel, GOPHERMAP_MAX);
		close(fd);
		return -1;
	}
	return fd;
}

int
listing_gph(const struct route *rt, const struct tree *t, int dfd,
    const char *rel, const char *urlpath, struct response *r)
{
	struct stat	 st;
	char		*gph;
	int		 mfd;

	gph = tree_join(rel, GPH_INDEX);
	mfd = gph_open(rt, gph, &st);
	free(gph);
	if (mfd == -1)
		return 0;
	dir_answer(rt, t, dfd, rel, urlpath, 'G', mfd, &st, r);
	return 1;
}

void
listing_gph_file(const struct route *rt, const struct tree *t,
    const char *rel, const char *path, struct response *r)
{
	struct stat	 st;
	struct slot	*slot;
	struct blob	*b;
	char		*dir;
	int		 mfd;

	if (tree_watched(rt, t) && (slot = dir_slot(rt, t, 'G', rel, 0)) !=
	    NULL && (b = cache_get(slot)) != NULL) {
		dir_type(rt, t, 'G', r);
		response_use_blob(r, b);
		return;
	}
	if ((mfd = gph_open(rt, rel, &st)) == -1) {
		response_status(r, 51, "Not found");
		return;
	}
	/* Its selectors are relative to its directory. */
	dir = xstrndup(path, (size_t)(strrchr(path, '/') - path) + 1);
	dir_answer(rt, t, -1, rel, dir, 'G', mfd, &st, r);
	free(dir);
}
