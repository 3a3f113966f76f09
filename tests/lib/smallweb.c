/*
 * smallweb.c -- small-web clients and a crawler for the tests
 * (smallweb.h).
 *
 * The crawl keeps a queue of references (a path, or for Gopher the
 * item type then the selector) and a set of those seen, each once; one
 * request per reference, a new connection each, as the protocols have
 * it.  The queue and the set own their strings.
 */
#include <ctype.h>

#include "e2e.h"
#include "core/hash.h"
#include "core/url.h"
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

int
sw_http(int port, const char *host, const char *path,
    struct sw_http_reply *out)
{
	struct buf	 got;
	char		*req, cl[32], *end;
	const char	*e;
	size_t		 hlen;
	int		 rv;

	memset(out, 0, sizeof(*out));
	out->status = -1;
	out->length = -1;
	req = xasprintf("GET %s HTTP/1.1\r\nHost: %s:%d\r\n"
	    "Connection: close\r\n\r\n", path, host, port);
	rv = e2e_plain(port, req, strlen(req), &got);
	free(req);
	if (rv == -1 || got.data == NULL) {
		buf_free(&got);
		return -1;
	}
	buf_addc(&got, '\0');
	/* status-line = HTTP-version SP 3DIGIT SP reason CRLF (RFC 9112) */
	if (strncmp(got.data, "HTTP/1.", 7) == 0 && got.data[8] == ' ' &&
	    (e = strstr(got.data, "\r\n\r\n")) != NULL) {
		out->status = atoi(got.data + 9);
		hlen = (size_t)(e + 2 - got.data);
		if (hlen >= sizeof(out->head))
			hlen = sizeof(out->head) - 1;
		memcpy(out->head, got.data, hlen);
		out->head[hlen] = '\0';
		buf_add(&out->body, e + 4, got.len - 1 - (size_t)(e + 4 -
		    got.data));
		if (sw_http_field(out, "Content-Length", cl, sizeof(cl))) {
			out->length = strtoll(cl, &end, 10);
			if (*end != '\0' || end == cl)
				out->length = -2;	/* not a number */
		}
	}
	buf_addc(&out->body, '\0');
	out->body.len--;
	buf_free(&got);
	return 0;
}

int
sw_http_field(const struct sw_http_reply *r, const char *name, char *v,
    size_t size)
{
	const char	*p, *e;
	size_t		 n = strlen(name);

	/* field-line = field-name ":" OWS field-value OWS; names: any case */
	for (p = strstr(r->head, "\r\n"); p != NULL; p = strstr(p, "\r\n")) {
		p += 2;
		if (strncasecmp(p, name, n) != 0 || p[n] != ':')
			continue;
		p += n + 1;
		p += strspn(p, " \t");
		e = strstr(p, "\r\n");
		while (e > p && (e[-1] == ' ' || e[-1] == '\t'))
			e--;
		snprintf(v, size, "%.*s", (int)(e - p), p);
		return 1;
	}
	return 0;
}

void
sw_http_reply_free(struct sw_http_reply *r)
{
	buf_free(&r->body);
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
	    "nex", "http" };
	static const int url_port[] = { 1965, 70, 300, 1900, 80 };
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
		/* The web view's own URLs may name the loopback address. */
		if (((size_t)(end - host) != strlen(c->host) ||
		    strncasecmp(host, c->host, (size_t)(end - host)) != 0) &&
		    (c->surface != SW_HTTP || end - host != 9 ||
		    strncmp(host, "127.0.0.1", 9) != 0))
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

/*
 * The character references a URL in an attribute may hold, decoded in
 * place: the five of XML, and numeric ones for ASCII (what an encoded
 * URL is made of); any other is left as it is.
 */
static void
entities(char *s)
{
	static const struct { const char *name; char c; } named[] = {
		{ "&amp;", '&' }, { "&lt;", '<' }, { "&gt;", '>' },
		{ "&quot;", '"' }, { "&apos;", '\'' },
	};
	char	*in, *out, *end;
	long	 v;
	size_t	 i, n;

	for (in = out = s; *in != '\0'; ) {
		if (*in != '&') {
			*out++ = *in++;
			continue;
		}
		for (i = 0; i < nitems(named); i++) {
			n = strlen(named[i].name);
			if (strncmp(in, named[i].name, n) == 0)
				break;
		}
		if (i < nitems(named)) {
			*out++ = named[i].c;
			in += n;
		} else if (in[1] == '#' && (v = (in[2] == 'x' || in[2] == 'X') ?
		    strtol(in + 3, &end, 16) : strtol(in + 2, &end, 10)) > 0 &&
		    v < 0x80 && *end == ';') {
			*out++ = (char)v;
			in = end + 1;
		} else
			*out++ = *in++;
	}
	*out = '\0';
}

