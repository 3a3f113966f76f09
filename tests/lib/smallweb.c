/*
 * smallweb.c -- small-web clients and a crawler for the tests
 * (smallweb.h).
 *
 * The crawl keeps a queue of references (a path, or for Gopher the
 * item type then the selector) and a set of those seen, each once; one
 * request per reference, a new connection each, as the protocols have
 * it.  The queue and the set own their strings.
 */
#include "e2e.h"
#include "core/hash.h"
#include "smallweb.h"

int
sw_spartan(int port, const char *host, const char *path, const char *data,
    size_t len, struct sw_reply *out)
{
	struct buf	 req = BUF_INIT, got;
	char		*eol;
	size_t		 n;
	int		 rv;

	memset(out, 0, sizeof(*out));
	out->status = -1;
	buf_printf(&req, "%s %s %zu\r\n", host, path, len);
	buf_add(&req, data != NULL ? data : "", len);
	rv = e2e_plain(port, req.data, req.len, &got);
	buf_free(&req);
	if (rv == -1 || got.data == NULL) {
		buf_free(&got);
		return -1;
	}
	/* "DIGIT SP meta CRLF" (RFC-like: the Spartan specification). */
	if ((eol = strstr(got.data, "\r\n")) != NULL && got.data[0] >= '2' &&
	    got.data[0] <= '5' && got.data[1] == ' ') {
		out->status = got.data[0] - '0';
		n = (size_t)(eol - got.data - 2);
		if (n >= sizeof(out->meta))
			n = sizeof(out->meta) - 1;
		memcpy(out->meta, got.data + 2, n);
		out->meta[n] = '\0';
		buf_add(&out->body, eol + 2, got.len - (size_t)(eol + 2 -
		    got.data));
	}
	if (out->body.data == NULL)
		buf_add(&out->body, "", 0);
	buf_free(&got);
	return 0;
}

void
sw_reply_free(struct sw_reply *r)
{
	buf_free(&r->body);
}

/* One line to a plain-text protocol, the answer as a C string. */
static int
line_ask(int port, const char *line, struct buf *out)
{
	char	*req = xasprintf("%s\r\n", line);
	int	 rv = e2e_plain(port, req, strlen(req), out);

	free(req);
	if (rv == 0 && out->data == NULL)
		buf_add(out, "", 0);
	return rv;
}

int
sw_nex(int port, const char *path, struct buf *out)
{
	return line_ask(port, path, out);
}

int
sw_finger(int port, const char *query, struct buf *out)
{
	return line_ask(port, query, out);
}

/* ---- the crawl -------------------------------------------------------- */

struct ref {
	char	*ref;		/* owned */
	char	*from;		/* owned: where it was found */
};

struct crawl_state {
	struct sw_crawl	*c;
	struct ref	*q;		/* owned */
	size_t		 nq, head, capq;
	char		**seen;		/* owned: an open-addressed set */
	size_t		 nseen, capseen;
};

/* 1 when s is new to the set (and now in it). */
static int
seen_add(struct crawl_state *st, const char *s)
{
	char	**old;
	size_t	 i, n, cap;

	if (st->nseen * 2 >= st->capseen) {
		old = st->seen;
		cap = st->capseen;
		st->capseen = cap == 0 ? 1024 : cap * 2;
		st->seen = xcalloc(st->capseen, sizeof(*st->seen));
		for (n = 0; n < cap; n++) {
			if (old[n] == NULL)
				continue;
			for (i = hash_str(old[n]) % st->capseen; st->seen[i] !=
			    NULL; i = (i + 1) % st->capseen)
				;
			st->seen[i] = old[n];
		}
		free(old);
	}
	for (i = hash_str(s) % st->capseen; st->seen[i] != NULL;
	    i = (i + 1) % st->capseen)
		if (strcmp(st->seen[i], s) == 0)
			return 0;
	st->seen[i] = xstrdup(s);
	st->nseen++;
	return 1;
}

static void
enqueue(struct crawl_state *st, const char *ref, const char *from)
{
	if (ref == NULL || !seen_add(st, ref))
		return;
	if (st->nq == st->capq) {
		st->capq = st->capq == 0 ? 256 : st->capq * 2;
		st->q = xreallocarray(st->q, st->capq, sizeof(*st->q));
	}
	st->q[st->nq].ref = xstrdup(ref);
	st->q[st->nq].from = xstrdup(from);
	st->nq++;
}

static void
dead(struct crawl_state *st, const struct ref *r, const char *why)
{
	struct sw_crawl	*c = st->c;

	if (c->dead < SW_DEAD_SHOWN)
		snprintf(c->shown[c->dead], sizeof(c->shown[c->dead]),
		    "%s (from %s): %.200s", r->ref, r->from, why);
	c->dead++;
}

