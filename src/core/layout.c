/*
 * layout.c -- the URL layout: site paths built and parsed (layout.h).
 *
 * One table, tops[], lists every top-level name the server answers
 * itself and how the path under it reads; the parser walks it and so
 * does layout_reserved().  Pure functions over the caller's strings;
 * the builders' results are the caller's to free.
 */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "core/layout.h"
#include "core/pathrule.h"
#include "core/util.h"

/* How the path under a top-level name reads. */
enum shape {
	SHAPE_LEAF,	/* "/<name>" only: "/<name>/..." is nothing */
	SHAPE_SECTION,	/* "/<name>/" a list ("/<name>" bare), and
			   "/<name>/<slug>..." its items, if any */
	SHAPE_RESERVED,	/* no path at all, only a name kept free */
};

static const struct top {
	const char	*name;
	enum shape	 shape;
	enum layout_kind kind;		/* "/<name>" or "/<name>/" */
	enum layout_kind item;		/* "/<name>/<slug>" (SHAPE_SECTION) */
} tops[] = {
	{ "posts",	SHAPE_SECTION,	LAYOUT_POSTS,	LAYOUT_POST },
	{ "series",	SHAPE_SECTION,	LAYOUT_SERIES_LIST, LAYOUT_SERIES },
	{ "tags",	SHAPE_SECTION,	LAYOUT_TAGS,	LAYOUT_TAG },
	{ "gemlog",	SHAPE_SECTION,	LAYOUT_GEMLOG,	LAYOUT_NONE },
	{ "drafts",	SHAPE_SECTION,	LAYOUT_DRAFTS,	LAYOUT_DRAFT },
	{ "files",	SHAPE_SECTION,	LAYOUT_FILES,	LAYOUT_FILES },
	{ "atom.xml",	SHAPE_LEAF,	LAYOUT_FEED,	LAYOUT_NONE },
	{ "search",	SHAPE_LEAF,	LAYOUT_SEARCH,	LAYOUT_NONE },
	{ "robots.txt",	SHAPE_LEAF,	LAYOUT_ROBOTS,	LAYOUT_NONE },
	{ ".plan",	SHAPE_LEAF,	LAYOUT_PLAN,	LAYOUT_NONE },
	/* Gopher's capabilities file, answered before the router. */
	{ "caps.txt",	SHAPE_RESERVED,	LAYOUT_NONE,	LAYOUT_NONE },
	/* content/links.c: "x/index" stands for x/, "/index" for "/". */
	{ "index",	SHAPE_RESERVED,	LAYOUT_NONE,	LAYOUT_NONE },
};

static void
set(struct layout_ref *ref, enum layout_kind kind, const char *name,
    size_t namelen, const char *rest)
{
	ref->kind = kind;
	ref->name = name;
	ref->namelen = namelen;
	ref->rest = rest;
}

/* "/posts/<slug>...", "/series/<slug>..." and the rest: s after "/". */
static void
item(const struct top *t, const char *s, struct layout_ref *ref)
{
	size_t		 len = strcspn(s, "/");
	const char	*rest = s + len;

	switch (t->item) {
	case LAYOUT_DRAFT:
		set(ref, LAYOUT_DRAFT, s, strlen(s), "");
		return;
	case LAYOUT_FILES:
		set(ref, LAYOUT_FILES, NULL, 0, s);
		return;
	case LAYOUT_NONE:
		/* "/gemlog/atom.xml": the gemlog's feed, as "/atom.xml". */
		if (t->kind == LAYOUT_GEMLOG && strcmp(s, "atom.xml") == 0)
			set(ref, LAYOUT_FEED, NULL, 0, "");
		return;
	default:
		break;
	}
	if (len == 0)
		return;
	if (t->item == LAYOUT_POST) {
		if (*rest == '\0')
			set(ref, LAYOUT_POST, s, len, "");
		else if (strcmp(rest, "/") == 0)
			set(ref, LAYOUT_POST_MENU, s, len, "");
		else
			set(ref, LAYOUT_BUNDLE_FILE, s, len, rest + 1);
		return;
	}
	/* A series or a tag: a list of its own, and its feed. */
	if (*rest == '\0') {
		set(ref, t->item, s, len, "");
		ref->bare = 1;
	} else if (strcmp(rest, "/") == 0)
		set(ref, t->item, s, len, "");
	else if (strcmp(rest, "/atom.xml") == 0)
		set(ref, t->item == LAYOUT_SERIES ? LAYOUT_SERIES_FEED :
		    LAYOUT_TAG_FEED, s, len, "");
}