/* path decoded, without its query and the slash at its end (but "/"). */
static char *
page_of(const char *path)
{
	char	*p = xasprintf("/%s", path + (*path == '/'));
	size_t	 n;

	p[strcspn(p, "?#")] = '\0';
	(void)url_decode(p);
	if ((n = strlen(p)) > 1 && p[n - 1] == '/')
		p[n - 1] = '\0';
	return p;
}

/*
 * 1 when an alternate's path (gopher: the item type, then the
 * selector) names the page at ref: the same path, but for the slash
 * at its end (a post's Gopher menu is "/posts/x/").
 */
static int
same_page(const char *path, int gopher, const char *ref)
{
	char	*a, *b;
	int	 same;

	if (gopher && path[0] == '/' && path[1] != '\0')
		path += 2;
	a = page_of(path);
	b = page_of(ref);
	same = strcmp(a, b) == 0;
	free(a);
	free(b);
	return same;
}

/*
 * A URL an attribute of the tag named tag gives (rel: the tag's rel, or
 * ""): a gemini: or gopher: one of this host, or any a <link
 * rel="alternate"> gives, must name this server's port for its surface;
 * a link to the web view is followed; any other is left alone.
 */
static void
html_url(struct crawl_state *st, const struct ref *r, const char *tag,
    const char *rel, char *url)
{
	static const struct { const char *scheme; int deflt; } alt[] = {
		{ "gemini://", 1965 }, { "gopher://", 70 },
	};
	struct sw_crawl	*c = st->c;
	const char	*host, *end;
	char		*path, why[600];
	size_t		 i, hl;
	int		 port, want, alternate;

	entities(url);
	alternate = strcasecmp(tag, "link") == 0 &&
	    strcasestr(rel, "alternate") != NULL;
	for (i = 0; i < nitems(alt); i++)
		if (strncasecmp(url, alt[i].scheme, strlen(alt[i].scheme)) ==
		    0)
			break;
	if (i == nitems(alt)) {
		path = resolve(c, r->ref, url);
		enqueue(st, path, r->ref);
		free(path);
		return;
	}
	host = url + strlen(alt[i].scheme);
	end = host + strcspn(host, ":/?#");
	hl = (size_t)(end - host);
	if (!alternate && (hl != strlen(c->host) ||
	    strncasecmp(host, c->host, hl) != 0))
		return;			/* another capsule, named in a text */
	c->alternates++;
	port = *end == ':' ? atoi(end + 1) : alt[i].deflt;
	want = i == 0 ? c->alt_gemini : c->alt_gopher;
	if (hl != strlen(c->host) || strncasecmp(host, c->host, hl) != 0 ||
	    port != want) {
		snprintf(why, sizeof(why), "%.300s: not this server's %s "
		    "(%s:%d)", url, i == 0 ? "Gemini" : "Gopher", c->host,
		    want);
		dead(st, r, why);
	} else if (alternate && !same_page(end + strcspn(end, "/"), i == 1,
	    r->ref)) {
		snprintf(why, sizeof(why), "%.300s: an alternate of another "
		    "page", url);
		dead(st, r, why);
	}
}

/*
 * Each start tag of an HTML document, its href, src and action
 * attributes to html_url().  What is read (HTML's syntax, as our pages
 * write it; comments and end tags are skipped):
 *	tag  = "<" name *(1*space attr) *space ["/"] ">"
 *	attr = name ["=" ( DQUOTE *char DQUOTE / "'" *char "'" / 1*char )]
 */
