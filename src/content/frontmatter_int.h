/*
 * frontmatter_int.h -- what frontmatter.c (YAML) shares with
 * frontmatter_toml.c (TOML) and frontmatter_header.c (header lines);
 * not for other modules, which use frontmatter.h.
 *
 * Included only by: frontmatter.c, frontmatter_toml.c, frontmatter_header.c
 *
 * One table of keys and aliases, and one function that applies a value
 * to its field (frontmatter_apply(): ranks, flags, lengths, the language
 * check, the draft merge), serve every syntax, so a post means the same
 * whichever one it is written in (the header lines have keys of their
 * own, Pelican's, on the same fields).  A reader checks the shapes its syntax
 * gives and converts; frontmatter.c owns the table and the rules.
 */
#ifndef CAPSULED_FRONTMATTER_INT_H
#define CAPSULED_FRONTMATTER_INT_H

#include <stdbool.h>
#include <stddef.h>

#include "core/buf.h"
#include "core/date.h"

struct fm_error;
struct meta;

#define FM_MAX_TAGS	256
#define FM_MAX_PART	1000000

enum fm_field {
	F_TITLE,
	F_DATE,
	F_UPDATED,
	F_TAGS,
	F_SERIES,
	F_PART,
	F_SUMMARY,
	F_SLUG,
	F_DRAFT,
	F_PUBLISHED,
	F_FEATURED,
	F_LANG,
	F_AUTHOR,
	F_SUBTITLE,
	F_LEVEL,
	F_AUDIENCE,
	F_ADDRESS,	/* path, url, permalink: the old address */
	F_ALIASES,	/* more old addresses */
	F_EXCERPT_SEP,	/* Jekyll's excerpt_separator */
	F_NFIELDS
};

/* What a field holds: what shapes a reader takes for it. */
enum fm_kind {
	FM_KIND_TEXT,		/* a string */
	FM_KIND_LIST,		/* a string or a list of strings */
	FM_KIND_DATE,
	FM_KIND_INT,		/* a whole number */
	FM_KIND_BOOL,
	FM_KIND_BOOL_OR_DATE,	/* published: false, or a date */
};

enum fm_kind frontmatter_kind(enum fm_field);

/* Aliases of one field: the lower rank wins (see frontmatter.h). */
struct fm_key {
	const char	*name;
	enum fm_field	 field;
	int		 rank;
};

/*
 * A value a reader found for a known key, in the form both syntaxes
 * share: the reader has checked its shape (a YAML scalar or sequence, a
 * TOML type) and converted it; what is of the wrong shape never gets
 * here (frontmatter_ignore()).
 */
enum fm_vtype {
	FM_VAL_TEXT,		/* s[0..len): a string */
	FM_VAL_ITEM,		/* s[0..len): one string of a list */
	FM_VAL_END,		/* the end of that list */
	FM_VAL_BOOL,		/* b */
	FM_VAL_INT,		/* i: a whole number, not yet range-checked */
	FM_VAL_DATE,		/* d */
};

struct fm_value {
	enum fm_vtype	 type;
	const char	*s;		/* borrowed from the reader */
	size_t		 len;
	bool		 b;
	long long	 i;
	struct date	 d;
	const void	*at;		/* where, for fm_fields.where() */
};

/*
 * The fields of one front matter being filled: one per parse, set up by
 * frontmatter_fields_init(), released by frontmatter_fields_done().
 * The reader embeds it and says through where() what line and column
 * its position handle at (a libyaml mark, a TOML value) stands for.
 */
struct fm_fields {
	struct meta	*m;		/* borrowed: what is filled */
	struct fm_error	*err;		/* borrowed: a refusal */
	const char	*key;		/* the key being read, for messages;
					   borrowed from the reader */
	int		 rank[F_NFIELDS]; /* of the alias that set a field */
	struct buf	 list;		/* owned: a list's items so far */
	void		(*where)(const struct fm_fields *, const void *at,
			    unsigned *line, unsigned *col);
};

