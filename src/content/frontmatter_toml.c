/*
 * frontmatter_toml.c -- a leading +++ block read as TOML, into struct meta.
 *
 * Hugo's and Zola's front matter: a TOML 1.0 document (toml.c) between
 * two "+++" lines.  Its keys are the YAML front matter's, found in
 * frontmatter.c's one table of keys and aliases and ranked the same way;
 * strings become one line as there, and tags follow the same rules.
 * Values have their TOML types: strings, true/false, whole numbers,
 * arrays of strings, and dates as TOML dates and date-times or as
 * strings in the shapes date.c reads (Hugo's archetypes quote them).
 * Three tables are read as well:
 *   [taxonomies]          Zola: tags, categories (and tag, category),
 *                         series and author(s), as at the top level
 *   [extra], [params]     Zola's and Hugo's table of a site's own keys:
 *                         any key of the table, ranking below the same
 *                         field given at the top level
 * Other keys are skipped, whatever they hold; a known key holding the
 * wrong type is an error pointing at its value, in the file's lines.
 * Knows toml.h and date.h; nothing of files or of the archive.  The TOML
 * tree lives for one call; what is kept is copied into struct meta.
 */
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "content/frontmatter.h"
#include "content/frontmatter_int.h"
#include "core/toml.h"
#include "core/buf.h"
#include "core/date.h"
#include "core/mime.h"

/* [extra] and [params] rank below every alias at the top level. */
#define RANK_EXTRA	100

enum scope {
	SCOPE_TOP,		/* the root table */
	SCOPE_TAXONOMIES,	/* [taxonomies]: tags, series, authors */
	SCOPE_EXTRA,		/* [extra], [params] */
};

struct fmtoml {
	const char	*in;		/* the TOML: after the first +++ line */
	size_t		 inlen;
	unsigned	 line0;		/* file line of in[0] */
	struct meta	*m;
	struct fm_error	*err;
	int		 rank[F_NFIELDS]; /* of the alias that set a field */
	const char	*key;		/* the key being read, for messages */
};

