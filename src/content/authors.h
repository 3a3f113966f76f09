/*
 * authors.h -- an authors file, read: who the author keys of posts are
 * (Docusaurus's authors.yml, mkdocs-material's .authors.yml; where
 * they are is core/capfile.h's, and which one a post reads is
 * content/archive.c's).
 *
 * authors_parse() reads the YAML into a table owned by its caller
 * (authors_free()); the strings authors_name() lends are the table's.
 */
#ifndef CAPSULED_AUTHORS_H
#define CAPSULED_AUTHORS_H

#include <stddef.h>

struct authors;
struct fm_error;

/*
 * The authors file src[0..len), read: NULL when it names no one, with
 * err's message set when it does not parse (where: its line and column)
 * and empty otherwise.
 */
struct authors	*authors_parse(const char *src, size_t len,
		    struct fm_error *err);
void		 authors_free(struct authors *);
/* The name of key[0..len) in a, borrowed from a; NULL when a has none. */
const char	*authors_name(const struct authors *a, const char *key,
		    size_t len);
/*
 * author (a front matter's: a list joined with ", ") with each key a
 * holds replaced by its name: malloc'd, or NULL when a holds none of
 * them (author is then right as it is).
 */
char		*authors_resolve(const struct authors *a, const char *author);

#endif
