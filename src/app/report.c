/*
 * report.c -- the conversion report of --check --report (see report.h).
 */
#include <sys/stat.h>

#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "app/report.h"
#include "content/archive.h"
#include "core/capfile.h"
#include "core/dirwalk.h"
#include "core/util.h"
#include "markdown/html.h"
#include "markdown/render.h"

#define REPORT_PLACES	3	/* places shown per HTML element */
/* Entries of posts/ (all of it), pages/ or series/ read for "ignored". */
#define REPORT_MAX_ENTRIES	1000000

struct report_file {
	char		*name;		/* owned */
	size_t		 n[REPORT_NKINDS];
};

/* One HTML element and what it became, in all files. */
struct report_el {
	char		 name[HTML_MAX_NAME];
	enum html_what	 what;
	size_t		 n;
	char		*places[REPORT_PLACES];	/* owned: "FILE:LINE:COL" */
};

struct report {
	struct report_file *files;	/* owned */
	size_t		 nfiles, cap;
	size_t		 last;		/* the file of the line before */
	struct report_el *els;		/* owned */
	size_t		 nels;
	size_t		 html_more;	/* past HTML_MAX_NOTES in a body */
	char		**lines;	/* owned: every warning, in order */
	size_t		 nlines;
};

struct report *
report_new(void)
{
	return xcalloc(1, sizeof(struct report));
}

void
report_free(struct report *r)
{
	size_t	 i, k;

	if (r == NULL)
		return;
	for (i = 0; i < r->nfiles; i++)
		free(r->files[i].name);
	free(r->files);
	for (i = 0; i < r->nels; i++)
		for (k = 0; k < REPORT_PLACES; k++)
			free(r->els[i].places[k]);
	free(r->els);
	for (i = 0; i < r->nlines; i++)
		free(r->lines[i]);
	free(r->lines);
	free(r);
}

/*
 * "FILE:LINE:COL: why": the length of FILE and *why, or 0 when msg has
 * no such place (a line about the capsule as a whole).  FILE is what
 * comes before the last ":digits:digits: " of the line's first part.
 */
static size_t
place(const char *msg, const char **why)
{
	const char	*p, *q;

	for (p = msg; (p = strchr(p, ':')) != NULL; p++) {
		q = p + 1;
		if (*q < '0' || *q > '9')
			continue;
		while (*q >= '0' && *q <= '9')
			q++;
		if (*q++ != ':' || *q < '0' || *q > '9')
			continue;
		while (*q >= '0' && *q <= '9')
			q++;
		if (q[0] != ':' || q[1] != ' ')
			continue;
		*why = q + 2;
		return (size_t)(p - msg);
	}
	return 0;
}

/*
 * The constructs of one name a template warning stands for besides its
 * own (markdown/template.h's template_more(): "... (and 56 more like
 * it in this file)").
 */
static unsigned
more_like_it(const char *why)
{
	const char	*p;
	unsigned	 n = 0;

	if (strncmp(why, "template: ", 10) != 0 ||
	    (p = strstr(why, " (and ")) == NULL ||
	    strstr(p, " more like it in this file)") == NULL)
		return 0;
	for (p += 6; *p >= '0' && *p <= '9' && n < 100000000; p++)
		n = n * 10 + (unsigned)(*p - '0');
	return n;
}

static enum report_kind
kind_of(enum log_level lvl, const char *why)
{
	if (strncmp(why, "template: approximated", 22) == 0)
		return REPORT_TEMPLATE_APPROX;
	if (strncmp(why, "template: ", 10) == 0)
		return REPORT_TEMPLATE_REMOVED;
	if (strncmp(why, "link to ", 8) == 0)
		return REPORT_LINK;
	return lvl <= LOG_LEVEL_WARN ? REPORT_OTHER : REPORT_NKINDS;
}

static struct report_file *
file_of(struct report *r, const char *name, size_t len)
{
	struct report_file	*f;
	size_t			 i;

	if (r->last < r->nfiles && strncmp(r->files[r->last].name, name,
	    len) == 0 && r->files[r->last].name[len] == '\0')
		return &r->files[r->last];
	for (i = 0; i < r->nfiles; i++)
		if (strncmp(r->files[i].name, name, len) == 0 &&
		    r->files[i].name[len] == '\0')
			break;
	if (i == r->nfiles) {
		if (r->nfiles == r->cap) {
			r->cap = r->cap ? 2 * r->cap : 64;
			r->files = xreallocarray(r->files, r->cap,
			    sizeof(*r->files));
		}
		f = &r->files[r->nfiles++];
		memset(f, 0, sizeof(*f));
		f->name = xstrndup(name, len);
	}
	r->last = i;
	return &r->files[i];
}

