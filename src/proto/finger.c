/*
 * finger.c -- the Finger query (finger.h).
 */
#include <string.h>

#include "proto/finger.h"

ssize_t
finger_request_end(const char *buf, size_t len)
{
	const char	*nl;
	size_t		 n;

	if ((nl = memchr(buf, '\n', len > FINGER_REQUEST_MAX ?
	    FINGER_REQUEST_MAX : len)) == NULL)
		return len >= FINGER_REQUEST_MAX ? FINGER_TOO_LONG :
		    FINGER_INCOMPLETE;
	n = (size_t)(nl - buf);
	if (n > 0 && buf[n - 1] == '\r')
		n--;
	return n > FINGER_LINE_MAX ? FINGER_TOO_LONG : (ssize_t)n;
}

static int
name_char(unsigned char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	    (c >= '0' && c <= '9') || c == '.' || c == '_' || c == '-';
}

void
finger_request_parse(const char *line, size_t len, struct finger_query *q)
{
	const char	*s = line, *end;
	size_t		 n, i, dots;

	memset(q, 0, sizeof(*q));
	q->kind = FINGER_BAD;
	if ((end = memchr(line, '\t', len)) == NULL)
		end = line + len;
	/* Forwarding is refused whatever else the line says. */
	if (memchr(line, '@', (size_t)(end - line)) != NULL) {
		q->kind = FINGER_FORWARD;
		return;
	}
	while (s < end && *s == ' ')
		s++;
	if (end - s >= 2 && s[0] == '/' && (s[1] == 'W' || s[1] == 'w') &&
	    (end - s == 2 || s[2] == ' ')) {
		q->verbose = 1;
		s += 2;
		while (s < end && *s == ' ')
			s++;
	}
	while (end > s && (end[-1] == ' ' || end[-1] == '\r'))
		end--;
	n = (size_t)(end - s);
	if (n == 0) {
		q->kind = FINGER_LIST;
		return;
	}
	if (n > FINGER_NAME_MAX)
		return;
	for (i = dots = 0; i < n; i++) {
		if (!name_char((unsigned char)s[i]))
			return;
		dots += s[i] == '.';
	}
	if (dots == n)		/* ".", "..": names of nothing */
		return;
	memcpy(q->user, s, n);
	q->user[n] = '\0';
	q->kind = FINGER_USER;
}
