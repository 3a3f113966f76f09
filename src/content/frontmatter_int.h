/*
 * frontmatter_int.h -- what frontmatter.c (YAML) shares with
 * frontmatter_toml.c (TOML); not for other modules, which use
 * frontmatter.h.
 *
 * One table of keys and aliases, and one set of rules for tags and
 * language tags, serve both syntaxes, so a post means the same whichever
 * one it is written in.  frontmatter.c owns the table and the rules.
 */
#ifndef CAPSULED_FRONTMATTER_INT_H
#define CAPSULED_FRONTMATTER_INT_H

#include <stddef.h>

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
	F_NFIELDS
};

/* Aliases of one field: the lower rank wins (see frontmatter.h). */
struct fm_key {
	const char	*name;
	enum fm_field	 field;
	int		 rank;
};

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
struct buf;
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

#endif