void
report_tap(void *arg, enum log_level lvl, const char *msg)
{
	struct report	*r = arg;
	const char	*why;
	enum report_kind k;
	size_t		 len;

	if (lvl <= LOG_LEVEL_WARN) {
		if (r->nlines % 64 == 0)
			r->lines = xreallocarray(r->lines, r->nlines + 64,
			    sizeof(*r->lines));
		r->lines[r->nlines++] = xstrdup(msg);
	}
	if ((len = place(msg, &why)) == 0)
		return;
	if ((k = kind_of(lvl, why)) == REPORT_NKINDS)
		return;
	file_of(r, msg, len)->n[k] += 1 + more_like_it(why);
}

/* One note of file's HTML (line numbers in the file). */
static void
html_note(struct report *r, const char *file, const struct html_note *n)
{
	static const enum report_kind kinds[] = {
		[HTML_LINKED] = REPORT_HTML_LINKED,
		[HTML_APPROXIMATED] = REPORT_HTML_APPROX,
		[HTML_DROPPED] = REPORT_HTML_DROPPED,
	};
	struct report_el	*e;
	size_t			 i;

	file_of(r, file, strlen(file))->n[kinds[n->what]]++;
	for (i = 0; i < r->nels; i++)
		if (r->els[i].what == n->what &&
		    strcmp(r->els[i].name, n->name) == 0)
			break;
	if (i == r->nels) {
		if (r->nels % 16 == 0)
			r->els = xreallocarray(r->els, r->nels + 16,
			    sizeof(*r->els));
		e = &r->els[r->nels++];
		memset(e, 0, sizeof(*e));
		memcpy(e->name, n->name, sizeof(e->name));
		e->what = n->what;
	}
	e = &r->els[i];
	if (e->n < REPORT_PLACES)
		e->places[e->n] = xasprintf("%s:%u:%u", file, n->line,
		    n->col);
	e->n++;
}

/* The HTML of one Markdown body src[off..len), at line line0 of file. */
static void
html_body(struct report *r, const char *file, const char *src,
    size_t len, size_t off, unsigned line0)
{
	struct html_notes	 ns;
	size_t			 i;

	render_html_notes(src + off, len - off, &ns);
	for (i = 0; i < ns.n; i++) {
		ns.v[i].line += line0 - 1;
		html_note(r, file, &ns.v[i]);
	}
	r->html_more += ns.nmore;
	html_notes_free(&ns);
}

/* The 1-based line of src + off. */
static unsigned
line_at(const char *src, size_t off)
{
	unsigned	 line = 1;
	size_t		 i;

	for (i = 0; i < off; i++)
		line += src[i] == '\n';
	return line;
}

void
report_html(struct report *r, const struct archive *a)
{
	const struct post	*p;
	const struct doc	*d;
	size_t			 i;

	if (a->index_src != NULL)
		html_body(r, "index.md", a->index_src, a->index_len,
		    a->index_body_off, line_at(a->index_src,
		    a->index_body_off));
	/* Oldest first: the first places are those of the oldest posts. */
	for (i = a->nposts; i-- > 0;) {
		p = a->posts[i];
		if (!p->gemtext)
			html_body(r, p->path, p->src, p->srclen, p->body_off,
			    p->body_line);
	}
	for (i = 0; i < a->ndocs; i++) {
		d = a->docs[i];
		if (!archive_gmi_name(d->path))
			html_body(r, d->path, d->src, d->srclen, d->body_off,
			    line_at(d->src, d->body_off));
	}
}

size_t
report_nfiles(const struct report *r)
{
	return r->nfiles;
}

size_t
report_total(const struct report *r, enum report_kind k)
{
	size_t	 i, n = 0;

	for (i = 0; i < r->nfiles; i++)
		n += r->files[i].n[k];
	return n;
}

static int
by_name(const void *a, const void *b)
{
	const struct report_file *fa = a, *fb = b;

	return strcmp(fa->name, fb->name);
}

/* "3 template constructs removed, 1 link to nothing" from counts n. */
static void
counts(FILE *out, const size_t *n)
{
	static const char *const what[REPORT_NKINDS][2] = {
		{ "template construct removed",
		  "template constructs removed" },
		{ "template construct approximated",
		  "template constructs approximated" },
		{ "HTML element as a link", "HTML elements as links" },
		{ "HTML element approximated", "HTML elements approximated" },
		{ "HTML element dropped", "HTML elements dropped" },
		{ "link to nothing", "links to nothing" },
		{ "other warning", "other warnings" },
	};
	const char	*sep = "";
	int		 k;

	for (k = 0; k < REPORT_NKINDS; k++) {
		if (n[k] == 0)
			continue;
		fprintf(out, "%s%zu %s", sep, n[k], what[k][n[k] != 1]);
		sep = ", ";
	}
}

