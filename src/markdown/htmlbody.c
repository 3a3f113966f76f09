/*
 * htmlbody.c -- the body of a post written in HTML made Markdown that
 * cmark reads as one HTML block (htmlbody.h).
 */
#include <string.h>

#include "core/buf.h"
#include "core/util.h"
#include "markdown/htmlbody.h"

/*
 * Is a comment open at e, given it was (open) at p?  "<!--" opens one,
 * "-->" closes it (HTML's comments, near enough: "<!-->" counts as one).
 */
static int
comment_after(const char *p, const char *e, int open)
{
	for (; p < e; p++) {
		if (!open && e - p >= 4 && memcmp(p, "<!--", 4) == 0) {
			open = 1;
			p += 3;
		} else if (open && e - p >= 3 && memcmp(p, "-->", 3) == 0) {
			open = 0;
			p += 2;
		}
	}
	return open;
}

void
htmlbody_markdown(const char *src, size_t len, struct buf *out)
{
	const char	*p = src, *end = src + len, *e;
	int		 comment = 0;

	buf_reserve(out, len + 16);
	if (len > 0)
		buf_addstr(out, "<div>");	/* an HTML block, type 6 */
	for (; p < end; p = e + 1) {
		if ((e = memchr(p, '\n', (size_t)(end - p))) == NULL)
			e = end;
		if (util_blank_line(p, e))
			buf_addstr(out, comment ? "." : "<!---->");
		else {
			buf_add(out, p, (size_t)(e - p));
			comment = comment_after(p, e, comment);
		}
		if (e == end)
			break;
		buf_addc(out, '\n');
	}
	buf_add(out, "", 0);		/* NUL-terminated, even when empty */
}
