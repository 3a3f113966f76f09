/*
 * nav.c -- navigation pages (home, archive, series, tags, gemlog, search
 * results) and the header and footer of a post, as page blocks.
 *
 * Reads a snapshot and writes struct page blocks; knows nothing of
 * gemtext or Gopher syntax (page.c does) nor of requests.  The page owns
 * every string added here; Markdown intros stay borrowed from the
 * snapshot.
 *
 * Display formats, one place for all of them:
 *   post link    "YYYY-MM-DD Title"              (a gemlog-feed entry)
 *   series part  "YYYY-MM-DD Part 3: Title (5 min)"
 *   series       "Title (4 parts, 1 h 5 min)"
 *   tag          "name (3 posts)", "name (3)" on the home page
 * A part is numbered as the writer numbered it (part: in its front
 * matter), on the series page, in the post's header and footer and over
 * both protocols alike: when part 3 is a draft, the parts read 1, 2, 4
 * and the gap shows.  A part without part: follows the one before it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "content/archive.h"
#include "content/search.h"
#include "core/config.h"
#include "core/buf.h"
#include "core/surface.h"
#include "core/utf8.h"
#include "core/layout.h"
#include "core/util.h"
#include "site/nav.h"
#include "site/page.h"

#define NAV_LATEST	10	/* latest posts on "/" without a config */
/* " · " between facts on a line */
#define SEP		" " PAGE_DOT " "

static const char *
capsule_title(const struct archive *a)
{
	return a->title != NULL && *a->title != '\0' ? a->title : "Capsule";
}

static const char *
series_title(const struct series *s)
{
	return s->title != NULL && *s->title != '\0' ? s->title : s->slug;
}

static const char *
tag_name(const struct tag *t)
{
	return t->name != NULL && *t->name != '\0' ? t->name : t->slug;
}

static const char *
post_title(const struct post *p)
{
	return p->title != NULL && *p->title != '\0' ? p->title : p->slug;
}

void
nav_minutes(unsigned min, char out[32])
{
	if (min < 60)
		snprintf(out, 32, "%u min", min);
	else if (min % 60 == 0)
		snprintf(out, 32, "%u h", min / 60);
	else
		snprintf(out, 32, "%u h %u min", min / 60, min % 60);
}

/*
 * The number part p is shown with: its part: as written, else one more
 * than the part before it (parts are in part order, numbered ones
 * first: archive.c), the first being 1.
 */
static long
part_number(const struct post *p)
{
	const struct series	*s = p->series;
	long			 n = 0;
	size_t			 i;

	if (s == NULL)
		return p->part > 0 ? p->part : (long)p->series_pos;
	for (i = 0; i < s->nparts; i++) {
		n = s->parts[i]->part > 0 ? s->parts[i]->part : n + 1;
		if (s->parts[i] == p)
			return n;
	}
	return p->part > 0 ? p->part : (long)p->series_pos;
}

/* The number of the series' last part: "Part 2 of 4". */
static long
series_last(const struct series *s)
{
	return s->nparts > 0 ? part_number(s->parts[s->nparts - 1]) : 0;
}

/* The number at p, decimal or Roman (for "Part IV"); -1 when none. */
static long
number_at(const char *p, const char **end)
{
	static const char	 roman[] = "IVXLC";
	static const int	 value[] = { 1, 5, 10, 50, 100 };
	const char		*r;
	long			 v = 0, prev = 0, d;

	if (*p >= '0' && *p <= '9') {
		for (; *p >= '0' && *p <= '9' && v < 100000; p++)
			v = v * 10 + (*p - '0');
		*end = p;
		return v;
	}
	for (; *p != '\0' && (r = strchr(roman, *p)) != NULL; p++) {
		d = value[r - roman];
		v += d > prev ? d - 2 * prev : d;
		prev = d;
	}
	*end = p;
	return v > 0 ? v : -1;
}

static int
word_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	    (c >= '0' && c <= '9') || (unsigned char)c >= 0x80;
}

/*
 * Does the title already say which part it is?  Only when it says so
 * in words a reader takes for a part number: "Part 3", "Pt. 3",
 * "Chapter III", "Episode 03", "#3", "(3/7)", "3 of 7", or a title
 * that opens with the number ("3. Setup", "03 - Setup").  A number
 * elsewhere ("Notes on Python 2", "release 0.2.1") is the title's own.
 */
