/*
 * fuzz_pathrule.c -- libFuzzer target for core/pathrule.c.
 *
 * The input is lines: rules up to the first empty line, then paths.  A
 * rule line is [ "=" ] [ "@" digit ] text ('=' for PATHRULE_EXACT, "@1"
 * for the host "h1"); a path line is [ "@" digit ] path, the host it is
 * asked for (none: no host).  Each rule is compiled and the set
 * indexed; for each path the index's answer must be what a scan of
 * every rule gives by the tie rule (pathrule.h), its captures and rest
 * must lie inside the path and count its '*'s, the same path with every
 * '/' doubled must find the same rule, and every rule must hold the
 * example path pathrule_example() makes of it.
 */
#include <assert.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "core/pathrule.h"

#define MAX_RULES	256
#define MAX_LINE	256

int	 LLVMFuzzerTestOneInput(const uint8_t *, size_t);

struct entry {
	struct pathrule	 rule;
	char		*text;		/* owned */
	char		 host[3];
};

/* "@d" at *s: the host "hd" into host (size 3), s moved past it. */
static int
host_of(const char **s, const char *end, char host[3])
{
	if (end - *s < 2 || (*s)[0] != '@' ||
	    (*s)[1] < '0' || (*s)[1] > '9')
		return 0;
	host[0] = 'h';
	host[1] = (*s)[1];
	host[2] = '\0';
	*s += 2;
	return 1;
}

/* The tie rule, as pathrule.h words it: does a (at ai) beat b (at bi)? */
static int
beats(const struct pathrule *a, size_t ai, const struct pathrule *b,
    size_t bi)
{
	if (a->weight != b->weight)
		return a->weight > b->weight;
	if ((a->host != NULL) != (b->host != NULL))
		return a->host != NULL;
	if (a->anchor != b->anchor)
		return a->anchor > b->anchor;
	return ai < bi;
}

static const struct entry *
scan(const struct entry *v, size_t n, const char *host, const char *path)
{
	const struct entry	*best = NULL;
	size_t			 i;

	for (i = 0; i < n; i++) {
		if (v[i].rule.host != NULL && (host == NULL ||
		    strcasecmp(v[i].rule.host, host) != 0))
			continue;
		if (!pathrule_match(&v[i].rule, path, NULL))
			continue;
		if (best == NULL || beats(&v[i].rule, i, &best->rule,
		    (size_t)(best - v)))
			best = &v[i];
	}
	return best;
}

static int
inside(const char *p, size_t len, const char *s)
{
	return p >= s && p + len <= s + strlen(s);
}

static void
check_path(const struct entry *v, size_t n, const char *host,
    const char *path)
{
	struct pathrule_match	 m;
	const struct entry	*got, *again;
	char			*doubled;
	size_t			 i, o;

	got = pathrule_find(v, n, sizeof(*v), host, path, NULL, NULL, &m);
	assert(got == scan(v, n, host, path));
	if (got == NULL)
		return;
	assert(pathrule_match(&got->rule, path, NULL));
	assert(m.ncap == got->rule.nstars);
	assert(inside(m.rest, 0, path));
	for (i = 0; i < m.ncap && i < PATHRULE_CAPS; i++) {
		assert(inside(m.cap[i], m.caplen[i], path));
		/* A '*' but the final one stays inside one segment. */
		if (i + 1 < m.ncap || !(got->rule.flags & PATHRULE_REST))
			assert(memchr(m.cap[i], '/', m.caplen[i]) == NULL);
	}
	doubled = malloc(2 * strlen(path) + 1);
	for (i = o = 0; path[i] != '\0'; i++) {
		doubled[o++] = path[i];
		if (path[i] == '/')
			doubled[o++] = '/';
	}
	doubled[o] = '\0';
	again = pathrule_find(v, n, sizeof(*v), host, doubled, NULL, NULL,
	    NULL);
	assert(again == got);
	free(doubled);
}

/* The rules are all in: index them; each holds its example path. */
static void
rules_done(struct entry *v, size_t n)
{
	char	 example[2 * MAX_LINE];
	size_t	 i;

	pathrule_index(v, n, sizeof(*v));
	for (i = 0; i < n; i++) {
		assert(v[i].rule.anchor <= v[i].rule.len);
		if (pathrule_example(&v[i].rule, example, sizeof(example)) ==
		    0 && example[0] == '/')
			assert(pathrule_match(&v[i].rule, example, NULL));
	}
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char	*s = (const char *)data, *end = s + size, *eol;
	struct entry	*v;
	char		 line[MAX_LINE + 1], host[3];
	size_t		 n = 0, len, i;
	unsigned	 flags;
	int		 hosted, paths = 0;

	v = calloc(MAX_RULES, sizeof(*v));
	for (; s < end; s = eol + 1) {
		if ((eol = memchr(s, '\n', (size_t)(end - s))) == NULL)
			eol = end;
		if (!paths && (eol == s || n == MAX_RULES)) {
			paths = 1;
			rules_done(v, n);
			if (eol == s)
				continue;
		}
		flags = !paths && *s == '=' ? PATHRULE_EXACT : 0;
		s += flags != 0;
		hosted = host_of(&s, eol, paths ? host : v[n].host);
		len = (size_t)(eol - s) < MAX_LINE ? (size_t)(eol - s) :
		    MAX_LINE;
		if (paths) {
			memcpy(line, s, len);
			line[len] = '\0';
			check_path(v, n, hosted ? host : NULL, line);
		} else {
			v[n].text = strndup(s, len);
			pathrule_compile(&v[n].rule, v[n].text, flags,
			    hosted ? v[n].host : NULL);
			n++;
		}
	}
	if (!paths)
		rules_done(v, n);
	for (i = 0; i < n; i++)
		free(v[i].text);
	free(v);
	return 0;
}
