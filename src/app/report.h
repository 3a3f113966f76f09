/*
 * report.h -- capsuled --check --report: what loading a capsule removed
 * or approximated, file by file, so a writer whose archive came from
 * another generator knows which sources to fix.
 *
 * The loader says each thing once, as a log line
 * "FILE:LINE:COL: why" (content/archive.c, content/links.c); a report
 * listens to those lines (log_set_tap()) while --check loads, counts
 * them per file by kind and prints the table.  It knows the wording of
 * those lines and nothing else of the loader.
 *
 * Raw HTML is read when a page is rendered, not at load, and logs
 * nothing: report_html() reads every Markdown body of the snapshot
 * once more as the renderers do (render_html_notes()) and counts what
 * its HTML elements became, per file and per element, with the places
 * of the first few.  Only --check --report pays for that read.
 *
 * Every --check keeps the warning lines too (report_problems()): the
 * writer reads each problem once, under the heading it belongs to.
 */
#ifndef CAPSULED_REPORT_H
#define CAPSULED_REPORT_H

#include <stdio.h>

#include "core/log.h"

enum report_kind {
	REPORT_TEMPLATE_REMOVED,	/* "template: removed ..." */
	REPORT_TEMPLATE_APPROX,		/* "template: approximated ..." */
	REPORT_HTML_LINKED,		/* report_html(), HTML_LINKED */
	REPORT_HTML_APPROX,		/* HTML_APPROXIMATED */
	REPORT_HTML_DROPPED,		/* HTML_DROPPED */
	REPORT_LINK,			/* "link to ... names nothing" */
	REPORT_OTHER,			/* any other warning */
	REPORT_NKINDS
};

struct archive;
struct report;

struct report	*report_new(void);
void		 report_free(struct report *);
/* A log_tap_fn: arg is the report. */
void		 report_tap(void *arg, enum log_level, const char *msg);
/* The HTML elements of every Markdown body of a (see above). */
void		 report_html(struct report *, const struct archive *a);
/* Files with anything counted, and the count of kind k in all of them. */
size_t		 report_nfiles(const struct report *);
size_t		 report_total(const struct report *, enum report_kind k);
/*
 * The table, files in name order, then the totals, then a line per
 * HTML element and what it became, with its first places.
 */
void		 report_print(const struct report *, FILE *);
/*
 * What --check says of a capsule: the files skipped (why), the drafts,
 * the files of posts/, pages/ and series/ not read (why), and every
 * other warning the load logged, each a line, with their counts.
 */
void		 report_problems(const struct report *,
		    const struct archive *a, FILE *);

#endif
