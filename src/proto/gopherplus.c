/*
 * gopherplus.c -- the Gopher+ forms of an answer (the Gopher+ document
 * of 1993), made from the RFC 1436 answer gopher.c already has.
 *
 * The router's Gopher answer is a menu (gophermap bytes), a text or a
 * file.  A Gopher+ client gets the same bytes behind a length line
 * ("+-1": up to a "." line, for menus; "+N": N bytes, for the rest), or
 * attribute blocks made from them: +INFO is the item's menu line with
 * "TAB +" when this server answers it, +ADMIN the site's author and the
 * item's date, +VIEWS its MIME type and, when known, its size.  A menu's
 * items are dated from the snapshot without rendering them (see
 * item_date()).  Knows no sockets; the response's bytes are rebuilt in
 * a buffer the response then owns.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>

#include "content/archive.h"
#include "core/buf.h"
#include "core/cache.h"
#include "core/fsafe.h"
#include "core/layout.h"
#include "core/mime.h"
#include "core/util.h"
#include "proto/gopherplus.h"
#include "site/router.h"

#define CRLF		"\r\n"
#define MENU_MIME	"application/gopher+-menu"

/* One answer being made: the site, and the dates worked out once. */
struct plus {
	const struct gopherplus_site *s;
	const char	*block;		/* the one block asked for, or NULL */
	int		 have_latest;	/* latest is worked out */
	time_t		 latest;	/* newest post's update; 0: none */
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

static time_t
newest(struct post *const *posts, size_t n)
{
	time_t	 t = 0;
	size_t	 i;

	for (i = 0; i < n; i++)
		if (posts[i]->updated.t > t)
			t = posts[i]->updated.t;
	return t;
}

/* A file's mtime beneath the capsule; 0 when it cannot be had. */
static time_t
file_date(const struct plus *p, const char *rel)
{
	struct stat	 st;
	enum fsafe_kind	 kind;
	int		 fd;

	if ((fd = fsafe_open(p->s->a->dir, rel, p->s->links, &st,
	    &kind)) == -1)
		return 0;
	close(fd);
	return st.st_mtime;
}

/*
 * When the item at the site path last changed, 0 when unknown: a post
 * (and its menu) by its "updated" date, a series or a tag by its newest
 * post, a page (and its menu) or a file by its mtime, every other page
 * of ours (home, lists, feeds, search) by the newest post of all.  *size gets the length of a post's
 * or a page's Markdown, which its Gopher text is close to (rendering a
 * list's every post to measure it is not worth it), else -1.
 */
static time_t
item_date(struct plus *p, const char *path, long long *size)
{
	const struct archive	*a = p->s->a;
	const struct series	*se;
	const struct tag	*t;
	const struct post	*po;
	const struct doc	*d;
	struct layout_ref	 ref;
	char			 name[256];

	*size = -1;
	if (a == NULL || path[0] != '/' || strncmp(path, "/URL:", 5) == 0)
		return 0;
	layout_parse(path, 0, &ref);
	if (ref.name != NULL && layout_name(&ref, name, sizeof(name)) == -1)
		ref.kind = LAYOUT_NONE;
	switch (ref.kind) {
	case LAYOUT_FILES:
		if (ref.bare)
			break;
		return *ref.rest != '\0' ? file_date(p, path + 1) :
		    file_date(p, "files");
	case LAYOUT_POST:
	case LAYOUT_POST_MENU:
		if ((po = archive_post(a, name)) == NULL)
			return 0;
		if (ref.kind == LAYOUT_POST)
			*size = (long long)po->srclen;
		return po->updated.t;
	case LAYOUT_SERIES:
	case LAYOUT_SERIES_FEED:
		if ((se = archive_series(a, name)) != NULL)
			return newest(se->parts, se->nparts);
		break;
	case LAYOUT_TAG:
	case LAYOUT_TAG_FEED:
		if ((t = archive_tag(a, name)) != NULL)
			return newest(t->posts, t->nposts);
		break;
	case LAYOUT_PAGE:
	case LAYOUT_PAGE_MENU:
		if ((d = archive_doc(a, name)) != NULL) {
			if (ref.kind == LAYOUT_PAGE)
				*size = (long long)d->srclen;
			return file_date(p, d->path);
		}
		break;
	case LAYOUT_NONE:
	case LAYOUT_HOME:
	case LAYOUT_POSTS:
	case LAYOUT_SERIES_LIST:
	case LAYOUT_TAGS:
	case LAYOUT_GEMLOG:
	case LAYOUT_FEED:
	case LAYOUT_SEARCH:
	case LAYOUT_ROBOTS:
	case LAYOUT_DRAFTS:
	case LAYOUT_DRAFT:
	case LAYOUT_BUNDLE_FILE:
	case LAYOUT_USERS:
	case LAYOUT_USER:
		break;
	}
	if (!p->have_latest) {
		p->latest = newest(a->posts, a->nposts);
		p->have_latest = 1;
	}
	return p->latest;
}

/* A one-line copy of s for a block: no TAB, CR or LF. */
static void
add_clean(struct buf *out, const char *s)
{
	for (; *s != '\0'; s++)
		buf_addc(out, *s == '\t' || *s == '\r' || *s == '\n' ?
		    ' ' : *s);
}

static void
admin_block(struct plus *p, struct buf *out, time_t t)
{
	struct tm	 tm;
	char		 human[64], stamp[16];

	if (!want(p, "ADMIN"))
		return;
	buf_addstr(out, "+ADMIN:" CRLF " Admin: ");
	add_clean(out, p->s->admin != NULL && *p->s->admin != '\0' ?
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

/* The MIME type of the answer in r, for its own +VIEWS. */
static void
answer_mime(const struct response *r, char out[128])
{
	size_t	 len;

	if (r->gopher_type == '1') {
		snprintf(out, 128, "%s", MENU_MIME);
		return;
	}
	len = strcspn(r->meta, ";");
	while (len > 0 && r->meta[len - 1] == ' ')
		len--;
	if (len == 0 || len >= 128 || (len == 11 &&
	    strncmp(r->meta, "text/gemini", 11) == 0))
		snprintf(out, 128, "%s", "text/plain");	/* Gopher text */
	else
		snprintf(out, 128, "%.*s", (int)len, r->meta);
}

/*
 * What the answer in r calls itself: a menu its first info line, a
 * text its first line that is not blank, anything else the last
 * segment of its path.
 */
static void
answer_title(const struct response *r, const char *path, struct buf *out)
{
	const char	*s, *end, *nl, *tab;
	size_t		 len, skip;

	if (r->body != NULL && (r->gopher_type == '1' ||
	    r->gopher_type == '0')) {
		end = r->body + r->bodylen;
		for (s = r->body; s < end; s = nl + 1) {
			if ((nl = memchr(s, '\n', (size_t)(end - s))) == NULL)
				nl = end;
			len = (size_t)(nl - s);
			skip = 0;
			if (r->gopher_type == '1') {
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
				for (s += skip, len -= skip; len > 0; s++, len--)
					buf_addc(out, *s == '\t' || *s == '\r' ?
					    ' ' : *s);
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
item_blocks(struct plus *p, const struct response *r, const char *selector,
    const char *path, struct buf *out)
{
	char		 mime[128];
	long long	 size;
	time_t		 t;

	if (want(p, "INFO")) {
		buf_printf(out, "+INFO: %c", r->gopher_type ? r->gopher_type :
		    '9');
		answer_title(r, path, out);
		buf_addc(out, '\t');
		add_clean(out, selector);
		buf_printf(out, "\t%s\t%d\t+" CRLF, p->s->host, p->s->port);
	}
	t = item_date(p, path, &size);
	admin_block(p, out, t);
	answer_mime(r, mime);
	size = (long long)r->bodylen;
	if (r->fd != -1)
		size += (long long)r->filelen;
	views_block(p, out, mime, size);
}

/*
 * A menu's lines through fn, one by one (no CRLF; writable copies),
 * up to its "." line.
 */
static void
each_line(const struct response *r, struct plus *p, struct buf *out,
    void (*fn)(struct plus *, struct buf *, char *))
{
	const char	*s = r->body, *end = r->body + r->bodylen, *nl;
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
		size = p->s->size(p->s->size_ctx, path.data);
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

/* r's body becomes out (owned), its blob reference dropped. */
static void
replace_body(struct response *r, struct buf *out, int keep_file)
{
	blob_unref(r->blob);
	r->blob = NULL;
	buf_free(&r->owned);
	r->owned = *out;
	buf_init(out);
	if (r->owned.data == NULL)
		buf_addstr(&r->owned, "");
	response_use_owned(r);
	if (!keep_file && r->fd != -1) {
		close(r->fd);
		r->fd = -1;
	}
}

void
gopherplus_answer(const struct gopherplus_site *s, enum gopherplus_form form,
    const char *view, const char *block, const char *selector,
    const char *path, struct response *r)
{
	struct plus	 p = { s, block, 0, 0 };
	struct buf	 out = BUF_INIT;
	int		 menu = r->gopher_type == '1';
	uint64_t	 len;

	switch (form) {
	case GOPHERPLUS_NONE:
		return;
	case GOPHERPLUS_DATA:
		/* The Gopher+ view of a menu with every item's blocks. */
		if (menu && view_is(view, MENU_MIME)) {
			buf_addstr(&out, "+-1" CRLF);
			each_line(r, &p, &out, dir_line);
			break;
		}
		if (!menu) {
			len = r->bodylen + (r->fd != -1 ? r->filelen : 0);
			buf_printf(&out, "+%llu" CRLF, (unsigned long long)len);
			buf_add(&out, r->body, r->bodylen);
			replace_body(r, &out, 1);
			return;
		}
		p.block = NULL;
		buf_addstr(&out, "+-1" CRLF);
		each_line(r, &p, &out, data_line);
		break;
	case GOPHERPLUS_INFO:
	case GOPHERPLUS_DIR:
		buf_addstr(&out, "+-1" CRLF);
		if (form == GOPHERPLUS_DIR && menu)
			each_line(r, &p, &out, dir_line);
		else
			item_blocks(&p, r, selector, path, &out);
		break;
	}
	buf_addstr(&out, "." CRLF);
	replace_body(r, &out, 0);
}

void
gopherplus_error(const struct gopherplus_site *s, const char *msg,
    struct response *r)
{
	struct buf	 out = BUF_INIT;

	buf_addstr(&out, "--1" CRLF "1 ");
	add_clean(&out, s->admin != NULL && *s->admin != '\0' ? s->admin :
	    s->host);
	buf_addstr(&out, CRLF);
	add_clean(&out, msg != NULL && *msg != '\0' ? msg : "Error");
	buf_addstr(&out, CRLF "." CRLF);
	replace_body(r, &out, 0);
}
