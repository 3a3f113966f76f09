/*
 * test_report.c -- report.c: the loader's log lines counted per file by
 * kind, lines without a place ignored, and the table --check --report
 * prints, read back from a memory stream.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app/report.h"
#include "core/log.h"
#include "harness.h"

static void
test_counts(void)
{
	struct report	*r = report_new();

	report_tap(r, LOG_LEVEL_WARN,
	    "posts/a.md:12:3: template: removed {% include x.html %}");
	report_tap(r, LOG_LEVEL_WARN,
	    "posts/a.md:1:1: template: 4 more constructs removed or read "
	    "approximately");
	report_tap(r, LOG_LEVEL_INFO,
	    "posts/a.md:7:1: template: approximated {{ \"/\" | url }}");
	report_tap(r, LOG_LEVEL_WARN,
	    "posts/b.md:9:40: link to /blog/x names nothing in the capsule");
	report_tap(r, LOG_LEVEL_WARN,
	    "posts/b.md:9:60: link to missing post /posts/nope");
	report_tap(r, LOG_LEVEL_WARN,
	    "posts/c:d.md:2:8: title: expected a string; ignored");
	/* A name noted once stands for every construct of that name. */
	report_tap(r, LOG_LEVEL_WARN,
	    "posts/g.md:4:1: template: removed {% note x %} (and 56 more like "
	    "it in this file)");
	/* Not about one place, or not a warning: not counted. */
	report_tap(r, LOG_LEVEL_WARN, "/srv/capsule: No such file");
	report_tap(r, LOG_LEVEL_INFO, "posts/e.md:1:1: something said");
	report_tap(r, LOG_LEVEL_WARN, "posts/f.md:x:1: not a place");

	INT_EQ(report_nfiles(r), 4, "four files have something counted");
	INT_EQ(report_total(r, REPORT_TEMPLATE_REMOVED), 59,
	    "removed constructs (one line says \"N more\", one \"and 56 "
	    "more like it\")");
	INT_EQ(report_total(r, REPORT_TEMPLATE_APPROX), 1, "approximated");
	INT_EQ(report_total(r, REPORT_LINK), 2, "links to nothing");
	INT_EQ(report_total(r, REPORT_OTHER), 1,
	    "other warnings (a file name with a colon)");
	report_free(r);
}

static void
test_print(void)
{
	struct report	*r = report_new();
	char		*text = NULL;
	size_t		 len = 0;
	FILE		*f;

	report_tap(r, LOG_LEVEL_WARN,
	    "posts/z.md:3:1: link to /a names nothing in the capsule");
	report_tap(r, LOG_LEVEL_WARN, "posts/y.md:5:2: template: removed x");
	report_tap(r, LOG_LEVEL_WARN, "posts/y.md:6:2: template: removed y");
	f = open_memstream(&text, &len);
	OK(f != NULL, "open_memstream");
	report_print(r, f);
	fclose(f);
	STR_EQ(text,
	    "report:   2 files with something removed, approximated or "
	    "unresolved\n"
	    "          posts/y.md: 2 template constructs removed\n"
	    "          posts/z.md: 1 link to nothing\n"
	    "          total: 2 template constructs removed, 1 link to "
	    "nothing\n", "the table, files in name order");
	free(text);
	report_free(r);

	r = report_new();
	f = open_memstream(&text, &len);
	report_print(r, f);
	fclose(f);
	STR_EQ(text, "report:   0 files with something removed, "
	    "approximated or unresolved\n", "nothing to report");
	free(text);
	report_free(r);
}

/* The tap sees what the log level hides, and nothing once removed. */
static void
test_tap(void)
{
	struct report	*r = report_new();

	log_set_level(LOG_LEVEL_ERROR);
	log_set_tap(report_tap, r);
	log_warnx("%s:%u:%u: link to %s names nothing", "posts/q.md", 4u,
	    2u, "/x");
	log_info("posts/q.md:5:1: template: approximated {{ y }}");
	log_set_tap(NULL, NULL);
	log_warnx("posts/q.md:6:1: link to /z names nothing");
	log_set_level(LOG_LEVEL_INFO);
	INT_EQ(report_total(r, REPORT_LINK), 1, "a warning under level error");
	INT_EQ(report_total(r, REPORT_TEMPLATE_APPROX), 1, "an info line");
	report_free(r);
}

static const struct harness_test tests[] = {
	TEST(test_counts),
	TEST(test_print),
	TEST(test_tap),
};

int
main(int argc, char **argv)
{
	HARNESS_INIT(argc, argv, tests);
	harness_run();
	return harness_done();
}
