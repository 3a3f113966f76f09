/*
 * fuzz_finger.c -- libFuzzer target for the Finger query parser.
 *
 * Whatever a client sends, the query is one of the four kinds; a user
 * name is 1..FINGER_NAME_MAX bytes of [A-Za-z0-9._-], never all dots;
 * any '@' before a TAB is forwarding.
 */
#include <assert.h>
#include <stdint.h>
#include <string.h>

#include "proto/finger.h"

int	 LLVMFuzzerTestOneInput(const uint8_t *, size_t);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct finger_query	 q;
	const char		*in = (const char *)data, *tab;
	ssize_t			 end;
	size_t			 i, n;

	end = finger_request_end(in, size);
	assert(end == FINGER_INCOMPLETE || end == FINGER_TOO_LONG ||
	    (end >= 0 && (size_t)end < size && end <= FINGER_LINE_MAX));
	if (end < 0)
		return 0;
	finger_request_parse(in, (size_t)end, &q);
	tab = memchr(in, '\t', (size_t)end);
	n = tab != NULL ? (size_t)(tab - in) : (size_t)end;
	if (memchr(in, '@', n) != NULL)
		assert(q.kind == FINGER_FORWARD);
	if (q.kind != FINGER_USER) {
		assert(q.user[0] == '\0');
		return 0;
	}
	n = strlen(q.user);
	assert(n > 0 && n <= FINGER_NAME_MAX);
	assert(strspn(q.user, ".") < n);
	for (i = 0; i < n; i++)
		assert(strchr("abcdefghijklmnopqrstuvwxyz"
		    "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-", q.user[i]) !=
		    NULL);
	return 0;
}
