/*
 * geomyidae.c -- a geomyidae menu (.gph) to Gopher menu lines, or to a
 * page of the page model (geomyidae.h).
 *
 * The lines, as geomyidae reads them (its gph(5) and ind.c;
 * docs/operating.md, "Gophermaps and .gph menus", has the table):
 *   line  = item / text
 *   item  = "[" type "|" name "|" selector "|" server "|" port "]" *any
 *           (the fields split at every "|" that no "\" is before; "\|"
 *           is a "|"; the last one ends at the first "]")
 *   text  = ["t"] *any	(a leading "t" is dropped: "t[x]" shows "[x]")
 * A line with a TAB, a "[" line with other than five fields, or one
 * without a type, is shown as text whole.  "server" and "port" stand
 * for this server's public name and Gopher port (an empty server too);
 * a selector of this server that does not start with "/" is relative
 * to the menu's directory, and in every one "." and ".." are resolved
 * (never above "/"), but for the types that name no file (i, 2, 3, 8,
 * w, T) and "h" items with "URL:".  Only the type's first byte
 * counts.  Reads any bytes; what it writes is bounded (env->max).
 */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "core/buf.h"
#include "core/util.h"
#include "site/geomyidae.h"
#include "site/gophermap.h"
#include "site/page.h"

/* An "i" line's dummy fields, as site/page.c writes them. */
#define INFO_TAIL	"\tfake\t(NULL)\t0\r\n"

/* One line, read. */
struct line {
	bool		 item;		/* else text: f[1] */
	char		 type;
	struct buf	 f[5];		/* type, name, selector, server, port,
					   unescaped and NUL-ended */
};

static void
line_init(struct line *l)
{
	size_t	 i;

	memset(l, 0, sizeof(*l));
	for (i = 0; i < nitems(l->f); i++)
		buf_init(&l->f[i]);
}

static void
line_free(struct line *l)
{
	size_t	 i;

	for (i = 0; i < nitems(l->f); i++)
		buf_free(&l->f[i]);
}

/* The line s[0..len) as text, a leading "t" dropped unless whole. */
static void
as_text(struct line *l, const char *s, size_t len, bool whole)
{
	size_t	 i;

	l->item = false;
	if (!whole && len > 0 && s[0] == 't') {
		s++;
		len--;
	}
	for (i = 0; i < nitems(l->f); i++)
		buf_truncate(&l->f[i], 0);
	buf_add(&l->f[1], s, len);
	buf_addc(&l->f[1], '\0');
}

/* s[0..len), one line without its end, into l. */
static void
parse(struct line *l, const char *s, size_t len)
{
	const char	*end;
	size_t		 i, k, n = 0;

	if (len == 0 || s[0] != '[' || memchr(s, '\t', len) != NULL) {
		as_text(l, s, len, len > 0 && s[0] == '[');
		return;
	}
	for (k = 0; k < nitems(l->f); k++)
		buf_truncate(&l->f[k], 0);
	for (i = 1; i < len && n < nitems(l->f); i++) {
		if (s[i] == '|' && l->f[n].len > 0 &&
		    l->f[n].data[l->f[n].len - 1] == '\\') {
			l->f[n].data[l->f[n].len - 1] = '|';
			continue;
		}
		if (s[i] == '|') {
			n++;
			continue;
		}
		buf_addc(&l->f[n], s[i]);
	}
	/* The last field ends at its first "]"; five fields, a type. */
	if (n != nitems(l->f) - 1 || i < len ||
	    (end = memchr(l->f[n].data != NULL ? l->f[n].data : "", ']',
	    l->f[n].len)) == NULL || l->f[0].len == 0) {
		as_text(l, s, len, true);
		return;
	}
	buf_truncate(&l->f[n], (size_t)(end - l->f[n].data));
	for (k = 0; k < nitems(l->f); k++)
		buf_addc(&l->f[k], '\0');
	l->item = true;
	l->type = l->f[0].data[0];
}

/* s as one field: TAB, CR, LF and NUL made spaces. */
static void
field(struct buf *out, const char *s)
{
	for (; *s != '\0'; s++)
		buf_addc(out, *s == '\t' || *s == '\r' || *s == '\n' ? ' ' :
		    *s);
}

/* The port field: digits, 1 to 65535; else dflt. */
static int
port_of(const char *s, int dflt)
{
	long	 v = 0;
	size_t	 i;

	for (i = 0; s[i] != '\0'; i++) {
		if (i == 5 || s[i] < '0' || s[i] > '9')
			return dflt;
		v = v * 10 + (s[i] - '0');
	}
	return i > 0 && v >= 1 && v <= 65535 ? (int)v : dflt;
}

