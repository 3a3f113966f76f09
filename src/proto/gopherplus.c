/*
 * gopherplus.c -- the Gopher+ wire format (the Gopher+ document of
 * 1993), made from an RFC 1436 answer's bytes.
 *
 * A menu (gophermap bytes), a text or a file goes to a Gopher+ client
 * behind a length line ("+-1": up to a "." line, for menus; "+N": N
 * bytes, for the rest), or as attribute blocks made from it: +INFO is
 * the item's menu line with "TAB +" when this server answers it,
 * +ADMIN the site's author and the item's date, +VIEWS its MIME type
 * and, when known, its size.  Dates and sizes come from the caller's
 * callbacks (site/gopher_front.c asks the archive).  Pure functions
 * over bytes: the answer is borrowed, the result appended to the
 * caller's buf.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "core/buf.h"
#include "core/mime.h"
#include "core/util.h"
#include "proto/gopher.h"
#include "proto/gopherplus.h"

#define CRLF		"\r\n"
#define MENU_MIME	"application/gopher+-menu"

/* One answer being made. */
struct plus {
	const struct gopherplus_site *s;
	const char	*block;		/* the one block asked for, or NULL */
};

/* One line of a menu, split in place into its four fields. */
struct item {
	char		 type;
	const char	*display, *selector, *host;
	int		 port;
};

static int
want(const struct plus *p, const char *block)
{
	return p->block == NULL || strcasecmp(p->block, block) == 0;
}

/* A menu line (no CRLF) into its fields; -1 when it has fewer. */
static int
split(char *line, struct item *it)
{
	char	*f[3];
	size_t	 i;

	it->type = line[0];
	it->display = line + (line[0] != '\0');
	for (i = 0; i < 3; i++) {
		if ((f[i] = strchr(i == 0 ? line : f[i - 1], '\t')) == NULL)
			return -1;
		*f[i]++ = '\0';
	}
	it->selector = f[0];
	it->host = f[1];
	it->port = atoi(f[2]);
	return 0;
}

/* An item this server answers: our host and port, not text or error. */
static int
ours(const struct plus *p, const struct item *it)
{
	return it->type != 'i' && it->type != '3' &&
	    strcmp(it->host, p->s->host) == 0 && it->port == p->s->port;
}

/* s on one line of a block: gopher_clean(). */
static void
clean_str(struct buf *out, const char *s)
{
	gopher_clean(out, s, strlen(s));
}

/* When the item at path last changed, 0 when unknown; *size as date. */
static time_t
item_date(struct plus *p, const char *path, long long *size)
{
	*size = -1;
	if (p->s->date == NULL)
		return 0;
	return p->s->date(p->s->ctx, path, size);
}

static void
admin_block(struct plus *p, struct buf *out, time_t t)
{
	struct tm	 tm;
	char		 human[64], stamp[16];

	if (!want(p, "ADMIN"))
		return;
	buf_addstr(out, "+ADMIN:" CRLF " Admin: ");
	clean_str(out, p->s->admin != NULL && *p->s->admin != '\0' ?
	    p->s->admin : p->s->host);
	buf_addstr(out, CRLF);
	/* "Mod-Date: Wed Jul 28 17:02:01 1993 <19930728170201>", UTC */
	if (t > 0 && gmtime_r(&t, &tm) != NULL &&
	    strftime(human, sizeof(human), "%a %b %d %H:%M:%S %Y", &tm) > 0 &&
	    strftime(stamp, sizeof(stamp), "%Y%m%d%H%M%S", &tm) > 0)
		buf_printf(out, " Mod-Date: %s <%s>" CRLF, human, stamp);
}

/* "<512b>", "<12k>": the size as Gopher+ views write it. */
static void
views_block(struct plus *p, struct buf *out, const char *mime,
    long long size)
{
	if (!want(p, "VIEWS"))
		return;
	buf_printf(out, "+VIEWS:" CRLF " %s:", mime);
	if (size >= 0 && size < 1024)
		buf_printf(out, " <%lldb>", size);
	else if (size >= 0)
		buf_printf(out, " <%lldk>", (size + 1023) / 1024);
	buf_addstr(out, CRLF);
}

