/*
 * pathrule.c -- configured path rules (pathrule.h): compiling one,
 * matching one, and finding the winner of a set.
 *
 * A set is the caller's array, left in its order: pathrule_index()
 * sorts a scratch list of the rules by their literal head (the anchor,
 * text before the first '*'), builds a balanced search tree over that
 * order out of links in the rules themselves, and links each anchor to
 * the longest other anchor that is a prefix of it.  Every rule that
 * holds a path has an anchor that is a prefix of the path (runs of '/'
 * read as one), and every such anchor is at most the greatest anchor
 * not above the path, hence a prefix of it: so pathrule_find() descends
 * the tree once to that anchor and climbs its chain of prefixes,
 * matching only the rules on it.  Knows nothing of what an entry is
 * besides its leading struct pathrule.
 */
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "core/pathrule.h"
#include "core/util.h"

/* The rule of entry i of base (entries of size bytes). */
#define RULE(base, size, i) \
	((struct pathrule *)(void *)((char *)(base) + (i) * (size)))
#define CRULE(base, size, i) \
	((const struct pathrule *)(const void *)((const char *)(base) + \
	(i) * (size)))

void
pathrule_compile(struct pathrule *r, char *text, unsigned flags,
    const char *host)
{
	char	*w, *s;
	size_t	 i;

	/*
	 * Runs of '/' made one, in place (the path's are read so); a text
	 * without any is not written to.
	 */
	for (s = w = text; *s != '\0'; s++)
		if (*s != '/' || w == text || w[-1] != '/') {
			if (w != s)
				*w = *s;
			w++;
		}
	if (*w != '\0')
		*w = '\0';
	memset(r, 0, sizeof(*r));
	r->text = text;
	r->host = host;
	r->flags = flags & (PATHRULE_EXACT | PATHRULE_REST);
	r->dead = text[0] != '/' && text[0] != '\0';
	r->len = (size_t)(w - text);
	if (r->len > 0 && text[r->len - 1] == '*') {
		r->flags |= PATHRULE_REST;
		r->len--;
	}
	/* A prefix's final '/' says nothing: "/fr/" is "/fr". */
	if (!(r->flags & (PATHRULE_EXACT | PATHRULE_REST)) && r->len > 0 &&
	    text[r->len - 1] == '/')
		r->len--;
	r->anchor = strcspn(text, "*");
	if (r->anchor > r->len)
		r->anchor = r->len;
	for (i = r->anchor; i < r->len; i++)
		r->nstars += text[i] == '*';
	r->weight = 2 * (r->len - r->nstars);
	r->nstars += (r->flags & PATHRULE_REST) != 0;
	r->weight += r->nstars == 0;
	r->root = r->left = r->right = PATHRULE_NONE;
	r->head = r->same = r->up = PATHRULE_NONE;
}

/* Record a capture, if it is among the first PATHRULE_CAPS. */
static void
capture(struct pathrule_match *m, const char *s, size_t len)
{
	if (m->ncap < PATHRULE_CAPS) {
		m->cap[m->ncap] = s;
		m->caplen[m->ncap] = len;
	}
	m->ncap++;
}

/*
 * The '*'s of one segment of the rule, t[0..tlen) (t at its first '*',
 * no '/' in it), against the path's segment p[0..pe): each piece
 * between two '*'s found leftmost, the last one ending the segment,
 * unless final (the rule's final '*' follows: the last piece found
 * leftmost too).  The path after what matched, or NULL.
 */
static const char *
stars(const char *t, size_t tlen, const char *p, const char *pe, int final,
    struct pathrule_match *m)
{
	const char	*end = t + tlen, *piece, *hit;
	size_t		 plen;

	while (t < end) {
		piece = ++t;			/* after the '*' */
		while (t < end && *t != '*')
			t++;
		plen = (size_t)(t - piece);
		if (t == end && !final) {
			if ((size_t)(pe - p) < plen ||
			    memcmp(pe - plen, piece, plen) != 0)
				return NULL;
			capture(m, p, (size_t)(pe - plen - p));
			return pe;
		}
		if ((hit = memmem(p, (size_t)(pe - p), piece, plen)) == NULL)
			return NULL;
		capture(m, p, (size_t)(hit - p));
		p = hit + plen;
	}
	return p;
}

