/*
 * date.c -- the date shapes of real front matter, parsed into struct date.
 *
 * Pure functions over (pointer, length); no allocation, no locale, and no
 * timegm()/mktime(): the calendar arithmetic is done here, so the TZ
 * environment variable cannot change a result.  Knows nothing of YAML or
 * files; the caller owns every struct date.
 */
#include <stdio.h>
#include <string.h>

#include "core/date.h"

#define NOON	(12 * 3600)

static int
is_digit(int c)
{
	return c >= '0' && c <= '9';
}

static int
is_space(int c)
{
	return c == ' ' || c == '\t';
}

static int
lower(int c)
{
	return (c >= 'A' && c <= 'Z') ? c + ('a' - 'A') : c;
}

static int
leap(int y)
{
	return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
}

static int
month_days(int y, int m)
{
	static const int	 days[12] = {
		31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31
	};

	return (m == 2 && leap(y)) ? 29 : days[m - 1];
}

/*
 * Read between min and max decimal digits at s[*i]; returns the number
 * read (0 if fewer than min) and leaves *i after them.
 */
static int
digits(const char *s, size_t len, size_t *i, int min, int max, int *out)
{
	int	 n = 0, v = 0;

	while (*i < len && n < max && is_digit((unsigned char)s[*i])) {
		v = v * 10 + (s[*i] - '0');
		(*i)++;
		n++;
	}
	if (n < min)
		return 0;
	*out = v;
	return n;
}

/* Case-insensitive: does s[i..len) start with the lower-case word w? */
static int
word_at(const char *s, size_t len, size_t i, const char *w)
{
	size_t	 n = strlen(w), k;

	if (len - i < n)
		return 0;
	for (k = 0; k < n; k++)
		if (lower((unsigned char)s[i + k]) != w[k])
			return 0;
	return 1;
}

/*
 * zone = "Z" / "UTC" / "GMT" / ("+" / "-") hours [[":"] 2DIGIT]
 * hours = 1*2DIGIT  (three or four digits run together read as HMM/HHMM)
 * Sets *off in minutes east of UTC.
 */
static int
zone(const char *s, size_t len, size_t *i, int *off, const char **errstr)
{
	int	 sign, h = 0, m = 0, n, v;

	if (*i < len && lower((unsigned char)s[*i]) == 'z') {
		(*i)++;
		*off = 0;
		return 0;
	}
	if (word_at(s, len, *i, "utc") || word_at(s, len, *i, "gmt")) {
		*i += 3;
		*off = 0;
		return 0;
	}
	if (*i >= len || (s[*i] != '+' && s[*i] != '-')) {
		*errstr = "bad time zone (want Z or +HH:MM)";
		return -1;
	}
	sign = s[*i] == '-' ? -1 : 1;
	(*i)++;
	n = digits(s, len, i, 1, 4, &v);
	if (n == 0) {
		*errstr = "bad time zone (want Z or +HH:MM)";
		return -1;
	}
	if (n <= 2) {
		h = v;
		if (*i < len && s[*i] == ':') {
			(*i)++;
			if (digits(s, len, i, 2, 2, &m) != 2) {
				*errstr = "bad time zone minutes";
				return -1;
			}
		}
	} else {
		h = v / 100;
		m = v % 100;
	}
	if (h > 23 || m > 59) {
		*errstr = "time zone offset out of range";
		return -1;
	}
	*off = sign * (h * 60 + m);
	return 0;
}

/* v as exactly n decimal digits (v is known to fit). */
static void
put_digits(char *out, int v, int n)
{
	while (n-- > 0) {
		out[n] = (char)('0' + v % 10);
		v /= 10;
	}
}

static const char *const month_names[] = {
	"jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct",
	"nov", "dec",
};
static const char *const day_names[] = {
	"mon", "tue", "wed", "thu", "fri", "sat", "sun",
};

