/*
 * frontmatter.h -- the leading YAML or TOML block of a Markdown file, or
 * its header lines, as struct meta.
 *
 * A file may start (after an optional UTF-8 BOM) with a "---" line; the
 * front matter runs to the next "---" or "..." line, and the Markdown
 * body starts after it.  A file without that first line is all body.
 * A "+++" line opens TOML front matter instead (Hugo's and Zola's),
 * closed by the next "+++" line: frontmatter_toml.c reads it to the same
 * keys.  A first line that is a header key ("Title: x", Pelican's and
 * MultiMarkdown's metadata without a fence) opens "Key: value" lines up
 * to a blank line: frontmatter_header.c reads them.
 * The YAML is read with libyaml's event API under fixed caps on events
 * and nesting; aliases are refused, so no front matter can make us
 * expand anything.  Knows libyaml and date.h; nothing of files on disk
 * or of the archive.  A struct meta owns every string in it and is
 * released with meta_free().
 *
 * Keys (matched case-insensitively; docs/writing.md, "Front matter").
 * When aliases of one field are both present, the first name listed
 * wins whatever the order in the file:
 *   title
 *   date, pubdate, publishdate, created   (published: when not a bool;
 *                                          date: a mapping of created
 *                                          and updated, mkdocs-material)
 *   updated, lastmod, modified, last_modified_at, updatedDate
 *   tags, tag, categories, category       (all merged, in file order)
 *   series                                (a string, or a list: first item)
 *   part, series_part, series_order, weight   (a whole number)
 *   summary, description, excerpt
 *   slug; lang, language; author, authors (a string or a list)
 *   excerpt_separator                     (a string: ends the summary)
 *   draft (bool); published (bool: false means draft); featured (bool)
 *   subtitle (index.md); level, audience (series/<slug>.md)
 * A tag string is split on commas when it has one ("Gemini protocol, C"
 * is two tags), else on blanks ("c gemini" is two tags).  Bools are
 * true/false/yes/no/on/off.  An empty value or ~/null is as if the key
 * were absent.  Unknown keys are skipped, whatever they hold.  A known
 * key holding the wrong shape (title: [a, b], date: soon, part: two, a
 * lang that is no language tag) is ignored, as if absent, with a
 * warning (meta.ignored names the first): the post is still worth
 * reading.  Only YAML
 * that does not parse, or is not a mapping, refuses the file.
 * A key given twice (ignoring case) and a value cut to its FM_*_MAX are
 * warnings in meta.warns, pointing at the key or the value.
 */
#ifndef CAPSULED_FRONTMATTER_H
#define CAPSULED_FRONTMATTER_H

#include <stdbool.h>
#include <stddef.h>

#include "core/date.h"

/*
 * Longest values kept, in characters (code points); a longer one is cut
 * at a character boundary, with a warning: a title goes into every list
 * that names its post, so a 7 MB one would make each of them 7 MB.
 */
#define FM_TITLE_MAX	200	/* title, subtitle, series, author */
#define FM_SUMMARY_MAX	1000	/* summary */
#define FM_TAG_MAX	64	/* each tag */
#define FM_WARN_MAX	8	/* warnings kept for one file */

/* Where and why a front matter was refused, or a warning. */
struct fm_error {
	unsigned	 line;		/* 1-based in the file; --- is line 1 */
	unsigned	 col;		/* 1-based, in characters */
	char		 msg[128];	/* "title: expected a string" */
};

/* Strings are NULL when not given (or given empty). */
struct meta {
	char		*title;		/* one line, entities decoded */
	struct date	 date;
	bool		 has_date;
	struct date	 updated;
	bool		 has_updated;
	char		**tags;		/* display forms, in file order */
	size_t		 ntags;		/* duplicates (ignoring case) dropped */
	char		*series;	/* or NULL */
	int		 part;		/* 0 = not given */
	char		*summary;	/* one line; or NULL */
	char		*slug;		/* as written; or NULL */
	bool		 draft;
	bool		 featured;
	/*
	 * The slug is made from the title when none is given (Pelican's
	 * rule, for its header lines: content/slug.h), not from the file
	 * name.
	 */
	bool		 slug_from_title;
	char		*lang;		/* or NULL */
	char		*author;	/* a list is joined with ", " */
	char		*subtitle;	/* or NULL */
	char		*level;		/* or NULL */
	char		*audience;	/* or NULL */
	/*
	 * The post's address on the writer's old site (Zola's path,
	 * Hugo's url, Jekyll's permalink) and its aliases (a list, kept
	 * joined with ", "), as written; or NULL.
	 */
	char		*address;
	char		*aliases;
	/*
	 * Where the writer ends the summary (Jekyll's excerpt_separator), as
	 * written, blanks only made one; or NULL.  "<!--more-->" and
	 * "<!--truncate-->" always do (markdown/render.h).
	 */
	char		*excerpt_sep;

	/*
	 * The first value that was ignored rather than refused (of the
	 * wrong shape, a lang that is no language tag), and how many
	 * were; each is a warning in warns as well.
	 */
	struct fm_error	 ignored;
	unsigned	 nignored;

	size_t		 body_off;	/* Markdown starts at src + body_off */
	unsigned	 body_line;	/* 1-based line of src + body_off */

	/*
	 * What was accepted with a warning (a key given twice, a value
	 * cut), in file order, at most FM_WARN_MAX; the caller logs them
	 * as file:line:col.  Owned.
	 */
	struct fm_error	*warns;
	size_t		 nwarns;
	unsigned	 nwarns_lost;	/* more, past FM_WARN_MAX */
};

/*
 * Parse the front matter of src[0..len) into m (which need not be
 * initialised).  Returns 0, with m->warns saying what was let pass; or
 * -1 with err filled and m holding nothing that needs freeing.  src
 * need not be NUL-terminated.
 */
int	 frontmatter_parse(const char *src, size_t len, struct meta *m,
	    struct fm_error *err);
void	 meta_free(struct meta *m);
/* Add a warning at line:col to m->warns (ignored past FM_WARN_MAX). */
void	 meta_warn(struct meta *m, unsigned line, unsigned col,
	    const char *fmt, ...) __attribute__((format(printf, 4, 5)));
/*
 * Cut s after max characters, at a character boundary (a blank left at
 * the end goes too).  Returns 1 when it cut, else 0.
 */
int	 frontmatter_cut(char *s, size_t max);

enum fm_syntax {
	FM_SYNTAX_NONE,
	FM_SYNTAX_YAML,
	FM_SYNTAX_TOML,
	FM_SYNTAX_HEADER,	/* "Key: value" lines, no fence */
};

/* Which front matter src had, frontmatter_parse() having said body_off. */
enum fm_syntax frontmatter_syntax(const char *src, size_t len,
	    size_t body_off);

#define FM_ENTITIES	0x1	/* decode &amp; &#233; &eacute; ... */
#define FM_TAGS		0x2	/* drop HTML tags: <em>and</em> is "and" */

/*
 * Text fit for a one-line title: runs of blanks and line breaks become
 * one space, the ends are trimmed, other control characters (C0, DEL,
 * C1) are dropped and, with FM_ENTITIES, HTML character references are
 * decoded first; with FM_TAGS, HTML tags and comments are dropped
 * before that (title, summary and subtitle are read so).  Returns a malloc'd string (possibly empty).
 */
char	*frontmatter_oneline(const char *s, size_t len, int flags);

#endif
