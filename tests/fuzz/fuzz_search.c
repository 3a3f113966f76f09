/*
 * fuzz_search.c -- libFuzzer target for search.c: the query language
 * (what a client sends after "?" or a Gopher TAB), the token folder and
 * the Markdown-to-plain-text stripper.
 *
 * The input is a query.  search_parse() must give at most
 * SEARCH_MAX_TERMS terms, each word non-empty, at most SEARCH_TOKEN_MAX
 * bytes, without a blank; search_fold() must give tokens joined by
 * single spaces; plain_markdown() must never write more than it read (its
 * contract), and no line break.  The query is then run against a small
 * capsule (made once in a temp directory): at most max hits, each
 * snippet one line.
 */
#include <assert.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "content/archive.h"
#include "content/search.h"
#include "markdown/plain.h"
#include "core/buf.h"
#include "core/config.h"
#include "core/log.h"

int	 LLVMFuzzerTestOneInput(const uint8_t *, size_t);

static const char *const files[][2] = {
	{ "posts/2024-01-01-cafe.md", "---\ntitle: Caf\xc3\xa9 notes\n"
	    "tags: [coffee, gemini]\nseries: Brews\n---\n# Beans\n\n"
	    "A *phrase here* and `code`, [a link](b.md), e-mail.\n" },
	{ "posts/2024-02-02-b.md", "---\ntitle: B\ntags: tls\n---\n"
	    "```\nfenced code\n```\n> quote\n- item one\n" },
	{ "posts/2024-03-03-c.md", "---\ntitle: \xce\x95\xce\xbb\xce\xbb\n"
	    "summary: Greek\n---\nGreek text \xce\xb1\xce\xb2\n" },
};
static char		 capsule[64];
static struct archive	*arch;
static struct search_index *idx;	/* arch's */

static void
cleanup(void)
{
	char	 path[160];
	size_t	 i;

	search_free(idx);
	archive_unref(arch);
	for (i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		snprintf(path, sizeof(path), "%s/%s", capsule, files[i][0]);
		unlink(path);
	}
	snprintf(path, sizeof(path), "%s/posts", capsule);
	rmdir(path);
	rmdir(capsule);
}

static const struct search_index *
capsule_index(void)
{
	struct config	 c;
	char		 path[160];
	FILE		*f;
	size_t		 i;

	if (idx != NULL)
		return idx;
	log_open(NULL, LOG_LEVEL_ERROR);
	snprintf(capsule, sizeof(capsule), "/tmp/capsuled-fuzz-search-XXXXXX");
	if (mkdtemp(capsule) == NULL)
		abort();
	snprintf(path, sizeof(path), "%s/posts", capsule);
	mkdir(path, 0755);
	for (i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		snprintf(path, sizeof(path), "%s/%s", capsule, files[i][0]);
		if ((f = fopen(path, "w")) == NULL)
			abort();
		fputs(files[i][1], f);
		fclose(f);
	}
	memset(&c, 0, sizeof(c));
	c.capsule_dir = capsule;
	c.site_title = "t";
	c.lang = "en";
	c.hostname = "localhost";
	if ((arch = archive_load(&c)) == NULL)
		abort();
	idx = search_build(arch);
	atexit(cleanup);
	return idx;
}

static void
check_query(const struct search_query *q)
{
	size_t	 i, j;

	assert(q->nterms >= 1 && q->nterms <= SEARCH_MAX_TERMS);
	for (i = 0; i < q->nterms; i++) {
		const struct search_term *t = &q->terms[i];

		if (t->kind != SEARCH_WORDS) {
			assert(t->name != NULL);
			continue;
		}
		assert(t->nwords >= 1);
		for (j = 0; j < t->nwords; j++) {
			size_t len = strlen(t->words[j]);

			assert(len >= 1 && len <= SEARCH_TOKEN_MAX);
			assert(strpbrk(t->words[j], " \t\r\n") == NULL);
		}
	}
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct search_query	 q;
	struct search_result	 res;
	struct buf		 b = BUF_INIT;
	char			*s;
	size_t			 i;

	s = malloc(size + 1);
	memcpy(s, data, size);
	s[size] = '\0';

	if (search_parse(s, &q) == 0)
		check_query(&q);
	search_query_free(&q);

	search_fold((const char *)data, size, &b);
	if (b.len > 0) {
		assert(b.data[0] != ' ' && b.data[b.len - 1] != ' ');
		assert(strstr(b.data, "  ") == NULL);
		assert(strlen(b.data) == b.len);
	}
	buf_free(&b);

	plain_markdown((const char *)data, size, &b);
	assert(b.len <= size + 1);
	assert(b.len == 0 || memchr(b.data, '\n', b.len) == NULL);
	buf_free(&b);

	if (size <= 512 && search_run(capsule_index(), s, 5, &res) == 0) {
		assert(res.nhits <= 5 && res.nhits <= res.total);
		for (i = 0; i < res.nhits; i++) {
			assert(res.hits[i].post != NULL);
			assert(res.hits[i].snippet != NULL);
			assert(strchr(res.hits[i].snippet, '\n') == NULL);
		}
		search_result_free(&res);
	}
	free(s);
	return 0;
}
