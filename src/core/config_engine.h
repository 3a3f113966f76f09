/*
 * config_engine.h -- the configuration's one engine: libyaml events
 * into fields described by tables, and fields back into YAML.
 *
 * A table is an array of struct cfe_field {key, kind, offset, size,
 * min, max, flags, arg}; cfe_map() reads one mapping's keys against
 * it and stores each value at its offset from a base the caller names
 * (a struct config, one of its hosts, a zone, a backend entry).  A kind
 * is a parser and a printer: the scalar kinds are here (text, host
 * name, language tag, path, integers, sizes, durations, booleans,
 * keywords, lists of strings); a table's own keys bring their own.
 * Every refusal is worded here once -- an unknown or repeated key, "expected
 * X, got Y", a value out of range, an anchor -- and every message is
 * "NAME:LINE:COL: key: ..., what is wrong", the keys being those the
 * value is nested in.  The prefix is cfe_ (yml_ is core/yaml.h's).
 *
 * Knows libyaml and path names; nothing of what a key means (the
 * tables' flags are theirs: the engine only compares them with what
 * cfe_map() is told to need).  Strings a parser stores are malloc'd and
 * belong to the base they are stored in.
 */
#ifndef CAPSULED_CONFIG_ENGINE_H
#define CAPSULED_CONFIG_ENGINE_H

#include <stddef.h>

#include <yaml.h>

struct buf;
struct cfe;
struct cfe_field;
struct cfe_out;

#define CFE_DEPTH	8		/* keys a value may be nested in */
#define CFE_SHOW_MAX	40		/* bytes of a bad value in a message */

/*
 * Read the value whose first event is ev (the caller deletes it; a
 * parser reads the rest of a list or a mapping itself) into the field
 * f of the base.  0, or -1 with the error set.
 */
typedef int	cfe_parse_fn(struct cfe *, const struct cfe_field *,
		    yaml_event_t *ev);
/* Write f's value at base as YAML that parse reads back the same. */
typedef void	cfe_print_fn(struct cfe_out *, const struct cfe_field *,
		    const void *base);

struct cfe_kind {
	cfe_parse_fn	*parse;
	cfe_print_fn	*print;
};

/* One spelling of a keyword value, and the number stored for it. */
struct cfe_word {
	const char	*name;		/* matched ignoring case; the first
					   of a value is how it is printed */
	int		 value;
};

/* The values of a keyword field (cfe_word_kind): its arg. */
struct cfe_words {
	const char	*what;		/* "utf-8 or ascii", for messages */
	struct cfe_word	 w[12];		/* ends at a NULL name */
};

/*
 * Check one item of a list of strings and append it with
 * cfe_list_append(); the field's arg is a struct cfe_items.
 */
typedef int	cfe_item_fn(struct cfe *, const struct cfe_field *,
		    const yaml_event_t *, char ***v, size_t *n);

struct cfe_items {
	cfe_item_fn	*add;
	int		 allow_null;	/* null: an empty list */
	int		 min1;		/* an empty list is refused */
};

struct cfe_field {
	const char	*key;		/* as written in the file */
	const struct cfe_kind *kind;
	size_t		 off;		/* where in the base */
	size_t		 size;		/* the bytes its value takes there
					   (a list: its pointer and count) */
	long long	 min, max;	/* range of a number, length of text,
					   entries of a list */
	unsigned	 flags;		/* the table's own (scope) */
	const void	*arg;		/* the kind's: struct cfe_words,
					   struct cfe_items, or NULL */
};

/*
 * A load in progress.  The caller fills name, data, len, confdir, err
 * and errlen, then calls cfe_begin(); owner and mode are the tables'
 * (what their own parsers share); the rest is the engine's.
 */
struct cfe {
	const char	*name;		/* file name as given, for messages */
	const char	*data;		/* the whole input */
	size_t		 len;
	const char	*confdir;	/* absolute; anchors relative paths */
	char		*err;		/* "NAME:LINE:COL: ..." goes here */
	size_t		 errlen;
	void		*owner;		/* the tables' own state */
	unsigned	 mode;		/* the tables' own: where we are */

	yaml_parser_t	 parser;
	void		*base;		/* what fields' offsets are into */
	const char	*ctx[CFE_DEPTH]; /* the keys we are inside */
	size_t		 depth;
};