static int
by_what_name(const void *a, const void *b)
{
	const struct report_el *ea = a, *eb = b;

	if (ea->what != eb->what)
		return ea->what < eb->what ? -1 : 1;
	return strcmp(ea->name, eb->name);
}

/* "<iframe>: 12 as links, at posts/a.md:3:1, ... and 9 more" */
static void
print_els(const struct report *r, FILE *out)
{
	static const char *const what[] = {
		[HTML_LINKED] = "as links",
		[HTML_APPROXIMATED] = "approximated",
		[HTML_DROPPED] = "dropped",
	};
	struct report_el	*sorted;
	size_t			 i, k;

	if (r->html_more > 0)
		fprintf(out, "          html: %zu more elements, past %d in "
		    "one file, not told apart\n", r->html_more,
		    HTML_MAX_NOTES);
	if (r->nels == 0)
		return;
	sorted = xreallocarray(NULL, r->nels, sizeof(*sorted));
	memcpy(sorted, r->els, r->nels * sizeof(*sorted));
	qsort(sorted, r->nels, sizeof(*sorted), by_what_name);
	for (i = 0; i < r->nels; i++) {
		fprintf(out, "          html <%s>: %zu %s, at",
		    sorted[i].name, sorted[i].n, what[sorted[i].what]);
		for (k = 0; k < REPORT_PLACES && k < sorted[i].n; k++)
			fprintf(out, "%s %s", k ? "," : "",
			    sorted[i].places[k]);
		if (sorted[i].n > REPORT_PLACES)
			fprintf(out, " and %zu more",
			    sorted[i].n - REPORT_PLACES);
		fputc('\n', out);
	}
	free(sorted);
}

void
report_print(const struct report *r, FILE *out)
{
	struct report_file	*sorted;
	size_t			 i, tot[REPORT_NKINDS];
	int			 k;

	fprintf(out, "report:   %zu file%s with something removed, "
	    "approximated or unresolved\n", r->nfiles,
	    r->nfiles == 1 ? "" : "s");
	if (r->nfiles == 0)
		return;
	sorted = xreallocarray(NULL, r->nfiles, sizeof(*sorted));
	memcpy(sorted, r->files, r->nfiles * sizeof(*sorted));
	qsort(sorted, r->nfiles, sizeof(*sorted), by_name);
	for (i = 0; i < r->nfiles; i++) {
		fprintf(out, "          %s: ", sorted[i].name);
		counts(out, sorted[i].n);
		fputc('\n', out);
	}
	free(sorted);
	for (k = 0; k < REPORT_NKINDS; k++)
		tot[k] = report_total(r, (enum report_kind)k);
	fprintf(out, "          total: ");
	counts(out, tot);
	fputc('\n', out);
	print_els(r, out);
}

/* A skipped file's line says so (content/archive.c). */
static int
skip_line(const char *msg)
{
	const char	*why;

	if (place(msg, &why) == 0)
		why = msg;
	return strstr(why, "skipped") != NULL;
}

/* The files of posts/, pages/ and series/ the archive does not read. */
struct ignored {
	char		**lines;	/* "posts/x.txt: why"; owned */
	size_t		 n, cap;
	const char	*sub;		/* "posts" */
	enum capfile_kind in;		/* its kind */
};

/* A folder of posts/ being read, and whether a post lies beneath. */
struct folder {
	struct folder	*up;		/* the one it is in, or NULL */
	size_t		 first;		/* its first line in lines */
	int		 posts;		/* a post beneath */
};

static void
ignored_add(struct ignored *g, char *line)
{
	if (g->n == g->cap) {
		g->cap = g->cap ? g->cap * 2 : 16;
		g->lines = xreallocarray(g->lines, g->cap, sizeof(*g->lines));
	}
	g->lines[g->n++] = line;
}

/*
 * One entry of posts/, pages/ or series/, as the archive reads them
 * (content/dirscan.c: the same walk, the same rule).  A folder of
 * posts/ with no post beneath is one line, not one for each thing in it.
 */