static int
names_part(const char *title, long n)
{
	static const char *const words[] = {
		"part", "pt", "chapter", "ch", "episode", "ep", "lesson",
		"no", "number", "vol", "volume", "day", "week", "step",
		"session", "unit", "#",
	};
	const char	*p, *q, *e;
	size_t		 i, len;
	long		 v;

	/* Opening with the number and a separator. */
	if ((v = number_at(title, &e)) == n && title[0] >= '0' &&
	    title[0] <= '9' && (*e == '.' || *e == ':' || *e == ')' ||
	    (*e == ' ' && (e[1] == '-' || strncmp(e + 1, "\xe2\x80\x93", 3) ==
	    0 || strncmp(e + 1, "\xe2\x80\x94", 3) == 0))) &&
	    !(e[0] == '.' && e[1] >= '0' && e[1] <= '9'))
		return 1;
	for (p = title; *p != '\0'; p++) {
		if (p > title && word_char(p[-1]) && *p != '#')
			continue;
		for (i = 0; i < nitems(words); i++) {
			len = strlen(words[i]);
			if (strncasecmp(p, words[i], len) != 0 ||
			    (word_char(p[len]) && words[i][0] != '#'))
				continue;
			for (q = p + len; *q == '.' || *q == ' ' || *q == ':' ||
			    *q == '#'; q++)
				;
			if (q == p + len && words[i][0] != '#')
				continue;	/* "Part3": not spaced */
			v = number_at(q, &e);
			if (v == n && !word_char(*e) && !(*e == '.' &&
			    e[1] >= '0' && e[1] <= '9'))
				return 1;
		}
		/* "(3/7)", "3 of 7" */
		if (*p >= '0' && *p <= '9' && (p == title || !word_char(p[-1]))) {
			v = number_at(p, &e);
			if (v == n && (*e == '/' || strncasecmp(e, " of ", 4) ==
			    0) && ((e[0] == '/' && e[1] >= '0' && e[1] <= '9') ||
			    (e[0] == ' ' && e[4] >= '0' && e[4] <= '9')))
				return 1;
		}
	}
	return 0;
}

/* "Part 3: Title", unless the title numbers itself. */
static char *
part_label(const struct post *p)
{
	long	 n = part_number(p);

	if (names_part(post_title(p), n))
		return xstrdup(post_title(p));
	return xasprintf("Part %ld: %s", n, post_title(p));
}

/* "=> /posts/slug YYYY-MM-DD Title" */
static void
post_link(struct page *pg, const struct post *p)
{
	char	*url;

	url = layout_path(LAYOUT_POST, p->slug, NULL);
	page_link(pg, LINK_TEXT, url, p->date.ymd, "%s", post_title(p));
	free(url);
}

/* "=> /series/slug/ Title (4 parts, 1 h 5 min)" */
static void
series_link(struct page *pg, const struct series *s)
{
	char	*url, min[32];

	url = layout_path(LAYOUT_SERIES, s->slug, NULL);
	nav_minutes(s->reading_min, min);
	if (s->nparts == 0)
		page_link(pg, LINK_MENU, url, NULL, "%s (no parts yet)",
		    series_title(s));
	else
		page_link(pg, LINK_MENU, url, NULL, "%s (%zu part%s, %s)",
		    series_title(s), s->nparts, s->nparts == 1 ? "" : "s",
		    min);
	free(url);
}

/* "Level: beginner · Audience: C programmers", when either is given. */
static void
series_facts(struct page *pg, const struct series *s)
{
	if (s->level != NULL && s->audience != NULL)
		page_text(pg, "Level: %s" SEP "Audience: %s", s->level,
		    s->audience);
	else if (s->level != NULL)
		page_text(pg, "Level: %s", s->level);
	else if (s->audience != NULL)
		page_text(pg, "Audience: %s", s->audience);
}

static void
tag_link(struct page *pg, const struct tag *t, int brief)
{
	char	*url;

	url = layout_path(LAYOUT_TAG, t->slug, NULL);
	if (brief)
		page_link(pg, LINK_MENU, url, NULL, "%s (%zu)", tag_name(t),
		    t->nposts);
	else
		page_link(pg, LINK_MENU, url, NULL, "%s (%zu post%s)",
		    tag_name(t), t->nposts, t->nposts == 1 ? "" : "s");
	free(url);
}

