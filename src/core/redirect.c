/*
 * redirect.c -- "redirects" rules at work (redirect.h): matching,
 * expanding a target, and finding loops at load.
 *
 * The rules are config.c's (sorted by from, then exact before prefix);
 * nothing here allocates beyond the caller's buffers.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/buf.h"
#include "core/gemini_limits.h"
#include "core/redirect.h"
#include "core/url.h"
#include "core/util.h"

static int
exact_cmp(const void *key, const void *elem)
{
	const struct config_redirect	*r = elem;
	int				 c;

	if ((c = strcmp(key, r->from)) != 0)
		return c;
	return r->prefix ? -1 : 0;	/* exact sorts before prefix */
}

/* redirect_match(), told whether v has prefix rules at all. */
static const struct config_redirect *
match(const struct config_redirect *v, size_t n, const char *path,
    int prefixes)
{
	const struct config_redirect	*r, *best = NULL;
	size_t				 i, len, best_len = 0;

	if (n == 0)
		return NULL;
	if ((r = bsearch(path, v, n, sizeof(*v), exact_cmp)) != NULL ||
	    !prefixes)
		return r;
	for (i = 0; i < n; i++) {
		if (!v[i].prefix)
			continue;
		len = strlen(v[i].from);
		if ((best == NULL || len > best_len) &&
		    strncmp(path, v[i].from, len) == 0) {
			best = &v[i];
			best_len = len;
		}
	}
	return best;
}

const struct config_redirect *
redirect_match(const struct config_redirect *v, size_t n, const char *path)
{
	return match(v, n, path, 1);
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

/* A part of the request path: encoded as a path, or as it is. */
static void
part(struct buf *out, const char *s, int encode)
{
	if (encode)
		url_encode_path(s, out);
	else
		buf_addstr(out, s);
}

int
redirect_expand(const struct config_redirect *r, const char *path,
    int encode, struct buf *out)
{
	const char	*t = r->to, *lit = r->to;
	const char	*rest = path + (r->prefix ? strlen(r->from) : 0);

	buf_truncate(out, 0);
	buf_add(out, "", 0);
	for (; *t != '\0'; t++) {
		if (r->prefix && (*t == '*' || (t[0] == '$' && t[1] == '1'))) {
			literal(out, lit, (size_t)(t - lit), encode);
			part(out, rest, encode);
			t += *t == '$';
			lit = t + 1;
		} else if (t[0] == '%' && t[1] == 'p') {
			literal(out, lit, (size_t)(t - lit), encode);
			part(out, path, encode);
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
	int				 looped = 0, prefixes = 0;

	buf_init(&to);
	for (i = 0; i < n && !prefixes; i++)
		prefixes = v[i].prefix;
	for (i = 0; i < n && !looped; i++) {
		/* A path the rule holds: its own, or one below its prefix. */
		snprintf(seen[0], sizeof(seen[0]), "%s%s", v[i].from,
		    v[i].prefix ? "x" : "");
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
			r = match(v, n, seen[hops + 1], prefixes);
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
