/*
 * address.c -- the addresses a post had on the writer's old site:
 * indexed once a snapshot's posts have their slugs, and looked up when
 * an old link is resolved (content/links.c).
 *
 * Every address a post declares or implies is indexed in two sorted
 * tables of (key, post): whole addresses (front matter's path, url or
 * permalink, each of its aliases, its file's path beneath posts/, and
 * Jekyll's "YYYY/MM/DD/name"), and names, the last segment of each of
 * those with the slug, the file or folder name with and without its date
 * prefix and with and without a generator's "@N".  A key may name several
 * posts: one that does is resolved by the date in the link, or not at all,
 * so that an old link never opens a different post.  Keys are
 * core/layout.h's layout_old_key() form.  Knows struct post and its
 * file record; nothing of the snapshot, which holds the tables and
 * asks them (archive_post_address(), content/archive.c).  The tables
 * own their keys, and borrow the posts.
 */
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "content/archive.h"
#include "content/archive_int.h"
#include "content/slug.h"
#include "core/capfile.h"
#include "core/date.h"
#include "core/layout.h"
#include "core/url.h"
#include "core/util.h"

static void
add(struct addr_index *x, char *key, struct post *p)
{
	if (key == NULL)
		return;
	if (x->n == x->cap) {
		x->cap = x->cap ? x->cap * 2 : 256;
		x->v = xreallocarray(x->v, x->cap, sizeof(*x->v));
	}
	x->v[x->n].key = key;
	x->v[x->n++].p = p;
}

/* The key of s as written in front matter: percent-decoded first. */
static char *
declared_key(const char *s, size_t len)
{
	char	*dec, *key;

	dec = xstrndup(s, len);
	if (url_decode(dec) == -1) {
		free(dec);
		dec = xstrndup(s, len);
	}
	key = layout_old_key(dec, strlen(dec));
	free(dec);
	return key;
}

/* The last segment of key, as a name key of p. */
static void
add_last(struct addr_index *names, const char *key, struct post *p)
{
	const char	*slash;

	if (key != NULL && (slash = strrchr(key, '/')) != NULL)
		add(names, xstrdup(slash + 1), p);
}

/* A whole address of p, and its last segment as a name. */
static void
add_full(struct addr_tables *t, char *key, struct post *p)
{
	add_last(&t->name, key, p);
	add(&t->full, key, p);
}

/* name, and name without a generator's "@N" ("x@2" is also "x"). */
static void
add_names(struct addr_tables *t, const char *name, struct post *p)
{
	const char	*at;

	if (*name == '\0')
		return;
	add(&t->name, xstrdup(name), p);
	if ((at = strrchr(name, '@')) != NULL && at > name && at[1] != '\0' &&
	    strspn(at + 1, "0123456789") == strlen(at + 1))
		add(&t->name, xstrndup(name, (size_t)(at - name)), p);
}

/*
 * "YYYY/MM/DD/name" of d ("YYYY-MM-DD") and name, malloc'd: one per
 * post or two, so built without printf.
 */
static char *
dated_key(const struct date *d, const char *name)
{
	size_t	 len = strlen(name);
	char	*k = xmalloc(11 + len + 1);

	memcpy(k, d->ymd, 4);
	k[4] = '/';
	memcpy(k + 5, d->ymd + 5, 2);
	k[7] = '/';
	memcpy(k + 8, d->ymd + 8, 2);
	k[10] = '/';
	memcpy(k + 11, name, len + 1);
	return k;
}

/* Everything p is known by; see the top of the file. */
static void
index_post(struct addr_tables *t, struct post *p)
{
	const struct archive_file *f = p->file;
	const char	*s, *e, *name = p->path + sizeof(CAPFILE_POSTS);
	char		 stem[NAME_MAX + 1], *key;
	size_t		 len;

	add(&t->name, xstrdup(p->slug), p);
	slug_post_stem(name, stem, sizeof(stem));
	add_names(t, stem, p);
	add_names(t, f->base, p);
	if (f->m.slug != NULL)
		add_names(t, f->m.slug, p);
	if (f->m.address != NULL)
		add_full(t, declared_key(f->m.address,
		    strlen(f->m.address)), p);
	for (s = f->m.aliases; s != NULL && *s != '\0'; s = e) {
		if ((e = strstr(s, ", ")) == NULL)
			e = s + strlen(s);
		add_full(t, declared_key(s, (size_t)(e - s)), p);
		if (*e != '\0')
			e += 2;
	}
	/* Its path beneath posts/, as a gemlog's old host served it. */
	len = capfile_bundle_path(name) ? (size_t)(strrchr(name, '/') - name) :
	    strlen(name);
	if (strchr(name, '/') != NULL && (key = layout_old_key(name, len)) !=
	    NULL)
		add(&t->full, key, p);
	/* Jekyll's "/YYYY/MM/DD/name.html", by name or by slug. */
	add(&t->full, dated_key(&p->date, f->base), p);
	if (f->m.slug != NULL)
		add(&t->full, dated_key(&p->date, f->m.slug), p);
}

static int
cmp_addr(const void *x, const void *y)
{
	const struct addr_entry	*a = x, *b = y;
	int			 r;

	if ((r = strcmp(a->key, b->key)) != 0)
		return r;
	if (a->p != b->p)
		return (uintptr_t)a->p < (uintptr_t)b->p ? -1 : 1;
	return 0;
}

