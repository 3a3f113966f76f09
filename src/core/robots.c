/*
 * robots.c -- the "robots" setting, each crawler's robots.txt made from
 * it, and the web view's X-Robots-Tag (robots.h).
 *
 * A robots.txt made from rules is written as the Gemini companion
 * specification and RFC 9309 both read it: one group per agent, each
 * "User-agent" line followed by its "Disallow" lines, a blank line
 * between groups, "*" last, one path per line, percent-encoded, and an
 * empty "Disallow:" where nothing is kept out.  A crawler that finds
 * its own group reads no other (RFC 9309), so each group also holds
 * what "*" keeps out.  Values come from the configuration, checked
 * where they are read: no line end, "#" or control byte can reach the
 * file (a rule of its own, or a comment eating one).
 */
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "core/buf.h"
#include "core/config_engine.h"
#include "core/robots.h"
#include "core/url.h"
#include "core/util.h"
#include "core/yaml.h"

/* Gemini's virtual agents (robots.h): what a crawler does, not who. */
static const char *const virtual_agents[] = {
	"indexer", "archiver", "researcher", "webproxy"
};

static int
is_virtual(const char *name)
{
	size_t	 i;

	for (i = 0; i < nitems(virtual_agents); i++)
		if (strcasecmp(name, virtual_agents[i]) == 0)
			return 1;
	return 0;
}

static const struct robots_agent *
agent(const struct robots *r, const char *name)
{
	size_t	 i;

	for (i = 0; i < r->nagents; i++)
		if (strcasecmp(r->agents[i].name, name) == 0)
			return &r->agents[i];
	return NULL;
}

void
robots_free(struct robots *r)
{
	size_t	 i;

	if (r == NULL)
		return;
	free(r->text);
	util_free_strings(r->disallow, r->ndisallow);
	for (i = 0; i < r->nagents; i++) {
		util_free_strings(r->agents[i].paths, r->agents[i].npaths);
		free(r->agents[i].name);
	}
	free(r->agents);
	free(r);
}

/* ---- reading ---------------------------------------------------------- */

/* One path of a list: a prefix that cannot break a line or a rule. */
static int
path_add(struct cfe *l, const struct cfe_field *f, const yaml_event_t *ev,
    char ***v, size_t *n)
{
	const char	*s, *p;

	if (cfe_text(l, ev, 1, ROBOTS_PATH_MAX, &s) == -1)
		return -1;
	for (p = s; *p != '\0'; p++)
		if (*p == ' ' || *p == '#' || *p == '*' || *p == '$')
			break;
	if (s[0] != '/' || *p != '\0')
		return cfe_bad(l, ev, "a path prefix such as /drafts/ (no "
		    "spaces or '#'; '*' and '$' are patterns Gemini "
		    "crawlers do not read)", s);
	return cfe_list_append(l, f, ev, v, n, s, s, "paths");
}

static const struct cfe_items path_items = { path_add, 1, 0 };

#define ROFF(m)		offsetof(struct robots, m)
#define AOFF(m)		offsetof(struct robots_agent, m)
#define RLIST(o, v, n)	o(v), (o(n) + sizeof(size_t) - o(v))

_Static_assert(ROFF(ndisallow) == ROFF(disallow) + sizeof(char **),
    "disallow, ndisallow");
_Static_assert(AOFF(npaths) == AOFF(paths) + sizeof(char **),
    "paths, npaths");

/* A list of paths at an agent (its base is the agent). */
static const struct cfe_field agent_paths = { "paths", &cfe_list_kind,
    RLIST(AOFF, paths, npaths), 0, ROBOTS_PATHS_MAX, 0, &path_items };

