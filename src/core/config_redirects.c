/*
 * config_redirects.c -- the "redirects" key (config_redirects.h).
 *
 * redirects = "{" *( entry ) "}" (or a block mapping) / null
 * entry     = path ":" target (permanent) / ( "permanent" / "temporary" )
 *             ":" "{" *( path ":" target ) "}"
 *
 * Read through the configuration's engine (core/config_engine.h), each
 * rule compiled as a path rule (core/redirect.h, core/pathrule.h) as it
 * is read; a rule given twice and a chain that loops are refused where
 * they stand.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <yaml.h>

#include "core/buf.h"
#include "core/config.h"
#include "core/config_engine.h"
#include "core/config_int.h"
#include "core/config_redirects.h"
#include "core/gemini_limits.h"
#include "core/redirect.h"
#include "core/url.h"
#include "core/util.h"
#include "core/yaml.h"

#define CONFIG_MAX_URL	GEMINI_META_MAX	/* a redirect target is a META */
#define STR_(x)		#x
#define STR(x)		STR_(x)		/* a number's digits, in a message */

int
config_clean_text(const char *s, int url)
{
	for (; *s != '\0'; s++)
		if ((unsigned char)*s < 0x20 || *s == 0x7f ||
		    (url && *s == ' '))
			return 0;
	return 1;
}

/* scheme ":" and at least one character after it */
static int
absolute_url(const char *s)
{
	return url_has_scheme(s) && strchr(s, ':')[1] != '\0';
}

int
config_redirect_cmp(const void *a, const void *b)
{
	const struct config_redirect	*ra = a, *rb = b;
	int				 c;

	if ((c = strcmp(ra->from, rb->from)) != 0)
		return c;
	return ra->prefix - rb->prefix;
}

/* Each pair is one block (from, then to): one free() an entry. */
void
config_redirects_free(struct config_redirect *v, size_t n)
{
	while (n > 0)
		free(v[--n].from);
	free(v);
}

/* What the pairs of "redirects" are read into. */
struct redirects_in {
	const struct cfe_field	*f;
	int			 status;	/* 31, or 30 in "temporary" */
	int			 nested;	/* inside a group */
	struct config_redirect	*v;
	size_t			 n;
	yaml_mark_t		*marks;		/* owned: where each from is */
};

/*
 * One "from: to" pair; key is the from scalar, ev the to scalar.
 * from = "/" path ["*"], no dot segments, a '*' inside a segment a
 * pattern's (core/pathrule.h); to = "/" path / absolute URL, where '*'
 * or "$1".."$9" and "%p" are expanded (core/redirect.h).  status is 31
 * (permanent) or 30 (temporary).
 */
static int
redirect_add(struct cfe *l, struct redirects_in *in, const yaml_event_t *key,
    const char *from, const yaml_event_t *ev)
{
	char			 tmp[CFE_SHOW_MAX + 4];
	struct config_redirect	*r;
	const char		*to;
	size_t			 lfrom, lto;
	int			 prefix;

	if (from[0] != '/' || strlen(from) > CONFIG_MAX_URL ||
	    !config_clean_text(from, 0) || url_has_dot_segment(from))
		return cfe_bad(l, key, "a path such as /old/name (one line, at "
		    "most " STR(CONFIG_MAX_URL) " bytes, no . or .. segments)",
		    from);
	/* Any other '*' is part of a segment: "/blog/" "*.gmi". */
	lfrom = strlen(from);
	prefix = from[lfrom - 1] == '*';
	lfrom -= (size_t)prefix;
	if (cfe_scalar(l, ev, "a path or a URL", &to) == -1)
		return -1;
	if (yml_is_null(ev) || *to == '\0')
		return cfe_fail(l, ev->start_mark, "%s: a target is required",
		    cfe_show(from, tmp));
	if (strlen(to) > CONFIG_MAX_URL || !config_clean_text(to, 1) ||
	    (to[0] != '/' && !absolute_url(to)))
		return cfe_bad(l, ev, "a path (/new/name) or an absolute URL "
		    "(gemini://host/name), at most " STR(CONFIG_MAX_URL)
		    " bytes without spaces", to);
	if (strcmp(from, to) == 0)
		return cfe_fail(l, ev->start_mark, "'%s' redirects to itself",
		    cfe_show(from, tmp));
	if ((long long)in->n >= in->f->max)
		return cfe_fail(l, key->start_mark, "more than %lld entries",
		    in->f->max);
	in->v = xreallocarray(in->v, in->n + 1, sizeof(*in->v));
	in->marks = xreallocarray(in->marks, in->n + 1, sizeof(*in->marks));
	in->marks[in->n] = key->start_mark;
	r = &in->v[in->n++];
	lto = strlen(to);
	/* One block: a pair is made, sorted and freed together. */
	r->from = xmalloc(lfrom + 1 + lto + 1);
	memcpy(r->from, from, lfrom);
	r->from[lfrom] = '\0';
	r->to = r->from + lfrom + 1;
	memcpy(r->to, to, lto + 1);
	r->status = in->status;
	r->prefix = prefix;
	/*
	 * Compiled now, as redirect_index() will again: its runs of '/'
	 * made one, so that "//old" and "/old" sort, print and count as
	 * the one rule they are.
	 */
	pathrule_compile(&r->rule, r->from, PATHRULE_EXACT |
	    (prefix ? PATHRULE_REST : 0), NULL);
	return 0;
}

