/*
 * gophermap.c -- a hand-written gophermap to Gopher menu lines
 * (gophermap.h).
 *
 * The lines read, as gophernicus's README.gophermap and Bucktooth
 * describe them (docs/operating.md, "Gophermaps and .gph menus", says
 * which are read):
 *   - a line without a TAB is text: an "i" line ("" too: a blank one);
 *   - "Xname<TAB>selector<TAB>host<TAB>port" is an item; a missing
 *     selector is the name, a missing host and port are the server's,
 *     and a selector without a host that does not start with "/" or
 *     "URL:" is relative to the map's directory ("." and ".." resolved);
 *     "i" and "3" items keep what they were given;
 *   - "#..." is a comment, "!title" the menu's title (shown as text),
 *     "-name" hides name from the listing "*" appends;
 *   - "*" appends the directory's listing and ends the map, "." ends it;
 *   - "=file" includes another map (by its path in the tree, or
 *     relative to the directory), GOPHERMAP_DEPTH_MAX deep at most, as
 *     the caller's include callback allows: never run as a program.
 * Not supported, and dropped: ":ext=type" (per-directory item types),
 * "~" (users' gopherholes) and "%" (virtual hosts).  Reads any bytes;
 * what it writes is bounded (env->max) whatever includes repeat, and
 * so is what includes read (GOPHERMAP_INCLUDE_READ_MAX).
 */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "core/buf.h"
#include "core/util.h"
#include "site/gophermap.h"

/* An "i" line's dummy fields, as site/page.c writes them. */
#define INFO_TAIL	"\tfake\t(NULL)\t0\r\n"

struct state {
	const struct gophermap_env *env;
	struct buf	*out;
	size_t		 end;		/* out may grow to this length */
	char		*hide[GOPHERMAP_HIDE_MAX];	/* owned */
	size_t		 nhide;
	int		 includes;	/* read so far */
	size_t		 read;		/* bytes they read */
	unsigned	 told;		/* limits said so (TOLD_*) */
};

/* Each limit on includes is told once per map, at its first include. */
#define TOLD_DEPTH	0x1
#define TOLD_COUNT	0x2
#define TOLD_SIZE	0x4
/* How much of an include's name such a line shows. */
#define NAME_SHOWN	60

/* s[0..len) as one field: TAB, CR, LF and NUL made spaces. */
static void
field(struct buf *out, const char *s, size_t len)
{
	size_t	 i;

	for (i = 0; i < len; i++)
		buf_addc(out, s[i] == '\t' || s[i] == '\r' || s[i] == '\n' ||
		    s[i] == '\0' ? ' ' : s[i]);
}

static void
info(struct state *st, const char *s, size_t len)
{
	buf_addc(st->out, 'i');
	field(st->out, s, len);
	buf_addstr(st->out, INFO_TAIL);
}

void
gophermap_resolve(struct buf *out, const char *dir, const char *rel,
    size_t len)
{
	struct buf	 p = BUF_INIT;
	size_t		 i, n, start;
	const char	*s;

	if (len == 0 || rel[0] != '/') {
		if (dir[0] != '/')
			buf_addc(&p, '/');
		buf_addstr(&p, dir);
	}
	buf_add(&p, rel, len);
	start = out->len;
	/* Segment by segment, as RFC 3986 5.2.4 removes dot segments. */
	s = p.data;
	for (i = 0; i < p.len; i += n + 1) {
		n = 0;
		while (i + 1 + n < p.len && s[i + 1 + n] != '/')
			n++;
		if (n == 1 && s[i + 1] == '.') {
			if (i + 2 >= p.len)
				buf_addc(out, '/');
			continue;
		}
		if (n == 2 && s[i + 1] == '.' && s[i + 2] == '.') {
			while (out->len > start && out->data[out->len - 1] !=
			    '/')
				out->len--;
			if (out->len > start)
				out->len--;
			if (i + 3 >= p.len)
				buf_addc(out, '/');
			continue;
		}
		buf_add(out, s + i, n + 1);
	}
	if (out->len == start)
		buf_addc(out, '/');
	buf_free(&p);
}