/* One "name: paths" of "agents", into the struct robots arg. */
static int
agent_pair(struct cfe *l, const yaml_event_t *key, const char *k,
    yaml_event_t *val, void *arg)
{
	struct robots		*r = arg;
	struct robots_agent	*a;
	void			*saved;
	size_t			 len = strlen(k);
	int			 rv;

	if (len == 0 || len > ROBOTS_NAME_MAX || strspn(k, "abcdefghijklmn"
	    "opqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ-_") != len)
		return cfe_bad(l, key, "a crawler's name (letters, '-' and "
		    "'_'; every crawler's paths go in disallow)", k);
	if (agent(r, k) != NULL)
		return cfe_twice(l, key->start_mark, k);
	if (r->nagents >= ROBOTS_AGENTS_MAX)
		return cfe_fail(l, key->start_mark, "more than %d agents",
		    ROBOTS_AGENTS_MAX);
	r->agents = xreallocarray(r->agents, r->nagents + 1,
	    sizeof(*r->agents));
	a = &r->agents[r->nagents++];
	memset(a, 0, sizeof(*a));
	a->name = xstrdup(k);
	cfe_push(l, a->name);
	saved = l->base;
	l->base = a;
	rv = cfe_list(l, &agent_paths, val);
	l->base = saved;
	cfe_pop(l);
	return rv;
}

static int
parse_agents(struct cfe *l, const struct cfe_field *f, yaml_event_t *ev)
{
	struct robots	*r = l->base;

	if (ev->type == YAML_SCALAR_EVENT && yml_is_null(ev))
		return 0;
	if (ev->type != YAML_MAPPING_START_EVENT)
		return cfe_fail(l, ev->start_mark, "expected a mapping of "
		    "names to paths, got %s", cfe_what(ev));
	return cfe_pairs(l, agent_pair, r);
}

static void
print_agents(struct cfe_out *o, const struct cfe_field *f, const void *base)
{
	const struct robots	*r = base;
	size_t			 i;

	cfe_out_key(o, f->key);
	buf_addstr(o->b, r->nagents == 0 ? " {}\n" : "\n");
	o->indent += 4;
	for (i = 0; i < r->nagents; i++) {
		buf_printf(o->b, "%*s", o->indent, "");
		cfe_out_str(o, r->agents[i].name);
		buf_addstr(o->b, ": ");
		cfe_out_strs(o, r->agents[i].paths, r->agents[i].npaths);
		buf_addc(o->b, '\n');
	}
	o->indent -= 4;
}

static const struct cfe_kind agents_kind = { parse_agents, print_agents };

enum { RULE_DISALLOW, RULE_AGENTS, RULE_N };

static const struct cfe_field rule_fields[RULE_N] = {
	[RULE_DISALLOW] = { "disallow", &cfe_list_kind,
	    RLIST(ROFF, disallow, ndisallow), 0, ROBOTS_PATHS_MAX, 0,
	    &path_items },
	[RULE_AGENTS] = { "agents", &agents_kind, 0, 0, 0, 0, 0, NULL },
};

/* A text: tabs and line ends allowed, other control characters not. */
static int
parse_text(struct cfe *l, const struct cfe_field *f, yaml_event_t *ev,
    struct robots **r)
{
	const char	*s;
	size_t		 i, len;

	if (cfe_scalar(l, ev, "a block of text or rules", &s) == -1)
		return -1;
	len = strlen(s);
	if ((long long)len > f->max)
		return cfe_fail(l, ev->start_mark, "longer than %lld bytes",
		    f->max);
	for (i = 0; i < len; i++)
		if (((unsigned char)s[i] < 0x20 && s[i] != '\n' &&
		    s[i] != '\t') || s[i] == 0x7f)
			return cfe_fail(l, ev->start_mark, "control characters "
			    "other than tab and line end are not allowed");
	robots_free(*r);
	*r = yml_is_null(ev) ? NULL : robots_from_text(s);
	return 0;
}

int
robots_parse(struct cfe *l, const struct cfe_field *f, yaml_event_t *ev,
    struct robots **r)
{
	struct robots	*n;
	yaml_mark_t	 marks[RULE_N];
	unsigned char	 seen[RULE_N];

	if (ev->type != YAML_MAPPING_START_EVENT)
		return parse_text(l, f, ev, r);
	n = xcalloc(1, sizeof(*n));
	memset(marks, 0, sizeof(marks));
	memset(seen, 0, sizeof(seen));
	if (cfe_map(l, rule_fields, RULE_N, n, 0, NULL, marks, seen) == -1) {
		robots_free(n);
		return -1;
	}
	robots_free(*r);
	*r = n;
	return 0;
}

