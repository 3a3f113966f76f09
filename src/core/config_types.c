/*
 * config_types.c -- "mime_types", "default_type" and "path_meta"
 * (config_types.h), and the one lookup of a file's type.
 *
 * mime_types   = "{" *( ext ":" type ) "}" / null
 * ext          = [ "." ] 1*16( %x21-7E but "/" and "." )
 * default_type = type / null                 (type: mime_type_ok())
 * path_meta    = "[" *( "{" path [ lang ] [ charset ] "}" ) "]" / null
 * path         = "/" *( segment "/" ): "/fr/" and "/fr" are the same;
 *                a path rule (core/pathrule.h), so a segment may hold '*'
 *
 * The extensions are kept sorted for bsearch(), the paths in the file's
 * order and indexed for pathrule_find().
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/config_types.h"
#include "core/mime.h"
#include "core/pathrule.h"
#include "core/url.h"
#include "core/util.h"
#include "core/yaml.h"

_Static_assert(offsetof(struct config_path_meta, rule) == 0,
    "pathrule_index() reads the rule at the start of each entry");

#define TYPES_TEXT_MAX	255		/* bytes of a type or a path */

struct in {
	const struct config_types_in *in;
	struct yml_sink	 sink;		/* key, mark, message: the caller's */
};

/* yml_fail() into p's sink: "key: message" at a mark; -1. */
#define FAIL(p, ...)	yml_fail(&(p)->sink, __VA_ARGS__)

/*
 * The next event, which must be a scalar (what is the key's own name,
 * for messages) of 1..TYPES_TEXT_MAX bytes without a NUL, or the end
 * event "end" (then *s is NULL).  Anchors, aliases and tags are not
 * scalars here.  The caller deletes *ev on 0.
 */
static int
scalar(struct in *p, yaml_event_type_t end, const char *what,
    yaml_event_t *ev, const char **s)
{
	if (!yaml_parser_parse(p->in->parser, ev)) {
		yml_sink_problem(&p->sink, p->in->parser, p->in->data,
		    p->in->len);
		return -1;
	}
	*s = NULL;
	if (ev->type == end)
		return 0;
	if (ev->type != YAML_SCALAR_EVENT || ev->data.scalar.anchor != NULL ||
	    ev->data.scalar.tag != NULL || yml_is_null(ev) ||
	    ev->data.scalar.length == 0 ||
	    ev->data.scalar.length > TYPES_TEXT_MAX ||
	    strlen((char *)ev->data.scalar.value) != ev->data.scalar.length) {
		FAIL(p, ev->start_mark, "%s: expected a string of 1 to %d "
		    "bytes", what, TYPES_TEXT_MAX);
		yaml_event_delete(ev);
		return -1;
	}
	*s = (const char *)ev->data.scalar.value;
	return 0;
}

static int
mime_cmp(const void *a, const void *b)
{
	return strcmp(((const struct config_mime *)a)->ext,
	    ((const struct config_mime *)b)->ext);
}

/* One "ext: type" of mime_types; k is the key's event. */
static int
mime_entry(struct in *p, struct config_types *c, const yaml_event_t *k,
    const char *ext)
{
	yaml_event_t	 v;
	const char	*type;
	char		 low[MIME_EXT_MAX + 1], *dotted;
	size_t		 i;
	int		 rv = 0;

	ext += ext[0] == '.';
	for (i = 0; ext[i] != '\0'; i++)	/* not even in the message */
		if ((unsigned char)ext[i] <= 0x20 || ext[i] == 0x7f)
			return FAIL(p, k->start_mark, "an extension has no "
			    "blanks or control characters");
	dotted = xasprintf("x.%s", ext);
	if (strlen(ext) == 0 || strcspn(ext, "./") != strlen(ext) ||
	    mime_ext(dotted, low) == NULL)
		rv = FAIL(p, k->start_mark, "'%.*s' is not an extension (1 to "
		    "%d bytes, no '.' or '/')", MIME_EXT_MAX + 8, ext,
		    MIME_EXT_MAX);
	free(dotted);
	for (i = 0; rv == 0 && i < c->nmime; i++)
		if (strcmp(c->mime[i].ext, low) == 0)
			rv = FAIL(p, k->start_mark, "'%s' is given twice",
			    ext);
	if (rv == 0 && c->nmime >= CONFIG_MAX_TYPES)
		rv = FAIL(p, k->start_mark, "more than %d entries",
		    CONFIG_MAX_TYPES);
	if (rv == -1 || scalar(p, YAML_NO_EVENT, ext, &v, &type) == -1)
		return -1;
	if (!mime_type_ok(type))
		rv = FAIL(p, v.start_mark, "%s: '%s' is not a type such as "
		    "text/plain (parameters go in path_meta)", ext, type);
	else {
		c->mime = xreallocarray(c->mime,
		    c->nmime + 1, sizeof(*c->mime));
		c->mime[c->nmime].ext = xstrdup(low);
		c->mime[c->nmime++].type = xstrdup(type);
	}
	yaml_event_delete(&v);
	return rv;
}

