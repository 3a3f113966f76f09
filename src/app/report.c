/*
 * report.c -- the conversion report of --check --report (see report.h).
 */
#include <stdlib.h>
#include <string.h>

#include "app/report.h"
#include "core/util.h"

struct report_file {
	char		*name;		/* owned */
	size_t		 n[REPORT_NKINDS];
};

struct report {
	struct report_file *files;	/* owned */
	size_t		 nfiles, cap;
	size_t		 last;		/* the file of the line before */
};

struct report *
report_new(void)
{
	return xcalloc(1, sizeof(struct report));
}

void
report_free(struct report *r)
{
	size_t	 i;

	if (r == NULL)
		return;
	for (i = 0; i < r->nfiles; i++)
		free(r->files[i].name);
	free(r->files);
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

	if ((len = place(msg, &why)) == 0)
		return;
	if ((k = kind_of(lvl, why)) == REPORT_NKINDS)
		return;
	file_of(r, msg, len)->n[k]++;
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
}
