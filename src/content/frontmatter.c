/*
 * frontmatter.c -- split the leading ---/--- block and read it as YAML.
 *
 * The YAML is pulled event by event from libyaml (yaml_parser_parse),
 * every event deleted before the next is read, under a cap on the number
 * of events and on nesting depth.  Alias events are refused outright:
 * front matter never needs them, and refusing them is what keeps a
 * "billion laughs" document from costing anything.  Scalars we keep are
 * copied into struct meta, which owns them; meta_free() releases them.
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
};

struct fmp {
	yaml_parser_t	 p;
	yaml_event_t	 ev;		/* the current event, when have */
	int		 have;
	size_t		 nevents;
	const char	*in;		/* what libyaml reads: from the --- */
	size_t		 inlen;
	unsigned	 line0;		/* file line of in[0] */
	struct meta	*m;
	struct fm_error	*err;
	int		 rank[F_NFIELDS]; /* of the alias that set a field */
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

/* A warning at mk: the value is kept, maybe changed. */
static void
note(struct fmp *f, const yaml_mark_t *mk, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static void
note(struct fmp *f, const yaml_mark_t *mk, const char *fmt, ...)
{
	va_list	 ap;
	char	 msg[sizeof(f->err->msg)];

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	meta_warn(f->m, f->line0 + (unsigned)mk->line,
	    (unsigned)mk->column + 1, "%s", msg);
}

/* Cut s to max characters (0: no limit), with a warning at the value. */
static void
cap(struct fmp *f, char *s, size_t max)
{
	if (max > 0 && frontmatter_cut(s, max))
		note(f, &f->ev.start_mark, "%s: longer than %zu characters, "
		    "cut", f->key, max);
}

/* A value that is ignored, not refused: the first is kept in m->ignored. */
static void
ignore(struct fmp *f, const yaml_mark_t *mk, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static void
ignore(struct fmp *f, const yaml_mark_t *mk, const char *fmt, ...)
{
	struct fm_error	*e = &f->m->ignored;
	va_list		 ap;

	if (f->m->nignored++ > 0)
		return;
	e->line = f->line0 + (unsigned)mk->line;
	e->col = (unsigned)mk->column + 1;
	va_start(ap, fmt);
	vsnprintf(e->msg, sizeof(e->msg), fmt, ap);
	va_end(ap);
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

/* int = [blanks] ["+" / "-"] 1*7DIGIT [blanks], |value| <= FM_MAX_PART */
static int
parse_int(const char *s, size_t len, int *out)
{
	size_t	 i = 0;
	long	 v = 0;
	int	 neg = 0, n = 0;

	while (i < len && is_blank((unsigned char)s[i]))
		i++;
	if (i < len && (s[i] == '+' || s[i] == '-'))
		neg = s[i++] == '-';
	while (i < len && s[i] >= '0' && s[i] <= '9' && n < 8) {
		v = v * 10 + (s[i++] - '0');
		n++;
	}
	while (i < len && is_blank((unsigned char)s[i]))
		i++;
	if (n == 0 || i != len || v > FM_MAX_PART)
		return -1;
	*out = (int)(neg ? -v : v);
	return 0;
}

/*
 * Replace *dst with the one-line form of the current scalar, cut to max
 * characters (0: no limit).
 */
static void
set_text(struct fmp *f, char **dst, int flags, size_t max)
{
	char	*s;

	s = frontmatter_oneline(sval(f), slen(f), flags);
	if (*s == '\0') {
		free(s);
		return;
	}
	cap(f, s, max);
	free(*dst);
	*dst = s;
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

/* What frontmatter_add_tag() or _split_tags() returned, for the reader. */
static int
tagged(struct fmp *f, int r)
{
	if (r == 1)
		note(f, &f->ev.start_mark, "%s: a tag longer than %d "
		    "characters, cut", f->key, FM_TAG_MAX);
	if (r != -1)
		return 0;
	fail(f, &f->ev.start_mark, "%s: more than %d tags", f->key,
	    FM_MAX_TAGS);
	return -1;
}

static int
add_tag(struct fmp *f, const char *s, size_t len)
{
	return tagged(f, frontmatter_add_tag(f->m, s, len));
}

static int
split_tags(struct fmp *f)
{
	return tagged(f, frontmatter_split_tags(f->m, sval(f), slen(f)));
}

static int
read_tags(struct fmp *f, int depth)
{
	if (f->ev.type == YAML_SCALAR_EVENT)
		return split_tags(f);
	if (f->ev.type != YAML_SEQUENCE_START_EVENT) {
		ignore(f, &f->ev.start_mark, "%s: expected a list or a "
		    "string; ignored", f->key);
		return skip_node(f, depth);
	}
	for (;;) {
		if (next(f) == -1)
			return -1;
		if (f->ev.type == YAML_SEQUENCE_END_EVENT)
			return 0;
		if (f->ev.type != YAML_SCALAR_EVENT) {
			ignore(f, &f->ev.start_mark, "%s: expected a list of "
			    "strings; an item ignored", f->key);
			if (skip_node(f, depth + 1) == -1)
				return -1;
			continue;
		}
		if (!yml_is_null(&f->ev) && add_tag(f, sval(f), slen(f)) == -1)
			return -1;
	}
}

/*
 * A string, or a list of strings: the first item (series) or all of them
 * joined with ", " (authors); cut to FM_TITLE_MAX characters.
 */
static int
read_str_or_list(struct fmp *f, char **dst, int join, int depth)
{
	struct buf	 b = BUF_INIT;

	if (f->ev.type == YAML_SCALAR_EVENT) {
		set_text(f, dst, FM_ENTITIES, FM_TITLE_MAX);
		return 0;
	}
	if (f->ev.type != YAML_SEQUENCE_START_EVENT) {
		ignore(f, &f->ev.start_mark, "%s: expected a string; ignored",
		    f->key);
		return skip_node(f, depth);
	}
	for (;;) {
		if (next(f) == -1)
			goto fail;
		if (f->ev.type == YAML_SEQUENCE_END_EVENT)
			break;
		if (f->ev.type != YAML_SCALAR_EVENT) {
			ignore(f, &f->ev.start_mark, "%s: expected a list of "
			    "strings; an item ignored", f->key);
			if (skip_node(f, depth + 1) == -1)
				goto fail;
			continue;
		}
		if (yml_is_null(&f->ev) || (!join && b.len > 0))
			continue;
		frontmatter_join_item(&b, sval(f), slen(f));
	}
	if (b.len > 0) {
		free(*dst);
		*dst = buf_release(&b);
		cap(f, *dst, FM_TITLE_MAX);	/* at the list's end */
	}
	return 0;
fail:
	buf_free(&b);
	return -1;
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
	ignore(f, &f->ev.start_mark, "%s: expected %s; ignored", f->key,
	    what);
	return skip_node(f, depth) == -1 ? -1 : 1;
}

static int
read_date(struct fmp *f, struct date *d, int depth)
{
	const char	*errstr;
	int		 rv;

	if ((rv = want_scalar(f, "a date", depth)) != 0)
		return rv;
	if (date_parse(sval(f), slen(f), d, &errstr) == -1) {
		ignore(f, &f->ev.start_mark, "%s: %s; ignored", f->key,
		    errstr);
		return 1;
	}
	return 0;
}

static int
read_bool(struct fmp *f, bool *out, int depth)
{
	int	 rv;

	if ((rv = want_scalar(f, "true or false", depth)) != 0)
		return rv;
	if (yml_parse_bool(sval(f), slen(f), out) == -1) {
		ignore(f, &f->ev.start_mark, "%s: expected true or false; "
		    "ignored", f->key);
		return 1;
	}
	return 0;
}

/* The value of key k is the current event; consume all of it. */
static int
read_value(struct fmp *f, const struct fm_key *k, int depth)
{
	struct meta	*m = f->m;
	struct date	 d;
	const char	*errstr;
	bool		 b;
	int		 v, keep, rv;

	if (yml_is_null(&f->ev))
		return 0;
	/* An alias of lower rank already set this field: check, don't keep. */
	keep = k->rank <= f->rank[k->field];
	if (keep && k->field != F_PUBLISHED)
		f->rank[k->field] = k->rank;

	switch (k->field) {
	case F_TITLE:
	case F_SUMMARY:
	case F_SLUG:
	case F_LANG:
	case F_SUBTITLE:
	case F_LEVEL:
	case F_AUDIENCE:
		if ((rv = want_scalar(f, "a string", depth)) != 0)
			return rv < 0 ? -1 : 0;
		if (!keep)
			return 0;
		switch (k->field) {
		case F_TITLE:
			set_text(f, &m->title, FM_ENTITIES | FM_TAGS,
			    FM_TITLE_MAX);
			break;
		case F_SUMMARY:
			set_text(f, &m->summary, FM_ENTITIES | FM_TAGS,
			    FM_SUMMARY_MAX);
			break;
		case F_SLUG:
			set_text(f, &m->slug, 0, 0);
			break;
		case F_LANG:
			set_text(f, &m->lang, 0, 0);
			if (m->lang != NULL && !mime_lang_ok(m->lang)) {
				ignore(f, &f->ev.start_mark, "%s: '%.40s' is "
				    "not a language tag like en or pt-BR; "
				    "ignored", f->key, m->lang);
				free(m->lang);
				m->lang = NULL;
			}
			break;
		case F_SUBTITLE:
			set_text(f, &m->subtitle, FM_ENTITIES | FM_TAGS,
			    FM_TITLE_MAX);
			break;
		case F_LEVEL:
			set_text(f, &m->level, FM_ENTITIES, FM_TITLE_MAX);
			break;
		default:
			set_text(f, &m->audience, FM_ENTITIES, FM_TITLE_MAX);
			break;
		}
		return 0;
	case F_SERIES:
		if (keep)
			return read_str_or_list(f, &m->series, 0, depth);
		return skip_node(f, depth);
	case F_AUTHOR:
		if (keep)
			return read_str_or_list(f, &m->author, 1, depth);
		return skip_node(f, depth);
	case F_TAGS:
		return read_tags(f, depth);
	case F_DATE:
		if ((rv = read_date(f, &d, depth)) != 0)
			return rv < 0 ? -1 : 0;
		if (keep) {
			m->date = d;
			m->has_date = true;
		}
		return 0;
	case F_UPDATED:
		if ((rv = read_date(f, &d, depth)) != 0)
			return rv < 0 ? -1 : 0;
		if (keep) {
			m->updated = d;
			m->has_updated = true;
		}
		return 0;
	case F_PART:
		if ((rv = want_scalar(f, "a whole number", depth)) != 0)
			return rv < 0 ? -1 : 0;
		if (parse_int(sval(f), slen(f), &v) == -1) {
			ignore(f, &f->ev.start_mark, "%s: expected a whole "
			    "number; ignored", f->key);
			return 0;
		}
		if (keep)
			m->part = v;
		return 0;
	case F_DRAFT:
	case F_FEATURED:
		if ((rv = read_bool(f, &b, depth)) != 0)
			return rv < 0 ? -1 : 0;
		if (k->field == F_DRAFT)
			m->draft = m->draft || b;
		else if (keep)
			m->featured = b;
		return 0;
	case F_PUBLISHED:
		/* published: false (Jekyll), or published: 2024-01-02 */
		if ((rv = want_scalar(f, "true, false or a date", depth)) !=
		    0)
			return rv < 0 ? -1 : 0;
		if (yml_parse_bool(sval(f), slen(f), &b) == 0) {
			m->draft = m->draft || !b;
			return 0;
		}
		if (date_parse(sval(f), slen(f), &d, &errstr) == -1) {
			ignore(f, &f->ev.start_mark, "%s: expected true, "
			    "false or a date; ignored", f->key);
			return 0;
		}
		if (k->rank <= f->rank[F_DATE]) {
			f->rank[F_DATE] = k->rank;
			m->date = d;
			m->has_date = true;
		}
		return 0;
	case F_NFIELDS:
		break;
	}
	return skip_node(f, depth);
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

const struct fm_key *
frontmatter_key(const char *s, size_t len)
{
	return find_key(s, len);
}

/*
 * The current event, a root key: a warning when it was given before
 * (keys match ignoring case, as find_key() does).  YAML says a key is
 * unique in its mapping; libyaml does not check, and the value that
 * wins depends on the field (README.md, "Content format"), so the
 * writer is told.  The first FM_MAX_SEEN keys are checked.  (TOML's
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
			note(f, &f->ev.start_mark, "duplicate key \"%s\" "
			    "(first on line %u)", f->seen[i],
			    f->seenline[i]);
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
	    &close, m, err)) != 1)
		return rv;
	memset(&f, 0, sizeof(f));
	f.in = src + off;
	f.inlen = close - off;
	f.line0 = 1;
	f.m = m;
	f.err = err;
	for (pos = 0; pos < F_NFIELDS; pos++)
		f.rank[pos] = INT_MAX;
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
	return src[off] == '+' ? FM_SYNTAX_TOML : FM_SYNTAX_YAML;
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
	free(m->warns);
	memset(m, 0, sizeof(*m));
}

void
meta_warn(struct meta *m, unsigned line, unsigned col, const char *fmt, ...)
{
	struct fm_error	*w;
	va_list		 ap;

	if (m->nwarns == FM_WARN_MAX)
		return;
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

	if ((flags & FM_TAGS) && memchr(s, '<', len) != NULL) {
		strip_tags(&tags, s, len);
		s = tags.data;
		len = tags.len;
	}
	if ((flags & FM_ENTITIES) && memchr(s, '&', len) != NULL) {
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
