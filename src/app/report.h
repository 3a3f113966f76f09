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
 */
#ifndef CAPSULED_REPORT_H
#define CAPSULED_REPORT_H

#include <stdio.h>

#include "core/log.h"

enum report_kind {
	REPORT_TEMPLATE_REMOVED,	/* "template: removed ..." */
	REPORT_TEMPLATE_APPROX,		/* "template: approximated ..." */
	REPORT_LINK,			/* "link to ... names nothing" */
	REPORT_OTHER,			/* any other warning */
	REPORT_NKINDS
};

struct report;

struct report	*report_new(void);
void		 report_free(struct report *);
/* A log_tap_fn: arg is the report. */
void		 report_tap(void *arg, enum log_level, const char *msg);
/* Files with anything counted, and the count of kind k in all of them. */
size_t		 report_nfiles(const struct report *);
size_t		 report_total(const struct report *, enum report_kind k);
/* The table, files in name order, then the totals. */
void		 report_print(const struct report *, FILE *);

#endif