int
pathrule_match(const struct pathrule *r, const char *path,
    struct pathrule_match *m)
{
	struct pathrule_match	 tmp;
	const char		*t = r->text, *end = r->text + r->len;
	const char		*p = path, *seg, *star;
	size_t			 n;

	if (m == NULL)
		m = &tmp;
	m->ncap = 0;
	if (r->dead || *p != '/')
		return 0;
	while (t < end) {
		if (*t == '/') {
			if (*p != '/')
				return 0;
			while (*p == '/')
				p++;
			t++;
			continue;
		}
		for (seg = t; seg < end && *seg != '/'; seg++)
			;
		star = memchr(t, '*', (size_t)(seg - t));
		n = (size_t)((star != NULL ? star : seg) - t);
		/* The segment's literal head; strncmp() stops at the end. */
		if (strncmp(p, t, n) != 0)
			return 0;
		p += n;
		t += n;
		if (star == NULL)
			continue;
		p = stars(t, (size_t)(seg - t), p, p + strcspn(p, "/"),
		    seg == end && (r->flags & PATHRULE_REST), m);
		if (p == NULL)
			return 0;
		t = seg;
	}
	m->rest = p;
	if (r->flags & PATHRULE_REST) {
		capture(m, p, strlen(p));
		return 1;
	}
	if (r->flags & PATHRULE_EXACT)
		return *p == '\0';
	return *p == '\0' || *p == '/';
}

/*
 * a's anchor against path (plen bytes), runs of '/' in path read as
 * one (runs: path has one): <0, 0 or >0 as anchor sorts before, equal
 * to or after the whole path.  Without runs (nearly every request) it
 * is a memcmp().
 */
static int
anchor_cmp(const struct pathrule *a, const char *path, size_t plen,
    int runs)
{
	const unsigned char	*t = (const unsigned char *)a->text;
	const unsigned char	*p = (const unsigned char *)path;
	size_t			 i;
	int			 c;

	if (!runs) {
		c = memcmp(t, p, a->anchor < plen ? a->anchor : plen);
		if (c != 0 || a->anchor == plen)
			return c;
		return a->anchor > plen ? 1 : -1;
	}
	for (i = 0; i < a->anchor; i++, p++) {
		if (*p != t[i])
			return *p == '\0' || t[i] > *p ? 1 : -1;
		if (*p == '/')
			while (p[1] == '/')
				p++;
	}
	return *p == '\0' ? 0 : -1;
}

/* How many bytes of a's anchor path starts with, runs of '/' as one. */
static size_t
common(const struct pathrule *a, const char *path)
{
	const char	*p = path;
	size_t		 i;

	for (i = 0; i < a->anchor && *p == a->text[i]; i++, p++)
		if (*p == '/')
			while (p[1] == '/')
				p++;
	return i;
}

/* Is a's anchor a prefix of b's? */
static int
anchor_under(const struct pathrule *a, const struct pathrule *b)
{
	return a->anchor <= b->anchor &&
	    memcmp(a->text, b->text, a->anchor) == 0;
}

/* Scratch order for pathrule_index(): by anchor, then array order. */
static int
order(const void *x, const void *y)
{
	const struct pathrule	*a = *(const struct pathrule * const *)x;
	const struct pathrule	*b = *(const struct pathrule * const *)y;
	size_t			 n = a->anchor < b->anchor ? a->anchor :
				    b->anchor;
	int			 c;

	if ((c = memcmp(a->text, b->text, n)) != 0)
		return c;
	if (a->anchor != b->anchor)
		return a->anchor < b->anchor ? -1 : 1;
	return a < b ? -1 : a > b;
}

