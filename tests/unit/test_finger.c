/*
 * test_finger.c -- the Finger query (proto/finger.c): RFC 1288's
 * grammar read liberally, classified strictly, as the checklist's
 * table says.
 */
#include <stdio.h>
#include <string.h>

#include "harness.h"
#include "proto/finger.h"

static const struct {
	const char	*in;		/* on the wire */
	enum finger_kind kind;
	int		 verbose;
	const char	*user;
} rows[] = {
	{ "\r\n", FINGER_LIST, 0, "" },
	{ "\n", FINGER_LIST, 0, "" },
	{ "/W\r\n", FINGER_LIST, 1, "" },
	{ "/W \r\n", FINGER_LIST, 1, "" },
	{ "/w\r\n", FINGER_LIST, 1, "" },
	{ "alice\r\n", FINGER_USER, 0, "alice" },
	{ "/W alice\r\n", FINGER_USER, 1, "alice" },
	{ "/w   alice\r\n", FINGER_USER, 1, "alice" },
	{ "  alice  \n", FINGER_USER, 0, "alice" },
	{ "alice\tquery\r\n", FINGER_USER, 0, "alice" },
	{ "j.doe-2_x\r\n", FINGER_USER, 0, "j.doe-2_x" },
	{ "nobody\r\n", FINGER_USER, 0, "nobody" },
	{ "@h\r\n", FINGER_FORWARD, 0, "" },
	{ "alice@h\r\n", FINGER_FORWARD, 0, "" },
	{ "/W a@h1@h2\r\n", FINGER_FORWARD, 0, "" },
	{ "@127.0.0.1\r\n", FINGER_FORWARD, 0, "" },
	{ "alice bob\r\n", FINGER_BAD, 0, "" },
	{ "../x\r\n", FINGER_BAD, 0, "" },
	{ "..\r\n", FINGER_BAD, 0, "" },
	{ "caf\xc3\xa9\r\n", FINGER_BAD, 0, "" },
	{ "/Walice\r\n", FINGER_BAD, 0, "" },
	{ "a\x1b[2J\r\n", FINGER_BAD, 0, "" },
	{ "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\r\n",
	    FINGER_BAD, 0, "" },
};

static void
test_rows(void)
{
	struct finger_query	 q;
	ssize_t			 end;
	size_t			 i;

	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		end = finger_request_end(rows[i].in, strlen(rows[i].in));
		OK(end >= 0, "%zu: a whole line", i);
		if (end < 0)
			continue;
		finger_request_parse(rows[i].in, (size_t)end, &q);
		INT_EQ(q.kind, rows[i].kind, rows[i].in);
		INT_EQ(q.verbose, rows[i].verbose, rows[i].in);
		STR_EQ(q.user, rows[i].user, rows[i].in);
	}
}

static void
test_end(void)
{
	char	 big[FINGER_REQUEST_MAX + 100];

	INT_EQ(finger_request_end("alice", 5), FINGER_INCOMPLETE, "no end");
	memset(big, 'a', sizeof(big));
	INT_EQ(finger_request_end(big, 600), FINGER_TOO_LONG,
	    "600 bytes, no newline");
	big[FINGER_LINE_MAX + 1] = '\n';
	INT_EQ(finger_request_end(big, FINGER_LINE_MAX + 2), FINGER_TOO_LONG,
	    "a line over the cap");
}

static const struct harness_test tests[] = {
	TEST(test_rows),
	TEST(test_end),
};

int
main(int argc, char **argv)
{
	HARNESS_INIT(argc, argv, tests);
	harness_run();
	return harness_done();
}
