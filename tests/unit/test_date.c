/*
 * test_date.c -- date.c: the accepted shapes, the calendar checks and
 * the RFC 3339 output.
 */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/date.h"
#include "harness.h"

static int
parse(const char *s, struct date *d, const char **errstr)
{
	*errstr = NULL;
	memset(d, 0, sizeof(*d));
	return date_parse(s, strlen(s), d, errstr);
}

/* s parses to the instant written in RFC 3339 form as want. */
static void
check(const char *s, long long t, int tzoff, int has_time, const char *ymd,
    const char *rfc)
{
	struct date	 d;
	const char	*errstr;
	char		 out[32];

	if (parse(s, &d, &errstr) == -1) {
		OK(0, "\"%s\": %s", s, errstr);
		return;
	}
	INT_EQ(d.t, t, s);
	INT_EQ(d.tzoff, tzoff, s);
	INT_EQ(d.has_time, has_time, s);
	STR_EQ(d.ymd, ymd, s);
	date_rfc3339(&d, out);
	STR_EQ(out, rfc, s);
}

static void
reject(const char *s, const char *why)
{
	struct date	 d;
	const char	*errstr;

	OK(parse(s, &d, &errstr) == -1, "\"%s\" accepted", s);
	if (why != NULL)
		STR_EQ(errstr, why, s);
}

static void
test_days(void)
{
	INT_EQ(date_days(1970, 1, 1), 0, "epoch");
	INT_EQ(date_days(1969, 12, 31), -1, "day before epoch");
	INT_EQ(date_days(2000, 3, 1), 11017, "2000-03-01");
	INT_EQ(date_days(2024, 2, 29) + 1, date_days(2024, 3, 1), "leap day");
	INT_EQ(date_days(2023, 3, 1) - date_days(2023, 2, 28), 1,
	    "no leap day in 2023");
	INT_EQ(date_days(1900, 3, 1) - date_days(1900, 2, 28), 1,
	    "no leap day in 1900");
	INT_EQ(date_days(2038, 1, 19), 24855, "2038-01-19");
}

static void
test_forms(void)
{
	long long	 d20240502 = date_days(2024, 5, 2) * 86400LL;
	long long	 d20210304 = date_days(2021, 3, 4) * 86400LL;

	check("2024-05-02", d20240502 + 12 * 3600, 0, 0, "2024-05-02",
	    "2024-05-02T12:00:00Z");
	check("  2024-05-02 \n", d20240502 + 12 * 3600, 0, 0, "2024-05-02",
	    "2024-05-02T12:00:00Z");
	check("2024-05-02T14:00:00+02:00", d20240502 + 12 * 3600, 120, 1,
	    "2024-05-02", "2024-05-02T14:00:00+02:00");
	check("2024-05-02T14:00:00Z", d20240502 + 14 * 3600, 0, 1,
	    "2024-05-02", "2024-05-02T14:00:00Z");
	check("2024-05-02t14:00z", d20240502 + 14 * 3600, 0, 1,
	    "2024-05-02", "2024-05-02T14:00:00Z");
	check("2024-05-02T14:00:30.123456789-0530",
	    d20240502 + 14 * 3600 + 30 + 5 * 3600 + 30 * 60, -330, 1,
	    "2024-05-02", "2024-05-02T14:00:30-05:30");
	check("2024-05-02T14:00:00", d20240502 + 14 * 3600, 0, 1,
	    "2024-05-02", "2024-05-02T14:00:00Z");
	/* English month names, as Astro's blog starter writes dates. */
	check("Jul 08 2022", date_days(2022, 7, 8) * 86400LL + 12 * 3600, 0,
	    0, "2022-07-08", "2022-07-08T12:00:00Z");
	check("July 8, 2022", date_days(2022, 7, 8) * 86400LL + 12 * 3600, 0,
	    0, "2022-07-08", "2022-07-08T12:00:00Z");
	check(" 8 july 2022 ", date_days(2022, 7, 8) * 86400LL + 12 * 3600, 0,
	    0, "2022-07-08", "2022-07-08T12:00:00Z");
	check("Fri, Jul 08 2022", date_days(2022, 7, 8) * 86400LL + 12 * 3600,
	    0, 0, "2022-07-08", "2022-07-08T12:00:00Z");
	check("SEPT 30 2021", date_days(2021, 9, 30) * 86400LL + 12 * 3600, 0,
	    0, "2021-09-30", "2021-09-30T12:00:00Z");
	/* The space forms Jekyll and Hugo sites carry. */
	check("2021-03-04 9:05:00 -4", d20210304 + 9 * 3600 + 5 * 60 +
	    4 * 3600, -240, 1, "2021-03-04", "2021-03-04T09:05:00-04:00");
	check("2021-03-04 09:05 +0100", d20210304 + 8 * 3600 + 5 * 60, 60, 1,
	    "2021-03-04", "2021-03-04T09:05:00+01:00");
	check("2021-03-04 09:05:00 -04:00", d20210304 + 13 * 3600 + 5 * 60,
	    -240, 1, "2021-03-04", "2021-03-04T09:05:00-04:00");
	check("2021-03-04 09:05:00 +530", d20210304 + 9 * 3600 + 5 * 60 -
	    (5 * 3600 + 30 * 60), 330, 1, "2021-03-04",
	    "2021-03-04T09:05:00+05:30");
	check("2021-03-04 09:05:00 UTC", d20210304 + 9 * 3600 + 5 * 60, 0, 1,
	    "2021-03-04", "2021-03-04T09:05:00Z");
	check("2021-03-04  23:59:59Z", d20210304 + 86399, 0, 1, "2021-03-04",
	    "2021-03-04T23:59:59Z");
	/* The local date is the one written, even when UTC is a day on. */
	check("2021-03-04T23:30:00-02:00", d20210304 + 86400 + 3600 + 1800,
	    -120, 1, "2021-03-04", "2021-03-04T23:30:00-02:00");
	check("2024-2-9", date_days(2024, 2, 9) * 86400LL + 12 * 3600, 0, 0,
	    "2024-02-09", "2024-02-09T12:00:00Z");
	check("1969-07-20T20:17:40Z", date_days(1969, 7, 20) * 86400LL +
	    20 * 3600 + 17 * 60 + 40, 0, 1, "1969-07-20",
	    "1969-07-20T20:17:40Z");
	check("2000-02-29", date_days(2000, 2, 29) * 86400LL + 12 * 3600, 0,
	    0, "2000-02-29", "2000-02-29T12:00:00Z");
}

