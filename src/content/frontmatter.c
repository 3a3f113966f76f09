/*
 * frontmatter.c -- split the leading ---/--- block and read it as YAML.
 *
 * The YAML is pulled event by event from libyaml (yaml_parser_parse),
 * every event deleted before the next is read, under a cap on the number
 * of events and on nesting depth.  Alias events are refused outright:
 * front matter never needs them, and refusing them is what keeps a
 * "billion laughs" document from costing anything.  Scalars we keep are
 * copied into struct meta, which owns them; meta_free() releases them.
 * A value of the right shape goes to frontmatter_apply(), the field rules
 * this file keeps for both syntaxes (frontmatter_int.h).
 * Knows libyaml and date.h; nothing of files or of the archive.
 */
#include <ctype.h>
#include <limits.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <yaml.h>

#include "content/frontmatter.h"
#include "content/frontmatter_int.h"
#include "core/buf.h"
#include "core/date.h"
#include "core/entity.h"
#include "core/mime.h"
#include "core/util.h"
#include "core/yaml.h"

#define FM_MAX_EVENTS	8192	/* a real front matter has a few dozen */
#define FM_MAX_DEPTH	32
#define FM_MAX_SEEN	64	/* root keys checked for repeats */
#define FM_MAX_KEYLEN	64	/* longer keys are not checked */

/* The keys of both syntaxes (frontmatter_int.h). */
static const struct fm_key fm_keys[] = {
	{ "title", F_TITLE, 0 },
	{ "date", F_DATE, 0 },
	{ "pubdate", F_DATE, 1 },
	{ "publishdate", F_DATE, 2 },
	{ "created", F_DATE, 3 },
	{ "published", F_PUBLISHED, 4 },	/* a bool, or a date (rank 4) */
	{ "updated", F_UPDATED, 0 },
	{ "lastmod", F_UPDATED, 1 },
	{ "modified", F_UPDATED, 2 },
	{ "last_modified_at", F_UPDATED, 3 },
	{ "updateddate", F_UPDATED, 4 },	/* Astro's updatedDate */
	{ "tags", F_TAGS, 0 },
	{ "tag", F_TAGS, 0 },
	{ "categories", F_TAGS, 0 },
	{ "category", F_TAGS, 0 },
	{ "series", F_SERIES, 0 },
	{ "part", F_PART, 0 },
	{ "series_part", F_PART, 1 },
	{ "series_order", F_PART, 2 },
	{ "weight", F_PART, 3 },
	{ "summary", F_SUMMARY, 0 },
	{ "description", F_SUMMARY, 1 },
	{ "excerpt", F_SUMMARY, 2 },
	{ "slug", F_SLUG, 0 },
	{ "draft", F_DRAFT, 0 },
	{ "featured", F_FEATURED, 0 },
	{ "lang", F_LANG, 0 },
	{ "language", F_LANG, 1 },
	{ "author", F_AUTHOR, 0 },
	{ "authors", F_AUTHOR, 1 },
	{ "subtitle", F_SUBTITLE, 0 },
	{ "level", F_LEVEL, 0 },
	{ "audience", F_AUDIENCE, 0 },
	{ "path", F_ADDRESS, 0 },
	{ "url", F_ADDRESS, 1 },
	{ "permalink", F_ADDRESS, 2 },
	{ "aliases", F_ALIASES, 0 },
	{ "excerpt_separator", F_EXCERPT_SEP, 0 },
};

struct fmp {
	struct fm_fields fl;		/* what is filled, by the one rule */
	yaml_parser_t	 p;
	yaml_event_t	 ev;		/* the current event, when have */
	int		 have;
	size_t		 nevents;
	const char	*in;		/* what libyaml reads: from the --- */
	size_t		 inlen;
	unsigned	 line0;		/* file line of in[0] */
	struct fm_error	*err;
	char		 key[48];	/* the key being read, for messages */
	char		*seen[FM_MAX_SEEN]; /* owned: root keys so far */
	unsigned	 seenline[FM_MAX_SEEN];
	size_t		 nseen;
};