static int
letter(int c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

/*
 * One of names[0..n) (English, its first three letters or more of the
 * word) at *i: its place from 1, the word passed; 0 for none.
 */
static int
name_at(const char *s, size_t len, size_t *i, const char *const *names,
    size_t n)
{
	size_t	 k;

	for (k = 0; k < n; k++)
		if (word_at(s, len, *i, names[k]))
			break;
	if (k == n)
		return 0;
	for (*i += 3; *i < len && letter((unsigned char)s[*i]); (*i)++)
		;
	return (int)k + 1;
}

static void
blanks(const char *s, size_t len, size_t *i)
{
	while (*i < len && is_space((unsigned char)s[*i]))
		(*i)++;
}

/*
 * named    = [weekday [","] 1*SP] month 1*SP day [","] 1*SP year
 *          / day 1*SP month [","] 1*SP year
 * month, weekday = an English name, or its first three letters
 * "Jul 08 2022" (Astro's blog starter), "July 8, 2022", "8 July 2022",
 * "Fri, Jul 08 2022": the date at noon UTC, as a date alone is.
 */
static int
named_date(const char *s, size_t len, struct date *d, const char **errstr)
{
	char	 ymd[10];
	size_t	 i = 0;
	int	 y, mo, dd;

	blanks(s, len, &i);
	if (i < len && letter((unsigned char)s[i])) {
		if (name_at(s, len, &i, day_names, 7) != 0) {
			if (i < len && s[i] == ',')
				i++;
			blanks(s, len, &i);
		}
		if ((mo = name_at(s, len, &i, month_names, 12)) == 0)
			goto fail;
		blanks(s, len, &i);
		if (digits(s, len, &i, 1, 2, &dd) == 0)
			goto fail;
	} else {
		if (digits(s, len, &i, 1, 2, &dd) == 0)
			goto fail;
		blanks(s, len, &i);
		if ((mo = name_at(s, len, &i, month_names, 12)) == 0)
			goto fail;
	}
	if (i < len && s[i] == ',')
		i++;
	blanks(s, len, &i);
	if (digits(s, len, &i, 4, 4, &y) != 4)
		goto fail;
	blanks(s, len, &i);
	if (i != len)
		goto fail;
	put_digits(ymd, y, 4);
	ymd[4] = '-';
	put_digits(ymd + 5, mo, 2);
	ymd[7] = '-';
	put_digits(ymd + 8, dd, 2);
	return date_parse(ymd, 10, d, errstr);
fail:
	*errstr = "not a date (want YYYY-MM-DD)";
	return -1;
}

/*
 * date     = year "-" month "-" day [sep time [*SP zone]] / named
 * year     = 4DIGIT; month, day = 1*2DIGIT
 * sep      = "T" / "t" / 1*SP
 * time     = 1*2DIGIT ":" 2DIGIT [":" 2DIGIT [("." / ",") 1*DIGIT]]
 * Leading and trailing blanks are ignored.
 */
int
date_parse(const char *s, size_t len, struct date *d, const char **errstr)
{
	size_t	 i = 0;
	int	 y, mo, dd, h = 12, mi = 0, sec = 0, off = 0, has_time = 0, v;

	while (len > 0 && (is_space((unsigned char)s[len - 1]) ||
	    s[len - 1] == '\r' || s[len - 1] == '\n'))
		len--;
	while (i < len && is_space((unsigned char)s[i]))
		i++;
	if (i == len) {
		*errstr = "empty date";
		return -1;
	}
	if (digits(s, len, &i, 4, 4, &y) != 4)
		return named_date(s, len, d, errstr);	/* "Jul 08 2022" */
	if (i >= len || s[i] != '-' ||
	    (i++, digits(s, len, &i, 1, 2, &mo)) == 0 || i >= len ||
	    s[i] != '-' || (i++, digits(s, len, &i, 1, 2, &dd)) == 0 ||
	    (i < len && is_digit((unsigned char)s[i]))) {
		*errstr = "not a date (want YYYY-MM-DD)";
		return -1;
	}
	if (y < 1) {
		*errstr = "year out of range";
		return -1;
	}
	if (mo < 1 || mo > 12) {
		*errstr = "month out of range";
		return -1;
	}
	if (dd < 1 || dd > month_days(y, mo)) {
		*errstr = "day out of range";
		return -1;
	}
	if (i < len) {
		if (s[i] == 'T' || s[i] == 't')
			i++;
		else if (is_space((unsigned char)s[i]))
			while (i < len && is_space((unsigned char)s[i]))
				i++;
		else {
			*errstr = "trailing characters after date";
			return -1;
		}
		if (digits(s, len, &i, 1, 2, &h) == 0 || i >= len ||
		    s[i] != ':' || (i++, digits(s, len, &i, 2, 2, &mi)) == 0) {
			*errstr = "bad time of day (want HH:MM[:SS])";
			return -1;
		}
		if (i < len && s[i] == ':') {
			i++;
			if (digits(s, len, &i, 2, 2, &sec) == 0) {
				*errstr = "bad seconds (want HH:MM:SS)";
				return -1;
			}
			if (i < len && (s[i] == '.' || s[i] == ',')) {
				i++;
				if (digits(s, len, &i, 1, 9, &v) == 0) {
					*errstr = "bad fraction of a second";
					return -1;
				}
				/* More than 9 digits of fraction: ignored. */
				while (i < len && is_digit((unsigned char)s[i]))
					i++;
			}
		}
		if (h > 23) {
			*errstr = "hour out of range";
			return -1;
		}
		if (mi > 59) {
			*errstr = "minute out of range";
			return -1;
		}
		if (sec > 60) {		/* 60: a leap second */
			*errstr = "second out of range";
			return -1;
		}
		has_time = 1;
		while (i < len && is_space((unsigned char)s[i]))
			i++;
		if (i < len && zone(s, len, &i, &off, errstr) == -1)
			return -1;
		if (i < len) {
			*errstr = "trailing characters after date";
			return -1;
		}
	}

	d->t = (time_t)date_days(y, mo, dd) * 86400 +
	    (has_time ? h * 3600 + mi * 60 + sec - off * 60 : NOON);
	d->tzoff = off;
	d->has_time = has_time;
	put_digits(d->ymd, y, 4);
	d->ymd[4] = '-';
	put_digits(d->ymd + 5, mo, 2);
	d->ymd[7] = '-';
	put_digits(d->ymd + 8, dd, 2);
	d->ymd[10] = '\0';
	return 0;
}

/*
 * ymd = 4DIGIT "-" 1*2DIGIT "-" 1*2DIGIT, not followed by a digit
 * (Jekyll's file names have one-digit months and days too: "2020-11-4").
 */
size_t
date_ymd(const char *s, size_t len, struct date *d)
{
	const char	*errstr;
	size_t		 i = 0;
	int		 v;

	if (digits(s, len, &i, 4, 4, &v) != 4 || i >= len || s[i] != '-' ||
	    (i++, digits(s, len, &i, 1, 2, &v)) == 0 || i >= len ||
	    s[i] != '-' || (i++, digits(s, len, &i, 1, 2, &v)) == 0 ||
	    (i < len && is_digit((unsigned char)s[i])))
		return 0;
	return date_parse(s, i, d, &errstr) == 0 ? i : 0;
}

size_t
date_from_filename(const char *name, struct date *d)
{
	size_t	 n;

	/* A date and the byte after it are eleven at most. */
	n = date_ymd(name, strnlen(name, 11), d);
	return n > 0 && name[n] == '-' ? n + 1 : 0;
}

/* s[0..len) is 1 to max decimal digits: their value, else -1. */
static int
number(const char *s, size_t len, size_t min, size_t max)
{
	size_t	 i;
	int	 v = 0;

	if (len < min || len > max)
		return -1;
	for (i = 0; i < len; i++) {
		if (!is_digit((unsigned char)s[i]))
			return -1;
		v = v * 10 + (s[i] - '0');
	}
	return v;
}

/* y-m-d, range-checked, into d at noon UTC (date_parse()'s rule). */
static int
ymd_date(int y, int m, int dd, struct date *d)
{
	char		 buf[16];
	const char	*errstr;

	if (y < 1 || m < 1 || m > 12 || dd < 1 || dd > month_days(y, m))
		return -1;
	put_digits(buf, y, 4);
	buf[4] = '-';
	put_digits(buf + 5, m, 2);
	buf[7] = '-';
	put_digits(buf + 8, dd, 2);
	return date_parse(buf, 10, d, &errstr);
}

/*
 * path  = *(segment "/") date-segs ["/" *segment]
 * date-segs = 4DIGIT "/" 1*2DIGIT "/" 1*2DIGIT / 4DIGIT "-" 1*2DIGIT "-"
 *             1*2DIGIT ["-" *char] / (month_ok) 4DIGIT "/" 1*2DIGIT
 */
int
date_from_path(const char *s, size_t len, int month_ok, struct date *d,
    int *day)
{
	const char	*seg[3];
	size_t		 seglen[3], i, k, ylen;
	int		 pass, y, m, dd, n, w;

	for (pass = 0; pass < (month_ok ? 2 : 1); pass++) {
		n = 0;
		w = pass == 0 ? 3 : 2;
		for (i = 0; i <= len; i = k + 1) {
			for (k = i; k < len && s[k] != '/'; k++)
				;
			if (k == i)
				continue;	/* "//", a leading '/' */
			if (pass == 0 && (ylen = date_ymd(s + i, k - i,
			    d)) > 0 && (ylen == k - i || s[i + ylen] == '-')) {
				*day = 1;
				return 0;
			}
			if (n == w) {		/* slide the window */
				memmove(seg, seg + 1, sizeof(seg[0]) * (w - 1));
				memmove(seglen, seglen + 1,
				    sizeof(seglen[0]) * (w - 1));
				n = w - 1;
			}
			seg[n] = s + i;
			seglen[n++] = k - i;
			if (n < w)
				continue;
			if ((y = number(seg[0], seglen[0], 4, 4)) == -1 ||
			    (m = number(seg[1], seglen[1], 1, 2)) == -1)
				continue;
			dd = pass == 0 ? number(seg[2], seglen[2], 1, 2) : 1;
			if (dd != -1 && ymd_date(y, m, dd, d) == 0) {
				*day = pass == 0;
				return 0;
			}
		}
	}
	return -1;
}

/* The inverse of date_days(): civil date of day z since the epoch. */
static void
civil(long z, int *y, int *m, int *d)
{
	long	 era, doe, yoe, doy, mp;

	z += 719468;
	era = (z >= 0 ? z : z - 146096) / 146097;
	doe = z - era * 146097;
	yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
	doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
	mp = (5 * doy + 2) / 153;
	*d = (int)(doy - (153 * mp + 2) / 5 + 1);
	*m = (int)(mp < 10 ? mp + 3 : mp - 9);
	*y = (int)(yoe + era * 400 + (*m <= 2));
}

void
date_rfc3339(const struct date *d, char out[32])
{
	long long	 local, days, secs;
	int		 y, m, dd, off;

	local = (long long)d->t + (long long)d->tzoff * 60;
	days = local / 86400;
	secs = local % 86400;
	if (secs < 0) {
		secs += 86400;
		days--;
	}
	civil((long)days, &y, &m, &dd);
	if (d->tzoff == 0) {
		snprintf(out, 32, "%04d-%02d-%02dT%02d:%02d:%02dZ", y, m, dd,
		    (int)(secs / 3600), (int)(secs / 60 % 60),
		    (int)(secs % 60));
		return;
	}
	off = d->tzoff < 0 ? -d->tzoff : d->tzoff;
	snprintf(out, 32, "%04d-%02d-%02dT%02d:%02d:%02d%c%02d:%02d", y, m, dd,
	    (int)(secs / 3600), (int)(secs / 60 % 60), (int)(secs % 60),
	    d->tzoff < 0 ? '-' : '+', off / 60, off % 60);
}

/* Days since 1970-01-01 (proleptic Gregorian; H. Hinnant's algorithm). */
long
date_days(int y, int m, int d)
{
	long	 yy, era, yoe, doy, doe;

	yy = (long)y - (m <= 2);
	era = (yy >= 0 ? yy : yy - 399) / 400;
	yoe = yy - era * 400;
	doy = (153L * (m > 2 ? m - 3 : m + 9) + 2) / 5 + d - 1;
	doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
	return era * 146097 + doe - 719468;
}

int
date_near(const char *s, size_t len, char *out, size_t size)
{
	size_t	 i, k;

	for (i = 0; i + 4 <= len; i++) {
		if ((s[i] != '1' && s[i] != '2') ||
		    strspn(s + i, "0123456789") < 4 ||
		    (i > 0 && s[i - 1] >= '0' && s[i - 1] <= '9'))
			continue;
		for (k = i; k < len && k - i < 24 && s[k] != ' ' &&
		    s[k] != '"' && s[k] != '\'' && s[k] != '\n'; k++)
			;
		snprintf(out, size, "\"%.*s\"", (int)(k - i), s + i);
		return 0;
	}
	return -1;
}
