/*
 * toml.h -- a TOML 1.0 document (https://toml.io/en/v1.0.0) as a tree.
 *
 * toml_parse() reads a whole document into its root table.  Tables keep
 * their keys in the order they were first written; strings are UTF-8
 * with a length (a "\u0000" escape is kept); integers are 64-bit;
 * date-times keep their parts and offset.  A refused document gives the
 * line and column (1-based, the column in characters) of the first
 * error and the reason.
 *
 * Bounded: tables and arrays nest at most TOML_MAX_DEPTH deep, which
 * also bounds the parser's recursion and toml_free()'s; key lookups are
 * hashed with a per-process random key, so no input makes parsing
 * quadratic.  Time and memory grow in proportion to the input.
 *
 * Knows core/buf.h; nothing of front matter or files.  The caller owns
 * the tree toml_parse() returns, every node and string in it, and
 * releases it with toml_free().
 */
#ifndef CAPSULED_TOML_H
#define CAPSULED_TOML_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define TOML_MAX_DEPTH	64	/* tables and arrays below the root */

enum toml_type {
	TOML_TABLE,
	TOML_ARRAY,
	TOML_STRING,
	TOML_INTEGER,
	TOML_FLOAT,
	TOML_BOOL,
	TOML_DATETIME,		/* offset date-time: 1979-05-27T07:32:00Z */
	TOML_LOCAL_DATETIME,	/* 1979-05-27T07:32:00 */
	TOML_LOCAL_DATE,	/* 1979-05-27 */
	TOML_LOCAL_TIME,	/* 07:32:00 */
};

struct toml_datetime {
	int		 year, month, day;	/* 0 in a local time */
	int		 hour, minute, second;	/* 0 in a local date */
	long		 nsec;		/* the fraction, truncated to ns */
	int		 offset;	/* minutes east of UTC; 0 unless
					   TOML_DATETIME */
};

struct toml_value;

struct toml_kv {
	char		*key;		/* owned; NUL-terminated */
	size_t		 keylen;	/* a quoted key may hold a NUL */
	size_t		 off;		/* byte offset of the key in src */
	struct toml_value *val;		/* owned */
};

struct toml_value {
	enum toml_type	 type;
	size_t		 off;		/* byte offset of the value in src */
	union {
		struct {
			struct toml_kv	*kv;	/* owned; in written order */
			size_t		 n;
			size_t		 cap;
			uint32_t	*idx;	/* owned: kv index + 1 by
						   hash; NULL while small */
			size_t		 idxcap;
		} table;
		struct {
			struct toml_value **v;	/* owned, each owned */
			size_t		 n;
			size_t		 cap;
		} array;
		struct {
			char	*s;		/* owned; NUL-terminated */
			size_t	 len;		/* may hold a NUL */
		} str;
		int64_t		 integer;
		double		 flt;
		bool		 boolean;
		struct toml_datetime dt;	/* the four date-time types */
	} u;
	/* The parser's bookkeeping for TOML's rules on redefinition. */
	unsigned char	 how;		/* how a table or array was made */
	unsigned char	 depth;		/* 0 for the root table */
	unsigned	 section;	/* which section made a dotted table */
};

struct toml_error {
	unsigned	 line;		/* 1-based */
	unsigned	 col;		/* 1-based, in characters */
	size_t		 off;		/* byte offset in src */
	char		 msg[128];	/* "duplicate key 'title'" */
};

/*
 * Parse src[0..len) (need not be NUL-terminated).  Returns 0 and sets
 * *out to the root table (the caller owns it); or -1 with err filled
 * and *out NULL.
 */
int		 toml_parse(const char *src, size_t len,
		    struct toml_value **out, struct toml_error *err);
void		 toml_free(struct toml_value *);

/* The value of key in table t; NULL when absent or t is no table. */
const struct toml_value *toml_get(const struct toml_value *t,
		    const char *key);
/* "table", "integer", "offset date-time", ...: for messages. */
const char	*toml_type_name(enum toml_type);

#endif