/* Where an item of l points: its server, port and selector. */
struct where {
	const char	*host;		/* borrowed: env's or l's */
	int		 port;
	bool		 ours;		/* this server */
	struct buf	 sel;		/* NUL-ended */
};

static void
where_of(const struct gophermap_env *env, const struct line *l,
    struct where *w)
{
	const char	*h = l->f[3].data, *sel = l->f[2].data;
	bool		 fileless;

	w->ours = strcmp(h, "server") == 0 || *h == '\0' ||
	    strcasecmp(h, env->host) == 0;
	w->host = strcmp(h, "server") == 0 || *h == '\0' ? env->host : h;
	w->port = strcmp(l->f[4].data, "port") == 0 ? env->port :
	    port_of(l->f[4].data, w->ours ? env->port : 70);
	w->ours = w->ours && w->port == env->port;
	buf_init(&w->sel);
	fileless = strchr("i238wT", l->type) != NULL ||
	    strncmp(sel, "URL:", 4) == 0;
	/* Relative to the menu's folder; dot segments never kept. */
	if (w->ours && !fileless && *sel != '\0')
		gophermap_resolve(&w->sel, env->dir, sel, strlen(sel));
	else
		buf_addstr(&w->sel, sel);
	buf_addc(&w->sel, '\0');
}

void
geomyidae_render(const struct gophermap_env *env, const char *text,
    size_t len, struct buf *out)
{
	struct line	 l;
	struct where	 w;
	size_t		 i = 0, n, end = out->len + env->max;

	line_init(&l);
	while (i < len && out->len < end) {
		for (n = 0; i + n < len && text[i + n] != '\n'; n++)
			;
		parse(&l, text + i, n > 0 && text[i + n - 1] == '\r' ? n - 1 :
		    n);
		i += n + 1;
		if (!l.item) {
			buf_addc(out, 'i');
			field(out, l.f[1].data);
			buf_addstr(out, INFO_TAIL);
			continue;
		}
		where_of(env, &l, &w);
		buf_addc(out, l.type <= ' ' || l.type == 0x7f ? 'i' : l.type);
		field(out, l.f[1].data);
		buf_addc(out, '\t');
		field(out, w.sel.data);
		buf_addc(out, '\t');
		field(out, w.host);
		buf_printf(out, "\t%d\r\n", w.port);
		buf_free(&w.sel);
	}
	line_free(&l);
}

/* An item as a link of the page: what it points at, or text. */
static void
item_link(const struct gophermap_env *env, const struct line *l,
    struct page *p)
{
	struct where	 w;
	struct buf	 u = BUF_INIT;
	const char	*name = l->f[1].data;
	enum link_kind	 kind;

	where_of(env, l, &w);
	if (l->type == 'i' || l->type == '3') {
		page_text(p, "%s", name);
		buf_free(&w.sel);
		return;
	}
	if (strncmp(w.sel.data, "URL:", 4) == 0) {
		kind = LINK_EXTERNAL;
		buf_addstr(&u, w.sel.data + 4);
	} else if (l->type == '8' || l->type == 'T') {
		kind = LINK_EXTERNAL;
		buf_printf(&u, "telnet://%s:%d", w.host, w.port);
	} else if (w.ours) {
		/* A path of this server, as every surface names it. */
		kind = l->type == '1' ? LINK_MENU : l->type == '0' ?
		    LINK_DOCUMENT : l->type == '7' ? LINK_SEARCH : LINK_FILE;
		if (w.sel.data[0] != '/')
			buf_addc(&u, '/');
		buf_addstr(&u, w.sel.data);
	} else {
		kind = LINK_EXTERNAL;
		buf_printf(&u, "gopher://%s", w.host);
		if (w.port != 70)
			buf_printf(&u, ":%d", w.port);
		buf_printf(&u, "/%c%s", l->type, w.sel.data);
	}
	buf_addc(&u, '\0');
	page_link(p, kind, u.data, NULL, "%s", *name != '\0' ? name : u.data);
	buf_free(&u);
	buf_free(&w.sel);
}

void
geomyidae_page(const struct gophermap_env *env, const char *text,
    size_t len, struct page *p)
{
	struct line	 l;
	size_t		 i = 0, n, made = 0;

	line_init(&l);
	while (i < len && made < env->max) {
		for (n = 0; i + n < len && text[i + n] != '\n'; n++)
			;
		parse(&l, text + i, n > 0 && text[i + n - 1] == '\r' ? n - 1 :
		    n);
		i += n + 1;
		/* About what the line makes: its bytes, and a link's. */
		made += n + 16;
		if (l.item)
			item_link(env, &l, p);
		else if (l.f[1].data[0] == '\0')
			page_text(p, "%s", "");
		else
			page_text(p, "%s", l.f[1].data);
	}
	line_free(&l);
}
