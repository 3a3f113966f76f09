/*
 * test_yaml.c -- yaml.c, the libyaml helpers config.c and
 * frontmatter.c share: null, booleans, byte offsets as marks, and
 * libyaml's own errors.
 */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include <yaml.h>

#include "core/yaml.h"
#include "harness.h"

static void
test_bool(void)
{
	static const struct {
		const char	*s;
		int		 rv;
		bool		 b;
	} cases[] = {
		{ "true", 0, true }, { "TRUE", 0, true }, { "Yes", 0, true },
		{ "on", 0, true }, { "false", 0, false }, { "No", 0, false },
		{ "OFF", 0, false }, { " yes\t", 0, true },
		{ "\r\n false \n", 0, false }, { "", -1, false },
		{ "  ", -1, false }, { "y", -1, false }, { "1", -1, false },
		{ "truex", -1, false }, { "tru", -1, false },
		{ "yes no", -1, false },
	};
	size_t	 i;
	bool	 b;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		b = !cases[i].b;
		INT_EQ(yml_parse_bool(cases[i].s, strlen(cases[i].s), &b),
		    cases[i].rv, cases[i].s);
		if (cases[i].rv == 0)
			INT_EQ(b, cases[i].b, cases[i].s);
	}
	b = false;
	INT_EQ(yml_parse_bool("onion", 2, &b), 0, "only len bytes read");
	INT_EQ(b, true, "\"on\" of \"onion\"");
}

static void
test_offset_mark(void)
{
	const char	*s = "ab\ncd\r\nef\rg\xC3\xA9h";
	size_t		 len = strlen(s);
	yaml_mark_t	 m;

	m = yml_offset_mark(s, len, 0);
	OK(m.line == 0 && m.column == 0 && m.index == 0, "start");
	m = yml_offset_mark(s, len, 2);
	OK(m.line == 0 && m.column == 2, "end of line 1");
	m = yml_offset_mark(s, len, 4);
	OK(m.line == 1 && m.column == 1, "after LF");
	m = yml_offset_mark(s, len, 6);
	OK(m.line == 1 && m.column == 2, "the CR of a CRLF is no column");
	m = yml_offset_mark(s, len, 8);
	OK(m.line == 2 && m.column == 1, "after CRLF: %zu:%zu", m.line,
	    m.column);
	m = yml_offset_mark(s, len, 11);
	OK(m.line == 3 && m.column == 1, "a lone CR ends a line: %zu:%zu",
	    m.line, m.column);
	m = yml_offset_mark(s, len, 14);
	OK(m.line == 3 && m.column == 3, "e-acute is one column: %zu:%zu",
	    m.line, m.column);
	m = yml_offset_mark(s, len, 1000);
	OK(m.index == len, "past the end: the end");
	m = yml_offset_mark("a\r", 2, 2);
	OK(m.line == 1 && m.column == 0, "a CR at the very end");
}

/* The first scalar event of s, into ev; 0 or -1. */
static int
first_scalar(const char *s, yaml_event_t *ev)
{
	yaml_parser_t	 p;
	int		 rv = -1;

	yaml_parser_initialize(&p);
	yaml_parser_set_input_string(&p, (const unsigned char *)s,
	    strlen(s));
	for (;;) {
		if (!yaml_parser_parse(&p, ev))
			break;
		if (ev->type == YAML_SCALAR_EVENT) {
			rv = 0;
			break;
		}
		if (ev->type == YAML_STREAM_END_EVENT) {
			yaml_event_delete(ev);
			break;
		}
		yaml_event_delete(ev);
	}
	yaml_parser_delete(&p);
	return rv;
}