static void
fail(struct fmp *f, const yaml_mark_t *mk, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static void
fail(struct fmp *f, const yaml_mark_t *mk, const char *fmt, ...)
{
	va_list	 ap;

	f->err->line = f->line0 + (unsigned)mk->line;
	f->err->col = (unsigned)mk->column + 1;
	va_start(ap, fmt);
	vsnprintf(f->err->msg, sizeof(f->err->msg), fmt, ap);
	va_end(ap);
}

/* The file line and column of a libyaml mark (fm_fields.where). */
static void
mark_where(const struct fm_fields *fl, const void *at, unsigned *line,
    unsigned *col)
{
	const struct fmp	*f = container_of(fl, struct fmp, fl);
	const yaml_mark_t	*mk = at;

	*line = f->line0 + (unsigned)mk->line;
	*col = (unsigned)mk->column + 1;
}

static void
fail_yaml(struct fmp *f)
{
	yaml_mark_t	 mk;
	char		 msg[sizeof(f->err->msg)];

	yml_problem(&f->p, f->in, f->inlen, &mk, msg, sizeof(msg));
	fail(f, &mk, "%s", msg);
}

/* Read the next event into f->ev, deleting the current one first. */
static int
next(struct fmp *f)
{
	if (f->have) {
		yaml_event_delete(&f->ev);
		f->have = 0;
	}
	if (!yaml_parser_parse(&f->p, &f->ev)) {	/* libyaml: 0 fails */
		fail_yaml(f);
		return -1;
	}
	f->have = 1;
	if (++f->nevents > FM_MAX_EVENTS) {
		fail(f, &f->ev.start_mark, "front matter too large "
		    "(more than %d YAML nodes)", FM_MAX_EVENTS);
		return -1;
	}
	if (f->ev.type == YAML_ALIAS_EVENT) {
		fail(f, &f->ev.start_mark, "YAML aliases are not supported");
		return -1;
	}
	return 0;
}

/*
 * Consume the node whose first event is current, at nesting depth
 * depth, leaving its last event current.
 */
static int
skip_node(struct fmp *f, int depth)
{
	int	 level = 0;

	for (;;) {
		switch (f->ev.type) {
		case YAML_SEQUENCE_START_EVENT:
		case YAML_MAPPING_START_EVENT:
			if (depth + level >= FM_MAX_DEPTH) {
				fail(f, &f->ev.start_mark,
				    "front matter nested too deeply");
				return -1;
			}
			level++;
			break;
		case YAML_SEQUENCE_END_EVENT:
		case YAML_MAPPING_END_EVENT:
			level--;
			break;
		case YAML_SCALAR_EVENT:
			break;
		case YAML_NO_EVENT:
		case YAML_STREAM_START_EVENT:
		case YAML_STREAM_END_EVENT:
		case YAML_DOCUMENT_START_EVENT:
		case YAML_DOCUMENT_END_EVENT:
		case YAML_ALIAS_EVENT:
			fail(f, &f->ev.start_mark, "unexpected YAML structure");
			return -1;
		}
		if (level == 0)
			return 0;
		if (next(f) == -1)
			return -1;
	}
}

static const char *
sval(const struct fmp *f)
{
	return (const char *)f->ev.data.scalar.value;
}

static size_t
slen(const struct fmp *f)
{
	return f->ev.data.scalar.length;
}

static int
is_blank(int c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' ||
	    c == '\f';
}

/* int = [blanks] ["+" / "-"] 1*18DIGIT [blanks]; the range is the rule's */
static int
parse_int(const char *s, size_t len, long long *out)
{
	size_t		 i = 0;
	long long	 v = 0;
	int		 neg = 0, n = 0;

	while (i < len && is_blank((unsigned char)s[i]))
		i++;
	if (i < len && (s[i] == '+' || s[i] == '-'))
		neg = s[i++] == '-';
	while (i < len && s[i] >= '0' && s[i] <= '9' && n < 18) {
		v = v * 10 + (s[i++] - '0');
		n++;
	}
	while (i < len && is_blank((unsigned char)s[i]))
		i++;
	if (n == 0 || i != len)
		return -1;
	*out = neg ? -v : v;
	return 0;
}

int
frontmatter_add_tag(struct meta *m, const char *s, size_t len)
{
	char		*t;
	size_t		 i;
	int		 cut;

	t = frontmatter_oneline(s, len, FM_ENTITIES);
	if (*t == '\0') {
		free(t);
		return 0;
	}
	cut = frontmatter_cut(t, FM_TAG_MAX);
	for (i = 0; i < m->ntags; i++)
		if (strcasecmp(m->tags[i], t) == 0) {
			free(t);
			return cut;
		}
	if (m->ntags == FM_MAX_TAGS) {
		free(t);
		return -1;
	}
	m->tags = xreallocarray(m->tags, m->ntags + 1, sizeof(*m->tags));
	m->tags[m->ntags++] = t;
	return cut;
}

int
frontmatter_split_tags(struct meta *m, const char *s, size_t len)
{
	const char	*end = s + len, *p, *q;
	int		 comma, r, cut = 0;

	comma = memchr(s, ',', len) != NULL;
	for (p = s; p < end; p = q + 1) {
		for (q = p; q < end; q++)
			if (comma ? *q == ',' : is_blank((unsigned char)*q))
				break;
		if ((r = frontmatter_add_tag(m, p, (size_t)(q - p))) == -1)
			return -1;
		cut |= r;
	}
	return cut;
}

/*
 * The fields' rules (frontmatter_int.h), for both readers
 */

void
frontmatter_fields_init(struct fm_fields *fl, struct meta *m,
    struct fm_error *err, void (*where)(const struct fm_fields *,
    const void *, unsigned *, unsigned *))
{
	size_t	 i;

	memset(fl, 0, sizeof(*fl));
	fl->m = m;
	fl->err = err;
	fl->where = where;
	buf_init(&fl->list);
	for (i = 0; i < F_NFIELDS; i++)
		fl->rank[i] = INT_MAX;
}

void
frontmatter_fields_done(struct fm_fields *fl)
{
	buf_free(&fl->list);
}

void
frontmatter_ignore(struct fm_fields *fl, const void *at, const char *fmt,
    ...)
{
	struct fm_error	 e;
	va_list		 ap;

	fl->where(fl, at, &e.line, &e.col);
	va_start(ap, fmt);
	vsnprintf(e.msg, sizeof(e.msg), fmt, ap);
	va_end(ap);
	if (fl->m->nignored++ == 0)
		fl->m->ignored = e;
	/* Each one is a warning of its own: the writer fixes them all. */
	meta_warn(fl->m, e.line, e.col, "%s", e.msg);
}

void
frontmatter_note(struct fm_fields *fl, const void *at, const char *fmt, ...)
{
	va_list		 ap;
	unsigned	 line, col;
	char		 msg[sizeof(fl->err->msg)];

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	fl->where(fl, at, &line, &col);
	meta_warn(fl->m, line, col, "%s", msg);
}

enum fm_kind
frontmatter_kind(enum fm_field field)
{
	switch (field) {
	case F_TAGS:
	case F_SERIES:
	case F_AUTHOR:
	case F_ALIASES:
		return FM_KIND_LIST;
	case F_DATE:
	case F_UPDATED:
		return FM_KIND_DATE;
	case F_PART:
		return FM_KIND_INT;
	case F_DRAFT:
	case F_FEATURED:
		return FM_KIND_BOOL;
	case F_PUBLISHED:
		return FM_KIND_BOOL_OR_DATE;
	case F_TITLE:
	case F_SUMMARY:
	case F_SLUG:
	case F_LANG:
	case F_SUBTITLE:
	case F_LEVEL:
	case F_AUDIENCE:
	case F_ADDRESS:
	case F_EXCERPT_SEP:
	case F_NFIELDS:
		break;
	}
	return FM_KIND_TEXT;
}

/*
 * A text field's string in m, how it is made one line (FM_ENTITIES,
 * FM_TAGS) and its most characters (0: no limit); NULL for a field that
 * holds no string.
 */
static char **
text_field(struct meta *m, enum fm_field field, int *flags, size_t *max)
{
	*flags = FM_ENTITIES;
	*max = FM_TITLE_MAX;
	switch (field) {
	case F_TITLE:
		*flags |= FM_TAGS;
		return &m->title;
	case F_SUMMARY:
		*flags |= FM_TAGS;
		*max = FM_SUMMARY_MAX;
		return &m->summary;
	case F_SUBTITLE:
		*flags |= FM_TAGS;
		return &m->subtitle;
	case F_SLUG:
		*flags = 0;
		*max = 0;
		return &m->slug;
	case F_LANG:
		*flags = 0;
		*max = 0;
		return &m->lang;
	case F_LEVEL:
		return &m->level;
	case F_AUDIENCE:
		return &m->audience;
	case F_SERIES:
		return &m->series;
	case F_AUTHOR:
		return &m->author;
	case F_ADDRESS:
	case F_ALIASES:
		*flags = 0;
		*max = 0;
		return field == F_ADDRESS ? &m->address : &m->aliases;
	case F_EXCERPT_SEP:
		*flags = 0;
		*max = FM_TAG_MAX;
		return &m->excerpt_sep;
	case F_DATE:
	case F_UPDATED:
	case F_TAGS:
	case F_PART:
	case F_DRAFT:
	case F_PUBLISHED:
	case F_FEATURED:
	case F_NFIELDS:
		break;
	}
	return NULL;
}

/* What frontmatter_add_tag() or _split_tags() returned for v. */
static int
tagged(struct fm_fields *fl, const struct fm_value *v, int r)
{
	if (r == 1)
		frontmatter_note(fl, v->at, "%s: a tag longer than %d "
		    "characters, cut", fl->key, FM_TAG_MAX);
	if (r != -1)
		return 0;
	fl->where(fl, v->at, &fl->err->line, &fl->err->col);
	snprintf(fl->err->msg, sizeof(fl->err->msg), "%s: more than %d tags",
	    fl->key, FM_MAX_TAGS);
	return -1;
}

int
frontmatter_apply(struct fm_fields *fl, const struct fm_key *k, int rank,
    const struct fm_value *v)
{
	struct meta	*m = fl->m;
	enum fm_field	 field = k->field;
	char		**dst, *s;
	size_t		 max;
	int		 flags;

	/* published: 2024-01-02 is a date, of its own rank. */
	if (field == F_PUBLISHED && v->type == FM_VAL_DATE)
		field = F_DATE;
	if (field == F_TAGS) {
		/* Every alias's tags, merged in file order. */
		if (v->type == FM_VAL_TEXT)
			return tagged(fl, v, frontmatter_split_tags(m, v->s,
			    v->len));
		if (v->type == FM_VAL_ITEM)
			return tagged(fl, v, frontmatter_add_tag(m, v->s,
			    v->len));
		return 0;
	}
	if (v->type == FM_VAL_ITEM) {
		/* A series is its list's first item, authors all of them. */
		if (field == F_AUTHOR || field == F_ALIASES ||
		    fl->list.len == 0)
			frontmatter_join_item(&fl->list, v->s, v->len);
		return 0;
	}
	if (v->type == FM_VAL_BOOL && (field == F_DRAFT ||
	    field == F_PUBLISHED)) {
		/* A draft by any of them: draft: true, published: false. */
		m->draft = m->draft || (field == F_DRAFT ? v->b : !v->b);
		return 0;
	}
	if (v->type == FM_VAL_INT && (v->i > FM_MAX_PART ||
	    v->i < -FM_MAX_PART)) {
		frontmatter_ignore(fl, v->at, "%s: %lld is out of range; "
		    "ignored", fl->key, v->i);
		return 0;
	}
	/* An alias of lower rank already set this field: checked, not kept. */
	if (rank > fl->rank[field]) {
		buf_truncate(&fl->list, 0);
		return 0;
	}

	switch (v->type) {
	case FM_VAL_TEXT:
	case FM_VAL_END:
		if ((dst = text_field(m, field, &flags, &max)) == NULL)
			return 0;
		if (v->type == FM_VAL_END) {
			if (fl->list.len == 0)
				return 0;
			s = buf_release(&fl->list);	/* one line already */
		} else
			s = frontmatter_oneline(v->s, v->len, flags);
		if (*s == '\0') {
			free(s);
			return 0;
		}
		if (field == F_LANG && !mime_lang_ok(s)) {
			frontmatter_ignore(fl, v->at, "%s: '%.40s' is not a "
			    "language tag like en or pt-BR; ignored", fl->key,
			    s);
			free(s);
			return 0;
		}
		if (max > 0 && frontmatter_cut(s, max))
			frontmatter_note(fl, v->at, "%s: longer than %zu "
			    "characters, cut", fl->key, max);
		free(*dst);
		*dst = s;
		break;
	case FM_VAL_INT:
		if (field != F_PART)
			return 0;
		m->part = (int)v->i;
		break;
	case FM_VAL_DATE:
		if (field == F_DATE) {
			m->date = v->d;
			m->has_date = true;
		} else if (field == F_UPDATED) {
			m->updated = v->d;
			m->has_updated = true;
		} else
			return 0;
		break;
	case FM_VAL_BOOL:
		if (field != F_FEATURED)
			return 0;
		m->featured = v->b;
		break;
	case FM_VAL_ITEM:
		return 0;
	}
	fl->rank[field] = rank;
	return 0;
}

/*
 * The YAML reader
 */

/* A value of the current event, for frontmatter_apply(). */
static struct fm_value
value(const struct fmp *f, enum fm_vtype type)
{
	struct fm_value	 v;

	memset(&v, 0, sizeof(v));
	v.type = type;
	if (f->ev.type == YAML_SCALAR_EVENT) {
		v.s = sval(f);
		v.len = slen(f);
	}
	v.at = &f->ev.start_mark;
	return v;
}

/*
 * An author written as a mapping, inline in the front matter as
 * Docusaurus allows ("- name: Ana Lima" with "title:", "url:" beside
 * it; the start event is current): its name, as an item of the list.
 */
static int
read_named(struct fmp *f, const struct fm_key *k, int depth)
{
	struct fm_value	 v;
	int		 name;

	for (;;) {
		if (next(f) == -1)
			return -1;
		if (f->ev.type == YAML_MAPPING_END_EVENT)
			return 0;
		name = f->ev.type == YAML_SCALAR_EVENT && slen(f) == 4 &&
		    strncasecmp(sval(f), "name", 4) == 0;
		if ((!name && skip_node(f, depth + 1) == -1) || next(f) == -1)
			return -1;
		if (name && f->ev.type == YAML_SCALAR_EVENT &&
		    !yml_is_null(&f->ev)) {
			v = value(f, FM_VAL_ITEM);
			if (frontmatter_apply(&f->fl, k, k->rank, &v) == -1)
				return -1;
		} else if (skip_node(f, depth + 1) == -1)
			return -1;
	}
}

/*
 * A string, or a list of strings (tags, series, authors): its items go
 * to the rule one by one, then its end.  An item of the wrong shape is
 * ignored, the others kept; an author may be a mapping with a name.
 */
static int
read_list(struct fmp *f, const struct fm_key *k, int depth)
{
	struct fm_value	 v;

	if (f->ev.type == YAML_SCALAR_EVENT) {
		v = value(f, FM_VAL_TEXT);
		return frontmatter_apply(&f->fl, k, k->rank, &v);
	}
	if (f->ev.type == YAML_MAPPING_START_EVENT && k->field == F_AUTHOR) {
		if (read_named(f, k, depth) == -1)
			return -1;
		v = value(f, FM_VAL_END);
		return frontmatter_apply(&f->fl, k, k->rank, &v);
	}
	if (f->ev.type != YAML_SEQUENCE_START_EVENT) {
		frontmatter_ignore(&f->fl, &f->ev.start_mark, "%s: expected "
		    "%s; ignored", f->key, k->field == F_TAGS ?
		    "a list or a string" : "a string");
		return skip_node(f, depth);
	}
	for (;;) {
		if (next(f) == -1)
			return -1;
		if (f->ev.type == YAML_SEQUENCE_END_EVENT)
			break;
		if (f->ev.type == YAML_MAPPING_START_EVENT &&
		    k->field == F_AUTHOR) {
			if (read_named(f, k, depth + 1) == -1)
				return -1;
			continue;
		}
		if (f->ev.type != YAML_SCALAR_EVENT) {
			frontmatter_ignore(&f->fl, &f->ev.start_mark, "%s: "
			    "expected a list of strings; an item ignored",
			    f->key);
			if (skip_node(f, depth + 1) == -1)
				return -1;
			continue;
		}
		if (yml_is_null(&f->ev))
			continue;
		v = value(f, FM_VAL_ITEM);
		if (frontmatter_apply(&f->fl, k, k->rank, &v) == -1)
			return -1;
	}
	v = value(f, FM_VAL_END);	/* a cut is told at the list's end */
	return frontmatter_apply(&f->fl, k, k->rank, &v);
}

/*
 * A value of the wrong shape is ignored with a note (meta.ignored), not
 * a reason to refuse the file: these return 0 when the value is usable,
 * 1 when it was ignored (and consumed), -1 on a YAML error.
 */
static int
want_scalar(struct fmp *f, const char *what, int depth)
{
	if (f->ev.type == YAML_SCALAR_EVENT)
		return 0;
	frontmatter_ignore(&f->fl, &f->ev.start_mark, "%s: expected %s; "
	    "ignored", f->key, what);
	return skip_node(f, depth) == -1 ? -1 : 1;
}

static const struct fm_key *
find_key(const char *s, size_t len)
{
	size_t	 i;

	for (i = 0; i < nitems(fm_keys); i++)
		if (strlen(fm_keys[i].name) == len &&
		    strncasecmp(fm_keys[i].name, s, len) == 0)
			return &fm_keys[i];
	return NULL;
}

static int	read_value(struct fmp *, const struct fm_key *, int);

/*
 * date:
 *   created: 2024-01-31	the date
 *   updated: 2024-02-01	the updated time
 * mkdocs-material's blog writes a post's dates so, a mapping under the
 * date key; its start event is current.  Other keys of it are skipped.
 * The created date has the date key's rank; the updated one ranks below
 * an updated key of the root, wherever each is.
 */
static int
read_date_map(struct fmp *f, const struct fm_key *k, int depth)
{
	static const struct fm_key updated = { "updated", F_UPDATED, 1 };
	const struct fm_key	*in;
	char			 key[sizeof(f->key)];

	memcpy(key, f->key, sizeof(key));
	for (;;) {
		if (next(f) == -1)
			return -1;
		if (f->ev.type == YAML_MAPPING_END_EVENT)
			break;
		in = NULL;
		if (f->ev.type == YAML_SCALAR_EVENT) {
			if (slen(f) == 7 && strncasecmp(sval(f), "created",
			    7) == 0)
				in = k;
			else if (slen(f) == 7 && strncasecmp(sval(f),
			    "updated", 7) == 0)
				in = &updated;
			/* "date.created", for messages: a cut one will do. */
			if (snprintf(f->key, sizeof(f->key), "%s.%.*s", key,
			    (int)(slen(f) < 16 ? slen(f) : 16), sval(f)) < 0)
				f->key[0] = '\0';
		} else if (skip_node(f, depth + 1) == -1)
			return -1;
		if (next(f) == -1)
			return -1;
		if (in == NULL) {
			if (skip_node(f, depth + 1) == -1)
				return -1;
		} else if (read_value(f, in, depth + 1) == -1)
			return -1;
	}
	memcpy(f->key, key, sizeof(key));
	return 0;
}

/* The value of key k is the current event; consume all of it. */
static int
read_value(struct fmp *f, const struct fm_key *k, int depth)
{
	struct fm_value	 v;
	const char	*errstr;
	int		 rv;

	if (yml_is_null(&f->ev))
		return 0;
	switch (frontmatter_kind(k->field)) {
	case FM_KIND_LIST:
		return read_list(f, k, depth);
	case FM_KIND_TEXT:
		if ((rv = want_scalar(f, "a string", depth)) != 0)
			return rv < 0 ? -1 : 0;
		v = value(f, FM_VAL_TEXT);
		break;
	case FM_KIND_DATE:
		if (k->field == F_DATE &&
		    f->ev.type == YAML_MAPPING_START_EVENT)
			return read_date_map(f, k, depth);
		if ((rv = want_scalar(f, "a date", depth)) != 0)
			return rv < 0 ? -1 : 0;
		v = value(f, FM_VAL_DATE);
		if (date_parse(sval(f), slen(f), &v.d, &errstr) == -1) {
			frontmatter_ignore(&f->fl, v.at, "%s: %s; ignored",
			    f->key, errstr);
			return 0;
		}
		break;
	case FM_KIND_INT:
		if ((rv = want_scalar(f, "a whole number", depth)) != 0)
			return rv < 0 ? -1 : 0;
		v = value(f, FM_VAL_INT);
		if (parse_int(sval(f), slen(f), &v.i) == -1) {
			frontmatter_ignore(&f->fl, v.at, "%s: expected a whole "
			    "number; ignored", f->key);
			return 0;
		}
		break;
	case FM_KIND_BOOL:
		if ((rv = want_scalar(f, "true or false", depth)) != 0)
			return rv < 0 ? -1 : 0;
		v = value(f, FM_VAL_BOOL);
		if (yml_parse_bool(sval(f), slen(f), &v.b) == -1) {
			frontmatter_ignore(&f->fl, v.at, "%s: expected true or "
			    "false; ignored", f->key);
			return 0;
		}
		break;
	case FM_KIND_BOOL_OR_DATE:
		/* published: false (Jekyll), or published: 2024-01-02 */
		if ((rv = want_scalar(f, "true, false or a date", depth)) !=
		    0)
			return rv < 0 ? -1 : 0;
		v = value(f, FM_VAL_BOOL);
		if (yml_parse_bool(sval(f), slen(f), &v.b) == 0)
			break;
		v.type = FM_VAL_DATE;
		if (date_parse(sval(f), slen(f), &v.d, &errstr) == -1) {
			frontmatter_ignore(&f->fl, v.at, "%s: expected true, "
			    "false or a date; ignored", f->key);
			return 0;
		}
		break;
	}
	return frontmatter_apply(&f->fl, k, k->rank, &v);
}

const struct fm_key *
frontmatter_key(const char *s, size_t len)
{
	return find_key(s, len);
}

/*
 * The current event, a root key: a warning when it was given before (keys
 * match ignoring case, as find_key() does).  YAML says a key is unique in
 * its mapping; libyaml does not check, and the value that wins depends on
 * the field (docs/writing.md, "Values the loader lets pass, or not"), so
 * the writer is told.  The first FM_MAX_SEEN keys are checked.  (TOML's
 * parser refuses a repeated key, as TOML says.)
 */
static void
check_repeat(struct fmp *f)
{
	size_t		 i, len = slen(f);
	unsigned	 line = f->line0 + (unsigned)f->ev.start_mark.line;

	if (len > FM_MAX_KEYLEN)
		return;
	for (i = 0; i < f->nseen; i++)
		if (strlen(f->seen[i]) == len &&
		    strncasecmp(f->seen[i], sval(f), len) == 0) {
			frontmatter_note(&f->fl, &f->ev.start_mark,
			    "duplicate key \"%s\" (first on line %u)",
			    f->seen[i], f->seenline[i]);
			return;
		}
	if (f->nseen == FM_MAX_SEEN)
		return;
	f->seenline[f->nseen] = line;
	f->seen[f->nseen++] = xstrndup(sval(f), len);
}

/* The root mapping: its start event is current. */
static int
read_mapping(struct fmp *f)
{
	const struct fm_key	*k;
	size_t			 len;

	for (;;) {
		if (next(f) == -1)
			return -1;
		if (f->ev.type == YAML_MAPPING_END_EVENT)
			return 0;
		k = NULL;
		if (f->ev.type == YAML_SCALAR_EVENT) {
			check_repeat(f);
			k = find_key(sval(f), slen(f));
			len = slen(f) < sizeof(f->key) - 1 ? slen(f) :
			    sizeof(f->key) - 1;
			memcpy(f->key, sval(f), len);
			f->key[len] = '\0';
		} else if (skip_node(f, 1) == -1)	/* a complex key */
			return -1;
		if (next(f) == -1)
			return -1;
		if (k == NULL) {
			if (skip_node(f, 1) == -1)
				return -1;
		} else if (read_value(f, k, 1) == -1)
			return -1;
	}
}

static int
read_yaml(struct fmp *f)
{
	if (next(f) == -1)			/* STREAM-START */
		return -1;
	if (next(f) == -1)
		return -1;
	if (f->ev.type == YAML_STREAM_END_EVENT)
		return 0;
	if (next(f) == -1)			/* after DOCUMENT-START */
		return -1;
	if (f->ev.type == YAML_MAPPING_START_EVENT) {
		if (read_mapping(f) == -1)
			return -1;
	} else if (!yml_is_null(&f->ev)) {
		fail(f, &f->ev.start_mark, "front matter must be a mapping "
		    "of keys to values");
		return -1;
	}
	if (next(f) == -1)			/* DOCUMENT-END */
		return -1;
	if (next(f) == -1)
		return -1;
	if (f->ev.type != YAML_STREAM_END_EVENT) {
		fail(f, &f->ev.start_mark, "more than one YAML document in "
		    "front matter");
		return -1;
	}
	return 0;
}

/*
 * A fence line: one of the three-character marks in marks ("---...":
 * "---" or "...") then only blanks (a CR included).
 */
static int
is_fence(const char *s, size_t len, const char *marks)
{
	size_t	 i;

	if (len < 3)
		return 0;
	for (; *marks != '\0'; marks += 3)
		if (memcmp(s, marks, 3) == 0)
			break;
	if (*marks == '\0')
		return 0;
	for (i = 3; i < len; i++)
		if (s[i] != ' ' && s[i] != '\t' && s[i] != '\r')
			return 0;
	return 1;
}

int
frontmatter_fenced(const char *src, size_t len, size_t off,
    const char *open, const char *close, size_t *inner, size_t *end_at,
    struct meta *m, struct fm_error *err)
{
	const char	*eol;
	size_t		 pos, end;
	unsigned	 line;

	eol = memchr(src + off, '\n', len - off);
	end = eol ? (size_t)(eol - src) : len;
	if (!is_fence(src + off, end - off, open))
		return 0;			/* no front matter */
	*inner = eol ? end + 1 : len;
	for (pos = end + 1, line = 2; eol != NULL && pos <= len; line++) {
		eol = memchr(src + pos, '\n', len - pos);
		end = eol ? (size_t)(eol - src) : len;
		if (is_fence(src + pos, end - pos, close)) {
			*end_at = pos;
			m->body_off = eol ? end + 1 : len;
			m->body_line = line + 1;
			return 1;
		}
		pos = end + 1;
	}
	err->line = 1;
	err->col = 1;
	snprintf(err->msg, sizeof(err->msg), "front matter is not closed "
	    "(no %.3s%s%.3s line after it)", close, close[3] ? " or " : "",
	    close + 3);
	m->body_off = 0;
	return -1;
}

int
frontmatter_parse(const char *src, size_t len, struct meta *m,
    struct fm_error *err)
{
	struct fmp	 f;
	size_t		 off = 0, pos, inner, close;
	int		 rv;

	memset(m, 0, sizeof(*m));
	memset(err, 0, sizeof(*err));
	if (len >= 3 && memcmp(src, "\xEF\xBB\xBF", 3) == 0)
		off = 3;
	m->body_off = off;
	m->body_line = 1;
	if (len == off)
		return 0;
	if (len - off >= 3 && memcmp(src + off, "+++", 3) == 0)
		return frontmatter_toml(src, len, off, m, err);	/* TOML */

	if ((rv = frontmatter_fenced(src, len, off, "---", "---...", &inner,
	    &close, m, err)) == 0)
		return frontmatter_header(src, len, off, m, err); /* Pelican */
	if (rv == -1)
		return rv;
	memset(&f, 0, sizeof(f));
	f.in = src + off;
	f.inlen = close - off;
	f.line0 = 1;
	f.err = err;
	frontmatter_fields_init(&f.fl, m, err, mark_where);
	f.fl.key = f.key;
	if (!yaml_parser_initialize(&f.p))
		abort();			/* out of memory, as xmalloc */
	yaml_parser_set_input_string(&f.p, (const unsigned char *)f.in,
	    f.inlen);
	rv = read_yaml(&f);
	if (f.have)
		yaml_event_delete(&f.ev);
	yaml_parser_delete(&f.p);
	for (pos = 0; pos < f.nseen; pos++)
		free(f.seen[pos]);
	frontmatter_fields_done(&f.fl);
	if (rv == -1) {
		meta_free(m);
		return -1;
	}
	return 0;
}

enum fm_syntax
frontmatter_syntax(const char *src, size_t len, size_t body_off)
{
	size_t	 off = 0;

	if (len >= 3 && memcmp(src, "\xEF\xBB\xBF", 3) == 0)
		off = 3;
	if (body_off <= off)
		return FM_SYNTAX_NONE;
	return src[off] == '+' ? FM_SYNTAX_TOML : src[off] == '-' ?
	    FM_SYNTAX_YAML : FM_SYNTAX_HEADER;
}

void
meta_free(struct meta *m)
{
	size_t	 i;

	for (i = 0; i < m->ntags; i++)
		free(m->tags[i]);
	free(m->tags);
	free(m->title);
	free(m->series);
	free(m->summary);
	free(m->slug);
	free(m->lang);
	free(m->author);
	free(m->subtitle);
	free(m->level);
	free(m->audience);
	free(m->address);
	free(m->aliases);
	free(m->excerpt_sep);
	free(m->warns);
	memset(m, 0, sizeof(*m));
}

void
meta_warn(struct meta *m, unsigned line, unsigned col, const char *fmt, ...)
{
	struct fm_error	*w;
	va_list		 ap;

	if (m->nwarns == FM_WARN_MAX) {
		m->nwarns_lost++;
		return;
	}
	m->warns = xreallocarray(m->warns, m->nwarns + 1, sizeof(*m->warns));
	w = &m->warns[m->nwarns++];
	w->line = line;
	w->col = col;
	va_start(ap, fmt);
	vsnprintf(w->msg, sizeof(w->msg), fmt, ap);
	va_end(ap);
}

int
frontmatter_cut(char *s, size_t max)
{
	size_t	 i, n = 0;

	/* A character starts at every byte that is no continuation byte. */
	for (i = 0; s[i] != '\0'; i++)
		if (((unsigned char)s[i] & 0xC0) != 0x80 && n++ == max)
			break;
	if (s[i] == '\0')
		return 0;
	while (i > 0 && s[i - 1] == ' ')
		i--;
	s[i] = '\0';
	return 1;
}

/*
 * s[0..len) without its HTML tags and comments, appended to out: a
 * title written for the web ("for action <em>and</em> flexibility")
 * reads as its text.  A tag is "<" then a letter, "/" and a letter, or
 * "!", up to the next ">"; any other "<" is text ("a < b").  A <br>
 * leaves a space.
 */
static void
strip_tags(struct buf *out, const char *s, size_t len)
{
	const char	*gt;
	size_t		 i = 0, k;

	while (i < len) {
		k = i + 1 < len && s[i + 1] == '/' ? i + 2 : i + 1;
		if (s[i] != '<' || k >= len || !(isalpha((unsigned char)s[k]) ||
		    (k == i + 1 && s[k] == '!')) ||
		    (gt = memchr(s + k, '>', len - k)) == NULL) {
			buf_addc(out, s[i++]);
			continue;
		}
		if (strncasecmp(s + i, "<br", 3) == 0)
			buf_addc(out, ' ');
		i = (size_t)(gt - s) + 1;
	}
}

void
frontmatter_join_item(struct buf *b, const char *s, size_t len)
{
	char	*one;

	one = frontmatter_oneline(s, len, FM_ENTITIES);
	if (*one != '\0') {
		if (b->len > 0)
			buf_addstr(b, ", ");
		buf_addstr(b, one);
	}
	free(one);
}

char *
frontmatter_oneline(const char *s, size_t len, int flags)
{
	struct buf	 dec = BUF_INIT, tags = BUF_INIT, out = BUF_INIT;
	const unsigned char *p;
	size_t		 i, plen;
	int		 space = 0;

	if ((flags & FM_TAGS) && len > 0 && memchr(s, '<', len) != NULL) {
		strip_tags(&tags, s, len);
		s = tags.data;
		len = tags.len;
	}
	/* A title of tags only ("<ns>") leaves nothing: tags.data NULL. */
	if ((flags & FM_ENTITIES) && len > 0 && memchr(s, '&', len) != NULL) {
		entity_decode_all(&dec, s, len);
		s = dec.data;
		len = dec.len;
	}

	buf_reserve(&out, len);
	buf_add(&out, "", 0);		/* NUL-terminated even when empty */
	p = (const unsigned char *)s;
	plen = len;
	for (i = 0; i < plen; i++) {
		if (is_blank(p[i]) ||
		    (p[i] == 0xC2 && i + 1 < plen && p[i + 1] == 0x85) ||
		    (p[i] == 0xE2 && i + 2 < plen && p[i + 1] == 0x80 &&
		    (p[i + 2] == 0xA8 || p[i + 2] == 0xA9))) {
			/* blanks, NEL, LINE and PARAGRAPH SEPARATOR */
			space = out.len > 0;
			i += p[i] == 0xC2 ? 1 : p[i] == 0xE2 ? 2 : 0;
			continue;
		}
		if (p[i] < 0x20 || p[i] == 0x7F)
			continue;
		if (p[i] == 0xC2 && i + 1 < plen && p[i + 1] >= 0x80 &&
		    p[i + 1] < 0xA0) {
			i++;			/* a C1 control */
			continue;
		}
		if (space) {
			buf_addc(&out, ' ');
			space = 0;
		}
		buf_addc(&out, p[i]);
	}
	buf_free(&dec);
	buf_free(&tags);
	return buf_release(&out);
}