/* One key of a path_meta entry: path, lang or charset. */
static int
meta_key(struct in *p, struct config_path_meta *m, const yaml_event_t *k,
    const char *key)
{
	yaml_event_t	 v;
	const char	*s;
	char		**to;
	int		 rv = 0;

	if (strcmp(key, "path") == 0)
		to = &m->path;
	else if (strcmp(key, "lang") == 0)
		to = &m->lang;
	else if (strcmp(key, "charset") == 0)
		to = &m->charset;
	else
		return FAIL(p, k->start_mark, "unknown key '%s' (path, lang "
		    "or charset)", key);
	if (*to != NULL)
		return FAIL(p, k->start_mark, "%s is given twice", key);
	if (scalar(p, YAML_NO_EVENT, key, &v, &s) == -1)
		return -1;
	if (to == &m->path && (s[0] != '/' || url_has_dot_segment(s) ||
	    strcspn(s, "?#") != strlen(s)))
		rv = FAIL(p, v.start_mark, "path: '%s' is not a path such as "
		    "/fr/ (no '.' or '..' segment)", s);
	else if (to == &m->lang && !mime_lang_ok(s))
		rv = FAIL(p, v.start_mark, "lang: '%s' is not a language tag "
		    "such as en or pt-BR", s);
	else if (to == &m->charset && !mime_charset_ok(s))
		rv = FAIL(p, v.start_mark, "charset: '%s' is not a charset "
		    "name such as iso-8859-1", s);
	else if (to == &m->path)	/* "/fr/" -> "/fr", "/" -> "" */
		*to = xstrndup(s, strlen(s) - (s[strlen(s) - 1] == '/'));
	else
		*to = xstrdup(s);
	yaml_event_delete(&v);
	return rv;
}

/* One "{path, lang, charset}" of path_meta, its mapping started at ev. */
static int
meta_entry(struct in *p, struct config_types *c, const yaml_event_t *ev)
{
	struct config_path_meta	*m;
	yaml_event_t		 k;
	const char		*key;
	size_t			 i;
	int			 rv;

	if (ev->type != YAML_MAPPING_START_EVENT)
		return FAIL(p, ev->start_mark, "expected a mapping with path "
		    "and lang or charset");
	if (c->nmeta >= CONFIG_MAX_PATH_META)
		return FAIL(p, ev->start_mark, "more than %d entries",
		    CONFIG_MAX_PATH_META);
	c->meta = xreallocarray(c->meta, c->nmeta + 1,
	    sizeof(*c->meta));
	m = &c->meta[c->nmeta++];
	memset(m, 0, sizeof(*m));
	for (;;) {
		if (scalar(p, YAML_MAPPING_END_EVENT, "a key", &k, &key) == -1)
			return -1;
		if (key == NULL)
			break;
		rv = meta_key(p, m, &k, key);
		yaml_event_delete(&k);
		if (rv == -1)
			return -1;
	}
	rv = 0;
	if (m->path == NULL || (m->lang == NULL && m->charset == NULL))
		rv = FAIL(p, ev->start_mark, "an entry needs a path and lang "
		    "or charset");
	for (i = 0; rv == 0 && i + 1 < c->nmeta; i++)
		if (strcmp(c->meta[i].path, m->path) == 0)
			rv = FAIL(p, ev->start_mark, "path %s/ is given twice",
			    m->path);
	yaml_event_delete(&k);
	return rv;
}

static void
free_mimes(struct config_types *c)
{
	size_t	 i;

	for (i = 0; i < c->nmime; i++) {
		free(c->mime[i].ext);
		free(c->mime[i].type);
	}
	free(c->mime);
	c->mime = NULL;
	c->nmime = 0;
}

static void
free_metas(struct config_types *c)
{
	size_t	 i;

	for (i = 0; i < c->nmeta; i++) {
		free(c->meta[i].path);
		free(c->meta[i].lang);
		free(c->meta[i].charset);
	}
	free(c->meta);
	c->meta = NULL;
	c->nmeta = 0;
}

