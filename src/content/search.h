/*
 * search.h -- full-text search over a snapshot's posts.
 *
 * An inverted index of the published posts of one snapshot (never the
 * drafts): every word of the title, tags, series and Markdown body (its
 * obvious punctuation stripped) and of the summary, folded (ASCII and
 * Latin-1 / Latin Extended-A letters to lower-case ASCII, so "Café"
 * matches "cafe"; Greek and Cyrillic to lower case), with the positions
 * it has in the post, so that quoted phrases match exactly.
 *
 * The site layer builds the index on first search and keeps it with the
 * snapshot it serves (site/site.c).  Memory: see search_bytes() and
 * docs/performance.md, "Search".  Knows the archive's shape; nothing of pages
 * (site/nav.c makes the results page), protocols or sockets.
 *
 * Query language (words are AND'ed):
 *   query   = term *( 1*SP term )
 *   term    = word / DQUOTE phrase DQUOTE / "tag:" name / "series:" name
 *   name    = word / DQUOTE phrase DQUOTE     (a slug or a display name)
 * A word that folds to several tokens ("e-mail") is a phrase.  Results
 * rank posts whose title, tags or series match more of the terms first,
 * then by BM25 relevance over the whole post, then newest first.
 */
#ifndef CAPSULED_SEARCH_H
#define CAPSULED_SEARCH_H

#include <stddef.h>
#include <stdint.h>

struct archive;
struct buf;
struct post;
struct search_index;

#define SEARCH_MAX_RESULTS	50	/* hits on a results page */
#define SEARCH_MAX_TERMS	16	/* terms of a query; more are ignored */
#define SEARCH_MAX_PHRASE	16	/* words of a phrase; more are ignored */
#define SEARCH_TOKEN_MAX	48	/* bytes of a folded token, cut there */
#define SEARCH_SNIPPET		160	/* bytes of a snippet, about */

enum search_kind {
	SEARCH_WORDS,		/* one word, or a phrase */
	SEARCH_TAG,		/* tag:name */
	SEARCH_SERIES,		/* series:name */
};

struct search_term {
	enum search_kind  kind;
	char		**words;	/* owned; folded tokens (SEARCH_WORDS) */
	size_t		  nwords;
	char		 *name;		/* owned; as typed (TAG, SERIES) */
};

struct search_query {
	struct search_term *terms;	/* owned */
	size_t		  nterms;
};

/*
 * Parse q (UTF-8, already percent-decoded) into out.  Returns 0, or -1
 * when q holds nothing to search for (blank, or punctuation alone);
 * out is then empty but still safe to free.
 */
int	 search_parse(const char *q, struct search_query *out);
void	 search_query_free(struct search_query *);

/*
 * Append the folded tokens of s[0..len), separated by one space, to out
 * (what the index stores and a query compares).
 */
void	 search_fold(const char *s, size_t len, struct buf *out);

/*
 * Build the index of a's posts; the caller owns it.  Never NULL.  It
 * borrows a, which must outlive it.
 */
struct search_index *search_build(const struct archive *a);
void	 search_free(struct search_index *);	/* NULL: ignored */
/* Bytes of memory the index holds. */
size_t	 search_bytes(const struct search_index *);
/* Distinct tokens in the index. */
size_t	 search_nterms(const struct search_index *);

struct search_hit {
	struct post	*post;		/* borrowed from the snapshot */
	unsigned	 meta;		/* terms matched in title/tags/series */
	double		 score;		/* BM25 over the whole post */
	char		*snippet;	/* owned; one line; never NULL */
};

struct search_result {
	struct search_hit *hits;	/* owned; best first */
	size_t		 nhits;		/* at most the max asked for */
	size_t		 total;		/* posts that match */
	char		 why[200];	/* "" or why nothing can match */
};

/*
 * Run q against the index x (of the snapshot it was built from).  Fills
 * res with at most max hits, each with a snippet of about SEARCH_SNIPPET
 * bytes around its first match in the body (on word boundaries, whole
 * UTF-8 characters), or the summary or the opening of the body when the
 * match is in the title or tags.  Returns 0, or -1 when q holds nothing
 * to search for (res is then empty).  res is freed with
 * search_result_free().
 */
int	 search_run(const struct search_index *x, const char *q, size_t max,
	    struct search_result *res);
void	 search_result_free(struct search_result *);

#endif