static void
home_link(struct page *pg, const struct archive *a)
{
	page_link(pg, LINK_MENU, LAYOUT_PATH_HOME, NULL, "Back to %s",
	    capsule_title(a));
}

/*
 * The end of a series' or a tag's page: its feed (feed, malloc'd, is
 * freed here), the list of every one, home.
 */
static void
list_footer(struct page *pg, const struct archive *a, char *feed,
    const char *feedlabel, const char *list, const char *listlabel)
{
	page_blank(pg);
	page_link(pg, LINK_DOCUMENT, feed, NULL, "%s", feedlabel);
	free(feed);
	page_link(pg, LINK_MENU, list, NULL, "%s", listlabel);
	home_link(pg, a);
}

void
nav_home(struct page *pg, const struct archive *a, const struct config *c)
{
	size_t	 i, n, nfeat = 0;

	page_heading(pg, 1, "%s", capsule_title(a));
	if (a->subtitle != NULL && *a->subtitle != '\0')
		page_heading(pg, 2, "%s", a->subtitle);
	page_blank(pg);
	if (a->index_src != NULL && a->index_len > a->index_body_off) {
		page_source(pg, a->index_src + a->index_body_off,
		    a->index_len - a->index_body_off, 0);
		page_blank(pg);
	}

	for (i = 0; i < a->nposts; i++)
		if (a->posts[i]->featured)
			nfeat++;
	if (nfeat > 0) {
		page_heading(pg, 2, "Start here");
		for (i = 0; i < a->nposts; i++)
			if (a->posts[i]->featured)
				post_link(pg, a->posts[i]);
		page_blank(pg);
	}

	page_heading(pg, 2, "Latest posts");
	n = c != NULL ? c->latest_posts : NAV_LATEST;
	if (a->nposts == 0)
		page_text(pg, "Nothing published yet.");
	for (i = 0; i < a->nposts && i < n; i++)
		post_link(pg, a->posts[i]);
	if (a->nposts > n)
		page_link(pg, LINK_MENU, LAYOUT_PATH_POSTS, NULL,
		    "All %zu posts",
		    a->nposts);
	page_blank(pg);

	/* A series file with no parts yet waits on /series/, not here. */
	for (i = n = 0; i < a->nseries; i++)
		n += a->series[i]->nparts > 0;
	if (n > 0) {
		page_heading(pg, 2, "Series");
		for (i = 0; i < a->nseries; i++)
			if (a->series[i]->nparts > 0)
				series_link(pg, a->series[i]);
		page_blank(pg);
	}

	if (a->ntags > 0) {
		/* a->tags is most used first: the head is the top list. */
		page_heading(pg, 2, "Tags");
		for (i = 0; i < a->ntags && i < NAV_HOME_TAGS; i++)
			tag_link(pg, a->tags[i], 1);
		if (a->ntags > NAV_HOME_TAGS)
			page_link(pg, LINK_MENU, LAYOUT_PATH_TAGS, NULL,
			    "All %zu tags", a->ntags);
		page_blank(pg);
	}

	/* No way to a page that would only say "No series yet." */
	page_heading(pg, 2, "Browse");
	if (a->nposts > 0)
		page_link(pg, LINK_MENU, LAYOUT_PATH_POSTS, NULL,
		    "Archive: every post");
	if (a->nseries > 0)
		page_link(pg, LINK_MENU, LAYOUT_PATH_SERIES, NULL, "Series");
	if (a->ntags > 0)
		page_link(pg, LINK_MENU, LAYOUT_PATH_TAGS, NULL, "Tags");
	if (a->nposts + a->ndocs > 0)
		page_link(pg, LINK_SEARCH, LAYOUT_PATH_SEARCH, NULL,
		    "Search");
	page_link(pg, LINK_MENU, LAYOUT_PATH_GEMLOG, NULL,
	    "Gemlog (subscribe)");
	page_link(pg, LINK_DOCUMENT, LAYOUT_PATH_FEED, NULL, "Atom feed");

	if (a->ndocs > 0) {
		page_blank(pg);
		page_heading(pg, 2, "Pages");
		for (i = 0; i < a->ndocs; i++) {
			char	*url;

			url = layout_path(LAYOUT_PAGE, a->docs[i]->name, NULL);
			page_link(pg, LINK_TEXT, url, NULL, "%s",
			    a->docs[i]->title != NULL &&
			    *a->docs[i]->title != '\0' ?
			    a->docs[i]->title : a->docs[i]->name);
			free(url);
		}
	}
}

