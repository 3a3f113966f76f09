/*
 * yaml.h -- the libyaml helpers configuration and front matter share.
 *
 * The configuration's engine (config_engine.c) and frontmatter.c each
 * pull events from libyaml and keep their own error sink; what they
 * have in common is here: YAML's null, its booleans, and turning
 * libyaml's own error into a place and a message.  The prefix is yml_: yaml_ is libyaml's.  Knows libyaml,
 * nothing of either kind of document.
 */
#ifndef CAPSULED_YAML_H
#define CAPSULED_YAML_H

#include <stdbool.h>
#include <stddef.h>

#include <yaml.h>

/*
 * 1 when ev is a plain scalar that YAML reads as null: empty, "~",
 * "null", "Null" or "NULL"; 0 for anything else (a quoted "null" is a
 * string).
 */
int	 yml_is_null(const yaml_event_t *ev);

/*
 * bool = true / false / yes / no / on / off, in any case, with blanks
 * around ignored.  s[0..len) need not be NUL-terminated.  Returns 0
 * with *out set, or -1.
 */
int	 yml_parse_bool(const char *s, size_t len, bool *out);

/*
 * Where byte off of data[0..len) is, as libyaml would mark it: line
 * and column from 0, the column in characters; "\n", "\r\n" and a lone
 * "\r" each end a line, as they do for libyaml.
 */
yaml_mark_t yml_offset_mark(const char *data, size_t len, size_t off);

/*
 * Why the parser p, reading data[0..len), failed: where into *mark and
 * a message into msg[0..msglen): libyaml's problem, then the offending
 * code point of an encoding error ("(#xFF)") or what it was doing
 * ("(while scanning a quoted scalar)"); "out of memory" for that.
 * What the input ends inside (an unclosed quote) is placed where it
 * opens: "a quoted scalar opened here is never closed".
 */
void	 yml_problem(const yaml_parser_t *p, const char *data, size_t len,
	    yaml_mark_t *mark, char *msg, size_t msglen);

#endif
