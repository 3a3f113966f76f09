/*
 * date.h -- the date shapes real front matter uses, parsed into one form.
 *
 * Accepted (docs/writing.md, "Front matter", the date key):
 *   YYYY-MM-DD
 *   YYYY-MM-DDTHH:MM[:SS[.frac]](Z|±HH:MM|±HHMM)        RFC 3339
 *   YYYY-MM-DD HH:MM[:SS] [±H|±HH|±HHMM|±HH:MM|Z|UTC]   (space forms)
 *   Jul 08 2022, July 8, 2022, 8 July 2022, Fri, Jul 08 2022
 *                                      (English month names: Astro's)
 * A missing zone is UTC.  A missing time is 12:00 (noon, the gemlog
 * feed convention).  Pure functions; no allocation.
 */
#ifndef CAPSULED_DATE_H
#define CAPSULED_DATE_H

#include <stddef.h>
#include <time.h>

struct date {
	time_t	 t;		/* the instant, UTC seconds */
	int	 tzoff;		/* minutes east of UTC, as written */
	int	 has_time;	/* a time of day was written */
	char	 ymd[11];	/* "YYYY-MM-DD" as written (local date) */
};

/* Returns 0 and fills d, or -1 with *errstr set (static string). */
int	 date_parse(const char *s, size_t len, struct date *d,
	    const char **errstr);
/*
 * A date "YYYY-MM-DD" (or with a one-digit month or day, "2020-11-4",
 * as Jekyll and Pelican read file names) at the start of s[0..len), not
 * followed by a digit: its length, d filled; 0 when there is none.
 */
size_t	 date_ymd(const char *s, size_t len, struct date *d);
/*
 * The "YYYY-MM-DD-" prefix of a file name (date_ymd() then a '-'): its
 * length, the dash included, d filled; 0 when it has none.
 */
size_t	 date_from_filename(const char *name, struct date *d);
/*
 * A date an address or a folder path holds, as site generators write them
 * (docs/writing.md, "Where a post's date comes from"): three segments
 * YYYY/MM/DD ("2026/03/26/x", "blog/2021/01/05/x/"), or a segment that
 * starts "YYYY-MM-DD-" or is "YYYY-MM-DD" (one-digit month and day too);
 * with month_ok, failing those, two segments YYYY/MM (the first of the
 * month).  Any leading segments (a section) are passed over; the first
 * date found counts.  0 and d filled (*day 0 when only the month was
 * there), or -1.
 */
int	 date_from_path(const char *s, size_t len, int month_ok,
	    struct date *d, int *day);
/* RFC 3339 with the written offset: "2024-05-02T14:00:00+02:00". */
void	 date_rfc3339(const struct date *d, char out[32]);
/* Days since 1970-01-01 for a proleptic Gregorian y-m-d. */
long	 date_days(int y, int m, int d);
/*
 * The first date-like text of s[0..len), quoted for a warning into
 * out: from a run of four digits that could be a year, up to a blank
 * or quote, at most 24 bytes; 0, or -1 when s has none.
 */
int	 date_near(const char *s, size_t len, char *out, size_t size);

#endif
