/*
 * config_types.c -- "mime_types", "default_type" and "path_meta"
 * (config_types.h), and the one lookup of a file's type.
 *
 * mime_types   = "{" *( ext ":" type [ ";" charset ] ) "}" / null
 * ext          = [ "." ] 1*16( %x21-7E but "/" and "." )
 * charset      = *SP "charset=" name *SP   (a text/ type's; name:
 *                mime_charset_ok(), molly-brown's MimeOverrides)
 * default_type = type / null                 (type: mime_type_ok())
 * path_meta    = "[" *( "{" path [ lang ] [ charset ] "}" ) "]" / null
 * path         = "/" *( segment "/" ): "/fr/" and "/fr" are the same
 *
 * The extensions are kept sorted for bsearch(), the prefixes in the
 * file's order (a lookup reads them all: there are few).  The keys are
 * read with the configuration's engine (core/config_engine.h); a
 * path_meta entry is a table of it.
 */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "core/buf.h"
#include "core/config_engine.h"
#include "core/config_types.h"
#include "core/pathrule.h"
#include "core/mime.h"
#include "core/url.h"
#include "core/util.h"
#include "core/yaml.h"

_Static_assert(offsetof(struct config_path_meta, rule) == 0,
    "pathrule_index() reads the rule at the start of each entry");

#define TYPES_TEXT_MAX	255		/* bytes of a type or a path */

_Static_assert(MIME_EXT_MAX == 16, "the messages say 16 bytes");

static int
mime_cmp(const void *a, const void *b)
{
	return strcmp(((const struct config_mime *)a)->ext,
	    ((const struct config_mime *)b)->ext);
}

/*
 * type as "type/subtype" into *bare and its charset parameter, if any,
 * into *charset (both owned by the caller, *charset NULL for none):
 * 0, or -1 when it is no such thing or names a parameter but a charset.
 */
static int
split_type(const char *type, char **bare, char **charset)
{
	const char	*semi, *p;
	size_t		 n;

	*bare = *charset = NULL;
	if ((semi = strchr(type, ';')) == NULL) {
		if (!mime_type_ok(type))
			return -1;
		*bare = xstrdup(type);
		return 0;
	}
	for (n = (size_t)(semi - type); n > 0 && type[n - 1] == ' '; n--)
		;
	*bare = xstrndup(type, n);
	for (p = semi + 1; *p == ' '; p++)
		;
	if (strncasecmp(p, "charset=", 8) == 0) {
		for (n = strlen(p + 8); n > 0 && p[8 + n - 1] == ' '; n--)
			;
		*charset = xstrndup(p + 8, n);
	}
	if (mime_type_ok(*bare) && mime_is_text(*bare) && *charset != NULL &&
	    mime_charset_ok(*charset))
		return 0;
	free(*bare);
	free(*charset);
	*bare = *charset = NULL;
	return -1;
}

/* One "ext: type" of mime_types, into the struct config_types arg. */
static int
mime_pair(struct cfe *l, const yaml_event_t *key, const char *ext,
    yaml_event_t *val, void *arg)
{
	struct config_types	*c = arg;
	const char		*type;
	char			 low[MIME_EXT_MAX + 1], *dotted;
	char			*bare = NULL, *charset = NULL;
	size_t			 i;
	int			 rv = 0;

	ext += ext[0] == '.';
	for (i = 0; ext[i] != '\0'; i++)	/* not even in the message */
		if ((unsigned char)ext[i] <= 0x20 || ext[i] == 0x7f)
			return cfe_fail(l, key->start_mark, "an extension has "
			    "no blanks or control characters");
	dotted = xasprintf("x.%s", ext);
	if (strlen(ext) == 0 || strcspn(ext, "./") != strlen(ext) ||
	    mime_ext(dotted, low) == NULL)
		rv = cfe_bad(l, key, "an extension (1 to 16 bytes, no '.' or "
		    "'/')", ext);
	free(dotted);
	for (i = 0; rv == 0 && i < c->nmime; i++)
		if (strcmp(c->mime[i].ext, low) == 0)
			rv = cfe_twice(l, key->start_mark, ext);
	if (rv == 0 && c->nmime >= CONFIG_MAX_TYPES)
		rv = cfe_fail(l, key->start_mark, "more than %d entries",
		    CONFIG_MAX_TYPES);
	if (rv == -1)
		return -1;
	cfe_push(l, ext);
	rv = cfe_text(l, val, 1, TYPES_TEXT_MAX, &type);
	if (rv == 0 && split_type(type, &bare, &charset) == -1)
		rv = cfe_bad(l, val, "a type such as text/plain, or a text "
		    "type with its charset (text/plain; charset=iso-8859-1); "
		    "lang goes in path_meta", type);
	cfe_pop(l);
	if (rv == -1)
		return -1;
	c->mime = xreallocarray(c->mime, c->nmime + 1, sizeof(*c->mime));
	c->mime[c->nmime].ext = xstrdup(low);
	c->mime[c->nmime].type = bare;
	c->mime[c->nmime++].charset = charset;
	return 0;
}