/* The 4-digit year of a post's written date, or "????". */
static void
year_of(const struct post *p, char y[5])
{
	size_t	 i;

	for (i = 0; i < 4; i++)
		y[i] = p->date.ymd[i] >= '0' && p->date.ymd[i] <= '9' ?
		    p->date.ymd[i] : '?';
	y[4] = '\0';
}

void
nav_posts(struct page *pg, const struct archive *a)
{
	struct buf	 done = BUF_INIT;	/* years seen, 4 bytes each */
	char		 y[5], y2[5];
	size_t		 i, j, k;

	page_heading(pg, 1, "%s: archive", capsule_title(a));
	/*
	 * The subtitle, then a text line that closes the feed's window and
	 * says the order (once: no heading saying it too).
	 */
	if (a->subtitle != NULL && *a->subtitle != '\0')
		page_heading(pg, 2, "%s", a->subtitle);
	page_blank(pg);
	if (a->nposts == 0)
		page_text(pg, "No posts yet.");
	else
		page_text(pg, "%zu post%s, newest first.", a->nposts,
		    a->nposts == 1 ? "" : "s");

	/*
	 * Group by the written year in the order years first appear.  Posts
	 * are sorted by instant, so with time zones a post can fall on the
	 * other side of New Year from its neighbours; it still joins its
	 * year's one heading.
	 */
	for (i = 0; i < a->nposts; i++) {
		year_of(a->posts[i], y);
		for (k = 0; k < done.len; k += 4)
			if (memcmp(done.data + k, y, 4) == 0)
				break;
		if (k < done.len)
			continue;
		buf_add(&done, y, 4);
		page_blank(pg);
		page_heading(pg, 2, "%s", y);
		for (j = i; j < a->nposts; j++) {
			year_of(a->posts[j], y2);
			if (memcmp(y, y2, 4) == 0)
				post_link(pg, a->posts[j]);
		}
	}
	buf_free(&done);
	page_blank(pg);
	page_link(pg, LINK_MENU, LAYOUT_PATH_GEMLOG, NULL,
	    "Gemlog (subscribe)");
	home_link(pg, a);
}

void
nav_series_index(struct page *pg, const struct archive *a)
{
	const struct series	*s;
	size_t			 i;

	page_heading(pg, 1, "%s: series", capsule_title(a));
	page_blank(pg);
	if (a->nseries == 0)
		page_text(pg, "No series yet.");
	else
		page_text(pg, "%zu series, each read in order.", a->nseries);
	for (i = 0; i < a->nseries; i++) {
		s = a->series[i];
		page_blank(pg);
		series_link(pg, s);
		if (s->summary != NULL && *s->summary != '\0')
			page_text(pg, "%s", s->summary);
		series_facts(pg, s);
	}
	page_blank(pg);
	home_link(pg, a);
}

void
nav_series(struct page *pg, const struct archive *a, const struct series *s)
{
	const struct post	*p;
	char			*url, *label, min[32];
	size_t			 i;

	page_heading(pg, 1, "%s", series_title(s));
	if (s->summary != NULL && *s->summary != '\0')
		page_heading(pg, 2, "%s", s->summary);
	page_blank(pg);
	series_facts(pg, s);
	nav_minutes(s->reading_min, min);
	if (s->nparts == 0)
		page_text(pg, "A series on %s. No parts published yet.",
		    capsule_title(a));
	else
		page_text(pg, "A series on %s: %zu part%s" SEP "%s.",
		    capsule_title(a), s->nparts, s->nparts == 1 ? "" : "s",
		    min);
	if (s->src != NULL && s->srclen > s->body_off) {
		page_blank(pg);
		page_source(pg, s->src + s->body_off,
		    s->srclen - s->body_off, 0);
	}
	if (s->nparts > 0) {
		page_blank(pg);
		page_heading(pg, 2, "Parts");
	}
	for (i = 0; i < s->nparts; i++) {
		p = s->parts[i];
		nav_minutes(p->reading_min, min);
		url = layout_path(LAYOUT_POST, p->slug, NULL);
		label = part_label(p);
		page_link(pg, LINK_TEXT, url, p->date.ymd, "%s (%s)",
		    label, min);
		free(label);
		free(url);
	}
	list_footer(pg, a, layout_path(LAYOUT_SERIES_FEED, s->slug, NULL),
	    "Atom feed of this series", LAYOUT_PATH_SERIES, "All series");
}

