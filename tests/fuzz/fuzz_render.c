/*
 * fuzz_render.c -- libFuzzer target for the Markdown renderers.
 *
 * The first byte chooses the options (as cmark's test/cmark-fuzz.c
 * does): the wrap width and whether the link hooks are set.  The rest
 * is Markdown, rendered as gemtext and as Gopher text, and the output
 * must keep the renderers' promises: valid UTF-8, LF line ends only,
 * no trailing white space, a final newline, no blank line first;
 * gemtext: no two blank lines in a row outside preformatted blocks,
 * every ``` block closed, every link line "=> URL" with a URL; Gopher
 * text: no control character, no lone ".".  render_first_heading()
 * runs too.
 */
#include <assert.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/buf.h"
#include "markdown/render.h"

#include "render_fuzz.h"

int	 LLVMFuzzerTestOneInput(const uint8_t *, size_t);

static void
check_gmi(const struct buf *b)
{
	const char	*line, *nl, *end;
	size_t		 len;
	int		 pre = 0, blank = 0;

	check_common(b);
	if (b->len == 0)
		return;		/* b->data may be NULL: no arithmetic on it */
	end = b->data + b->len;
	for (line = b->data; line != NULL && line < end; line = nl + 1) {
		nl = memchr(line, '\n', (size_t)(end - line));
		len = (size_t)(nl - line);
		if (len >= 3 && memcmp(line, "```", 3) == 0) {
			pre = !pre;
			blank = 0;
			continue;
		}
		if (pre)
			continue;
		if (len == 0) {
			assert(!blank);
			blank = 1;
			continue;
		}
		blank = 0;
		if (len >= 2 && memcmp(line, "=>", 2) == 0) {
			assert(len >= 4 && line[2] == ' ' && line[3] != ' ');
			assert(memchr(line, '\t', len) == NULL);
		}
	}
	assert(!pre);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const unsigned	 widths[] = { 0, 8, 20, 70 };
	struct render_opts	 o;
	struct buf		 b = BUF_INIT;
	const char		*md;
	char			*t;

	if (size < 1)
		return 0;
	memset(&o, 0, sizeof(o));
	o.width = widths[data[0] & 3];
	if (data[0] & 4)
		o.rewrite = rewrite;
	if (data[0] & 8)
		o.absolute = absolute;
	if (data[0] & 16)		/* relative links resolved against it */
		o.base = "/posts/a/b";
	md = (const char *)data + 1;
	size--;

	render_gemtext(md, size, &o, &b);
	check_gmi(&b);
	buf_free(&b);
	render_gopher(md, size, &o, &b);
	check_gph(&b);
	buf_free(&b);
	if ((t = render_first_heading(md, size)) != NULL) {
		assert(utf8_ok((const unsigned char *)t, strlen(t)));
		assert(strchr(t, '\n') == NULL);
		free(t);
	}
	return 0;
}