static int
fail(struct fmtoml *f, size_t off, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* The error at byte off of the TOML; returns -1 for the caller. */
static int
fail(struct fmtoml *f, size_t off, const char *fmt, ...)
{
	va_list	 ap;

	toml_position(f->in, f->inlen, off, &f->err->line, &f->err->col);
	f->err->line += f->line0 - 1;
	va_start(ap, fmt);
	vsnprintf(f->err->msg, sizeof(f->err->msg), fmt, ap);
	va_end(ap);
	return -1;
}

static int
ignore(struct fmtoml *f, size_t off, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/*
 * A value of the wrong shape is ignored, as if absent, and the first
 * such is kept in m->ignored for a warning (frontmatter.h): the post is
 * still worth reading.  Returns 0, for the caller to go on.
 */
static int
ignore(struct fmtoml *f, size_t off, const char *fmt, ...)
{
	struct fm_error	*e = &f->m->ignored;
	va_list		 ap;

	if (f->m->nignored++ > 0)
		return 0;
	toml_position(f->in, f->inlen, off, &e->line, &e->col);
	e->line += f->line0 - 1;
	va_start(ap, fmt);
	vsnprintf(e->msg, sizeof(e->msg), fmt, ap);
	va_end(ap);
	return 0;
}

static int
wrong(struct fmtoml *f, const struct toml_value *v, const char *what)
{
	return ignore(f, v->off, "%s: expected %s (got %s); ignored",
	    f->key, what, toml_type_name(v->type));
}

/* A warning at byte off of the TOML: the value is kept. */
static void
note(struct fmtoml *f, size_t off, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static void
note(struct fmtoml *f, size_t off, const char *fmt, ...)
{
	va_list		 ap;
	unsigned	 line, col;
	char		 msg[sizeof(f->err->msg)];

	toml_position(f->in, f->inlen, off, &line, &col);
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	meta_warn(f->m, line + f->line0 - 1, col, "%s", msg);
}

/* Cut s to max characters (0: no limit), warning at byte off. */
static void
cap(struct fmtoml *f, size_t off, char *s, size_t max)
{
	if (max > 0 && frontmatter_cut(s, max))
		note(f, off, "%s: longer than %zu characters, cut", f->key,
		    max);
}

/*
 * Replace *dst with the one-line form of the string v, cut to max
 * characters (0: no limit), unless that is empty.
 */
static void
set_text(struct fmtoml *f, char **dst, const struct toml_value *v, int flags,
    size_t max)
{
	char	*t;

	t = frontmatter_oneline(v->u.str.s, v->u.str.len, flags);
	if (*t == '\0') {
		free(t);
		return;
	}
	cap(f, v->off, t, max);
	free(*dst);
	*dst = t;
}

/* What frontmatter_add_tag() or _split_tags() returned for v. */
static int
tagged(struct fmtoml *f, const struct toml_value *v, int r)
{
	if (r == 1)
		note(f, v->off, "%s: a tag longer than %d characters, cut",
		    f->key, FM_TAG_MAX);
	if (r != -1)
		return 0;
	return fail(f, v->off, "%s: more than %d tags", f->key, FM_MAX_TAGS);
}

static int
read_tags(struct fmtoml *f, const struct toml_value *v)
{
	const struct toml_value	*e;
	size_t			 i;

	if (v->type == TOML_STRING)
		return tagged(f, v, frontmatter_split_tags(f->m, v->u.str.s,
		    v->u.str.len));
	if (v->type != TOML_ARRAY)
		return wrong(f, v, "a list or a string");
	for (i = 0; i < v->u.array.n; i++) {
		e = v->u.array.v[i];
		if (e->type != TOML_STRING) {
			wrong(f, e, "a list of strings");	/* the item */
			continue;
		}
		if (tagged(f, e, frontmatter_add_tag(f->m, e->u.str.s,
		    e->u.str.len)) == -1)
			return -1;
	}
	return 0;
}

/*
 * A string, or a list of strings: the first item (series) or all of them
 * joined with ", " (authors), cut to FM_TITLE_MAX characters.  Checked
 * even when not kept.
 */
static int
read_str_or_list(struct fmtoml *f, const struct toml_value *v, char **dst,
    int join, int keep)
{
	const struct toml_value	*e;
	struct buf		 b = BUF_INIT;
	size_t			 i;

	if (v->type == TOML_STRING) {
		if (keep)
			set_text(f, dst, v, FM_ENTITIES, FM_TITLE_MAX);
		return 0;
	}
	if (v->type != TOML_ARRAY)
		return wrong(f, v, "a string");
	for (i = 0; i < v->u.array.n; i++) {
		e = v->u.array.v[i];
		if (e->type != TOML_STRING) {
			buf_free(&b);
			return wrong(f, e, "a list of strings");
		}
		if (!keep || (!join && b.len > 0))
			continue;
		frontmatter_join_item(&b, e->u.str.s, e->u.str.len);
	}
	if (b.len > 0) {
		free(*dst);
		*dst = buf_release(&b);
		cap(f, v->off, *dst, FM_TITLE_MAX);
	}
	return 0;
}

/*
 * A TOML date or date-time, or a string date.c reads.  A local
 * date-time is UTC and a date alone noon UTC, as in YAML (date.h).
 * Returns 0; 1 when v is no date at all (the caller says what it
 * wanted); 2 when it is no good date (ignored, said so).
 */
static int
to_date(struct fmtoml *f, const struct toml_value *v, struct date *d)
{
	const struct toml_datetime *dt = &v->u.dt;
	const char	*errstr;
	char		 s[48];
	int		 n = 0;

	switch (v->type) {
	case TOML_DATETIME:
		n = snprintf(s, sizeof(s), "%04d-%02d-%02dT%02d:%02d:%02d"
		    "%c%02d:%02d", dt->year, dt->month, dt->day, dt->hour,
		    dt->minute, dt->second, dt->offset < 0 ? '-' : '+',
		    abs(dt->offset) / 60, abs(dt->offset) % 60);
		break;
	case TOML_LOCAL_DATETIME:
		n = snprintf(s, sizeof(s), "%04d-%02d-%02dT%02d:%02d:%02d",
		    dt->year, dt->month, dt->day, dt->hour, dt->minute,
		    dt->second);
		break;
	case TOML_LOCAL_DATE:
		n = snprintf(s, sizeof(s), "%04d-%02d-%02d", dt->year,
		    dt->month, dt->day);
		break;
	case TOML_STRING:
		if (date_parse(v->u.str.s, v->u.str.len, d, &errstr) == -1)
			return ignore(f, v->off, "%s: %s; ignored", f->key,
			    errstr) + 2;
		return 0;
	case TOML_LOCAL_TIME:
		return ignore(f, v->off, "%s: a time of day without a date; "
		    "ignored", f->key) + 2;
	case TOML_TABLE:
	case TOML_ARRAY:
	case TOML_INTEGER:
	case TOML_FLOAT:
	case TOML_BOOL:
		return 1;
	}
	if (date_parse(s, (size_t)n, d, &errstr) == -1)
		return ignore(f, v->off, "%s: %s; ignored", f->key, errstr) +
		    2;
	return 0;
}

/* The value v of key k, at rank rank (the alias's, or below for
 * [extra]). */
static int
read_value(struct fmtoml *f, const struct fm_key *k, int rank,
    const struct toml_value *v)
{
	struct meta	*m = f->m;
	struct date	 d;
	char		**dst;
	int		 keep, rv;

	/* An empty string is as if the key were not there. */
	if (v->type == TOML_STRING && v->u.str.len == 0)
		return 0;
	/* An alias of lower rank already set this field: check, don't keep. */
	keep = rank <= f->rank[k->field];
	if (keep && k->field != F_PUBLISHED)
		f->rank[k->field] = rank;

	switch (k->field) {
	case F_TITLE:
	case F_SUMMARY:
	case F_SLUG:
	case F_LANG:
	case F_SUBTITLE:
	case F_LEVEL:
	case F_AUDIENCE:
		if (v->type != TOML_STRING)
			return wrong(f, v, "a string");
		if (!keep)
			return 0;
		dst = k->field == F_TITLE ? &m->title :
		    k->field == F_SUMMARY ? &m->summary :
		    k->field == F_SLUG ? &m->slug :
		    k->field == F_LANG ? &m->lang :
		    k->field == F_SUBTITLE ? &m->subtitle :
		    k->field == F_LEVEL ? &m->level : &m->audience;
		set_text(f, dst, v, k->field == F_SLUG || k->field == F_LANG ?
		    0 : k->field == F_LEVEL || k->field == F_AUDIENCE ?
		    FM_ENTITIES : FM_ENTITIES | FM_TAGS,
		    k->field == F_SUMMARY ? FM_SUMMARY_MAX :
		    k->field == F_SLUG || k->field == F_LANG ? 0 :
		    FM_TITLE_MAX);
		if (k->field == F_LANG && m->lang != NULL &&
		    !mime_lang_ok(m->lang)) {
			ignore(f, v->off, "%s: '%.40s' is not a language tag "
			    "like en or pt-BR; ignored", f->key, m->lang);
			free(m->lang);
			m->lang = NULL;
		}
		return 0;
	case F_SERIES:
		return read_str_or_list(f, v, &m->series, 0, keep);
	case F_AUTHOR:
		return read_str_or_list(f, v, &m->author, 1, keep);
	case F_TAGS:
		return read_tags(f, v);
	case F_DATE:
	case F_UPDATED:
		if ((rv = to_date(f, v, &d)) != 0)
			return rv == 1 ? wrong(f, v, "a date") : 0;
		if (!keep)
			return 0;
		if (k->field == F_DATE) {
			m->date = d;
			m->has_date = true;
		} else {
			m->updated = d;
			m->has_updated = true;
		}
		return 0;
	case F_PART:
		if (v->type != TOML_INTEGER)
			return wrong(f, v, "a whole number");
		if (v->u.integer > FM_MAX_PART || v->u.integer < -FM_MAX_PART)
			return ignore(f, v->off, "%s: %lld is out of range; "
			    "ignored", f->key, (long long)v->u.integer);
		if (keep)
			m->part = (int)v->u.integer;
		return 0;
	case F_DRAFT:
		if (v->type != TOML_BOOL)
			return wrong(f, v, "true or false");
		m->draft = m->draft || v->u.boolean;
		return 0;
	case F_FEATURED:
		if (v->type != TOML_BOOL)
			return wrong(f, v, "true or false");
		if (keep)
			m->featured = v->u.boolean;
		return 0;
	case F_PUBLISHED:
		/* published = false (Jekyll), or a date */
		if (v->type == TOML_BOOL) {
			m->draft = m->draft || !v->u.boolean;
			return 0;
		}
		if ((rv = to_date(f, v, &d)) != 0)
			return rv == 1 ? wrong(f, v, "true, false or a date") :
			    0;
		if (rank <= f->rank[F_DATE]) {
			f->rank[F_DATE] = rank;
			m->date = d;
			m->has_date = true;
		}
		return 0;
	case F_NFIELDS:
		break;
	}
	return 0;
}

/* Is kv's key name (any case)? */
static int
named(const struct toml_kv *kv, const char *name)
{
	return kv->keylen == strlen(name) &&
	    strncasecmp(kv->key, name, kv->keylen) == 0;
}

/* Every key of table t, read as scope sc says. */
static int
read_table(struct fmtoml *f, const struct toml_value *t, enum scope sc)
{
	const struct toml_kv	*kv;
	const struct fm_key	*k;
	enum scope		 inner;
	size_t			 i;

	for (i = 0; i < t->u.table.n; i++) {
		kv = &t->u.table.kv[i];
		f->key = kv->key;
		if (sc == SCOPE_TOP && (named(kv, "taxonomies") ||
		    named(kv, "extra") || named(kv, "params"))) {
			if (kv->val->type != TOML_TABLE) {
				wrong(f, kv->val, "a table");
				continue;
			}
			inner = named(kv, "taxonomies") ? SCOPE_TAXONOMIES :
			    SCOPE_EXTRA;
			if (read_table(f, kv->val, inner) == -1)
				return -1;
			continue;
		}
		if ((k = frontmatter_key(kv->key, kv->keylen)) == NULL)
			continue;
		if (sc == SCOPE_TAXONOMIES && k->field != F_TAGS &&
		    k->field != F_SERIES && k->field != F_AUTHOR)
			continue;
		if (read_value(f, k, k->rank + (sc == SCOPE_EXTRA ?
		    RANK_EXTRA : 0), kv->val) == -1)
			return -1;
	}
	return 0;
}

int
frontmatter_toml(const char *src, size_t len, size_t off, struct meta *m,
    struct fm_error *err)
{
	struct toml_value	*root;
	struct toml_error	 te;
	struct fmtoml		 f;
	size_t			 inner, close, i;
	int			 rv;

	if ((rv = frontmatter_fenced(src, len, off, "+++", "+++", &inner,
	    &close, m, err)) != 1)
		return rv;
	memset(&f, 0, sizeof(f));
	f.in = src + inner;
	f.inlen = close - inner;

	if (toml_parse(f.in, f.inlen, &root, &te) == -1) {
		err->line = te.line + 1;
		err->col = te.col;
		snprintf(err->msg, sizeof(err->msg), "%s", te.msg);
		meta_free(m);
		return -1;
	}
	f.line0 = 2;
	f.m = m;
	f.err = err;
	for (i = 0; i < F_NFIELDS; i++)
		f.rank[i] = INT_MAX;
	rv = read_table(&f, root, SCOPE_TOP);
	toml_free(root);
	if (rv == -1) {
		meta_free(m);
		return -1;
	}
	return 0;
}