/* The balanced tree over sorted[lo..hi); its root's index, or NONE. */
static size_t
tree(struct pathrule **sorted, size_t lo, size_t hi, void *base, size_t size)
{
	struct pathrule	*r;
	size_t		 mid;

	if (lo >= hi)
		return PATHRULE_NONE;
	mid = lo + (hi - lo) / 2;
	r = sorted[mid];
	r->left = tree(sorted, lo, mid, base, size);
	r->right = tree(sorted, mid + 1, hi, base, size);
	return (size_t)((char *)r - (char *)base) / size;
}

void
pathrule_index(void *base, size_t n, size_t size)
{
	struct pathrule	**sorted, *r, *prev = NULL;
	size_t		  i, k, root;

	if (n == 0)
		return;
	sorted = xreallocarray(NULL, n, sizeof(*sorted));
	for (i = 0; i < n; i++)
		sorted[i] = RULE(base, size, i);
	qsort(sorted, n, sizeof(*sorted), order);
	for (i = 0; i < n; i++) {
		r = sorted[i];
		k = (size_t)((char *)r - (char *)base) / size;
		r->same = PATHRULE_NONE;
		if (prev != NULL && prev->anchor == r->anchor &&
		    anchor_under(prev, r)) {
			prev->same = k;
			r->head = prev->head;
			r->up = prev->up;
		} else {
			/*
			 * The nearest shorter anchor that is a prefix: on the
			 * chain of the group just before, which sorts every
			 * prefix of this anchor before it.
			 */
			r->head = k;
			r->up = prev != NULL ? prev->head : PATHRULE_NONE;
			while (r->up != PATHRULE_NONE &&
			    !anchor_under(RULE(base, size, r->up), r))
				r->up = RULE(base, size, r->up)->up;
		}
		prev = r;
	}
	root = tree(sorted, 0, n, base, size);
	for (i = 0; i < n; i++)
		sorted[i]->root = root;
	free(sorted);
}

int
pathrule_wins(const struct pathrule *a, size_t ai, const struct pathrule *b,
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

const void *
pathrule_find(const void *base, size_t n, size_t size, const char *host,
    const char *path, int (*want)(const void *, void *), void *arg,
    struct pathrule_match *m)
{
	const struct pathrule	*r, *best = NULL;
	struct pathrule_match	 got, won;
	size_t			 i, g, k, held, plen, best_k = 0;
	int			 runs;

	if (n == 0 || path[0] != '/')
		return NULL;
	plen = strlen(path);
	runs = strstr(path, "//") != NULL;
	/* The greatest anchor that is not after path. */
	for (i = CRULE(base, size, 0)->root, k = PATHRULE_NONE;
	    i != PATHRULE_NONE; ) {
		r = CRULE(base, size, i);
		if (anchor_cmp(r, path, plen, runs) <= 0) {
			k = i;
			i = r->right;
		} else
			i = r->left;
	}
	if (k == PATHRULE_NONE)
		return NULL;
	/* Its prefixes that are path's too: those at most held long. */
	held = common(CRULE(base, size, k), path);
	for (g = CRULE(base, size, k)->head; g != PATHRULE_NONE;
	    g = CRULE(base, size, g)->up) {
		if (CRULE(base, size, g)->anchor > held)
			continue;
		for (k = g; k != PATHRULE_NONE; k = r->same) {
			r = CRULE(base, size, k);
			if ((best != NULL && !pathrule_wins(r, k, best, best_k)) ||
			    (r->host != NULL && (host == NULL ||
			    strcasecmp(r->host, host) != 0)) ||
			    (want != NULL && !want(r, arg)) ||
			    !pathrule_match(r, path, &got))
				continue;
			best = r;
			best_k = k;
			won = got;
		}
	}
	if (best != NULL && m != NULL)
		*m = won;
	return best;
}

int
pathrule_example(const struct pathrule *r, char *buf, size_t len)
{
	size_t	 i, o = 0;

	for (i = 0; i <= r->len; i++) {
		if (o + 2 >= len)
			return -1;
		if (i == r->len) {
			if (r->flags & PATHRULE_REST)
				buf[o++] = 'x';
		} else
			buf[o++] = r->text[i] == '*' ? 'x' : r->text[i];
	}
	buf[o] = '\0';
	return 0;
}