/* The MIME type of a menu item, by its type and its selector. */
static const char *
item_mime(char type, const char *selector)
{
	const char	*m;

	switch (type) {
	case '1':
	case '7':
		return MENU_MIME;
	case 'h':
		return "text/html";
	case '0':
		m = mime_type(selector);
		return strcmp(m, MIME_DEFAULT) == 0 ? "text/plain" : m;
	default:
		return mime_type(selector);
	}
}

/* The MIME type of the answer, for its own +VIEWS. */
static void
answer_mime(const struct gopherplus_answer *ans, char out[128])
{
	const char	*meta = ans->mime != NULL ? ans->mime : "";
	size_t		 len;

	if (ans->type == '1') {
		snprintf(out, 128, "%s", MENU_MIME);
		return;
	}
	len = strcspn(meta, ";");
	while (len > 0 && meta[len - 1] == ' ')
		len--;
	if (len == 0 || len >= 128 || (len == 11 &&
	    strncmp(meta, "text/gemini", 11) == 0))
		snprintf(out, 128, "%s", "text/plain");	/* Gopher text */
	else
		snprintf(out, 128, "%.*s", (int)len, meta);
}

/*
 * What the answer calls itself: a menu its first info line, a
 * text its first line that is not blank, anything else the last
 * segment of its path.
 */
static void
answer_title(const struct gopherplus_answer *ans, const char *path,
    struct buf *out)
{
	const char	*s, *end, *nl, *tab;
	size_t		 len, skip;

	if (ans->body != NULL && (ans->type == '1' || ans->type == '0')) {
		end = ans->body + ans->bodylen;
		for (s = ans->body; s < end; s = nl + 1) {
			if ((nl = memchr(s, '\n', (size_t)(end - s))) == NULL)
				nl = end;
			len = (size_t)(nl - s);
			skip = 0;
			if (ans->type == '1') {
				if (len == 0 || s[0] != 'i')
					continue;
				if ((tab = memchr(s, '\t', len)) != NULL)
					len = (size_t)(tab - s);
				skip = 1;
			}
			while (len > skip && (s[len - 1] == '\r' ||
			    s[len - 1] == ' '))
				len--;
			while (len > skip && s[skip] == ' ')
				skip++;
			if (len > skip) {
				gopher_clean(out, s + skip, len - skip);
				return;
			}
		}
	}
	len = strlen(path);
	while (len > 1 && path[len - 1] == '/')
		len--;
	s = path + len;
	while (s > path && s[-1] != '/')
		s--;
	buf_add(out, s, (size_t)(path + len - s));
}

/* The item itself: its +INFO, +ADMIN and +VIEWS blocks. */
static void
item_blocks(struct plus *p, const struct gopherplus_answer *ans,
    const char *selector, const char *path, struct buf *out)
{
	char		 mime[128];
	long long	 size;
	time_t		 t;

	if (want(p, "INFO")) {
		buf_printf(out, "+INFO: %c", ans->type ? ans->type : '9');
		answer_title(ans, path, out);
		buf_addc(out, '\t');
		clean_str(out, selector);
		buf_printf(out, "\t%s\t%d\t+" CRLF, p->s->host, p->s->port);
	}
	t = item_date(p, path, &size);
	admin_block(p, out, t);
	answer_mime(ans, mime);
	size = (long long)ans->bodylen;
	if (ans->file)
		size += (long long)ans->filelen;
	views_block(p, out, mime, size);
}

/*
 * A menu's lines through fn, one by one (no CRLF; writable copies),
 * up to its "." line.
 */
static void
each_line(const struct gopherplus_answer *ans, struct plus *p,
    struct buf *out, void (*fn)(struct plus *, struct buf *, char *))
{
	const char	*s = ans->body, *end = ans->body + ans->bodylen, *nl;
	char		*line;
	size_t		 len, k;

