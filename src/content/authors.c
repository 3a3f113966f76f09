/*
 * authors.c -- an authors file, read: who the author keys of posts are
 * (authors.h).
 *
 * A post's front matter may name its authors by key ("authors: [ana,
 * bo]"); the generator's authors file says who each key is:
 *
 *   ana:                     Docusaurus: a key, a mapping with a name
 *     name: Ana Lima
 *     title: Maintainer
 *   authors:                 mkdocs-material: the same, under "authors"
 *     bo:
 *       name: Bo Chen
 *
 * A key the file does not hold stays as written.  The file is read
 * with libyaml's event API under a cap on events, aliases refused (as
 * frontmatter.c reads YAML); one that does not parse names no one, and
 * says where.  Knows libyaml; nothing of files on disk or of posts
 * beyond the author string it is given.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <yaml.h>

#include "content/authors.h"
#include "content/frontmatter.h"
#include "core/buf.h"
#include "core/util.h"
#include "core/yaml.h"

#define AUTHORS_MAX_EVENTS	65536
#define AUTHORS_MAX_DEPTH	16

/* One authors file: keys and names, sorted by key. */
struct authors {
	char		**keys;		/* owned */
	char		**names;	/* owned, one line */
	size_t		 n;
};

/* What the reader of one file holds. */
struct areader {
	yaml_parser_t	 p;
	yaml_event_t	 ev;
	int		 have;
	size_t		 nevents;
	const char	*src;
	size_t		 len;
	struct fm_error	*err;
	struct authors	*a;
};

static void
fail(struct areader *r, const yaml_mark_t *mk, const char *msg)
{
	r->err->line = (unsigned)mk->line + 1;
	r->err->col = (unsigned)mk->column + 1;
	snprintf(r->err->msg, sizeof(r->err->msg), "%s", msg);
}

static int
next(struct areader *r)
{
	yaml_mark_t	 mk;

	if (r->have)
		yaml_event_delete(&r->ev);
	r->have = 0;
	if (!yaml_parser_parse(&r->p, &r->ev)) {	/* libyaml: 0 fails */
		yml_problem(&r->p, r->src, r->len, &mk, r->err->msg,
		    sizeof(r->err->msg));
		r->err->line = (unsigned)mk.line + 1;
		r->err->col = (unsigned)mk.column + 1;
		return -1;
	}
	r->have = 1;
	if (++r->nevents > AUTHORS_MAX_EVENTS) {
		fail(r, &r->ev.start_mark, "authors file too large");
		return -1;
	}
	if (r->ev.type == YAML_ALIAS_EVENT) {
		fail(r, &r->ev.start_mark, "YAML aliases are not supported");
		return -1;
	}
	return 0;
}

/* Consume the node whose first event is current. */
static int
skip(struct areader *r, int depth)
{
	int	 level = 0;

	do {
		if (r->ev.type == YAML_MAPPING_START_EVENT ||
		    r->ev.type == YAML_SEQUENCE_START_EVENT) {
			if (depth + ++level > AUTHORS_MAX_DEPTH) {
				fail(r, &r->ev.start_mark, "nested too deeply");
				return -1;
			}
		} else if (r->ev.type == YAML_MAPPING_END_EVENT ||
		    r->ev.type == YAML_SEQUENCE_END_EVENT)
			level--;
		if (level > 0 && next(r) == -1)
			return -1;
	} while (level > 0);
	return 0;
}

static void
add(struct authors *a, const char *key, size_t klen, const char *name,
    size_t nlen)
{
	char	*one;

	one = frontmatter_oneline(name, nlen, FM_ENTITIES);
	if (*one == '\0' || klen == 0) {
		free(one);
		return;
	}
	frontmatter_cut(one, FM_TITLE_MAX);
	if (a->n % 16 == 0) {
		a->keys = xreallocarray(a->keys, a->n + 16, sizeof(*a->keys));
		a->names = xreallocarray(a->names, a->n + 16,
		    sizeof(*a->names));
	}
	a->keys[a->n] = xstrndup(key, klen);
	a->names[a->n++] = one;
}

/*
 * The mapping of the author key (its start event current): its "name";
 * nested levels below it, a key whose value is a mapping is an author
 * of its own (the root's keys; mkdocs-material's "authors:" above them).
 */