void	 frontmatter_fields_init(struct fm_fields *, struct meta *,
	    struct fm_error *, void (*where)(const struct fm_fields *,
	    const void *, unsigned *, unsigned *));
void	 frontmatter_fields_done(struct fm_fields *);
/*
 * Apply v, the value of key k, at rank rank (k->rank, or below it for
 * TOML's [extra]): the one place that says which alias wins (the lower
 * rank; only a value that is set holds its field, so an empty or
 * ignored one is as if absent), how a string is made one line and how
 * long it may be, that a lang must be a language tag, that tags of all
 * aliases merge, that draft and "published: false" both make a draft,
 * and how far a part may go.  A list (tags, series, authors) comes as
 * its FM_VAL_ITEMs then an FM_VAL_END.  Returns 0 (an ignored value
 * included), or -1 with fl->err set: more than FM_MAX_TAGS tags.
 */
int	 frontmatter_apply(struct fm_fields *fl, const struct fm_key *k,
	    int rank, const struct fm_value *v);
/*
 * A value ignored, as if absent: a warning in m->warns, and the first
 * kept in m->ignored too.
 */
void	 frontmatter_ignore(struct fm_fields *, const void *at,
	    const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* A warning at at: the value is kept, maybe changed (m->warns). */
void	 frontmatter_note(struct fm_fields *, const void *at,
	    const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* The key s[0..len) names (any case), or NULL for an unknown key. */
const struct fm_key *frontmatter_key(const char *s, size_t len);
/*
 * Add the tag s[0..len) to m: made one line, entities decoded, cut to
 * FM_TAG_MAX characters, dropped when empty or already there (ignoring
 * case).  0; 1 when it was cut (the caller warns); -1 when m has
 * FM_MAX_TAGS tags already.
 */
int	 frontmatter_add_tag(struct meta *m, const char *s, size_t len);
/*
 * One item of a list written as one line (an author list): s made one
 * line, entities decoded, added to b after ", "; an empty item adds
 * nothing.
 */
void	 frontmatter_join_item(struct buf *b, const char *s, size_t len);
/*
 * A tag string: split on commas when it has one, else on blanks.  As
 * frontmatter_add_tag(): 1 when any tag was cut.
 */
int	 frontmatter_split_tags(struct meta *m, const char *s, size_t len);

/*
 * The front matter block at src + off: a first line that is a fence of
 * one of the marks in open (each three characters: "---", "+++"), up to
 * the next line that is a fence of one in close ("---..." is "---" or
 * "...").  1: found, the text between the fence lines is src[*inner ..
 * *end_at), m->body_off and m->body_line say where the body starts;
 * 0: the first line is no fence (no front matter); -1: never closed,
 * err set.
 */
int	 frontmatter_fenced(const char *src, size_t len, size_t off,
	    const char *open, const char *close, size_t *inner,
	    size_t *end_at, struct meta *m, struct fm_error *err);

/*
 * frontmatter_toml.c: src[off..len) starts with "+++" (off skips a
 * BOM).  Reads the TOML front matter into m, which frontmatter_parse()
 * has zeroed (body_off = off, body_line = 1); a first line that is not a
 * "+++" fence leaves it so: no front matter.  Same contract as
 * frontmatter_parse().
 */
int	 frontmatter_toml(const char *src, size_t len, size_t off,
	    struct meta *m, struct fm_error *err);
/*
 * frontmatter_header.c: src[off..len) opens with no fence.  When its
 * first line is a header key ("Title: x"), reads the "Key: value" lines
 * up to a blank line into m, as frontmatter_toml() does, and sets
 * m->slug_from_title; else leaves m as it is: no front matter.  Same
 * contract as frontmatter_parse().
 */
int	 frontmatter_header(const char *src, size_t len, size_t off,
	    struct meta *m, struct fm_error *err);

#endif
