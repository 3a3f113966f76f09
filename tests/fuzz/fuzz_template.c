/*
 * fuzz_template.c -- libFuzzer target for template.c.
 *
 * The input is a Markdown body.  template_rewrite() must return a
 * NUL-terminated body of the length it says, at most
 * TEMPLATE_MAX_NOTES notes whose positions lie inside the input and
 * whose text fits, never fewer lines than it was given (line numbers
 * stay), and what it returns must render (fuzz_render checks the
 * renderers' own promises).  Inputs whose first byte is odd are read
 * as a page bundle's index, against a fixed list of its files, so the
 * resource matching (imgproc, gallery globs) is fuzzed too.
 */
#include <assert.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "markdown/template.h"
#include "core/buf.h"
#include "core/utf8.h"
#include "markdown/render.h"

int	 LLVMFuzzerTestOneInput(const uint8_t *, size_t);

static size_t
count_lines(const char *s, size_t len)
{
	size_t	 n = 1;
	const char *p = s, *e = s + len;

	while ((p = memchr(p, '\n', (size_t)(e - p))) != NULL) {
		n++;
		p++;
	}
	return n;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct template_result	 r;
	struct buf		 b = BUF_INIT;
	const char		*md = (const char *)data;
	size_t			 i, nlines;
	unsigned		 last, col;

	static const char *const names[] = { "a.jpg", "b/c.png", "b/d.txt",
	    "img", "img.gif", "x-featured.webp" };
	const struct template_files tf = { names, 6 };

	(void)template_present(md, size);
	if (size > 0 && (data[0] & 1))
		template_rewrite_bundle(md, size, &tf, NULL, &r);
	else
		template_rewrite(md, size, &r);
	assert(r.body != NULL && r.body[r.len] == '\0');
	assert(r.nnotes <= TEMPLATE_MAX_NOTES);
	assert(r.nmore == 0 || r.nnotes == TEMPLATE_MAX_NOTES);
	nlines = count_lines(md, size);
	assert(count_lines(r.body, r.len) >= nlines);
	/* Notes count lines as utf8_position() does: a lone CR ends one. */
	utf8_position(md, size, size, &last, &col);
	for (i = 0; i < r.nnotes; i++) {
		assert(r.notes[i].line >= 1 && r.notes[i].line <= last);
		assert(r.notes[i].col >= 1 && r.notes[i].col <= size + 1);
		assert(strlen(r.notes[i].text) < sizeof(r.notes[i].text));
	}
	render_gemtext(r.body, r.len, NULL, &b);
	buf_free(&b);
	template_result_free(&r);
	return 0;
}