/* path: a prefix, "/fr/" and "/fr" the same; stored "/fr", "" for "/". */
static int
parse_meta_path(struct cfe *l, const struct cfe_field *f, yaml_event_t *ev)
{
	const char	*s;
	char		**to = cfe_at(l, f);

	if (cfe_text(l, ev, f->min, f->max, &s) == -1)
		return -1;
	if (s[0] != '/' || url_has_dot_segment(s) ||
	    strcspn(s, "?#") != strlen(s))
		return cfe_bad(l, ev, "a path such as /fr/ (no '.' or '..' "
		    "segment)", s);
	free(*to);
	*to = xstrndup(s, strlen(s) - (s[strlen(s) - 1] == '/'));
	return 0;
}

/* "/fr/", and "/" for every path: as written. */
static void
print_meta_path(struct cfe_out *o, const struct cfe_field *f,
    const void *base)
{
	char	*s = xasprintf("%s/", *(char *const *)((const char *)base +
		    f->off));

	cfe_out_keystr(o, f->key, s);
	free(s);
}

static const struct cfe_kind meta_path_kind = {
	parse_meta_path, print_meta_path
};

/* charset: mime_charset_ok(). */
static int
parse_charset(struct cfe *l, const struct cfe_field *f, yaml_event_t *ev)
{
	const char	*s;

	if (cfe_text(l, ev, f->min, f->max, &s) == -1)
		return -1;
	if (!mime_charset_ok(s))
		return cfe_bad(l, ev, "a charset name such as iso-8859-1", s);
	cfe_set_str(l, f, s);
	return 0;
}

static const struct cfe_kind charset_kind = { parse_charset, cfe_print_str };

#define MOFF(m)		offsetof(struct config_path_meta, m)
#define MAT(m)		MOFF(m), sizeof(((struct config_path_meta *)0)->m)

enum { META_PATH, META_LANG, META_CHARSET, META_NFIELDS };

static const struct cfe_field meta_fields[META_NFIELDS] = {
	[META_PATH] = { "path", &meta_path_kind, MAT(path), 1, TYPES_TEXT_MAX,
	    0, NULL },
	[META_LANG] = { "lang", &cfe_lang_kind, MAT(lang), 1, MIME_LANG_MAX,
	    0, NULL },
	[META_CHARSET] = { "charset", &charset_kind, MAT(charset), 1,
	    TYPES_TEXT_MAX, 0, NULL },
};

/* One "{path, lang, charset}" of path_meta, its mapping started at ev. */
static int
meta_entry(struct cfe *l, struct config_types *c, const yaml_event_t *ev)
{
	struct config_path_meta	*m;
	yaml_mark_t		 marks[META_NFIELDS];
	unsigned char		 seen[META_NFIELDS] = { 0 };
	size_t			 i;

	if (ev->type != YAML_MAPPING_START_EVENT)
		return cfe_fail(l, ev->start_mark, "expected a mapping with "
		    "path and lang or charset, got %s", cfe_what(ev));
	if (c->nmeta >= CONFIG_MAX_PATH_META)
		return cfe_fail(l, ev->start_mark, "more than %d entries",
		    CONFIG_MAX_PATH_META);
	c->meta = xreallocarray(c->meta, c->nmeta + 1, sizeof(*c->meta));
	m = &c->meta[c->nmeta++];
	memset(m, 0, sizeof(*m));
	memset(marks, 0, sizeof(marks));
	if (cfe_map(l, meta_fields, META_NFIELDS, m, 0, NULL, marks,
	    seen) == -1)
		return -1;
	if (m->path == NULL || (m->lang == NULL && m->charset == NULL))
		return cfe_fail(l, ev->start_mark, "an entry needs a path and "
		    "lang or charset");
	for (i = 0; i + 1 < c->nmeta; i++)
		if (strcmp(c->meta[i].path, m->path) == 0)
			return cfe_twice(l, marks[META_PATH],
			    m->path[0] != '\0' ? m->path : "/");
	return 0;
}

static void
free_mimes(struct config_types *c)
{
	size_t	 i;

	for (i = 0; (c->own & CONFIG_TYPES_MIME) && i < c->nmime; i++) {
		free(c->mime[i].ext);
		free(c->mime[i].type);
		free(c->mime[i].charset);
	}
	if (c->own & CONFIG_TYPES_MIME)
		free(c->mime);
	c->mime = NULL;
	c->nmime = 0;
}

