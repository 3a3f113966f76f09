/*
 * fuzz_mdx.c -- libFuzzer target for mdx.c.
 *
 * The input is an MDX body.  mdx_rewrite() must return NUL-terminated
 * Markdown of the length it says, in time linear in the input (a tag or
 * an expression that never closes is text, and rescanned never), never
 * longer than a bounded multiple of it, and what it returns must render
 * (fuzz_render checks the renderers' own promises).
 */
#include <assert.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/buf.h"
#include "markdown/mdx.h"
#include "markdown/render.h"

int	 LLVMFuzzerTestOneInput(const uint8_t *, size_t);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct buf	 md = BUF_INIT, out = BUF_INIT;

	mdx_rewrite((const char *)data, size, &md);
	assert(md.data != NULL && md.data[md.len] == '\0');
	/* Quote marks, labels and fences add a few bytes a line at most. */
	assert(md.len <= 64 + size * 8);
	render_gemtext(md.data, md.len, NULL, &out);
	buf_free(&out);
	buf_free(&md);
	return 0;
}