void
robots_print(struct cfe_out *o, const char *key, const struct robots *r)
{
	if (r == NULL || r->text != NULL) {
		cfe_out_keystr(o, key, r != NULL ? r->text : NULL);
		return;
	}
	cfe_out_key(o, key);
	buf_addc(o->b, '\n');
	o->indent += 4;
	cfe_list_kind.print(o, &rule_fields[RULE_DISALLOW], r);
	print_agents(o, &rule_fields[RULE_AGENTS], r);
	o->indent -= 4;
}

/* ---- the text form's rules -------------------------------------------- */

/* The field's value of line (its name given, any case), or NULL. */
static const char *
field(const char *line, const char *name, size_t *len)
{
	size_t	 n = strlen(name), end;

	line += strspn(line, " \t");
	if (strncasecmp(line, name, n) != 0)
		return NULL;
	line += n;
	line += strspn(line, " \t");
	if (*line != ':')
		return NULL;
	line++;
	line += strspn(line, " \t");
	end = strcspn(line, "#\n");
	while (end > 0 && (line[end - 1] == ' ' || line[end - 1] == '\t' ||
	    line[end - 1] == '\r'))
		end--;
	*len = end;
	return line;
}

static void
add_path(char ***v, size_t *n, const char *p, size_t len)
{
	char	*s = xstrndup(p, len);

	/* What robots_tag() compares: a literal prefix, decoded. */
	if (len == 0 || s[0] != '/' || strpbrk(s, "*$") != NULL ||
	    url_decode(s) == -1) {
		free(s);
		return;
	}
	*v = xreallocarray(*v, *n + 1, sizeof(**v));
	(*v)[(*n)++] = s;
}

/*
 * The groups of s, as RFC 9309 reads them: "User-agent" lines start a
 * group (consecutive ones share it), "Disallow" lines are its rules.
 * "*" is disallow; other names are agents, one entry per name.
 */
struct robots *
robots_from_text(const char *s)
{
	struct robots	*r;
	const char	*line, *v;
	size_t		 len, i, *grp = NULL, ngrp = 0;
	int		 rules = 0;
	char		*name;

	if (s == NULL || *s == '\0')
		return NULL;
	r = xcalloc(1, sizeof(*r));
	r->text = xstrdup(s);
	for (line = s; *line != '\0'; line += strcspn(line, "\n"),
	    line += *line == '\n') {
		if ((v = field(line, "user-agent", &len)) != NULL) {
			if (len == 0)
				continue;
			if (rules)
				ngrp = 0;
			rules = 0;
			name = xstrndup(v, len);
			for (i = 0; i < r->nagents; i++)
				if (strcasecmp(r->agents[i].name, name) == 0)
					break;
			if (i == r->nagents && strcmp(name, "*") != 0) {
				r->agents = xreallocarray(r->agents,
				    r->nagents + 1, sizeof(*r->agents));
				memset(&r->agents[i], 0, sizeof(r->agents[i]));
				r->agents[r->nagents++].name = name;
				name = NULL;
			}
			grp = xreallocarray(grp, ngrp + 1, sizeof(*grp));
			grp[ngrp++] = name != NULL && strcmp(name, "*") == 0 ?
			    (size_t)-1 : i;
			free(name);
		} else if ((v = field(line, "disallow", &len)) != NULL) {
			rules = 1;
			for (i = 0; i < ngrp; i++)
				if (grp[i] == (size_t)-1)
					add_path(&r->disallow, &r->ndisallow,
					    v, len);
				else
					add_path(&r->agents[grp[i]].paths,
					    &r->agents[grp[i]].npaths, v, len);
		} else if (field(line, "allow", &len) != NULL)
			rules = 1;
	}
	free(grp);
	return r;
}

/* ---- writing ---------------------------------------------------------- */

/* Paths gathered from several lists, each once, in order (borrowed). */
struct set {
	const char	**v;
	size_t		 n;
};

