/*
 * blocks.c -- Markdown lines classified as CommonMark's block parser
 * would see them (blocks.h).
 *
 * One line at a time, with the state a line leaves for the next: an
 * open fence (its character and length), an HTML block (its start
 * condition), whether the last line was blank or paragraph text (an
 * indented line after text continues the paragraph, and HTML condition
 * 7 cannot interrupt one), and whether a list is open (its indented
 * lines are its items' content).  A fence's closing line and the line
 * that ends an HTML block belong to the block; the state moves on at
 * the next line.  No allocation, no look beyond the line given.
 */
#include <ctype.h>
#include <string.h>
#include <strings.h>

#include "core/util.h"
#include "markdown/blocks.h"

static const char *const html_block_tags[] = {
	"address", "article", "aside", "base", "basefont", "blockquote",
	"body", "caption", "center", "col", "colgroup", "dd", "details",
	"dialog", "dir", "div", "dl", "dt", "fieldset", "figcaption",
	"figure", "footer", "form", "frame", "frameset", "h1", "h2", "h3",
	"h4", "h5", "h6", "head", "header", "hr", "html", "iframe",
	"legend", "li", "link", "main", "menu", "menuitem", "nav",
	"noframes", "ol", "optgroup", "option", "p", "param", "search",
	"section", "summary", "table", "tbody", "td", "tfoot", "th",
	"thead", "title", "tr", "track", "ul",
};

static const char *const html_end_marks[] = {
	NULL, "</", "-->", "?>", ">", "]]>",
};

/* Does s[0..len) contain needle, ignoring case? */
static int
has_ci(const char *s, size_t len, const char *needle)
{
	size_t	 n = strlen(needle), i;

	for (i = 0; i + n <= len; i++)
		if (strncasecmp(s + i, needle, n) == 0)
			return 1;
	return 0;
}

/* Does a condition-1 block end on this line (</script>, </pre>...)? */
static int
cond1_ends(const char *s, size_t len)
{
	return has_ci(s, len, "</script>") || has_ci(s, len, "</pre>") ||
	    has_ci(s, len, "</style>") || has_ci(s, len, "</textarea>");
}

/* CommonMark's HTML block start conditions, at p (after the indent). */
static int
html_start(const char *p, const char *e, int prev_para)
{
	char		 name[16];
	size_t		 k = 0, i;
	const char	*q;

	if (e - p < 2 || *p != '<')
		return 0;
	for (i = 0; i < 4; i++) {
		static const char *const c1[] = { "script", "pre", "style",
		    "textarea" };
		size_t	 n = strlen(c1[i]);

		if (e - p > (long)n && strncasecmp(p + 1, c1[i], n) == 0 &&
		    (p + 1 + n == e || isspace((unsigned char)p[1 + n]) ||
		    p[1 + n] == '>'))
			return 1;
	}
	if (e - p >= 4 && strncmp(p, "<!--", 4) == 0)
		return 2;
	if (p[1] == '?')
		return 3;
	if (e - p >= 9 && strncmp(p, "<![CDATA[", 9) == 0)
		return 5;
	if (p[1] == '!' && e - p > 2 && isalpha((unsigned char)p[2]))
		return 4;
	q = p + 1;
	if (*q == '/')
		q++;
	if (q >= e || !isalpha((unsigned char)*q))
		return 0;
	for (; q < e && isalnum((unsigned char)*q) && k < sizeof(name) - 1;
	    q++)
		name[k++] = (char)tolower((unsigned char)*q);
	name[k] = '\0';
	if (q == e || isspace((unsigned char)*q) || *q == '>' ||
	    (*q == '/' && q + 1 < e && q[1] == '>')) {
		for (i = 0; i < nitems(html_block_tags); i++)
			if (strcmp(name, html_block_tags[i]) == 0)
				return 6;
	}
	/* 7: a whole tag alone on its line; it cannot interrupt a paragraph. */
	while (e > p && isspace((unsigned char)e[-1]))
		e--;
	if (!prev_para && e[-1] == '>')
		return 7;
	return 0;
}

static int
list_marker(const char *p, const char *e)
{
	const char	*q = p;

	if (q < e && (*q == '-' || *q == '*' || *q == '+'))
		return q + 1 == e || q[1] == ' ' || q[1] == '\t';
	while (q < e && isdigit((unsigned char)*q) && q - p < 9)
		q++;
	return q > p && q < e && (*q == '.' || *q == ')') &&
	    (q + 1 == e || q[1] == ' ' || q[1] == '\t');
}

/* Elements whose content a writer indents; counted open and closed. */
static const char *const html_containers[] = {
	"article", "aside", "blockquote", "details", "div", "dl", "figure",
	"footer", "header", "main", "nav", "ol", "section", "table", "ul",
};

/*
 * Count the containers an HTML block line opens and closes: indented
 * lines after a blank line inside one are its content (html.c reads
 * them so), not an indented code block.
 */