/*
 * A pair of "redirects".  A "permanent:" or "temporary:" key (no path
 * starts without '/', so neither can be one) opens a group of its own,
 * at the top level only.
 */
static int
redirect_pair(struct cfe *l, const yaml_event_t *key, const char *k,
    yaml_event_t *val, void *arg)
{
	struct redirects_in	*in = arg;
	int			 group, rv;

	group = strcmp(k, "permanent") == 0 ? 31 :
	    strcmp(k, "temporary") == 0 ? 30 : 0;
	if (group == 0 || in->nested)
		return redirect_add(l, in, key, k, val);
	if (val->type == YAML_SCALAR_EVENT && yml_is_null(val))
		return 0;
	cfe_push(l, k);
	if (val->type != YAML_MAPPING_START_EVENT)
		rv = cfe_fail(l, val->start_mark, "expected a mapping of old "
		    "paths to new ones, got %s", cfe_what(val));
	else {
		in->status = group;
		in->nested = 1;
		rv = cfe_pairs(l, redirect_pair, in);
		in->status = 31;
		in->nested = 0;
	}
	cfe_pop(l);
	return rv;
}

/* A rule and where it was, sorted by rule, then by place. */
struct placed {
	const struct config_redirect	*r;
	yaml_mark_t			 m;
};

static int
placed_cmp(const void *a, const void *b)
{
	const struct placed	*pa = a, *pb = b;
	int			 c;

	if ((c = config_redirect_cmp(pa->r, pb->r)) != 0)
		return c;
	return (pa->m.index > pb->m.index) - (pa->m.index < pb->m.index);
}

/*
 * A rule given twice (in any group) is refused at its later place;
 * sorted, not compared pair by pair: 10,000 rules are 50 million
 * pairs.
 */
static int
redirects_twice(struct cfe *l, const struct redirects_in *in)
{
	struct placed	*p;
	size_t		 i;
	int		 rv = 0;
	char		*from;

	p = xreallocarray(NULL, in->n, sizeof(*p));
	for (i = 0; i < in->n; i++) {
		p[i].r = &in->v[i];
		p[i].m = in->marks[i];
	}
	qsort(p, in->n, sizeof(*p), placed_cmp);
	for (i = 1; i < in->n && rv == 0; i++)
		if (config_redirect_cmp(p[i - 1].r, p[i].r) == 0) {
			from = xasprintf("%s%s", p[i].r->from,
			    p[i].r->prefix ? "*" : "");
			rv = cfe_twice(l, p[i].m, from);
			free(from);
		}
	free(p);
	return rv;
}

/*
 * redirects = "{" *( entry ) "}" (or a block mapping), or null for none;
 * entry = path ":" target (permanent) / ( "permanent" / "temporary" ) ":"
 * "{" *( path ":" target ) "}".  Stored sorted by path for
 * config_redirect().
 */
int
config_redirects_parse(struct cfe *l, const struct cfe_field *f, yaml_event_t *ev)
{
	struct config		*c = l->base;
	struct redirects_in	 in = { f, 31, 0, NULL, 0, NULL };
	char			 loop[256];

	if (ev->type == YAML_SCALAR_EVENT && yml_is_null(ev))
		goto done;
	if (ev->type != YAML_MAPPING_START_EVENT)
		return cfe_fail(l, ev->start_mark, "expected a mapping of old "
		    "paths to new ones, got %s", cfe_what(ev));
	if (cfe_pairs(l, redirect_pair, &in) == -1 ||
	    redirects_twice(l, &in) == -1)
		goto fail;
	if (in.n > 1)
		qsort(in.v, in.n, sizeof(*in.v), config_redirect_cmp);
	redirect_index(in.v, in.n);
	/* A chain that comes back, or goes on and on, answers no one. */
	if (redirect_loops(in.v, in.n, loop, sizeof(loop)) == -1) {
		cfe_fail(l, ev->start_mark, "a loop: %s", loop);
		goto fail;
	}
done:
	config_redirects_free(c->redirects, c->nredirects);
	c->redirects = in.v;
	c->nredirects = in.n;
	free(in.marks);
	return 0;
fail:
	config_redirects_free(in.v, in.n);
	free(in.marks);
	return -1;
}

/* The rules of one status, as "from": "to" lines. */
static void
print_redirect_group(struct cfe_out *o, const struct config *c, int status)
{
	const struct config_redirect	*r;
	size_t				 i;
	char				*from;

	for (i = 0; i < c->nredirects; i++) {
		r = &c->redirects[i];
		if (r->status != status)
			continue;
		from = xasprintf("%s%s", r->from, r->prefix ? "*" : "");
		cfe_out_pair(o, from, r->to);
		free(from);
	}
}

void
config_redirects_print(struct cfe_out *o, const struct cfe_field *f,
    const void *base)
{
	const struct config	*c = base;
	size_t			 i, n30 = 0;

	cfe_out_key(o, f->key);
	if (c->nredirects == 0) {
		buf_addstr(o->b, " {}\n");
		return;
	}
	buf_addc(o->b, '\n');
	for (i = 0; i < c->nredirects; i++)
		n30 += c->redirects[i].status == 30;
	o->indent += 2;
	print_redirect_group(o, c, 31);
	if (n30 > 0) {
		cfe_out_key(o, "temporary");
		buf_addc(o->b, '\n');
		o->indent += 2;
		print_redirect_group(o, c, 30);
		o->indent -= 2;
	}
	o->indent -= 2;
}