static void
test_null(void)
{
	static const struct {
		const char	*yaml;
		int		 null;
	} cases[] = {
		{ "~", 1 }, { "null", 1 }, { "Null", 1 }, { "NULL", 1 },
		{ "''", 0 }, { "\"null\"", 0 }, { "'~'", 0 }, { "nULL", 0 },
		{ "nil", 0 }, { "none", 0 }, { "null x", 0 },
	};
	yaml_event_t	 ev;
	size_t		 i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		if (first_scalar(cases[i].yaml, &ev) == -1) {
			OK(0, "no scalar in %s", cases[i].yaml);
			continue;
		}
		INT_EQ(yml_is_null(&ev), cases[i].null, cases[i].yaml);
		yaml_event_delete(&ev);
	}
	/* A list item with nothing after its "-": an empty plain scalar. */
	if (first_scalar("-\n", &ev) == 0) {
		INT_EQ(yml_is_null(&ev), 1, "empty");
		yaml_event_delete(&ev);
	} else
		OK(0, "no scalar in an empty list item");
	memset(&ev, 0, sizeof(ev));
	ev.type = YAML_SEQUENCE_START_EVENT;
	INT_EQ(yml_is_null(&ev), 0, "a list is not null");
}

/* Parse s to its end or first error; the message and mark of it. */
static int
problem(const char *s, size_t len, yaml_mark_t *m, char *msg, size_t n)
{
	yaml_parser_t	 p;
	yaml_event_t	 ev;
	int		 rv = 0;

	yaml_parser_initialize(&p);
	yaml_parser_set_input_string(&p, (const unsigned char *)s, len);
	for (;;) {
		if (!yaml_parser_parse(&p, &ev)) {
			yml_problem(&p, s, len, m, msg, n);
			rv = -1;
			break;
		}
		if (ev.type == YAML_STREAM_END_EVENT) {
			yaml_event_delete(&ev);
			break;
		}
		yaml_event_delete(&ev);
	}
	yaml_parser_delete(&p);
	return rv;
}

static void
test_problem(void)
{
	yaml_mark_t	 m;
	char		 msg[128];

	INT_EQ(problem("a: b\n", 5, &m, msg, sizeof(msg)), 0, "good YAML");
	INT_EQ(problem("a: \"open\n", 9, &m, msg, sizeof(msg)), -1,
	    "unclosed quote");
	STR_EQ(msg, "a quoted scalar opened here is never closed",
	    "unclosed quote: said so");
	OK(m.line == 0 && m.column == 3, "at the opening quote: %zu:%zu",
	    m.line, m.column);
	INT_EQ(problem("a: b\nc: 'open\nd: e\nf: g\n", 23, &m, msg,
	    sizeof(msg)), -1, "unclosed single quote, lines before the end");
	OK(m.line == 1 && m.column == 3, "at its opening: %zu:%zu", m.line,
	    m.column);
	INT_EQ(problem("a: [b, c\n", 9, &m, msg, sizeof(msg)), -1,
	    "unclosed flow sequence");
	OK(strstr(msg, "never closed") == NULL, "not a scanner's end: %s",
	    msg);
	INT_EQ(problem("a: b\rc: \xff\n", 10, &m, msg, sizeof(msg)), -1,
	    "bad byte");
	STR_EQ(msg, "invalid leading UTF-8 octet (#xFF)", "reader error");
	OK(m.line == 1 && m.column == 3, "after a lone CR: %zu:%zu", m.line,
	    m.column);
	INT_EQ(problem("a: \x01\n", 5, &m, msg, sizeof(msg)), -1, "control");
	STR_EQ(msg, "control characters are not allowed (#x1)",
	    "reader error with its value");
	INT_EQ(problem("a: \"open\n", 9, &m, msg, 10), -1, "short msg");
	STR_EQ(msg, "a quoted ", "cut to msglen");
}

static const struct harness_test tests[] = {
	TEST(test_bool),
	TEST(test_offset_mark),
	TEST(test_null),
	TEST(test_problem),
};

int
main(int argc, char **argv)
{
	HARNESS_INIT(argc, argv, tests);
	harness_run();
	return harness_done();
}