void
nav_tags(struct page *pg, const struct archive *a)
{
	size_t	 i;

	page_heading(pg, 1, "%s: tags", capsule_title(a));
	page_blank(pg);
	if (a->ntags == 0)
		page_text(pg, "No tags yet.");
	else
		page_text(pg, "%zu tag%s, most used first.", a->ntags,
		    a->ntags == 1 ? "" : "s");
	page_blank(pg);
	/* Archive order: most posts first, then slug (archive.h). */
	for (i = 0; i < a->ntags; i++)
		tag_link(pg, a->tags[i], 0);
	if (a->ntags > 0)
		page_blank(pg);
	home_link(pg, a);
}

void
nav_tag(struct page *pg, const struct archive *a, const struct tag *t)
{
	size_t	 i;

	page_heading(pg, 1, "Posts tagged " PAGE_LQUOTE "%s" PAGE_RQUOTE,
	    tag_name(t));
	page_heading(pg, 2, "%s", capsule_title(a));
	page_blank(pg);
	if (t->nposts == 0)
		page_text(pg, "No posts.");
	for (i = 0; i < t->nposts; i++)
		post_link(pg, t->posts[i]);
	list_footer(pg, a, layout_path(LAYOUT_TAG_FEED, t->slug, NULL),
	    "Atom feed of this tag", LAYOUT_PATH_TAGS, "All tags");
}

void
nav_gemlog(struct page *pg, const struct archive *a)
{
	size_t	 i;

	page_heading(pg, 1, "%s", capsule_title(a));
	page_heading(pg, 2, "%s", a->subtitle != NULL && *a->subtitle != '\0' ?
	    a->subtitle : "Gemlog");
	page_blank(pg);
	if (a->nposts == 0)
		page_text(pg, "No posts yet.");
	for (i = 0; i < a->nposts; i++)
		post_link(pg, a->posts[i]);
	page_blank(pg);
	/* No date in these labels: they are not entries. */
	page_link(pg, LINK_DOCUMENT, LAYOUT_PATH_FEED, NULL, "Atom feed");
	page_link(pg, LINK_MENU, LAYOUT_PATH_HOME, NULL, "Home");
}

void
nav_users(struct page *pg, const struct archive *a,
    const struct config *users, size_t n)
{
	char	*url;
	size_t	 i;

	page_heading(pg, 1, "%s: users", capsule_title(a));
	page_blank(pg);
	if (n == 0)
		page_text(pg, "Nobody publishes here yet.");
	else
		page_text(pg, "%zu user%s publish%s here.", n, n == 1 ? "" :
		    "s", n == 1 ? "es" : "");
	page_blank(pg);
	for (i = 0; i < n; i++) {
		/* base: "/~name" */
		url = layout_path(LAYOUT_USER, users[i].base + 2, "/");
		page_link(pg, LINK_MENU, url, NULL, "%s", users[i].base + 1);
		free(url);
	}
	if (n > 0)
		page_blank(pg);
	home_link(pg, a);
}

void
nav_post_header(struct page *pg, const struct archive *a,
    const struct post *p)
{
	struct buf	 l = BUF_INIT;
	char		*url;
	size_t		 i;

	page_heading(pg, 1, "%s", post_title(p));
	buf_addstr(&l, p->date.ymd);
	if (strcmp(p->updated.ymd, p->date.ymd) != 0 && *p->updated.ymd)
		buf_printf(&l, SEP "updated %s", p->updated.ymd);
	buf_printf(&l, SEP "%u min read", p->reading_min);
	if (p->author != NULL && *p->author != '\0')
		buf_printf(&l, SEP "by %s", p->author);
	page_text(pg, "%s", l.data);
	/* The tags are named here and linked in the footer. */
	if (p->ntags > 0) {
		buf_truncate(&l, 0);
		for (i = 0; i < p->ntags; i++)
			buf_printf(&l, "%s%s", i ? ", " : "Tags: ",
			    p->tags[i] ? tag_name(p->tags[i]) :
			    p->tagnames[i]);
		page_text(pg, "%s", l.data);
	}
	buf_free(&l);
	if (p->series != NULL) {
		url = layout_path(LAYOUT_SERIES, p->series->slug, NULL);
		page_link(pg, LINK_MENU, url, NULL, "Part %ld of %ld in %s",
		    part_number(p), series_last(p->series),
		    series_title(p->series));
		free(url);
	}
	page_blank(pg);
}