/* Compile every path_meta path and index them for config_path_meta(). */
static void
meta_index(struct config_types *c)
{
	size_t	 i;

	for (i = 0; i < c->nmeta; i++)
		pathrule_compile(&c->meta[i].rule, c->meta[i].path, 0, NULL);
	pathrule_index(c->meta, c->nmeta, sizeof(*c->meta));
}

int
config_types_parse(const struct config_types_in *in, const char *key,
    const yaml_event_t *ev, struct config_types **t, yaml_mark_t *mark,
    char *msg, size_t msglen)
{
	struct in	 p = { in, { key, mark, msg, msglen } };
	struct config_types *c;
	yaml_event_t	 k;
	const char	*s;
	int		 rv, map = strcmp(key, "mime_types") == 0;
	yaml_event_type_t start = map ? YAML_MAPPING_START_EVENT :
			    YAML_SEQUENCE_START_EVENT;

	if (*t == NULL)
		*t = xcalloc(1, sizeof(**t));
	c = *t;
	if (strcmp(key, "default_type") == 0) {
		free(c->default_type);
		c->default_type = NULL;
		if (ev->type == YAML_SCALAR_EVENT && yml_is_null(ev))
			return 0;
		if (ev->type != YAML_SCALAR_EVENT ||
		    !mime_type_ok((const char *)ev->data.scalar.value))
			return FAIL(&p, ev->start_mark, "expected a type such "
			    "as text/plain");
		c->default_type = xstrdup((const char *)ev->data.scalar.value);
		return 0;
	}
	if (map)			/* the key's second time: replaced */
		free_mimes(c);
	else
		free_metas(c);
	if (ev->type == YAML_SCALAR_EVENT && yml_is_null(ev))
		return 0;
	if (ev->type != start)
		return FAIL(&p, ev->start_mark, map ? "expected a mapping of "
		    "extensions to types" : "expected a list of entries");
	for (;;) {
		if (map) {
			if (scalar(&p, YAML_MAPPING_END_EVENT, "an extension",
			    &k, &s) == -1)
				return -1;
			rv = s != NULL ? mime_entry(&p, c, &k, s) : 0;
		} else {
			if (!yaml_parser_parse(in->parser, &k)) {
				yml_problem(in->parser, in->data, in->len,
				    mark, msg, msglen);
				return -1;
			}
			s = k.type == YAML_SEQUENCE_END_EVENT ? NULL : "";
			rv = s != NULL ? meta_entry(&p, c, &k) : 0;
		}
		yaml_event_delete(&k);
		if (rv == -1)
			return -1;
		if (s == NULL)
			break;
	}
	if (c->nmime > 1)	/* none: no array, and qsort() wants one */
		qsort(c->mime, c->nmime, sizeof(*c->mime), mime_cmp);
	meta_index(c);
	return 0;
}

void
config_types_free(struct config_types *c)
{
	if (c == NULL)
		return;
	free_mimes(c);
	free_metas(c);
	free(c->default_type);
	free(c);
}

const char *
config_file_type(const struct config_types *c, const char *name,
    char *gopher)
{
	struct config_mime	 key, *m = NULL;
	char			 ext[MIME_EXT_MAX + 1];
	const char		*type;

	if (c != NULL && c->nmime > 0 &&
	    (key.ext = (char *)mime_ext(name, ext)) != NULL)
		m = bsearch(&key, c->mime, c->nmime,
		    sizeof(*c->mime), mime_cmp);
	if (m != NULL)
		type = m->type;
	else if (c == NULL || c->default_type == NULL ||
	    strcmp(type = mime_type(name), MIME_DEFAULT) != 0) {
		if (gopher != NULL)
			*gopher = mime_gopher_type(name);
		return mime_type(name);
	} else
		type = c->default_type;
	if (gopher != NULL)
		*gopher = mime_gopher_of(type);
	return type;
}

static int
sets_lang(const void *entry, void *arg)
{
	return ((const struct config_path_meta *)entry)->lang != NULL;
}

static int
sets_charset(const void *entry, void *arg)
{
	return ((const struct config_path_meta *)entry)->charset != NULL;
}

void
config_path_meta(const struct config_types *c, const char *path,
    const char **lang, const char **charset)
{
	const struct config_path_meta	*m;

	*lang = *charset = NULL;
	if (c == NULL)
		return;
	if ((m = pathrule_find(c->meta, c->nmeta, sizeof(*c->meta), NULL,
	    path, sets_lang, NULL, NULL)) != NULL)
		*lang = m->lang;
	if ((m = pathrule_find(c->meta, c->nmeta, sizeof(*c->meta), NULL,
	    path, sets_charset, NULL, NULL)) != NULL)
		*charset = m->charset;
}