	for (; s != NULL && s < end; s = nl + 1) {
		if ((nl = memchr(s, '\n', (size_t)(end - s))) == NULL)
			nl = end;
		len = (size_t)(nl - s);
		if (len > 0 && s[len - 1] == '\r')
			len--;
		if (len == 1 && s[0] == '.')
			break;
		/* A CR or a NUL inside a line would end it early. */
		line = xmalloc(len + 1);
		for (k = 0; k < len; k++)
			line[k] = s[k] == '\r' || s[k] == '\0' ? ' ' : s[k];
		line[len] = '\0';
		fn(p, out, line);
		free(line);
	}
}

/* DATA: the menu line, marked as Gopher+ when we answer the item. */
static void
data_line(struct plus *p, struct buf *out, char *line)
{
	struct item	 it;
	size_t		 len = strlen(line);

	buf_add(out, line, len);
	if (split(line, &it) == 0 && ours(p, &it))
		buf_addstr(out, "\t+");
	buf_addstr(out, CRLF);
}

/* DIR: the menu line as an +INFO block, and the blocks of our items. */
static void
dir_line(struct plus *p, struct buf *out, char *line)
{
	struct item	 it;
	struct buf	 path = BUF_INIT;
	size_t		 len = strlen(line);
	long long	 size;
	time_t		 t;
	int		 mine;

	if (len == 0)
		return;
	if (want(p, "INFO")) {
		buf_addstr(out, "+INFO: ");
		buf_add(out, line, len);
	}
	mine = split(line, &it) == 0 && ours(p, &it);
	if (want(p, "INFO"))
		buf_addstr(out, mine ? "\t+" CRLF : CRLF);
	if (!mine)
		return;
	if (it.selector[0] != '/')
		buf_addc(&path, '/');
	buf_addstr(&path, it.selector);
	t = item_date(p, path.data, &size);
	admin_block(p, out, t);
	/* A menu's size is not needed; anything else's is (see above). */
	if (size < 0 && it.type != '1' && it.type != '7' &&
	    p->s->size != NULL && want(p, "VIEWS"))
		size = p->s->size(p->s->ctx, path.data);
	views_block(p, out, item_mime(it.type, it.selector), size);
	buf_free(&path);
}

/* Does the view asked for ("text/plain En_US") name MIME type mime? */
static int
view_is(const char *view, const char *mime)
{
	size_t	 len;

	if (view == NULL)
		return 0;
	len = strcspn(view, " ");
	return len == strlen(mime) && strncasecmp(view, mime, len) == 0;
}

int
gopherplus_write(const struct gopherplus_site *s, enum gopherplus_form form,
    const char *view, const char *block, const char *selector,
    const char *path, const struct gopherplus_answer *ans, struct buf *out)
{
	struct plus	 p = { s, block };
	int		 menu = ans->type == '1';
	uint64_t	 len;

	switch (form) {
	case GOPHERPLUS_NONE:
		return 1;
	case GOPHERPLUS_DATA:
		/* The Gopher+ view of a menu with every item's blocks. */
		if (menu && view_is(view, MENU_MIME)) {
			buf_addstr(out, "+-1" CRLF);
			each_line(ans, &p, out, dir_line);
			break;
		}
		if (!menu) {
			len = ans->bodylen + (ans->file ? ans->filelen : 0);
			buf_printf(out, "+%llu" CRLF, (unsigned long long)len);
			buf_add(out, ans->body, ans->bodylen);
			return 1;
		}
		p.block = NULL;
		buf_addstr(out, "+-1" CRLF);
		each_line(ans, &p, out, data_line);
		break;
	case GOPHERPLUS_INFO:
	case GOPHERPLUS_DIR:
		buf_addstr(out, "+-1" CRLF);
		if (form == GOPHERPLUS_DIR && menu)
			each_line(ans, &p, out, dir_line);
		else
			item_blocks(&p, ans, selector, path, out);
		break;
	}
	buf_addstr(out, "." CRLF);
	return 0;
}

void
gopherplus_write_error(const struct gopherplus_site *s, const char *msg,
    struct buf *out)
{
	buf_addstr(out, "--1" CRLF "1 ");
	clean_str(out, s->admin != NULL && *s->admin != '\0' ? s->admin :
	    s->host);
	buf_addstr(out, CRLF);
	clean_str(out, msg != NULL && *msg != '\0' ? msg : "Error");
	buf_addstr(out, CRLF "." CRLF);
}