static enum dirwalk_answer
ignored_entry(void *arg, struct dirwalk_entry *e)
{
	struct ignored		*g = arg;
	struct folder		*f = e->data, *up;
	enum capfile_kind	 k;
	const char		*why;
	char			 idx[CAPFILE_INDEX_MAX];

	switch (e->event) {
	case DIRWALK_ENTRY:
		break;
	case DIRWALK_IN:
		up = f;
		e->data = f = xcalloc(1, sizeof(*f));
		f->up = up;
		f->first = g->n;
		return DIRWALK_NEXT;
	case DIRWALK_OUT:
		if (!f->posts) {
			while (g->n > f->first)
				free(g->lines[--g->n]);
			ignored_add(g, xasprintf("%s/%s: a folder without "
			    "a post or an index file: no post", g->sub,
			    e->path));
		}
		free(f);
		return DIRWALK_NEXT;
	case DIRWALK_DEEP:
	case DIRWALK_FAIL:
	case DIRWALK_FULL:
		return DIRWALK_NEXT;	/* the load warns of these */
	}
	k = capfile_entry_at(e->dfd, e->depth == 1 ? g->in :
	    CAPFILE_POSTS_DIR, e->name, e->type == DIRWALK_DIR, &why);
	switch (k) {
	case CAPFILE_POST:
	case CAPFILE_PAGE:
	case CAPFILE_SERIES_FILE:
		for (; f != NULL; f = f->up)
			f->posts = 1;
		return DIRWALK_NEXT;
	case CAPFILE_POSTS_DIR:
	case CAPFILE_DRAFTS_DIR:
		if (e->type != DIRWALK_DIR)
			break;
		if (capfile_bundle(e->dfd, e->name, idx, sizeof(idx),
		    NULL) != NULL) {
			for (; f != NULL; f = f->up)
				f->posts = 1;
			return DIRWALK_NEXT;
		}
		return DIRWALK_ENTER;
	case CAPFILE_IGNORED:
	case CAPFILE_SECTION:
	case CAPFILE_RESOURCE:
		if (why != NULL)
			ignored_add(g, xasprintf("%s/%s: %s", g->sub, e->path,
			    why));
		return DIRWALK_NEXT;
	case CAPFILE_BADNAME:		/* skipped, and said: a warning */
	case CAPFILE_AUTHORS:		/* read for the posts' authors */
	case CAPFILE_INDEX:
	case CAPFILE_BUNDLE:
	case CAPFILE_TOP_DIR:
	case CAPFILE_BUNDLE_DIR:
	case CAPFILE_PAGES_DIR:
	case CAPFILE_SERIES_DIR:
	case CAPFILE_FILES_DIR:
		break;
	}
	return DIRWALK_NEXT;
}

/*
 * The files of posts/, pages/ and series/ the archive does not read,
 * each a line with why, into g (its sub and in are the last folder's).
 */
static void
ignored_list(const struct archive *a, struct ignored *g)
{
	static const char *const subs[] = {
		CAPFILE_POSTS, CAPFILE_PAGES, CAPFILE_SERIES
	};
	struct dirwalk	 w;
	size_t		 i;
	int		 dfd, fd;

	memset(g, 0, sizeof(*g));
	if ((dfd = open(a->dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) == -1)
		return;
	for (i = 0; i < nitems(subs); i++) {
		/* No link: the archive does not follow one either. */
		if ((fd = openat(dfd, subs[i], O_RDONLY | O_DIRECTORY |
		    O_NOFOLLOW | O_CLOEXEC)) == -1)
			continue;
		g->sub = subs[i];
		g->in = capfile_entry(CAPFILE_TOP_DIR, subs[i], true, NULL);
		memset(&w, 0, sizeof(w));
		w.max_depth = g->in == CAPFILE_POSTS_DIR ?
		    CAPFILE_POSTS_DEPTH : 0;
		w.max_entries = REPORT_MAX_ENTRIES;
		w.sorted = true;
		w.fn = ignored_entry;
		w.arg = g;
		(void)dirwalk_run(&w, fd, "", NULL);
		close(fd);
	}
	close(dfd);
}

void
report_problems(const struct report *r, const struct archive *a,
    FILE *out)
{
	struct ignored	 g;
	size_t		 i, nskip = 0;

	for (i = 0; i < r->nlines; i++)
		nskip += skip_line(r->lines[i]);
	fprintf(out, "skipped:  %zu\n", nskip);
	for (i = 0; i < r->nlines; i++)
		if (skip_line(r->lines[i]))
			fprintf(out, "          %s\n", r->lines[i]);
	fprintf(out, "drafts:   %zu\n", a->ndrafts);
	for (i = 0; i < a->ndrafts; i++)
		fprintf(out, "          %s  %s\n", a->drafts[i]->path,
		    a->drafts[i]->title);
	ignored_list(a, &g);
	fprintf(out, "ignored:  %zu\n", g.n);
	for (i = 0; i < g.n; i++) {
		fprintf(out, "          %s\n", g.lines[i]);
		free(g.lines[i]);
	}
	free(g.lines);
	fprintf(out, "warnings: %zu\n", r->nlines - nskip);
	for (i = 0; i < r->nlines; i++)
		if (!skip_line(r->lines[i]))
			fprintf(out, "          %s\n", r->lines[i]);
}