void
nav_post_body(struct page *pg, const struct post *p, const char *body,
    size_t len)
{
	page_source(pg, body, len, p->gemtext);
}

void
nav_post_footer(struct page *pg, const struct archive *a,
    const struct post *p)
{
	char	*url, *label;
	size_t	 i;

	page_blank(pg);
	if (p->series != NULL) {
		if (p->prev != NULL) {
			url = layout_path(LAYOUT_POST, p->prev->slug, NULL);
			label = part_label(p->prev);
			page_link(pg, LINK_TEXT, url, NULL,
			    PAGE_LARROW " %s", label);
			free(label);
			free(url);
		}
		if (p->next != NULL) {
			url = layout_path(LAYOUT_POST, p->next->slug, NULL);
			label = part_label(p->next);
			page_link(pg, LINK_TEXT, url, NULL,
			    "%s " PAGE_RARROW, label);
			free(label);
			free(url);
		}
		url = layout_path(LAYOUT_SERIES, p->series->slug, NULL);
		page_link(pg, LINK_MENU, url, NULL, "All parts of %s",
		    series_title(p->series));
		free(url);
		page_blank(pg);
	}
	for (i = 0; i < p->ntags; i++) {
		if (p->tags == NULL || p->tags[i] == NULL)
			continue;
		url = layout_path(LAYOUT_TAG, p->tags[i]->slug, NULL);
		page_link(pg, LINK_MENU, url, NULL, "#%s",
		    p->tagnames != NULL && p->tagnames[i] != NULL ?
		    p->tagnames[i] : tag_name(p->tags[i]));
		free(url);
	}
	if (p->ntags > 0)
		page_blank(pg);
	page_link(pg, LINK_MENU, LAYOUT_PATH_POSTS, NULL, "All posts");
	home_link(pg, a);
}

void
nav_post_menu(struct page *pg, const struct archive *a,
    const struct post *p, const char *body, size_t len)
{
	struct buf	 l = BUF_INIT;
	char		*url, min[32];

	page_heading(pg, 1, "%s", post_title(p));
	buf_addstr(&l, p->date.ymd);
	if (p->author != NULL && *p->author != '\0')
		buf_printf(&l, SEP "by %s", p->author);
	page_text(pg, "%s", l.data);
	buf_free(&l);
	page_blank(pg);
	url = layout_path(LAYOUT_POST, p->slug, NULL);
	nav_minutes(p->reading_min, min);
	page_link(pg, LINK_DOCUMENT, url, NULL, "Read the text (%s)", min);
	free(url);
	page_blank(pg);
	page_source_links(pg, body, len, p->gemtext);
	nav_post_footer(pg, a, p);
}

void
nav_doc_menu(struct page *pg, const struct archive *a, const struct doc *d,
    const char *body, size_t len)
{
	char	*url;

	page_heading(pg, 1, "%s", d->title != NULL && *d->title != '\0' ?
	    d->title : d->name);
	page_blank(pg);
	url = layout_path(LAYOUT_PAGE, d->name, NULL);
	page_link(pg, LINK_DOCUMENT, url, NULL, "Read the text");
	free(url);
	page_blank(pg);
	page_source_links(pg, body, len, 0);
	page_blank(pg);
	home_link(pg, a);
}

/* The query as shown: one line, no control bytes, bad UTF-8 as '?'. */
static char *
shown_query(const char *q)
{
	const unsigned char	*p = (const unsigned char *)q, *end;
	struct buf		 b = BUF_INIT;
	uint32_t		 cp;
	size_t			 n;

	end = p + strlen(q);
	while (p < end && b.len < 200) {
		n = utf8_decode((const char *)p, (size_t)(end - p), &cp);
		if (cp == UTF8_INVALID)
			buf_addc(&b, '?');
		else if (cp < 0x20 || cp == 0x7f || (cp >= 0x80 && cp < 0xA0))
			buf_addc(&b, ' ');
		else
			buf_add(&b, p, n);
		p += n;
	}
	buf_addc(&b, '\0');
	return buf_release(&b);
}

