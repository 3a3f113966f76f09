/*
 * yaml.c -- libyaml helpers shared by the configuration's engine and
 * frontmatter.c.
 *
 * Knows libyaml's events, marks and errors; nothing of what a document
 * means.  Allocates nothing.
 */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include <yaml.h>

#include "core/utf8.h"
#include "core/util.h"
#include "core/yaml.h"

int
yml_is_null(const yaml_event_t *ev)
{
	const char	*s;
	size_t		 len;

	if (ev->type != YAML_SCALAR_EVENT ||
	    ev->data.scalar.style != YAML_PLAIN_SCALAR_STYLE)
		return 0;
	s = (const char *)ev->data.scalar.value;
	len = ev->data.scalar.length;
	return len == 0 || (len == 1 && s[0] == '~') ||
	    (len == 4 && (memcmp(s, "null", 4) == 0 ||
	    memcmp(s, "Null", 4) == 0 || memcmp(s, "NULL", 4) == 0));
}

static int
is_blank(int c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' ||
	    c == '\f';
}

int
yml_parse_bool(const char *s, size_t len, bool *out)
{
	static const char *const yes[] = { "true", "yes", "on" };
	static const char *const no[] = { "false", "no", "off" };
	size_t		 i;

	while (len > 0 && is_blank((unsigned char)s[len - 1]))
		len--;
	while (len > 0 && is_blank((unsigned char)*s)) {
		s++;
		len--;
	}
	for (i = 0; i < nitems(yes); i++) {
		if (strlen(yes[i]) == len && strncasecmp(s, yes[i], len) == 0) {
			*out = true;
			return 0;
		}
		if (strlen(no[i]) == len && strncasecmp(s, no[i], len) == 0) {
			*out = false;
			return 0;
		}
	}
	return -1;
}

yaml_mark_t
yml_offset_mark(const char *data, size_t len, size_t off)
{
	yaml_mark_t	 m = { 0, 0, 0 };
	unsigned	 line, col;

	utf8_position(data, len, off, &line, &col);
	m.index = off > len ? len : off;
	m.line = line - 1;
	m.column = col - 1;	/* characters, as libyaml counts them */
	return m;
}

void
yml_problem(const yaml_parser_t *p, const char *data, size_t len,
    yaml_mark_t *mark, char *msg, size_t msglen)
{
	const char	*problem = p->problem ? p->problem : "invalid YAML";

	switch (p->error) {
	case YAML_MEMORY_ERROR:
		*mark = p->mark;
		snprintf(msg, msglen, "out of memory");
		break;
	case YAML_READER_ERROR:
		/* The reader knows only a byte offset. */
		*mark = yml_offset_mark(data, len, p->problem_offset);
		if (p->problem_value != -1)
			snprintf(msg, msglen, "%s (#x%X)", problem,
			    (unsigned)p->problem_value);
		else
			snprintf(msg, msglen, "%s", problem);
		break;
	case YAML_SCANNER_ERROR:
		/*
		 * What runs unclosed to the end (a quoted scalar, most often:
		 * title: "It's) is told where it opens: the end of the input
		 * is lines away from the writer's mistake.
		 */
		if (p->context != NULL && strncmp(p->context,
		    "while scanning ", 15) == 0 &&
		    strstr(problem, "end of stream") != NULL) {
			*mark = p->context_mark;
			snprintf(msg, msglen, "%s opened here is never closed",
			    p->context + 15);
			break;
		}
		/* FALLTHROUGH */
	default:
		*mark = p->problem_mark;
		if (p->context != NULL)
			snprintf(msg, msglen, "%s (%s)", problem, p->context);
		else
			snprintf(msg, msglen, "%s", problem);
		break;
	}
}
