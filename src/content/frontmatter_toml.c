/*
 * frontmatter_toml.c -- a leading +++ block read as TOML, into struct meta.
 *
 * Hugo's and Zola's front matter: a TOML 1.0 document (toml.c) between
 * two "+++" lines.  Its keys are the YAML front matter's, found in
 * frontmatter.c's one table of keys and aliases, and each value of the
 * right type goes to frontmatter_apply(), the rules both readers share
 * (ranks, one-line strings, lengths, tags, lang, drafts).
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
 * wrong type is ignored, as if absent, and said where (meta.ignored).
 * Knows toml.h and date.h; nothing of files or of the archive.  The TOML
 * tree lives for one call; what is kept is copied into struct meta.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "content/frontmatter.h"
#include "content/frontmatter_int.h"
#include "core/toml.h"
#include "core/buf.h"
#include "core/date.h"
#include "core/utf8.h"
#include "core/util.h"

/* [extra] and [params] rank below every alias at the top level. */
#define RANK_EXTRA	100

enum scope {
	SCOPE_TOP,		/* the root table */
	SCOPE_TAXONOMIES,	/* [taxonomies]: tags, series, authors */
	SCOPE_EXTRA,		/* [extra], [params] */
};

struct fmtoml {
	struct fm_fields fl;		/* what is filled, by the one rule */
	const char	*in;		/* the TOML: after the first +++ line */
	size_t		 inlen;
	unsigned	 line0;		/* file line of in[0] */
};

/* The file line and column of a TOML value (fm_fields.where). */
static void
value_where(const struct fm_fields *fl, const void *at, unsigned *line,
    unsigned *col)
{
	const struct fmtoml	*f = container_of(fl, struct fmtoml, fl);
	const struct toml_value	*v = at;

	utf8_position(f->in, f->inlen, v->off, line, col);
	*line += f->line0 - 1;
}

/*
 * A value of the wrong type is ignored, as if absent, and the first
 * such is kept in m->ignored for a warning (frontmatter.h): the post is
 * still worth reading.  Returns 0, for the caller to go on.
 */
static int
wrong(struct fmtoml *f, const struct toml_value *v, const char *what)
{
	frontmatter_ignore(&f->fl, v, "%s: expected %s (got %s); ignored",
	    f->fl.key, what, toml_type_name(v->type));
	return 0;
}

/* v, of type type, to the one rule. */
static int
apply(struct fmtoml *f, const struct fm_key *k, int rank,
    const struct toml_value *v, struct fm_value *fv, enum fm_vtype type)
{
	fv->type = type;
	fv->at = v;
	if (v->type == TOML_STRING) {
		fv->s = v->u.str.s;
		fv->len = v->u.str.len;
	}
	return frontmatter_apply(&f->fl, k, rank, fv);
}

/*
 * A string, or a list of strings (tags, series, authors).  A list with
 * an item of another type is ignored whole, checked before anything of
 * it is kept.
 */
static int
read_list(struct fmtoml *f, const struct fm_key *k, int rank,
    const struct toml_value *v)
{
	struct fm_value	 fv;
	size_t		 i;

	memset(&fv, 0, sizeof(fv));
	if (v->type == TOML_STRING)
		return apply(f, k, rank, v, &fv, FM_VAL_TEXT);
	if (v->type != TOML_ARRAY)
		return wrong(f, v, k->field == F_TAGS ? "a list or a string" :
		    "a string");
	for (i = 0; i < v->u.array.n; i++)
		if (v->u.array.v[i]->type != TOML_STRING &&
		    k->field != F_TAGS)
			return wrong(f, v->u.array.v[i], "a list of strings");
	for (i = 0; i < v->u.array.n; i++) {
		if (v->u.array.v[i]->type != TOML_STRING) {
			wrong(f, v->u.array.v[i], "a list of strings");
			continue;			/* tags: the item */
		}
		if (apply(f, k, rank, v->u.array.v[i], &fv, FM_VAL_ITEM) == -1)
			return -1;
	}
	memset(&fv, 0, sizeof(fv));
	return apply(f, k, rank, v, &fv, FM_VAL_END);
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
		if (date_parse(v->u.str.s, v->u.str.len, d, &errstr) == -1) {
			frontmatter_ignore(&f->fl, v, "%s: %s; ignored",
			    f->fl.key, errstr);
			return 2;
		}
		return 0;
	case TOML_LOCAL_TIME:
		frontmatter_ignore(&f->fl, v, "%s: a time of day without a "
		    "date; ignored", f->fl.key);
		return 2;
	case TOML_TABLE:
	case TOML_ARRAY:
	case TOML_INTEGER:
	case TOML_FLOAT:
	case TOML_BOOL:
		return 1;
	}
	if (date_parse(s, (size_t)n, d, &errstr) == -1) {
		frontmatter_ignore(&f->fl, v, "%s: %s; ignored", f->fl.key,
		    errstr);
		return 2;
	}
	return 0;
}

/* The value v of key k, at rank rank (the alias's, or below for
 * [extra]). */
static int
read_value(struct fmtoml *f, const struct fm_key *k, int rank,
    const struct toml_value *v)
{
	struct fm_value	 fv;
	int		 rv;

	/* An empty string is as if the key were not there. */
	if (v->type == TOML_STRING && v->u.str.len == 0)
		return 0;
	memset(&fv, 0, sizeof(fv));
	switch (frontmatter_kind(k->field)) {
	case FM_KIND_LIST:
		return read_list(f, k, rank, v);
	case FM_KIND_TEXT:
		if (v->type != TOML_STRING)
			return wrong(f, v, "a string");
		return apply(f, k, rank, v, &fv, FM_VAL_TEXT);
	case FM_KIND_DATE:
		if ((rv = to_date(f, v, &fv.d)) != 0)
			return rv == 1 ? wrong(f, v, "a date") : 0;
		return apply(f, k, rank, v, &fv, FM_VAL_DATE);
	case FM_KIND_INT:
		if (v->type != TOML_INTEGER)
			return wrong(f, v, "a whole number");
		fv.i = (long long)v->u.integer;
		return apply(f, k, rank, v, &fv, FM_VAL_INT);
	case FM_KIND_BOOL:
		if (v->type != TOML_BOOL)
			return wrong(f, v, "true or false");
		fv.b = v->u.boolean;
		return apply(f, k, rank, v, &fv, FM_VAL_BOOL);
	case FM_KIND_BOOL_OR_DATE:
		/* published = false (Jekyll), or a date */
		if (v->type == TOML_BOOL) {
			fv.b = v->u.boolean;
			return apply(f, k, rank, v, &fv, FM_VAL_BOOL);
		}
		if ((rv = to_date(f, v, &fv.d)) != 0)
			return rv == 1 ? wrong(f, v, "true, false or a date") :
			    0;
		return apply(f, k, rank, v, &fv, FM_VAL_DATE);
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
		f->fl.key = kv->key;
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
	size_t			 inner, close;
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
	frontmatter_fields_init(&f.fl, m, err, value_where);
	rv = read_table(&f, root, SCOPE_TOP);
	frontmatter_fields_done(&f.fl);
	toml_free(root);
	if (rv == -1) {
		meta_free(m);
		return -1;
	}
	return 0;
}