void
nav_search(struct page *pg, const struct search_index *x, const char *q)
{
	struct search_result	 res;
	const struct post	*p;
	char			*shown, *url;
	size_t			 i;

	shown = shown_query(q);
	page_heading(pg, 1, "Search");
	page_text(pg, "Results for: %s", shown);
	page_blank(pg);
	if (search_run(x, q, SEARCH_MAX_RESULTS, &res) == -1)
		page_text(pg, "Nothing to search for. Type words, \"a "
		    "phrase\", tag:name or series:name.");
	else if (res.why[0] != '\0')
		page_text(pg, "%s", res.why);
	else if (res.total == 0)
		page_text(pg, "No post matches.");
	else if (res.total == 1)
		page_text(pg, "1 post matches.");
	else if (res.total > res.nhits)
		page_text(pg, "%zu posts match; the best %zu are shown.",
		    res.total, res.nhits);
	else
		page_text(pg, "%zu posts match.", res.total);
	page_blank(pg);
	for (i = 0; i < res.nhits; i++) {
		p = res.hits[i].post;
		url = layout_path(LAYOUT_POST, p->slug, NULL);
		page_link(pg, LINK_TEXT, url, p->date.ymd, "%s",
		    p->title != NULL && *p->title != '\0' ? p->title :
		    p->slug);
		free(url);
		if (*res.hits[i].snippet != '\0')
			page_text(pg, "%s", res.hits[i].snippet);
		page_blank(pg);
	}
	search_result_free(&res);
	free(shown);
	page_link(pg, LINK_SEARCH, LAYOUT_PATH_SEARCH, NULL, "Search again");
	page_link(pg, LINK_MENU, LAYOUT_PATH_HOME, NULL, "Home");
}

void
nav_search_prompt(struct page *pg, const struct archive *a)
{
	page_heading(pg, 1, "Search");
	page_text(pg, "Search the posts of %s: words, \"a phrase\", "
	    "tag:name, series:name.", a->title != NULL && *a->title ?
	    a->title : "this capsule");
	page_blank(pg);
	page_link(pg, LINK_PROMPT, LAYOUT_PATH_SEARCH, NULL,
	    "Search the archive");
	page_link(pg, LINK_MENU, LAYOUT_PATH_HOME, NULL, "Home");
}

/* A surface's URL of the site's home, as a reader would type it. */
static void
surface_home(struct buf *b, const struct config *c, size_t s)
{
	int	 port = config_public_port(c, (enum surface)s);

	/* The web view behind its TLS front on 443 is read over https. */
	if (surfaces[s].format == FORMAT_HTML && port == 443)
		buf_printf(b, "https://%s", c->hostname);
	else {
		buf_printf(b, "%s://%s", surfaces[s].name, c->hostname);
		if (port != surfaces[s].url_port)
			buf_printf(b, ":%d", port);
	}
	buf_addstr(b, surfaces[s].format == FORMAT_GOPHER ? "/1" : "");
	buf_printf(b, "%s/", c->base != NULL ? c->base : "");
}

void
nav_plan(struct page *pg, const struct archive *a, const struct config *c)
{
	struct buf	 b = BUF_INIT;
	size_t		 i, n = c != NULL ? c->latest_posts : 10;
	char		*url;

	page_heading(pg, 1, "%s", capsule_title(a));
	if (a->subtitle != NULL && *a->subtitle != '\0')
		page_text(pg, "%s", a->subtitle);
	if (a->author != NULL && *a->author != '\0')
		page_text(pg, "By %s", a->author);
	page_blank(pg);
	if (a->nposts > 0) {
		page_heading(pg, 2, "Latest posts");
		for (i = 0; i < a->nposts && i < n; i++) {
			url = layout_path(LAYOUT_POST, a->posts[i]->slug, NULL);
			page_link(pg, LINK_DOCUMENT, url, a->posts[i]->date.ymd,
			    "%s", post_title(a->posts[i]));
			free(url);
		}
		page_blank(pg);
	}
	if (c == NULL)
		return;
	page_heading(pg, 2, "Read it on");
	for (i = 0; i < SURFACE_N; i++) {
		if (c->port[i] == 0 || i == SURFACE_FINGER)
			continue;
		buf_truncate(&b, 0);
		surface_home(&b, c, i);
		buf_addc(&b, '\0');
		page_text(pg, "%s: %s", surfaces[i].title, b.data);
	}
	buf_free(&b);
}