/* libyaml set up on l's input; 0, or -1 with the error set. */
int	 cfe_begin(struct cfe *l);
void	 cfe_end(struct cfe *l);

/*
 * "NAME:LINE:COL: " and the keys we are inside ("hosts: title: "),
 * then fmt's message, into l->err.  Returns -1, for `return
 * cfe_fail(...)`.
 */
int	 cfe_fail(struct cfe *l, yaml_mark_t m, const char *fmt, ...)
	    __attribute__((format(printf, 3, 4)));
/* Messages from here on are about key (borrowed); cfe_pop() ends it. */
void	 cfe_push(struct cfe *l, const char *key);
void	 cfe_pop(struct cfe *l);

/*
 * The next event into ev, which the caller then owns and deletes.
 * Aliases, anchors and tags are refused here, once for every node.
 * 0, or -1 with the error set and nothing to delete.
 */
int	 cfe_next(struct cfe *l, yaml_event_t *ev);
/*
 * The next node of a list or a mapping: 1, or 0 at the collection's
 * end (its end event deleted already), or -1 as cfe_next() says.
 */
int	 cfe_next_in(struct cfe *l, yaml_event_t *ev);
/* "a list", "a mapping", "a single value": what ev starts. */
const char *cfe_what(const yaml_event_t *ev);

/*
 * The keys of a mapping, after its MAPPING-START event, looked up in
 * t[0..n) and stored at base.  A key whose flags lack every bit of
 * need (when need is not 0) is refused: "'KEY' " then refusal.
 * marks[i] and seen[i] (n each, zeroed by the caller) say where each
 * key's value was.  0, or -1 with the error set.
 */
int	 cfe_map(struct cfe *l, const struct cfe_field *t, size_t n,
	    void *base, unsigned need, const char *refusal, yaml_mark_t *marks,
	    unsigned char *seen);

/*
 * A mapping of data (names to values, not a table's keys), after its
 * MAPPING-START event ev: pair() is given each scalar key (k, borrowed
 * from key) and its value's first event, which it must read whole.
 */
typedef int	cfe_pair_fn(struct cfe *, const yaml_event_t *key,
		    const char *k, yaml_event_t *val, void *arg);
int	 cfe_pairs(struct cfe *l, cfe_pair_fn *pair, void *arg);

/*
 * The value of a scalar event, borrowed from ev; what names what the
 * key wants ("an integer"), for "expected WHAT, got a list".  A NUL
 * byte (a double-quoted "\0") is refused, so that C strings hold the
 * whole value.
 */
int	 cfe_scalar(struct cfe *l, const yaml_event_t *ev, const char *what,
	    const char **out);
/*
 * One line of text of min..max bytes, no control characters; *out is
 * NULL for a null or empty value when min is 0 (an optional string).
 */
int	 cfe_text(struct cfe *l, const yaml_event_t *ev, long long min,
	    long long max, const char **out);
/* An integer in min..max; null is refused. */
int	 cfe_integer(struct cfe *l, const yaml_event_t *ev, long long min,
	    long long max, long long *out);
/*
 * One of ws's words, in any case: its value into *out, else "expected
 * WHAT, got 'X'".
 */
int	 cfe_word(struct cfe *l, const yaml_event_t *ev,
	    const struct cfe_words *ws, int *out);
/* "expected WHAT, got 'S'" at ev, S shown as cfe_show() does. */
int	 cfe_bad(struct cfe *l, const yaml_event_t *ev, const char *what,
	    const char *s);
/* "'S' is listed twice" at m. */
int	 cfe_twice(struct cfe *l, yaml_mark_t m, const char *s);
/*
 * A plain directory name (letters, digits, '-', '_', '.' not first),
 * one trailing '/' allowed and dropped, or null: into *out (malloc'd;
 * NULL for null).  example is such a name, for the message.
 */
int	 cfe_dir_name(struct cfe *l, const yaml_event_t *ev,
	    const char *example, char **out);
/*
 * A SHA-256 fingerprint: 64 hex digits in any case, colons and blanks
 * between them allowed; into hex (65 bytes) in lower case, bare.
 */
int	 cfe_fingerprint(struct cfe *l, const yaml_event_t *ev, char *hex);