/* s[0..len) is 1 to 5 digits. */
static bool
digits(const char *s, size_t len)
{
	size_t	 i;

	if (len == 0 || len > 5)
		return false;
	for (i = 0; i < len; i++)
		if (s[i] < '0' || s[i] > '9')
			return false;
	return true;
}

/* The port field: digits, 1 to 65535; else the server's. */
static int
port_of(const char *s, size_t len, int dflt)
{
	long	 v = 0;
	size_t	 i;

	if (len == 0 || len > 5)
		return dflt;
	for (i = 0; i < len; i++) {
		if (s[i] < '0' || s[i] > '9')
			return dflt;
		v = v * 10 + (s[i] - '0');
	}
	return v >= 1 && v <= 65535 ? (int)v : dflt;
}

/* An item line: the type, then TAB-separated fields. */
static void
item(struct state *st, const char *s, size_t len)
{
	const struct gophermap_env *env = st->env;
	const char	*f[4];
	size_t		 flen[4], nf = 0, i, start = 1;
	char		 type = s[0];
	bool		 keep = type == 'i' || type == '3';

	for (i = 1; i <= len && nf < 4; i++)
		if (i == len || s[i] == '\t') {
			f[nf] = s + start;
			flen[nf++] = i - start;
			start = i + 1;
		}
	while (nf < 4) {
		f[nf] = "";
		flen[nf++] = 0;
	}
	buf_addc(st->out, type);
	field(st->out, f[0], flen[0]);
	buf_addc(st->out, '\t');
	if (keep) {
		field(st->out, f[1], flen[1]);
		buf_addc(st->out, '\t');
		if (flen[2] > 0)
			field(st->out, f[2], flen[2]);
		else
			buf_addstr(st->out, env->host);
		buf_addc(st->out, '\t');
		if (digits(f[3], flen[3]))
			buf_add(st->out, f[3], flen[3]);	/* "0" too */
		else
			buf_printf(st->out, "%d", env->port);
		buf_addstr(st->out, "\r\n");
		return;
	}
	if (flen[1] == 0) {		/* the name is the selector */
		f[1] = f[0];
		flen[1] = flen[0];
	}
	if (flen[2] > 0) {		/* another server's: as written */
		field(st->out, f[1], flen[1]);
		buf_addc(st->out, '\t');
		field(st->out, f[2], flen[2]);
		buf_printf(st->out, "\t%d\r\n", port_of(f[3], flen[3], 70));
		return;
	}
	if (flen[1] >= 4 && memcmp(f[1], "URL:", 4) == 0)
		field(st->out, f[1], flen[1]);
	else {
		struct buf	 sel = BUF_INIT;

		gophermap_resolve(&sel, env->dir, f[1], flen[1]);
		field(st->out, sel.data, sel.len);
		buf_free(&sel);
	}
	buf_printf(st->out, "\t%s\t%d\r\n", env->host, port_of(f[3], flen[3],
	    env->port));
}

static void	render(struct state *, const char *, size_t, int);

/*
 * An include left out by a limit: an info line says which (its first
 * time in the map: a map of a thousand includes is not a thousand
 * lines of excuses).
 */
static void
left_out(struct state *st, unsigned why, const char *name, size_t len)
{
	struct buf	 msg = BUF_INIT;
	bool		 cut;

	if (st->told & why)
		return;
	st->told |= why;
	/* A long name is cut, at the start of a UTF-8 sequence. */
	if ((cut = len > NAME_SHOWN)) {
		len = NAME_SHOWN;
		while (len > 0 && ((unsigned char)name[len] & 0xc0) == 0x80)
			len--;
	}
	buf_printf(&msg, "(\"=%.*s%s\" is not included: ", (int)len, name,
	    cut ? "..." : "");
	switch (why) {
	case TOLD_DEPTH:
		buf_printf(&msg, "includes nest %d deep at most)",
		    GOPHERMAP_DEPTH_MAX);
		break;
	case TOLD_COUNT:
		buf_printf(&msg, "a menu has %d includes at most)",
		    GOPHERMAP_INCLUDES_MAX);
		break;
	default:
		buf_printf(&msg, "a menu's includes read %zu KiB at most)",
		    GOPHERMAP_INCLUDE_READ_MAX >> 10);
		break;
	}
	info(st, msg.data, msg.len);
	buf_free(&msg);
}

