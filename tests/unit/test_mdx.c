/*
 * test_mdx.c -- mdx.c: an MDX body made Markdown, input to output, and
 * what the renderer then makes of it (never a raw tag, never JSX).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/buf.h"
#include "harness.h"
#include "markdown/mdx.h"
#include "markdown/render.h"

/* mdx_rewrite() of in must be want. */
static void
is(const char *in, const char *want, const char *what)
{
	struct buf	 b = BUF_INIT;

	mdx_rewrite(in, strlen(in), &b);
	OK(b.data != NULL && strcmp(b.data, want) == 0 &&
	    strlen(b.data) == b.len, "%s: got\n%s\nwant\n%s", what,
	    b.data ? b.data : "(null)", want);
	buf_free(&b);
}

/* The gemtext of the MDX in must hold want and not the bytes of not. */
static void
renders(const char *in, const char *want, const char *not,
    const char *what)
{
	struct buf	 md = BUF_INIT, gmi = BUF_INIT;

	mdx_rewrite(in, strlen(in), &md);
	render_gemtext(md.data, md.len, NULL, &gmi);
	OK(gmi.data != NULL && strstr(gmi.data, want) != NULL &&
	    (not == NULL || strstr(gmi.data, not) == NULL),
	    "%s: got\n%s", what, gmi.data ? gmi.data : "(null)");
	buf_free(&md);
	buf_free(&gmi);
}

static void
test_esm(void)
{
	is("import Tabs from '@theme/Tabs';\nimport {\n  A,\n} from 'x';\n"
	    "\nText.\n", "\nText.\n", "imports to the blank line");
	is("export const meta = {\n  a: 1,\n};\n\n# T\n", "\n# T\n",
	    "an export");
	is("Text about import x.\nimport y\n", "Text about import x.\n"
	    "import y\n", "import inside a paragraph's lines: kept");
	is("  import x from 'y'\n", "  import x from 'y'\n",
	    "an indented import is text");
}

static void
test_expressions(void)
{
	is("A {/* note */} b.\n", "A  b.\n", "a comment");
	is("{/*\n  many\n  lines\n*/}\nText\n", "\nText\n",
	    "a comment over lines");
	is("{/* truncate */}\n", "<!--truncate-->\n", "truncate");
	is("Say {\"hi\"} and {props.x} and {'*b*'}.\n",
	    "Say hi and  and \\*b\\*.\n", "strings are text, the rest goes");
	is("`{x}` and ``a `{y}` b``\n", "`{x}` and ``a `{y}` b``\n",
	    "code spans stay");
	is("\\{escaped\\}\n", "\\{escaped\\}\n", "escapes stay");
	is("An { open brace\n", "An { open brace\n",
	    "a brace that never closes is text");
	is("## Title {#custom-id}\n", "## Title \n", "a heading's id");
}

static void
test_components(void)
{
	is("<Tabs>\n  <TabItem value=\"a\" label=\"Apple\">\n\n    Text.\n\n"
	    "  </TabItem>\n</Tabs>\n",
	    "\n\n### Apple\n\n\nText.\n\n\n\n", "a tab: its label, dedented");
	is("<TabItem value=\"only\">x</TabItem>\n", "\n### only\nx\n",
	    "a tab's value when it has no label");
	is("<Admonition type=\"tip\" title=\"Hi\">\n  Body.\n</Admonition>\n",
	    "\n> **Hi**\n> \n> Body.\n> \n\n", "an admonition: a quote");
	is(":::warning\nHot.\n:::\n", "\n> **Warning**\n> \n> Hot.\n> \n\n",
	    "a ::: admonition");
	is(":::tip[Read *this*]\nx\n:::\n",
	    "\n> **Read \\*this\\***\n> \n> x\n> \n\n", "its title");
	is(":::\n", ":::\n", "::: with nothing open is text");
	is("See <Link to=\"/docs/a\">the docs</Link>.\n",
	    "See [the docs](</docs/a>).\n", "a link");
	is("<Image img={require('./a.png')} alt=\"A\" />\n",
	    "![A](<./a.png>)\n", "an image from require()");
	is("<ThemedImage alt=\"L\" sources={{light: useBaseUrl('/l.png'), "
	    "dark: '/d.png'}} />\n", "![L](</l.png>)\n", "a themed image");
	is("<Highlight color=\"#25c2a0\">green</Highlight> words\n",
	    "green words\n", "an unknown component: its text");
	is("<DocCardList />\n", "\n", "one with no text: nothing");
	is("<>frag</>\n", "frag\n", "a fragment");
	is("<img src={require('./b.png').default} alt=\"B\" "
	    "style={{width: 3}} className=\"x\" />\n",
	    "<img src=\"./b.png\" alt=\"B\" class=\"x\" />\n",
	    "HTML: expressions dropped but an address");
	is("<CodeBlock language=\"js\">{`a <b> {c}`}</CodeBlock>\n",
	    "```js\na <b> {c}\n```\n\n", "a code block");
	is("a < b > c <https://x.example/> <me@x.example>\n",
	    "a < b > c <https://x.example/> <me@x.example>\n",
	    "comparisons and autolinks are text");
	is("<YouTube id=\"abc\" />\n",
	    "[YouTube](<https://www.youtube.com/watch?v=abc>)\n", "a video");
}

static void
test_code(void)
{
	is("```jsx\nimport x from 'y'\n<Tabs>{a}</Tabs>\n```\n<Tabs>b</Tabs>\n",
	    "```jsx\nimport x from 'y'\n<Tabs>{a}</Tabs>\n```\nb\n",
	    "a fence stays as written");
	is("<Tabs>\n  <TabItem label=\"A\">\n    ```sh\n    <X/>\n    ```\n"
	    "  </TabItem>\n</Tabs>\n",
	    "\n\n### A\n\n```sh\n<X/>\n```\n\n\n",
	    "a fence in a tab, dedented");
}

/* What a reader gets: no tag, no JSX, no import. */
static void
test_rendered(void)
{
	static const char doc[] =
	    "import Tabs from '@theme/Tabs';\n\n"
	    "Intro <Highlight>words</Highlight>.\n\n"
	    "<Tabs>\n  <TabItem value=\"a\" label=\"Apple\">\n\n"
	    "    An apple.\n\n  </TabItem>\n</Tabs>\n\n"
	    ":::note[Remember]\nThis.\n:::\n\n"
	    "<Unknown prop={{a: 1}}>\n  Child text.\n</Unknown>\n";

	renders(doc, "Intro words.", "Highlight", "inline component");
	renders(doc, "### Apple\n\nAn apple.", "TabItem", "a labelled section");
	renders(doc, "> Remember\n>\n> This.", ":::", "a titled quote");
	renders(doc, "Child text.", "Unknown", "children's text");
	renders(doc, "An apple.", "import", "no import");
	renders(doc, "An apple.", "```", "no indented code");
}

static const struct harness_test tests[] = {
	TEST(test_esm),
	TEST(test_expressions),
	TEST(test_components),
	TEST(test_code),
	TEST(test_rendered),
};

int
main(int argc, char **argv)
{
	HARNESS_INIT(argc, argv, tests);
	harness_run();
	return harness_done();
}