/* Where f's value is in the base being filled. */
void	*cfe_at(const struct cfe *l, const struct cfe_field *f);
/* Replace the string at f with a copy of s (NULL allowed). */
void	 cfe_set_str(struct cfe *l, const struct cfe_field *f, const char *s);

/*
 * list = item / "[" *( item ) "]" (or a block list) / null when the
 * items allow it: each item through ((struct cfe_items *)f->arg)->add;
 * the list then replaces the one at f (a char ** and its size_t count
 * right after it).
 */
int	 cfe_list(struct cfe *l, const struct cfe_field *f, yaml_event_t *ev);
/*
 * Append a copy of value to *v (*n entries), unless it is there already
 * or the list is full (f->max); written is what the file said, noun
 * what the entries are ("addresses").
 */
int	 cfe_list_append(struct cfe *l, const struct cfe_field *f,
	    const yaml_event_t *ev, char ***v, size_t *n, const char *value,
	    const char *written, const char *noun);

/*
 * s made fit for a message: at most CFE_SHOW_MAX bytes (cut on a UTF-8
 * boundary, "..." added), control bytes as '?'.  Returns out.
 */
const char *cfe_show(const char *s, char out[CFE_SHOW_MAX + 4]);

/*
 * Join dir and p (dir is ignored when p is absolute) and drop empty,
 * "." and ".." components, without looking at the file system.  dir
 * must be absolute; so is the result, which the caller frees.
 */
char	*cfe_path_resolve(const char *dir, const char *p);
/*
 * dir as an absolute path: realpath() when it exists, else joined to
 * the working directory.  NULL with errno set when neither works.
 */
char	*cfe_absolute_dir(const char *dir);

/*
 * The printer: YAML into out, a key per line at indent spaces; a list
 * item's first key gets its "- " (cfe_out_item()).  top and host are
 * the tables' (what the printers of their own keys need).
 */
struct cfe_out {
	struct buf	*b;
	int		 indent;
	int		 dash;		/* the next key opens a list item */
	const void	*top;		/* the whole configuration */
	const char	*host;		/* the host item being printed, or
					   NULL at the top level */
};

/* "KEY:" at the line's start, indented; the caller writes the rest. */
void	 cfe_out_key(struct cfe_out *o, const char *key);
/* The next key opens an item of a block list. */
void	 cfe_out_item(struct cfe_out *o);
/* s as a double-quoted YAML string, escaped; "null" for NULL. */
void	 cfe_out_str(struct cfe_out *o, const char *s);
/* The strings v[0..n) as a flow list: ["a", "b"]. */
void	 cfe_out_strs(struct cfe_out *o, char *const *v, size_t n);
/* "KEY: VALUE\n", the value written as printf says. */
void	 cfe_out_line(struct cfe_out *o, const char *key, const char *fmt,
	    ...) __attribute__((format(printf, 3, 4)));
/* A pair of a mapping of data: "K": "V", both quoted, on a line. */
void	 cfe_out_pair(struct cfe_out *o, const char *k, const char *v);
/* "KEY: " and s quoted (or null), then the line's end. */
void	 cfe_out_keystr(struct cfe_out *o, const char *key, const char *s);

/* The printer of a kind whose value is a string (char *) or NULL. */
cfe_print_fn	 cfe_print_str;

/* The scalar kinds, their range from the field. */
extern const struct cfe_kind cfe_text_kind;	/* char *; min 0: nullable */
extern const struct cfe_kind cfe_host_kind;	/* char *, lower case */
extern const struct cfe_kind cfe_lang_kind;	/* char *, mime_lang_ok() */
extern const struct cfe_kind cfe_path_kind;	/* char *, absolute */
extern const struct cfe_kind cfe_int_kind;	/* int */
extern const struct cfe_kind cfe_uint_kind;	/* unsigned */
extern const struct cfe_kind cfe_size_kind;	/* size_t, bytes */
extern const struct cfe_kind cfe_ms_kind;	/* unsigned, milliseconds */
extern const struct cfe_kind cfe_rate_kind;	/* unsigned, thousandths a
						   second; 0: off */
extern const struct cfe_kind cfe_bool_kind;	/* int, 0 or 1 */
extern const struct cfe_kind cfe_word_kind;	/* int; arg: cfe_words */
extern const struct cfe_kind cfe_list_kind;	/* char **, size_t; arg:
						   cfe_items */

#endif