/* "=name": another map, by its selector. */
static void
include(struct state *st, const char *name, size_t len, int depth)
{
	struct buf	 sel = BUF_INIT;
	char		*text;
	size_t		 n = 0;

	while (len > 0 && (name[0] == ' ' || name[0] == '\t')) {
		name++;
		len--;
	}
	while (len > 0 && (name[len - 1] == ' ' || name[len - 1] == '\t'))
		len--;
	if (len == 0 || memchr(name, '\0', len) != NULL ||
	    st->env->include == NULL)
		return;
	if (depth >= GOPHERMAP_DEPTH_MAX) {
		left_out(st, TOLD_DEPTH, name, len);
		return;
	}
	if (st->includes >= GOPHERMAP_INCLUDES_MAX) {
		left_out(st, TOLD_COUNT, name, len);
		return;
	}
	st->includes++;
	gophermap_resolve(&sel, st->env->dir, name, len);
	buf_addc(&sel, '\0');
	if ((text = st->env->include(st->env->arg, sel.data,
	    GOPHERMAP_INCLUDE_READ_MAX - st->read, &n)) != NULL) {
		st->read += n;
		render(st, text, n, depth + 1);
		free(text);
	} else if (n > 0)
		left_out(st, TOLD_SIZE, name, len);
	buf_free(&sel);
}

/* One line without its end; returns 0 when it ends the map. */
static int
line(struct state *st, const char *s, size_t len, int depth)
{
	bool	 tab = memchr(s, '\t', len) != NULL;

	if (len == 1 && s[0] == '.')
		return 0;
	if (len == 1 && s[0] == '*') {
		if (st->env->listing != NULL)
			st->env->listing(st->env->arg, st->hide, st->nhide,
			    st->out);
		return 0;
	}
	if (len == 0) {
		info(st, "", 0);
		return 1;
	}
	switch (s[0]) {
	case '#':
		return 1;
	case '!':
		if (!tab) {
			info(st, s + 1, len - 1);
			return 1;
		}
		break;
	case '-':
		if (!tab) {
			if (len > 1 && st->nhide < GOPHERMAP_HIDE_MAX)
				st->hide[st->nhide++] = xstrndup(s + 1,
				    len - 1);
			return 1;
		}
		break;
	case '=':
		if (!tab) {
			include(st, s + 1, len - 1, depth);
			return 1;
		}
		break;
	case ':':
	case '~':
	case '%':
		if (!tab)
			return 1;	/* not supported: dropped */
		break;
	default:
		break;
	}
	if (!tab || (unsigned char)s[0] <= 0x20 || (unsigned char)s[0] >= 0x7f)
		info(st, s, len);
	else
		item(st, s, len);
	return 1;
}

static void
render(struct state *st, const char *text, size_t len, int depth)
{
	size_t	 i = 0, n;

	while (i < len && st->out->len < st->end) {
		n = 0;
		while (i + n < len && text[i + n] != '\n')
			n++;
		if (!line(st, text + i, n > 0 && text[i + n - 1] == '\r' ?
		    n - 1 : n, depth))
			return;
		i += n + 1;
	}
}

void
gophermap_render(const struct gophermap_env *env, const char *text,
    size_t len, struct buf *out)
{
	struct state	 st;
	size_t		 i;

	memset(&st, 0, sizeof(st));
	st.env = env;
	st.out = out;
	st.end = out->len + env->max;
	render(&st, text, len, 0);
	for (i = 0; i < st.nhide; i++)
		free(st.hide[i]);
}