/* "/~", "/~/", "/~name<rest>": s after "/~". */
static void
user(const char *s, struct layout_ref *ref)
{
	size_t	 len;

	if (*s == '\0' || strcmp(s, "/") == 0) {
		set(ref, LAYOUT_USERS, NULL, 0, "");
		ref->bare = *s == '\0';
		return;
	}
	/* "/~/x": an empty name, which names no user. */
	len = strcspn(s, "/");
	set(ref, LAYOUT_USER, s, len, s + len);
	ref->bare = s[len] == '\0';
}

void
layout_parse(const char *path, int flags, struct layout_ref *ref)
{
	const struct top *t;
	const char	*s, *rest;
	size_t		 i, len;

	memset(ref, 0, sizeof(*ref));
	ref->kind = LAYOUT_NONE;
	ref->rest = "";
	if (path[0] != '/')
		return;
	if (path[1] == '\0') {
		ref->kind = LAYOUT_HOME;
		return;
	}
	if ((flags & LAYOUT_USERDIRS) && path[1] == '~') {
		user(path + 2, ref);
		return;
	}
	s = path + 1;
	len = strcspn(s, "/");
	rest = s + len;
	if (len == 0)
		return;			/* "//x" */
	for (i = 0; i < nitems(tops); i++) {
		t = &tops[i];
		if (strlen(t->name) != len || memcmp(s, t->name, len) != 0)
			continue;
		switch (t->shape) {
		case SHAPE_RESERVED:
			return;
		case SHAPE_LEAF:
			if (*rest == '\0')
				ref->kind = t->kind;
			return;
		case SHAPE_SECTION:
			if (*rest == '\0') {
				ref->kind = t->kind;
				ref->bare = 1;
			} else if (rest[1] == '\0')
				ref->kind = t->kind;
			else
				item(t, rest + 1, ref);
			return;
		}
	}
	/* A page: "/<name>" or its menu "/<name>/". */
	if (*rest == '\0')
		set(ref, LAYOUT_PAGE, s, len, "");
	else if (strcmp(rest, "/") == 0)
		set(ref, LAYOUT_PAGE_MENU, s, len, "");
}

int
layout_name(const struct layout_ref *ref, char *buf, size_t size)
{
	if (size == 0)
		return -1;
	buf[0] = '\0';
	if (ref->name == NULL || ref->namelen >= size)
		return -1;
	memcpy(buf, ref->name, ref->namelen);
	buf[ref->namelen] = '\0';
	return 0;
}

int
layout_reserved(const char *name)
{
	size_t	 i;

	for (i = 0; i < nitems(tops); i++)
		if (strcasecmp(name, tops[i].name) == 0)
			return 1;
	return 0;
}

int
layout_slug(const char *s, size_t len)
{
	size_t	 i;
	int	 word = 0;	/* inside a run of letters and digits */

	for (i = 0; i < len; i++) {
		if ((s[i] >= 'a' && s[i] <= 'z') ||
		    (s[i] >= '0' && s[i] <= '9'))
			word = 1;
		else if (s[i] == '-' && word)
			word = 0;
		else
			return 0;
	}
	return word;
}

/* Endings of a web page's address that are no part of its name. */
static const char *const page_exts[] = {
	".html", ".htm", ".shtml", ".php", ".asp", ".aspx", ".gmi", ".md",
};

/* Names of an index page, which stands for its folder. */
static const char *const index_pages[] = {
	"index.html", "index.htm", "index.php", "index.md", "index.gmi",
	"index",
};

size_t
layout_page_ext(const char *seg)
{
	size_t	 k, len = strlen(seg), el;

	for (k = 0; k < nitems(page_exts); k++) {
		el = strlen(page_exts[k]);
		if (len > el && strcasecmp(seg + len - el, page_exts[k]) == 0)
			return el;
	}
	return 0;
}

int
layout_index_page(const char *seg)
{
	size_t	 k;

	for (k = 0; k < nitems(index_pages); k++)
		if (strcasecmp(seg, index_pages[k]) == 0)
			return 1;
	return 0;
}

/*
 * key  = [scheme "://" host] *("/" segment) ["?" query] ["#" fragment]
 */