static void
test_rejects(void)
{
	reject("", "empty date");
	reject("   ", "empty date");
	reject("notadate", "not a date (want YYYY-MM-DD)");
	reject("Jul 2022", "not a date (want YYYY-MM-DD)");
	reject("Jul 08 22", "not a date (want YYYY-MM-DD)");
	reject("Jul 08 2022 10:00", "not a date (want YYYY-MM-DD)");
	reject("Someday, Jul 08 2022", "not a date (want YYYY-MM-DD)");
	reject("Jul 32 2022", "day out of range");
	reject("32 July 2022", "day out of range");
	reject("20240101", "not a date (want YYYY-MM-DD)");
	reject("24-01-01", "not a date (want YYYY-MM-DD)");
	reject("2024-01-001", "not a date (want YYYY-MM-DD)");
	reject("2023-02-29", "day out of range");
	reject("1900-02-29", "day out of range");
	reject("2024-04-31", "day out of range");
	reject("2024-01-00", "day out of range");
	reject("2024-13-01", "month out of range");
	reject("2024-00-10", "month out of range");
	reject("0000-01-01", "year out of range");
	reject("2024-01-01x", "trailing characters after date");
	reject("2024-01-01T10", "bad time of day (want HH:MM[:SS])");
	reject("2024-01-01T10:5", "bad time of day (want HH:MM[:SS])");
	reject("2024-01-01T24:00:00Z", "hour out of range");
	reject("2024-01-01T10:60Z", "minute out of range");
	reject("2024-01-01 10:00:61", "second out of range");
	reject("2024-01-01T10:00:00+25:00", "time zone offset out of range");
	reject("2024-01-01T10:00:00+02:75", "time zone offset out of range");
	reject("2024-01-01 10:00 +", "bad time zone (want Z or +HH:MM)");
	reject("2024-01-01 10:00 EST", "bad time zone (want Z or +HH:MM)");
	reject("2024-01-01T10:00:00Z junk", "trailing characters after date");
	reject("2024-01-01T10:00:00.Z", "bad fraction of a second");
	reject("2024-01-01 10:00:00 +02:", "bad time zone minutes");
}