static void
html_links(struct crawl_state *st, const struct ref *r, const char *body)
{
	const char	*p, *name, *value;
	char		 tag[16], rel[64], *urls[3];
	size_t		 nl, vl, nurls, i;

	for (p = body; (p = strchr(p, '<')) != NULL; ) {
		p++;
		if (strncmp(p, "!--", 3) == 0) {
			p = strstr(p, "-->");
			if (p == NULL)
				break;
			continue;
		}
		if (!isalpha((unsigned char)*p))
			continue;
		nl = strcspn(p, " \t\r\n/>");
		snprintf(tag, sizeof(tag), "%.*s", (int)nl, p);
		rel[0] = '\0';
		nurls = 0;
		for (p += nl; *p != '\0' && *p != '>'; ) {
			p += strspn(p, " \t\r\n/");
			name = p;
			p += nl = strcspn(p, " \t\r\n/>=");
			if (nl == 0)
				continue;
			value = "";
			vl = 0;
			if (*p == '=') {
				p++;
				if (*p == '"' || *p == '\'') {
					value = p + 1;
					vl = strcspn(value, *p == '"' ? "\"" :
					    "'");
					p = value + vl + (value[vl] != '\0');
				} else {
					value = p;
					p += vl = strcspn(p, " \t\r\n>");
				}
			}
			if (nl == 3 && strncasecmp(name, "rel", 3) == 0)
				snprintf(rel, sizeof(rel), "%.*s", (int)vl,
				    value);
			else if (nurls < nitems(urls) && ((nl == 4 &&
			    strncasecmp(name, "href", 4) == 0) || (nl == 3 &&
			    strncasecmp(name, "src", 3) == 0) || (nl == 6 &&
			    strncasecmp(name, "action", 6) == 0)))
				urls[nurls++] = xstrndup(value, vl);
		}
		for (i = 0; i < nurls; i++) {
			html_url(st, r, tag, rel, urls[i]);
			free(urls[i]);
		}
	}
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
		if (st->c->reached != NULL)
			st->c->reached(st->c->arg, r->ref, rep.header + 3);
		if (strncmp(rep.header + 3, "text/gemini", 11) == 0 &&
		    rep.body.data != NULL) {
			st->c->documents++;
			lines(st, r, rep.body.data, link_line);
		}
	} else if (rep.status / 10 == 1) {
		/* A prompt (the search) is a page that answers too. */
		if (st->c->reached != NULL)
			st->c->reached(st->c->arg, r->ref, "");
	} else
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
		if (st->c->reached != NULL)
			st->c->reached(st->c->arg, r->ref, rep.meta);
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
	if (strncmp(b.data, "Error: ", 7) == 0) {
		dead(st, r, b.data);
		buf_free(&b);
		return;
	}
	if (st->c->reached != NULL)
		st->c->reached(st->c->arg, r->ref, "");
	if (n == 0 || r->ref[n - 1] == '/' || strchr(r->ref, '.') ==
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
	    strchr(b.data, '\t') < strchr(b.data, '\n')) {
		dead(st, r, b.data);
		buf_free(&b);
		return;
	}
	if (st->c->reached != NULL)
		st->c->reached(st->c->arg, r->ref, "");
	if (type == '1' || type == '7') {
		st->c->documents++;
		lines(st, r, b.data, menu_line);
	}
	buf_free(&b);
}

static void
ask_http(struct crawl_state *st, const struct ref *r)
{
	struct sw_http_reply	 rep;
	char			 v[2048], why[600], *to;

	if (sw_http(st->c->port, st->c->host, r->ref, &rep) == -1 ||
	    rep.status < 0) {
		dead(st, r, "no status line");
		sw_http_reply_free(&rep);
		return;
	}
	if (rep.status / 100 == 3 && rep.status != 304) {
		if (!sw_http_field(&rep, "Location", v, sizeof(v)))
			dead(st, r, "a redirect without Location");
		else {
			to = resolve(st->c, r->ref, v);
			enqueue(st, to, r->ref);
			free(to);
		}
	} else if (rep.status == 200) {
		if (!sw_http_field(&rep, "Content-Type", v, sizeof(v)))
			dead(st, r, "200 without a Content-Type");
		else if (rep.length != (long long)rep.body.len) {
			snprintf(why, sizeof(why), "Content-Length %lld, %zu "
			    "bytes came", rep.length, rep.body.len);
			dead(st, r, why);
		} else {
			if (st->c->reached != NULL)
				st->c->reached(st->c->arg, r->ref, v);
			if (strncasecmp(v, "text/html", 9) == 0) {
				st->c->documents++;
				html_links(st, r, rep.body.data);
			}
		}
	} else {
		snprintf(why, sizeof(why), "%.*s", (int)strcspn(rep.head,
		    "\r\n"), rep.head);
		dead(st, r, why);
	}
	sw_http_reply_free(&rep);
}

void
sw_crawl(struct sw_crawl *c, const char *start)
{
	struct crawl_state	 st;
	struct ref		 cur, *r = &cur;
	size_t			 i;

	memset(&st, 0, sizeof(st));
	st.c = c;
	c->asked = c->documents = c->dead = c->alternates = 0;
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
		case SW_HTTP:
			ask_http(&st, r);
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