/* "/a/b/../c/./d?q" made "/a/c/d?q", in place (RFC 3986 5.2.4). */
static void
dot_segments(char *path)
{
	char	*q = strchr(path, '?'), *query = NULL, *seg, *save = NULL;
	char	**v = NULL, *in;
	size_t	 n = 0, i;
	int	 dir = 0;
	struct buf out = BUF_INIT;

	if (q != NULL) {
		query = xstrdup(q);
		*q = '\0';
	}
	in = xstrdup(path);
	for (seg = strtok_r(in, "/", &save); seg != NULL;
	    seg = strtok_r(NULL, "/", &save)) {
		dir = strcmp(seg, ".") == 0 || strcmp(seg, "..") == 0;
		if (strcmp(seg, "..") == 0) {
			if (n > 0)
				n--;
		} else if (strcmp(seg, ".") != 0) {
			v = xreallocarray(v, n + 1, sizeof(*v));
			v[n++] = seg;
		}
	}
	for (i = 0; i < n; i++)
		buf_printf(&out, "/%s", v[i]);
	if (n == 0 || dir || path[strlen(path) - 1] == '/')
		buf_addc(&out, '/');
	if (query != NULL)
		buf_addstr(&out, query);
	strcpy(path, out.data);		/* never longer than it was */
	buf_free(&out);
	free(v);
	free(in);
	free(query);
}

/*
 * The path link names on c's surface and host, seen from the document
 * at base, or NULL (malloc'd) for another scheme, host or port.
 */
static char *
resolve(const struct sw_crawl *c, const char *base, const char *link)
{
	static const char *const scheme[] = { "gemini", "gopher", "spartan",
	    "nex" };
	static const int url_port[] = { 1965, 70, 300, 1900 };
	const char	*p, *host, *end;
	char		*out, *hash;
	size_t		 n, sl;
	int		 port;

	sl = strcspn(link, ":/?#");
	if (link[sl] == ':') {
		n = strlen(scheme[c->surface]);
		if (sl != n || strncasecmp(link, scheme[c->surface], n) != 0 ||
		    strncmp(link + n, "://", 3) != 0)
			return NULL;
		host = link + n + 3;
		end = host + strcspn(host, ":/?#");
		if ((size_t)(end - host) != strlen(c->host) ||
		    strncasecmp(host, c->host, (size_t)(end - host)) != 0)
			return NULL;
		port = *end == ':' ? atoi(end + 1) : url_port[c->surface];
		if (port != c->port)
			return NULL;
		p = end + strcspn(end, "/?#");
		out = xasprintf("/%s", *p == '/' ? p + 1 : p);
	} else if (link[0] == '/' && link[1] == '/')
		return NULL;
	else if (link[0] == '/')
		out = xstrdup(link);
	else {
		n = strcspn(base, "?");
		while (n > 0 && base[n - 1] != '/')
			n--;
		out = xasprintf("%.*s%s", (int)n, n > 0 ? base : "/", link);
	}
	if ((hash = strchr(out, '#')) != NULL)
		*hash = '\0';
	dot_segments(out);
	if (out[0] == '\0') {
		free(out);
		out = xstrdup("/");
	}
	return out;
}

/* Each line of body, NUL-ended in a copy, to fn. */
static void
lines(struct crawl_state *st, const struct ref *r, const char *body,
    void (*fn)(struct crawl_state *, const struct ref *, char *))
{
	const char	*p, *e;
	char		*l;

	for (p = body; *p != '\0'; p = *e != '\0' ? e + 1 : e) {
		e = p + strcspn(p, "\n");
		l = xstrndup(p, (size_t)(e - p));
		if (*l != '\0' && l[strlen(l) - 1] == '\r')
			l[strlen(l) - 1] = '\0';
		fn(st, r, l);
		free(l);
	}
}

/* A gemtext line (Gemini, Spartan) or a Nex directory's line. */
static void
link_line(struct crawl_state *st, const struct ref *r, char *l)
{
	char	*u, *path;
	int	 ref = 0;

	if (strncmp(l, "=>", 2) == 0 || (st->c->surface == SW_SPARTAN &&
	    strncmp(l, "=:", 2) == 0))
		u = l + 2;
	else if (st->c->surface == SW_NEX && l[0] == '[' &&
	    strstr(l, "] nex://") != NULL) {
		u = strstr(l, "] ") + 2;	/* a text's reference */
		ref = 1;
	} else
		return;
	u += strspn(u, " \t");
	u[strcspn(u, " \t")] = '\0';
	if (*u == '\0' || (ref && strncmp(u, "nex://", 6) != 0))
		return;
	path = resolve(st->c, r->ref, u);
	enqueue(st, path, r->ref);
	free(path);
}

/* A Gopher menu's item: "Tdisplay<TAB>selector<TAB>host<TAB>port". */
static void
menu_line(struct crawl_state *st, const struct ref *r, char *l)
{
	char	*f[4], *p = l, ref[1100];
	int	 i;

	if (strcmp(l, ".") == 0 || strchr("i3hT8+", l[0]) != NULL)
		return;
	for (i = 0; i < 4; i++) {
		f[i] = p;
		p += strcspn(p, "\t");
		if (*p != '\0')
			*p++ = '\0';
		else if (i < 3)
			return;
	}
	if (strcasecmp(f[2], st->c->host) != 0 || atoi(f[3]) != st->c->port)
		return;
	snprintf(ref, sizeof(ref), "%c%s", l[0], f[1]);
	enqueue(st, ref, r->ref);
}