static int
read_author(struct areader *r, const char *key, size_t klen, int nested,
    int depth)
{
	char	*k;
	size_t	 len;

	for (;;) {
		if (next(r) == -1)
			return -1;
		if (r->ev.type == YAML_MAPPING_END_EVENT)
			return 0;
		if (r->ev.type != YAML_SCALAR_EVENT) {
			if (skip(r, depth) == -1 || next(r) == -1 ||
			    skip(r, depth) == -1)
				return -1;
			continue;
		}
		len = r->ev.data.scalar.length;
		k = xstrndup((const char *)r->ev.data.scalar.value, len);
		if (next(r) == -1) {
			free(k);
			return -1;
		}
		if (strcmp(k, "name") == 0 &&
		    r->ev.type == YAML_SCALAR_EVENT)
			add(r->a, key, klen, (const char *)
			    r->ev.data.scalar.value, r->ev.data.scalar.length);
		else if (nested > 0 && r->ev.type == YAML_MAPPING_START_EVENT) {
			if (read_author(r, k, len, nested - 1, depth + 1) ==
			    -1) {
				free(k);
				return -1;
			}
		} else if (skip(r, depth) == -1) {
			free(k);
			return -1;
		}
		free(k);
	}
}

static int
cmp_key(const void *x, const void *y)
{
	return strcmp(*(char *const *)x, *(char *const *)y);
}

void
authors_free(struct authors *a)
{
	size_t	 i;

	if (a == NULL)
		return;
	for (i = 0; i < a->n; i++) {
		free(a->keys[i]);
		free(a->names[i]);
	}
	free(a->keys);
	free(a->names);
	free(a);
}

/* Sort keys and names together by key (few: a copy is fine). */
static void
sort(struct authors *a)
{
	char	**pairs;
	size_t	 i;

	pairs = xcalloc(a->n * 2, sizeof(*pairs));
	for (i = 0; i < a->n; i++) {
		pairs[2 * i] = a->keys[i];
		pairs[2 * i + 1] = a->names[i];
	}
	qsort(pairs, a->n, 2 * sizeof(*pairs), cmp_key);
	for (i = 0; i < a->n; i++) {
		a->keys[i] = pairs[2 * i];
		a->names[i] = pairs[2 * i + 1];
	}
	free(pairs);
}

struct authors *
authors_parse(const char *src, size_t len, struct fm_error *err)
{
	struct areader	 r;
	struct authors	*a;
	int		 rv = -1;

	memset(&r, 0, sizeof(r));
	memset(err, 0, sizeof(*err));
	r.src = src;
	r.len = len;
	r.err = err;
	r.a = a = xcalloc(1, sizeof(*a));
	if (!yaml_parser_initialize(&r.p))
		abort();			/* out of memory, as xmalloc */
	yaml_parser_set_input_string(&r.p, (const unsigned char *)src, len);
	/* STREAM-START, DOCUMENT-START (or STREAM-END), the root */
	if (next(&r) == -1 || next(&r) == -1)
		goto out;
	if (r.ev.type == YAML_STREAM_END_EVENT) {
		rv = 0;
		goto out;
	}
	if (next(&r) == -1)
		goto out;
	if (r.ev.type != YAML_MAPPING_START_EVENT) {
		fail(&r, &r.ev.start_mark, "an authors file is a mapping of "
		    "author keys");
		goto out;
	}
	/* The root: each key an author's, or "authors" above them. */
	if (read_author(&r, "", 0, 2, 1) == -1)
		goto out;
	rv = 0;
out:
	if (r.have)
		yaml_event_delete(&r.ev);
	yaml_parser_delete(&r.p);
	if (rv == -1 || a->n == 0) {
		authors_free(a);
		return NULL;
	}
	sort(a);
	return a;
}

const char *
authors_name(const struct authors *a, const char *key, size_t len)
{
	size_t	 lo = 0, hi = a->n, mid;
	int	 c;

	while (lo < hi) {
		mid = (lo + hi) / 2;
		c = strncmp(a->keys[mid], key, len);
		if (c == 0 && a->keys[mid][len] != '\0')
			c = 1;
		if (c == 0)
			return a->names[mid];
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

char *
authors_resolve(const struct authors *a, const char *author)
{
	const char	*p, *q, *who;
	struct buf	 b = BUF_INIT;
	int		 changed = 0;

	/* The front matter joined a list with ", " (frontmatter.h). */
	for (p = author; *p != '\0'; p = *q != '\0' ? q + 2 : q) {
		if ((q = strstr(p, ", ")) == NULL)
			q = p + strlen(p);
		if (b.len > 0)
			buf_addstr(&b, ", ");
		if ((who = authors_name(a, p, (size_t)(q - p))) != NULL) {
			buf_addstr(&b, who);
			changed = 1;
		} else
			buf_add(&b, p, (size_t)(q - p));
	}
	if (!changed) {
		buf_free(&b);
		return NULL;
	}
	buf_add(&b, "", 0);
	return buf_release(&b);
}