static void
test_filename(void)
{
	struct date	 d;

	INT_EQ(date_from_filename("2024-01-02-hello.md", &d), 11, "prefix");
	STR_EQ(d.ymd, "2024-01-02", "prefix ymd");
	INT_EQ(d.has_time, 0, "prefix has no time");
	INT_EQ(d.t, date_days(2024, 1, 2) * 86400LL + 12 * 3600, "noon");
	INT_EQ(date_from_filename("2024-01-02.md", &d), 0, "no dash after");
	INT_EQ(date_from_filename("hello.md", &d), 0, "no prefix");
	INT_EQ(date_from_filename("2024", &d), 0, "short name");
	INT_EQ(date_from_filename("", &d), 0, "empty name");
	INT_EQ(date_from_filename("2023-02-30-x.md", &d), 0, "invalid day");
	/* One-digit months and days, as Jekyll and Pelican read them. */
	INT_EQ(date_from_filename("2020-11-4-this-week.md", &d), 10,
	    "one-digit day");
	STR_EQ(d.ymd, "2020-11-04", "one-digit day ymd");
	INT_EQ(date_from_filename("2021-1-05-x.md", &d), 10, "one-digit month");
	STR_EQ(d.ymd, "2021-01-05", "one-digit month ymd");
	INT_EQ(date_from_filename("2021-1-5-x.md", &d), 9, "both one digit");
	STR_EQ(d.ymd, "2021-01-05", "both one digit ymd");
	INT_EQ(date_from_filename("2021-011-05-x.md", &d), 0, "three digits");
	INT_EQ(date_from_filename("2021-1-050-x.md", &d), 0, "day of three");
	INT_EQ(date_from_filename("202-01-05-x.md", &d), 0, "short year");
	INT_EQ(date_from_filename("2021-2-30-x.md", &d), 0, "no such day");
	INT_EQ(date_ymd("2021-1-5", 8, &d), 8, "a name that is the date");
	INT_EQ(date_ymd("2021-1-5x", 9, &d), 8, "a date, then a letter");
	INT_EQ(date_ymd("2021-1-51", 9, &d), 0, "a date, then a digit");
}

/* No dependence on the TZ environment (no mktime, no localtime). */
static void
test_tz_env(void)
{
	struct date	 a, b;
	const char	*errstr;

	parse("2021-03-04 9:05:00 -4", &a, &errstr);
	setenv("TZ", "Pacific/Kiritimati", 1);
	tzset();
	parse("2021-03-04 9:05:00 -4", &b, &errstr);
	INT_EQ(a.t, b.t, "same instant whatever TZ says");
	unsetenv("TZ");
	tzset();
}

/* Dates in addresses and folder paths, as generators keep them. */
static void
test_path(void)
{
	static const struct {
		const char	*s;
		int		 month_ok;
		const char	*ymd;		/* NULL: none */
		int		 day;
	} cases[] = {
		{ "2026/03/26/1.94.1-release", 0, "2026-03-26", 1 },
		{ "inside-rust/2025/1/5/x", 0, "2025-01-05", 1 },
		{ "/blog/2021/01/slug/", 0, NULL, 0 },
		{ "/blog/2021/01/slug/", 1, "2021-01-01", 0 },
		{ "/2014/03/12/x.html", 0, "2014-03-12", 1 },
		{ "2024-01-05-x", 0, "2024-01-05", 1 },
		{ "blog/2024-01-05", 0, "2024-01-05", 1 },
		{ "blog/2024-01-05x", 0, NULL, 0 },
		{ "2020-11-4-this-week", 0, "2020-11-04", 1 },
		{ "blog/2021-1-5/x", 0, "2021-01-05", 1 },
		{ "blog/2021-1-5x/y", 0, NULL, 0 },
		{ "2023/02/30/x", 0, NULL, 0 },		/* no such day */
		{ "2023/13/01/x", 1, NULL, 0 },
		{ "v/12345/01/02", 0, NULL, 0 },
		{ "2019", 1, NULL, 0 },
		{ "", 1, NULL, 0 },
		{ "///", 1, NULL, 0 },
		{ "a/2020/01/2020/02/03", 0, "2020-02-03", 1 },
	};
	struct date	 d;
	size_t		 i;
	int		 day, rv;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		day = -1;
		rv = date_from_path(cases[i].s, strlen(cases[i].s),
		    cases[i].month_ok, &d, &day);
		if (cases[i].ymd == NULL) {
			OK(rv == -1, "%s: no date", cases[i].s);
			continue;
		}
		OK(rv == 0 && strcmp(d.ymd, cases[i].ymd) == 0 &&
		    day == cases[i].day, "%s: %s (day %d), got %d %s %d",
		    cases[i].s, cases[i].ymd, cases[i].day, rv,
		    rv == 0 ? d.ymd : "-", day);
	}
	/* Only len bytes count. */
	OK(date_from_path("2020/01/02/x", 7, 0, &d, &day) == -1, "cut short");
}

static const struct harness_test tests[] = {
	TEST(test_path),
	TEST(test_days),
	TEST(test_forms),
	TEST(test_rejects),
	TEST(test_filename),
	TEST(test_tz_env),
};

int
main(int argc, char **argv)
{
	HARNESS_INIT(argc, argv, tests);
	harness_run();
	return harness_done();
}