static void
ask_gemini(struct crawl_state *st, const struct ref *r)
{
	struct reply	 rep;
	char		*req, *to;

	req = xasprintf("gemini://%s:%d%s\r\n", st->c->host, st->c->port,
	    r->ref);
	if (e2e_gemini_raw(st->c->port, req, strlen(req), &rep, st->c->ctx,
	    st->c->host) == -1 || rep.status < 0) {
		dead(st, r, "no answer");
		free(req);
		reply_free(&rep);
		return;
	}
	free(req);
	if (rep.status / 10 == 3) {
		to = strchr(rep.header, ' ');
		to = resolve(st->c, r->ref, to != NULL ? to + 1 : "");
		enqueue(st, to, r->ref);
		free(to);
	} else if (rep.status / 10 == 2) {
		if (strncmp(rep.header + 3, "text/gemini", 11) == 0 &&
		    rep.body.data != NULL) {
			st->c->documents++;
			lines(st, r, rep.body.data, link_line);
		}
	} else if (rep.status / 10 != 1)
		dead(st, r, rep.header);
	reply_free(&rep);
}

static void
ask_spartan(struct crawl_state *st, const struct ref *r)
{
	struct sw_reply	 rep;
	char		*to;

	if (sw_spartan(st->c->port, st->c->host, r->ref, NULL, 0, &rep) ==
	    -1 || rep.status < 0) {
		dead(st, r, "no status line");
		sw_reply_free(&rep);
		return;
	}
	if (rep.status == 3) {
		to = resolve(st->c, r->ref, rep.meta);
		enqueue(st, to, r->ref);
		free(to);
	} else if (rep.status == 2) {
		if (strncmp(rep.meta, "text/gemini", 11) == 0) {
			st->c->documents++;
			lines(st, r, rep.body.data, link_line);
		}
	} else
		dead(st, r, rep.meta);
	sw_reply_free(&rep);
}

static void
ask_nex(struct crawl_state *st, const struct ref *r)
{
	struct buf	 b;
	size_t		 n = strcspn(r->ref, "?");

	if (sw_nex(st->c->port, r->ref, &b) == -1) {
		dead(st, r, "no answer");
		buf_free(&b);
		return;
	}
	if (strncmp(b.data, "Error: ", 7) == 0)
		dead(st, r, b.data);
	else if (n == 0 || r->ref[n - 1] == '/' || strchr(r->ref, '.') ==
	    NULL) {
		/* A directory, or a text with references (not a file). */
		st->c->documents++;
		lines(st, r, b.data, link_line);
	}
	buf_free(&b);
}

static void
ask_gopher(struct crawl_state *st, const struct ref *r)
{
	struct buf	 b;
	const char	*sel = r->ref + 1;
	char		 type = r->ref[0];
	int		 rv;

	/* A search (type 7) is asked a query. */
	rv = type == '7' ? e2e_gopher_get(st->c->port, &b, "%s\tgemini", sel) :
	    e2e_gopher_get(st->c->port, &b, "%s", sel);
	if (rv == -1 || b.len == 0) {
		dead(st, r, "no answer");
		buf_free(&b);
		return;
	}
	/* An error menu: one type-3 item (RFC 1436). */
	if (b.data[0] == '3' && strchr(b.data, '\t') != NULL &&
	    strchr(b.data, '\t') < strchr(b.data, '\n'))
		dead(st, r, b.data);
	else if (type == '1' || type == '7') {
		st->c->documents++;
		lines(st, r, b.data, menu_line);
	}
	buf_free(&b);
}

void
sw_crawl(struct sw_crawl *c, const char *start)
{
	struct crawl_state	 st;
	struct ref		 cur, *r = &cur;
	size_t			 i;

	memset(&st, 0, sizeof(st));
	st.c = c;
	c->asked = c->documents = c->dead = 0;
	enqueue(&st, start, "the start");
	while (st.head < st.nq && c->asked < c->max) {
		cur = st.q[st.head++];	/* enqueue() may move the array */
		c->asked++;
		switch (c->surface) {
		case SW_GEMINI:
			ask_gemini(&st, r);
			break;
		case SW_SPARTAN:
			ask_spartan(&st, r);
			break;
		case SW_NEX:
			ask_nex(&st, r);
			break;
		case SW_GOPHER:
			ask_gopher(&st, r);
			break;
		}
	}
	for (i = 0; i < st.nq; i++) {
		free(st.q[i].ref);
		free(st.q[i].from);
	}
	free(st.q);
	for (i = 0; i < st.capseen; i++)
		free(st.seen[i]);
	free(st.seen);
}