static void
free_metas(struct config_types *c)
{
	size_t	 i;

	for (i = 0; (c->own & CONFIG_TYPES_META) && i < c->nmeta; i++) {
		free(c->meta[i].path);
		free(c->meta[i].lang);
		free(c->meta[i].charset);
	}
	if (c->own & CONFIG_TYPES_META)
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

/* default_type = type / null (type: mime_type_ok()) */
static int
default_type(struct cfe *l, struct config_types *c, const yaml_event_t *ev)
{
	const char	*s;

	if (c->own & CONFIG_TYPES_DEFAULT)
		free(c->default_type);
	c->default_type = NULL;
	c->own |= CONFIG_TYPES_DEFAULT;
	if (ev->type == YAML_SCALAR_EVENT && yml_is_null(ev))
		return 0;
	if (cfe_scalar(l, ev, "a type such as text/plain", &s) == -1)
		return -1;
	if (!mime_type_ok(s))
		return cfe_bad(l, ev, "a type such as text/plain", s);
	c->default_type = xstrdup(s);
	return 0;
}

int
config_types_parse(struct cfe *l, const struct cfe_field *f,
    yaml_event_t *ev, struct config_types **t)
{
	struct config_types	*c;
	yaml_event_t		 item;
	int			 rv, map = strcmp(f->key, "mime_types") == 0;

	if (*t == NULL)
		*t = xcalloc(1, sizeof(**t));
	c = *t;
	if (strcmp(f->key, "default_type") == 0)
		return default_type(l, c, ev);
	if (map) {			/* the key's second time: replaced */
		free_mimes(c);
		c->own |= CONFIG_TYPES_MIME;
	} else {
		free_metas(c);
		c->own |= CONFIG_TYPES_META;
	}
	if (ev->type == YAML_SCALAR_EVENT && yml_is_null(ev))
		return 0;
	if (map) {
		if (ev->type != YAML_MAPPING_START_EVENT)
			return cfe_fail(l, ev->start_mark, "expected a mapping "
			    "of extensions to types, got %s", cfe_what(ev));
		if (cfe_pairs(l, mime_pair, c) == -1)
			return -1;
		if (c->nmime > 1)	/* none: no array for qsort() */
			qsort(c->mime, c->nmime, sizeof(*c->mime), mime_cmp);
		return 0;
	}
	if (ev->type != YAML_SEQUENCE_START_EVENT)
		return cfe_fail(l, ev->start_mark, "expected a list of "
		    "entries, got %s", cfe_what(ev));
	while ((rv = cfe_next_in(l, &item)) == 1) {
		rv = meta_entry(l, c, &item);
		yaml_event_delete(&item);
		if (rv == -1)
			return -1;
	}
	if (rv == 0)
		meta_index(c);
	return rv;
}

void
config_types_inherit(struct config_types *t, const struct config_types *from)
{
	if (from == NULL)
		return;
	if (!(t->own & CONFIG_TYPES_MIME)) {
		t->mime = from->mime;
		t->nmime = from->nmime;
	}
	if (!(t->own & CONFIG_TYPES_DEFAULT))
		t->default_type = from->default_type;
	if (!(t->own & CONFIG_TYPES_META)) {
		t->meta = from->meta;
		t->nmeta = from->nmeta;
	}
}

void
config_types_print(struct cfe_out *o, const char *key,
    const struct config_types *t)
{
	char	*type;
	size_t	 i, k;

	if (strcmp(key, "default_type") == 0) {
		cfe_out_keystr(o, key, t != NULL ? t->default_type : NULL);
		return;
	}
	cfe_out_key(o, key);
	if (strcmp(key, "mime_types") == 0) {
		buf_addstr(o->b, t == NULL || t->nmime == 0 ? " {}\n" : "\n");
		o->indent += 2;
		for (i = 0; t != NULL && i < t->nmime; i++) {
			type = t->mime[i].charset == NULL ?
			    xstrdup(t->mime[i].type) : xasprintf("%s; "
			    "charset=%s", t->mime[i].type, t->mime[i].charset);
			cfe_out_pair(o, t->mime[i].ext, type);
			free(type);
		}
		o->indent -= 2;
		return;
	}
	buf_addstr(o->b, t == NULL || t->nmeta == 0 ? " []\n" : "\n");
	o->indent += 4;
	for (i = 0; t != NULL && i < t->nmeta; i++) {
		cfe_out_item(o);
		for (k = 0; k < META_NFIELDS; k++)
			if (*(char *const *)((const char *)&t->meta[i] +
			    meta_fields[k].off) != NULL)
				meta_fields[k].kind->print(o, &meta_fields[k],
				    &t->meta[i]);
	}
	o->indent -= 4;
}

void
config_types_free(struct config_types *c)
{
	if (c == NULL)
		return;
	free_mimes(c);
	free_metas(c);
	if (c->own & CONFIG_TYPES_DEFAULT)
		free(c->default_type);
	free(c);
}

const char *
config_file_type(const struct config_types *c, const char *name,
    char *gopher)
{
	return config_file_type_charset(c, name, gopher, NULL);
}

const char *
config_file_type_charset(const struct config_types *c, const char *name,
    char *gopher, const char **charset)
{
	struct config_mime	 key, *m = NULL;
	char			 ext[MIME_EXT_MAX + 1];
	const char		*type;

	if (charset != NULL)
		*charset = NULL;
	if (c != NULL && c->nmime > 0 &&
	    (key.ext = (char *)mime_ext(name, ext)) != NULL)
		m = bsearch(&key, c->mime, c->nmime,
		    sizeof(*c->mime), mime_cmp);
	if (m != NULL && charset != NULL)
		*charset = m->charset;
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
	(void)arg;
	return ((const struct config_path_meta *)entry)->lang != NULL;
}

static int
sets_charset(const void *entry, void *arg)
{
	(void)arg;
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