/* Sorted, each (key, post) once. */
static void
settle(struct addr_index *x)
{
	size_t	 i, k;

	if (x->n > 1)
		qsort(x->v, x->n, sizeof(*x->v), cmp_addr);
	for (i = 0, k = 0; i < x->n; i++) {
		if (k > 0 && cmp_addr(&x->v[k - 1], &x->v[i]) == 0) {
			free(x->v[i].key);
			continue;
		}
		x->v[k++] = x->v[i];
	}
	x->n = k;
}

void
address_index(struct addr_tables *t, struct post *const *posts,
    size_t nposts)
{
	size_t	 i;

	for (i = 0; i < nposts; i++)
		index_post(t, posts[i]);
	settle(&t->full);
	settle(&t->name);
}

static void
index_free_all(struct addr_index *x)
{
	size_t	 i;

	for (i = 0; i < x->n; i++)
		free(x->v[i].key);
	free(x->v);
	memset(x, 0, sizeof(*x));
}

void
address_free(struct addr_tables *t)
{
	index_free_all(&t->full);
	index_free_all(&t->name);
}

/* The first entry of key in x, and how many there are (*n). */
static const struct addr_entry *
find(const struct addr_index *x, const char *key, size_t *n)
{
	size_t	 lo = 0, hi = x->n, mid, end;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (strcmp(x->v[mid].key, key) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (end = lo; end < x->n && strcmp(x->v[end].key, key) == 0; end++)
		;
	*n = end - lo;
	return x->v + lo;
}

/* The posts a lookup found so far, each once. */
struct found {
	struct post	*p[16];
	size_t		 n;
	int		 more;		/* past nitems(p) */
};

static void
found_add(struct found *fd, const struct addr_entry *e, size_t n)
{
	size_t	 i, k;

	for (i = 0; i < n; i++) {
		for (k = 0; k < fd->n && fd->p[k] != e[i].p; k++)
			;
		if (k < fd->n)
			continue;
		if (fd->n == nitems(fd->p))
			fd->more = 1;
		else
			fd->p[fd->n++] = e[i].p;
	}
}

/*
 * The one post of fd, or the one of its date when several: day, the
 * date's "YYYY-MM-DD" (or NULL), else month its "YYYY-MM" prefix.
 * NULL with *ambiguous set when that leaves none or several.
 */
static struct post *
pick(const struct found *fd, const struct date *d, int day, int dated,
    int *ambiguous)
{
	struct post	*one = NULL;
	size_t		 i, n = 0;

	if (fd->n == 1 && !fd->more)
		return fd->p[0];
	if (fd->n == 0)
		return NULL;
	for (i = 0; dated && i < fd->n; i++)
		if (strncmp(fd->p[i]->date.ymd, d->ymd, day ? 10 : 7) == 0) {
			one = fd->p[i];
			n++;
		}
	if (n == 1 && !fd->more)
		return one;
	*ambiguous = 1;
	return NULL;
}

/*
 * The posts name (a last segment) names, by itself, by the slug it
 * makes ("tool-0.70.0-release" is "tool-0-70-0-release") and without a
 * date prefix; *d and *dated the prefix's date.
 */
static void
collect_name(const struct addr_tables *t, const char *name,
    struct found *fd, struct date *d, int *dated)
{
	const struct addr_entry *e;
	char		*slug;
	size_t		 n, plen;

	e = find(&t->name, name, &n);
	found_add(fd, e, n);
	slug = archive_slugify(name);
	e = find(&t->name, slug, &n);
	found_add(fd, e, n);
	free(slug);
	*dated = (plen = date_from_filename(name, d)) > 0;
	if (*dated && name[plen] != '\0') {
		e = find(&t->name, name + plen, &n);
		found_add(fd, e, n);
	}
}

struct post *
address_name(const struct addr_tables *t, const char *name, int *ambiguous)
{
	struct found	 fd = { .n = 0 };
	struct date	 d;
	int		 dated;

	*ambiguous = 0;
	if (*name == '\0')
		return NULL;
	collect_name(t, name, &fd, &d, &dated);
	return pick(&fd, &d, 1, dated, ambiguous);
}

struct post *
address_find(const struct addr_tables *t, const char *path, int *ambiguous)
{
	struct found	 fd = { .n = 0 };
	const struct addr_entry *e;
	struct post	*p;
	struct date	 d, dn;
	const char	*tail, *last;
	char		*key;
	size_t		 n;
	int		 day = 0, dated, ndated;

	*ambiguous = 0;
	if ((key = layout_old_key(path, strlen(path))) == NULL)
		return NULL;
	dated = date_from_path(key, strlen(key), 1, &d, &day) == 0;
	/*
	 * The whole address, then its tails of two segments or more (the
	 * old site may have kept the blog beneath a folder of its own).
	 */
	for (tail = key; strchr(tail, '/') != NULL;
	    tail = strchr(tail, '/') + 1) {
		e = find(&t->full, tail, &n);
		if (n == 0)
			continue;
		found_add(&fd, e, n);
		p = pick(&fd, &d, day, dated, ambiguous);
		free(key);
		return p;
	}
	/* The last segment, when it names one post, or one of its date. */
	last = strrchr(key, '/');
	last = last != NULL ? last + 1 : key;
	collect_name(t, last, &fd, &dn, &ndated);
	p = ndated ? pick(&fd, &dn, 1, 1, ambiguous) :
	    pick(&fd, &d, day, dated, ambiguous);
	free(key);
	return p;
}