static void
count_open(struct blocks *b, const char *p, const char *e)
{
	const char	*q;
	size_t		 i, n;
	int		 closing;

	while ((p = memchr(p, '<', (size_t)(e - p))) != NULL) {
		q = ++p;
		closing = q < e && *q == '/';
		q += closing;
		for (i = 0; i < nitems(html_containers); i++) {
			n = strlen(html_containers[i]);
			if (e - q >= (long)n &&
			    strncasecmp(q, html_containers[i], n) == 0 &&
			    (q + n == e || !isalnum((unsigned char)q[n])))
				break;
		}
		if (i == nitems(html_containers))
			continue;
		if (closing)
			b->open -= b->open > 0;
		else if (b->open < 1000)
			b->open++;
	}
}

void
blocks_init(struct blocks *b)
{
	memset(b, 0, sizeof(*b));
	b->prev_blank = 1;
}

enum blocks_kind
blocks_line(struct blocks *b, const char *line, size_t len)
{
	const char	*p = line, *e = line + len, *c;
	size_t		 indent = 0, n;
	int		 blank;

	if (b->fence_closes) {
		b->fence = 0;
		b->fence_closes = 0;
	}
	if (b->html_ends) {
		b->html_cond = 0;
		b->html_ends = 0;
	}
	for (c = p; c < e && (*c == ' ' || *c == '\t'); c++)
		indent += *c == '\t' ? 4 - indent % 4 : 1;
	/* Quote markers: what follows them is what counts. */
	while (c < e && *c == '>') {
		c++;
		indent = 0;
		for (; c < e && (*c == ' ' || *c == '\t'); c++)
			indent += *c == '\t' ? 4 - indent % 4 : 1;
		if (indent > 0)
			indent--;
	}
	b->text = (size_t)(c - p);
	blank = 1;
	for (n = 0; c + n < e; n++)
		if (!isspace((unsigned char)c[n])) {
			blank = 0;
			break;
		}
	if (b->fence) {
		/* closing = a run of the fence's character, no shorter */
		for (n = 0; c + n < e && c[n] == b->fence; n++)
			;
		if (n < b->fence_len)
			return BLOCKS_CODE;
		while (c + n < e && isspace((unsigned char)c[n]))
			n++;
		if (c + n != e)
			return BLOCKS_CODE;
		b->fence_closes = 1;
		return BLOCKS_FENCE;
	}
	if (b->html_cond) {
		if (b->html_cond >= 6 && blank) {
			b->html_cond = 0;
		} else {
			count_open(b, p, e);
			if (b->html_cond == 1 ? cond1_ends(p, (size_t)(e - p)) :
			    b->html_cond < 6 && has_ci(p, (size_t)(e - p),
			    html_end_marks[b->html_cond]))
				b->html_ends = 1;
			return BLOCKS_HTML;
		}
	}
	if (blank) {
		b->prev_blank = 1;
		b->prev_para = 0;
		return BLOCKS_BLANK;
	}
	if (indent >= 4 && (b->prev_blank || b->icode) && !b->prev_para &&
	    !b->list) {
		b->prev_blank = 0;
		if (b->open > 0) {	/* inside an element: HTML */
			count_open(b, p, e);
			return BLOCKS_HTML;
		}
		b->icode = 1;
		return BLOCKS_CODE;
	}
	b->icode = 0;
	/*
	 * opening = 3*"`" *"`" info-without-backtick / 3*"~" *"~" info,
	 * indented less than four columns (more in a list: its item's own
	 * indent is not known here)
	 */
	for (n = 0; c + n < e && (c[n] == '`' || c[n] == '~') &&
	    c[n] == c[0]; n++)
		;
	if (n >= 3 && (indent < 4 || b->list) && (c[0] == '~' ||
	    memchr(c + n, '`', (size_t)(e - c - n)) == NULL)) {
		b->fence = c[0];
		b->fence_len = n;
		b->prev_blank = b->prev_para = 0;
		return BLOCKS_FENCE;
	}
	if (indent < 4 && (b->html_cond = html_start(c, e, b->prev_para))) {
		count_open(b, c, e);
		if (b->html_cond < 6 && (b->html_cond == 1 ?
		    cond1_ends(c + 1, (size_t)(e - c - 1)) :
		    has_ci(c + 2, (size_t)(e - c - 2),
		    html_end_marks[b->html_cond])))
			b->html_ends = 1;
		b->prev_blank = b->prev_para = 0;
		return BLOCKS_HTML;
	}
	if (list_marker(c, e))
		b->list = 1;
	else if (b->prev_blank && indent == 0)
		b->list = 0;
	b->prev_blank = 0;
	b->prev_para = 1;
	return BLOCKS_TEXT;
}

const char *
blocks_refdef(const char *p, const char *e)
{
	const char	*q;
	int		 text = 0;

	if (p >= e || *p != '[')
		return NULL;
	for (q = p + 1; q < e && *q != ']' && q - p <= 1000; q++) {
		if (*q == '[')
			return NULL;
		if (*q == '\\' && q + 1 < e && (q[1] == '[' || q[1] == ']' ||
		    q[1] == '\\'))
			q++;
		if (!isspace((unsigned char)*q))
			text = 1;
	}
	if (q + 1 >= e || *q != ']' || q[1] != ':' || !text || q - p > 1000)
		return NULL;
	return q + 2;
}