static void
set_add(struct set *s, char *const *v, size_t n)
{
	size_t	 i, k;

	for (i = 0; i < n; i++) {
		for (k = 0; k < s->n; k++)
			if (strcmp(s->v[k], v[i]) == 0)
				break;
		if (k < s->n)
			continue;
		s->v = xreallocarray(s->v, s->n + 1, sizeof(*s->v));
		s->v[s->n++] = v[i];
	}
}

static void
set_add_agent(struct set *s, const struct robots *r, const char *name)
{
	const struct robots_agent *a = agent(r, name);

	if (a != NULL)
		set_add(s, a->paths, a->npaths);
}

/* One group: its User-agent line, then its own and base's paths. */
static void
group(struct buf *out, const char *name, const struct set *own,
    const struct set *base)
{
	const struct set *sets[2] = { own, base };
	struct set	 all = { NULL, 0 };
	size_t		 i;

	for (i = 0; i < nitems(sets); i++)
		if (sets[i] != NULL)
			set_add(&all, (char *const *)sets[i]->v, sets[i]->n);
	if (out->len > 0)
		buf_addc(out, '\n');
	buf_printf(out, "User-agent: %s\n", name);
	if (all.n == 0)
		buf_addstr(out, "Disallow:\n");
	for (i = 0; i < all.n; i++) {
		buf_addstr(out, "Disallow: ");
		url_encode_path(all.v[i], out);
		buf_addc(out, '\n');
	}
	free(all.v);
}

int
robots_txt(const struct robots *r, enum robots_for who, struct buf *out)
{
	struct buf	 b = BUF_INIT;
	struct set	 star = { NULL, 0 }, own;
	const struct robots_agent *a;
	size_t		 i;
	int		 veronica = 0;

	if (r == NULL)
		return 0;
	if (r->text != NULL) {
		buf_addstr(out, r->text);
		return 1;
	}
	set_add(&star, r->disallow, r->ndisallow);
	/* The web view is this server's web proxy. */
	if (who == ROBOTS_WEB)
		set_add_agent(&star, r, "webproxy");
	for (i = 0; i < r->nagents; i++) {
		a = &r->agents[i];
		own.v = NULL;
		own.n = 0;
		switch (who) {
		case ROBOTS_GEMINI:
			break;
		case ROBOTS_GOPHER:
			/* Veronica-2, Gopher's indexer, reads "veronica". */
			if (strcasecmp(a->name, "veronica") == 0) {
				set_add_agent(&own, r, "indexer");
				veronica = 1;
			} else if (is_virtual(a->name))
				continue;
			break;
		case ROBOTS_WEB:
			if (is_virtual(a->name))
				continue;
			break;
		}
		set_add(&own, a->paths, a->npaths);
		group(&b, a->name, &own, &star);
		free(own.v);
	}
	if (who == ROBOTS_GOPHER && !veronica && (a = agent(r,
	    "indexer")) != NULL) {
		own.v = NULL;
		own.n = 0;
		set_add(&own, a->paths, a->npaths);
		group(&b, "veronica", &own, &star);
		free(own.v);
	}
	group(&b, "*", NULL, &star);
	free(star.v);
	buf_add(out, b.data, b.len);
	buf_free(&b);
	return 1;
}

/* ---- the web view's tag ----------------------------------------------- */

static int
under(char *const *v, size_t n, const char *path)
{
	size_t	 i;

	for (i = 0; i < n; i++)
		if (strncmp(path, v[i], strlen(v[i])) == 0)
			return 1;
	return 0;
}

static int
agent_under(const struct robots *r, const char *name, const char *path)
{
	const struct robots_agent *a = agent(r, name);

	return a != NULL && under(a->paths, a->npaths, path);
}

const char *
robots_tag(const struct robots *r, const char *path)
{
	int	 all, noindex, noarchive;

	if (r == NULL)
		return NULL;
	all = under(r->disallow, r->ndisallow, path) ||
	    agent_under(r, "webproxy", path);
	noindex = all || agent_under(r, "indexer", path);
	noarchive = all || agent_under(r, "archiver", path);
	if (noindex && noarchive)
		return "noindex, noarchive";
	if (noindex)
		return "noindex";
	if (noarchive)
		return "noarchive";
	return NULL;
}