char *
layout_old_key(const char *s, size_t len)
{
	const char	*end, *seg, *sep, *last = NULL;
	char		*out, *w, *lastw = NULL;
	size_t		 seglen;

	if ((end = memchr(s, '?', len)) != NULL)
		len = (size_t)(end - s);
	if ((end = memchr(s, '#', len)) != NULL)
		len = (size_t)(end - s);
	end = s + len;
	/* "https://old.example/x": the host is no part of the address. */
	if ((sep = memchr(s, ':', len)) != NULL && end - sep >= 3 &&
	    sep[1] == '/' && sep[2] == '/' && memchr(s, '/', (size_t)(sep -
	    s)) == NULL) {
		for (s = sep + 3; s < end && *s != '/'; s++)
			;
	}
	out = w = xmalloc((size_t)(end - s) + 1);
	for (; s < end; s = seg + seglen) {
		while (s < end && *s == '/')
			s++;
		seg = s;
		for (seglen = 0; seg + seglen < end && seg[seglen] != '/';
		    seglen++)
			;
		if (seglen == 0 || (seglen == 1 && seg[0] == '.'))
			continue;
		lastw = w;
		if (w != out)
			*w++ = '/';
		last = w;
		memcpy(w, seg, seglen);
		w += seglen;
	}
	*w = '\0';
	if (last != NULL && layout_index_page(last)) {
		w = lastw;
		*w = '\0';
		for (last = w; last > out && last[-1] != '/'; last--)
			;
	}
	if (last != NULL && *last != '\0')
		w[-(ptrdiff_t)layout_page_ext(last)] = '\0';
	if (*out == '\0') {
		free(out);
		return NULL;
	}
	return out;
}

int
layout_site_path(const char *url)
{
	return url[0] == '/' && url[1] != '/';
}

int
layout_under(const char *dir, const char *path)
{
	struct pathrule	 r;
	char		 text[LAYOUT_DIR_MAX + 2];

	if (dir == NULL ||
	    snprintf(text, sizeof(text), "/%s", dir) >= (int)sizeof(text))
		return 0;
	pathrule_compile(&r, text, 0, NULL);
	return pathrule_match(&r, path, NULL);
}

/*
 * What a kind's path is made of: prefix name middle rest, indexed by
 * kind (LAYOUT_USER is the last).
 */
static const struct shape_of {
	const char	*prefix, *middle;
} paths[] = {
	[LAYOUT_NONE] = { "", "" },
	[LAYOUT_HOME] = { LAYOUT_PATH_HOME, "" },
	[LAYOUT_POSTS] = { LAYOUT_PATH_POSTS, "" },
	[LAYOUT_SERIES_LIST] = { LAYOUT_PATH_SERIES, "" },
	[LAYOUT_TAGS] = { LAYOUT_PATH_TAGS, "" },
	[LAYOUT_GEMLOG] = { LAYOUT_PATH_GEMLOG, "" },
	[LAYOUT_FEED] = { LAYOUT_PATH_FEED, "" },
	[LAYOUT_SEARCH] = { LAYOUT_PATH_SEARCH, "" },
	[LAYOUT_ROBOTS] = { LAYOUT_PATH_ROBOTS, "" },
	[LAYOUT_PLAN] = { LAYOUT_PATH_PLAN, "" },
	[LAYOUT_DRAFTS] = { LAYOUT_PATH_DRAFTS, "" },
	[LAYOUT_DRAFT] = { LAYOUT_PATH_DRAFTS, "" },
	[LAYOUT_FILES] = { LAYOUT_PATH_FILES, "" },
	[LAYOUT_POST] = { LAYOUT_PATH_POSTS, "" },
	[LAYOUT_POST_MENU] = { LAYOUT_PATH_POSTS, "/" },
	[LAYOUT_BUNDLE_FILE] = { LAYOUT_PATH_POSTS, "/" },
	[LAYOUT_SERIES] = { LAYOUT_PATH_SERIES, "/" },
	[LAYOUT_SERIES_FEED] = { LAYOUT_PATH_SERIES, "/atom.xml" },
	[LAYOUT_TAG] = { LAYOUT_PATH_TAGS, "/" },
	[LAYOUT_TAG_FEED] = { LAYOUT_PATH_TAGS, "/atom.xml" },
	[LAYOUT_PAGE] = { "/", "" },
	[LAYOUT_PAGE_MENU] = { "/", "/" },
	[LAYOUT_USERS] = { LAYOUT_PATH_USERS, "" },
	[LAYOUT_USER] = { LAYOUT_PATH_USER, "" },
};

_Static_assert(nitems(paths) == LAYOUT_USER + 1, "a path for every kind");

char *
layout_path(enum layout_kind kind, const char *name, const char *rest)
{
	const struct shape_of	*p = &paths[kind];
	const char		*part[4];
	size_t			 len[4], i, n = 0;
	char			*path, *o;

	if (kind == LAYOUT_NONE)
		return xstrdup("");
	/* Joined by hand: the link check makes a path per link at load. */
	part[0] = p->prefix;
	part[1] = name != NULL ? name : "";
	part[2] = p->middle;
	part[3] = rest != NULL ? rest : "";
	for (i = 0; i < 4; i++)
		n += len[i] = strlen(part[i]);
	o = path = xmalloc(n + 1);
	for (i = 0; i < 4; i++) {
		memcpy(o, part[i], len[i]);
		o += len[i];
	}
	*o = '\0';
	return path;
}
