/*
 * redirect.c -- "redirects" rules at work (redirect.h): matching,
 * expanding a target, and finding loops at load.
 *
 * The rules are config.c's, in its order; the matching is
 * core/pathrule.c's, over the index redirect_index() links into them.
 * Nothing here allocates beyond the caller's buffers but a capture
 * being encoded.
 */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/buf.h"
#include "core/gemini_limits.h"
#include "core/pathrule.h"
#include "core/redirect.h"
#include "core/url.h"
#include "core/util.h"

_Static_assert(offsetof(struct config_redirect, rule) == 0,
    "pathrule_index() reads the rule at the start of each entry");

void
redirect_index(struct config_redirect *v, size_t n)
{
	size_t	 i;

	for (i = 0; i < n; i++)
		pathrule_compile(&v[i].rule, v[i].from, PATHRULE_EXACT |
		    (v[i].prefix ? PATHRULE_REST : 0), NULL);
	pathrule_index(v, n, sizeof(*v));
}

const struct config_redirect *
redirect_match(const struct config_redirect *v, size_t n, const char *path)
{
	return pathrule_find(v, n, sizeof(*v), NULL, path, NULL, NULL, NULL);
}

/* text[0..len), as url_encode_link() makes it safe when encode. */
static void
literal(struct buf *out, const char *text, size_t len, int encode)
{
	char	*s;

	if (len == 0)
		return;
	if (!encode) {
		buf_add(out, text, len);
		return;
	}
	s = xstrndup(text, len);
	url_encode_link(s, out);
	free(s);
}

/* A part of the request path, s[0..len): encoded as a path, or as it is. */
static void
part(struct buf *out, const char *s, size_t len, int encode)
{
	char	*p;

	if (!encode) {
		buf_add(out, s, len);
		return;
	}
	p = xstrndup(s, len);
	url_encode_path(p, out);
	free(p);
}

int
redirect_expand(const struct config_redirect *r, const char *path,
    int encode, struct buf *out)
{
	struct pathrule_match	 m;
	const char		*t = r->to, *lit = r->to;
	size_t			 k;

	/* A path r does not hold (no caller passes one) captures nothing. */
	if (!pathrule_match(&r->rule, path, &m))
		m.ncap = 0;
	buf_truncate(out, 0);
	buf_add(out, "", 0);
	for (; *t != '\0'; t++) {
		k = *t == '*' ? 0 : t[0] == '$' && t[1] >= '1' &&
		    t[1] <= '9' ? (size_t)(t[1] - '1') : PATHRULE_CAPS;
		if (k < m.ncap && k < PATHRULE_CAPS) {
			literal(out, lit, (size_t)(t - lit), encode);
			part(out, m.cap[k], m.caplen[k], encode);
			t += *t == '$';
			lit = t + 1;
		} else if (t[0] == '%' && t[1] == 'p') {
			literal(out, lit, (size_t)(t - lit), encode);
			part(out, path, strlen(path), encode);
			lit = ++t + 1;
		}
	}
	literal(out, lit, (size_t)(t - lit), encode);
	return out->len > GEMINI_META_MAX ? -1 : 0;
}

int
redirect_find(const struct config_redirect *v, size_t n, const char *path,
    int encode, struct buf *out, int *status)
{
	const struct config_redirect	*r;

	if ((r = redirect_match(v, n, path)) == NULL ||
	    redirect_expand(r, path, encode, out) == -1)
		return 0;
	*status = r->status;
	return 1;
}

/*
 * The path of a target that names one of ours (expanded unencoded, as
 * the router reads paths), without its query, into p (size len); 0 for
 * a URL.
 */
static int
target_path(const char *to, char *p, size_t len)
{
	size_t	 n;

	if (to[0] != '/' || (n = strcspn(to, "?#")) >= len)
		return 0;
	memcpy(p, to, n);
	p[n] = '\0';
	return 1;
}

int
redirect_loops(const struct config_redirect *v, size_t n, char *msg,
    size_t len)
{
	const struct config_redirect	*r;
	struct buf			 to;
	char				 seen[REDIRECT_MAX_HOPS + 2]
					    [GEMINI_META_MAX + 1];
	size_t				 i, hops, k, off;
	int				 looped = 0;

	buf_init(&to);
	for (i = 0; i < n && !looped; i++) {
		/* A path the rule holds: its own, or one below its prefix. */
		if (pathrule_example(&v[i].rule, seen[0], sizeof(seen[0])) ==
		    -1)
			continue;
		for (hops = 0, r = &v[i]; r != NULL; hops++) {
			if (redirect_expand(r, seen[hops], 0, &to) == -1 ||
			    !target_path(to.data, seen[hops + 1],
			    sizeof(seen[0])))
				break;
			for (k = 0; k <= hops; k++)
				if (strcmp(seen[k], seen[hops + 1]) == 0)
					break;
			if (k <= hops || hops + 1 > REDIRECT_MAX_HOPS) {
				looped = 1;
				break;
			}
			r = redirect_match(v, n, seen[hops + 1]);
		}
	}
	if (looped) {
		off = (size_t)snprintf(msg, len, "%s", seen[0]);
		for (k = 1; k <= hops + 1 && off < len; k++)
			off += (size_t)snprintf(msg + off, len - off, " -> %s",
			    seen[k]);
		if (hops + 1 > REDIRECT_MAX_HOPS && off < len)
			snprintf(msg + off, len - off, " (more than %d "
			    "redirects)", REDIRECT_MAX_HOPS);
	}
	buf_free(&to);
	return looped ? -1 : 0;
}
