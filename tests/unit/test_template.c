/*
 * test_template.c -- template.c: each construct's meaning, code left
 * alone, the notes with their positions, line numbers kept, and
 * linear time on hostile input.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "markdown/template.h"
#include "core/buf.h"
#include "core/util.h"
#include "harness.h"

/* The rewritten body of md. */
static char *
rw(const char *md, struct template_result *r)
{
	template_rewrite(md, strlen(md), r);
	return r->body;
}

#define TP_EQ(md, want) do {						\
	struct template_result r_;					\
	const char *m_ = (md);						\
	rw(m_, &r_);							\
	OK(strcmp(r_.body, (want)) == 0, "template of \"%s\": got \"%s\", " \
	    "want \"%s\"", m_, r_.body, (want));			\
	template_result_free(&r_);					\
} while (0)

static unsigned
lines(const char *s)
{
	unsigned	 n = 0;

	for (; *s != '\0'; s++)
		n += *s == '\n';
	return n;
}

static void
test_present(void)
{
	OK(!template_present("plain { text }", 14), "no construct");
	OK(template_present("a {{ b }}", 9), "output");
	OK(template_present("a {% b %}", 9), "tag");
	OK(!template_present("{", 1), "a lone brace");
}

static void
test_urls(void)
{
	TP_EQ("[18F]({{ \"/\" | url }})\n", "[18F](/)\n");
	TP_EQ("[a]({{ '/about/' | relative_url }})\n", "[a](/about/)\n");
	TP_EQ("[a]({{ \"/x\" | absolute_url }})\n", "[a](/x)\n");
	TP_EQ("[a]({{ \"/x y\" | url }})\n", "[a](/x%20y)\n");
	TP_EQ("![p]({{ site.baseurl }}/img/p.png)\n", "![p](/img/p.png)\n");
	TP_EQ("[home]({{site.baseurl}})\n", "[home](/)\n");
	TP_EQ("[home]({{ site.url }})\n", "[home](/)\n");
	TP_EQ("[a]({{ \"/x\" | prepend: site.baseurl }})\n", "[a](/x)\n");
	TP_EQ("[a]({{ \"x\" | prepend: \"/blog/\" | url }})\n",
	    "[a](/blog/x)\n");
	/* Inside an attribute: the path, whatever the quotes around it. */
	TP_EQ("<img src=\"{{ \"/assets/x.png\" | url }}\" alt=\"x\">\n",
	    "<img src=\"/assets/x.png\" alt=\"x\">\n");
	TP_EQ("{{- \"/trim\" | url -}}\n", "/trim\n");
}

static void
test_posts(void)
{
	TP_EQ("[b]({% post_url 2014-03-12-coming-soon %})\n",
	    "[b](/posts/2014-03-12-coming-soon.md)\n");
	TP_EQ("[b]({{ site.baseurl }}{% post_url 2014-03-12-x %})\n",
	    "[b](/posts/2014-03-12-x.md)\n");
	TP_EQ("[b]({% link _posts/2016-07-26-name.md %})\n",
	    "[b](/posts/2016-07-26-name.md)\n");
	TP_EQ("[b]({% link about.md %})\n", "[b](/about.md)\n");
	TP_EQ("[b]({{< ref \"/posts/my-post.md\" >}})\n",
	    "[b](/posts/my-post.md)\n");
	TP_EQ("[b]({{< relref \"about\" >}})\n", "[b](/about)\n");
}

static void
test_images(void)
{
	TP_EQ("{% image \"assets/a/p.png\" \"Andrew speaking\" %}\n",
	    "![Andrew speaking](/assets/a/p.png)\n");
	TP_EQ("{% image \"assets/a.png\", \"A [note] *here*\" %}\n",
	    "![A \\[note\\] \\*here\\*](/assets/a.png)\n");
	/* A class name among the arguments is not the label. */
	TP_EQ("{% image_with_class \"assets/i.png\" \"img-shadow\" "
	    "\"Mock up\" %}\n", "![Mock up](/assets/i.png)\n");
	TP_EQ("{% image \"assets/a.svg\" %}\n", "![](/assets/a.svg)\n");
	/*
	 * The writer's references, in an HTML block: decoded before the
	 * attribute is escaped, never shown as "&ldquo;" (issue 34, item
	 * 9); Markdown's link text decodes them itself.
	 */
	TP_EQ("<div>\n{% image \"assets/a.png\" \"A &ldquo;quote&rdquo; "
	    "& more\" %}\n</div>\n", "<div>\n<img src=\"/assets/a.png\" "
	    "alt=\"A \xe2\x80\x9cquote\xe2\x80\x9d &amp; more\">\n</div>\n");
	TP_EQ("{% image \"assets/a.png\" \"&ldquo;q&rdquo;\" %}\n",
	    "![&ldquo;q&rdquo;](/assets/a.png)\n");
	/* Hugo: relative to the page; the caption is the label. */
	TP_EQ("{{< figure src=\"cat.jpg\" caption=\"A cat\" alt=\"c\" >}}\n",
	    "![A cat](cat.jpg)\n");
	TP_EQ("{{< img src=\"/x.png\" alt=\"X\" >}}\n", "![X](/x.png)\n");
	/* In an HTML block Markdown is not read: an <img>. */
	TP_EQ("<figure>\n  {% image \"a.png\" \"A & B\" %}\n</figure>\n",
	    "<figure>\n  <img src=\"/a.png\" alt=\"A &amp; B\">\n</figure>\n");
	/*
	 * Escaped by escape.c, which also writes ">" as "&gt;" (this file
	 * used to leave it); an HTML reader decodes both the same.
	 */
	TP_EQ("<figure>\n  {% image \"a&b.png\" \"x > y < z\" %}\n"
	    "</figure>\n", "<figure>\n  <img src=\"/a&amp;b.png\" alt=\"x &gt; "
	    "y &lt; z\">\n</figure>\n");
	/* An include with an image parameter: a guess, noted. */
	{
		struct template_result	 r;

		rw("{% include \"linked-figure.html\",\n"
		    "     image: \"/assets/k.png\",\n"
		    "     alt: \"Kanban\" %}\n\nNext.\n", &r);
		STR_EQ(r.body, "![Kanban](/assets/k.png)\n\n\n\nNext.\n",
		    "include as image, lines kept");
		INT_EQ(r.nnotes, 1, "include noted");
		if (r.nnotes == 1) {
			INT_EQ(r.notes[0].what, TEMPLATE_APPROXIMATED,
			    "include approximated");
			INT_EQ(r.notes[0].line, 1, "include line");
			INT_EQ(r.notes[0].col, 1, "include col");
		}
		template_result_free(&r);
	}
}

static void
test_embeds(void)
{
	TP_EQ("{{< youtube dQw4w9WgXcQ >}}\n",
	    "[YouTube video](https://www.youtube.com/watch?v=dQw4w9WgXcQ)\n");
	TP_EQ("{{< youtube id=\"abc\" title=\"The talk\" >}}\n",
	    "[The talk](https://www.youtube.com/watch?v=abc)\n");
	TP_EQ("{{< vimeo 146022717 >}}\n",
	    "[Vimeo video](https://vimeo.com/146022717)\n");
	TP_EQ("{{< tweet user=\"SanDiegoZoo\" id=\"1453110110599868418\" >}}\n",
	    "[Tweet](https://twitter.com/SanDiegoZoo/status/"
	    "1453110110599868418)\n");
	TP_EQ("{{< x user=\"a\" id=\"1\" >}}\n",
	    "[Tweet](https://twitter.com/a/status/1)\n");
	TP_EQ("{{< gist spf13 7896402 >}}\n",
	    "[Gist](https://gist.github.com/spf13/7896402)\n");
	TP_EQ("{{< instagram BWNjjyYFxVx >}}\n",
	    "[Instagram post](https://www.instagram.com/p/BWNjjyYFxVx/)\n");
	TP_EQ("{% youtube \"https://www.youtube.com/embed/xyz\" %}\n",
	    "[YouTube video](https://www.youtube.com/watch?v=xyz)\n");
	TP_EQ("{% include youtube.html id=\"q1\" %}\n",
	    "[YouTube video](https://www.youtube.com/watch?v=q1)\n");
	/* A site's own embed filter: the player's page, its argument. */
	TP_EQ("{{ \"https://www.youtube-nocookie.com/embed/aeQX16HCKSs\" | "
	    "embed: 'Join us' }}\n",
	    "[Join us](https://www.youtube.com/watch?v=aeQX16HCKSs)\n");
	TP_EQ("<div>\n{{< youtube abc >}}\n</div>\n",
	    "<div>\n<a href=\"https://www.youtube.com/watch?v=abc\">"
	    "YouTube video</a>\n</div>\n");
}

static void
test_blocks(void)
{
	TP_EQ("{% raw %}{{ kept }}{% endraw %}\n", "{{ kept }}\n");
	TP_EQ("a {% raw %}{{{% endraw %} b }}\n", "a {{ b }}\n");
	TP_EQ("{% raw %}\n{% if x %}\n{% endraw %}\n", "\n{% if x %}\n\n");
	TP_EQ("a\n{% comment %}\nhidden {{ x }}\n{% endcomment %}\nb\n",
	    "a\n\n\n\nb\n");
	TP_EQ("{% highlight ruby linenos %}\ndef f; end\n{% endhighlight %}\n",
	    "````ruby\ndef f; end\n````\n");
	TP_EQ("{{< highlight go >}}\nfunc f() {}\n{{< /highlight >}}\n",
	    "````go\nfunc f() {}\n````\n");
	TP_EQ("{% highlight js %}\nx\n", "````js\nx\n````\n");
	/* Hugo's own escape shows a shortcode. */
	TP_EQ("{{</* figure src=\"x\" */>}}\n", "{{< figure src=\"x\" >}}\n");
	/* Paired shortcodes: the tags go, what they hold stays. */
	TP_EQ("{{% note %}}\nRead *this*.\n{{% /note %}}\n",
	    "\nRead *this*.\n\n");
}

static void
test_removed(void)
{
	struct template_result	 r;

	rw("Photo:\n\t{{ \"shawn\" | team_photo }}\n"
	    "é {% include footer.html %} end\n{% if x %}y{% endif %}\n", &r);
	STR_EQ(r.body, "Photo:\n\t\n\xc3\xa9  end\ny\n", "removed");
	INT_EQ(r.nnotes, 4, "four notes");
	if (r.nnotes == 4) {
		INT_EQ(r.notes[0].line, 2, "line");
		INT_EQ(r.notes[0].col, 2, "col after a tab");
		STR_EQ(r.notes[0].text, "{{ \"shawn\" | team_photo }}",
		    "text");
		INT_EQ(r.notes[1].line, 3, "line 3");
		INT_EQ(r.notes[1].col, 3, "col counts code points");
		INT_EQ(r.notes[1].what, TEMPLATE_REMOVED, "removed");
		INT_EQ(r.notes[2].line, 4, "if");
	}
	template_result_free(&r);
	/*
	 * Lines end at LF, CRLF or a lone CR, as CommonMark reads them
	 * (utf8_position()): template.c used to count LF only, and a CR as
	 * a column.
	 */
	rw("a\rb {{ x }}\r\nc {{ y }} {{ z }}\n", &r);
	INT_EQ(r.nnotes, 3, "three notes");
	if (r.nnotes == 3) {
		INT_EQ(r.notes[0].line, 2, "after a lone CR: line");
		INT_EQ(r.notes[0].col, 3, "after a lone CR: col");
		INT_EQ(r.notes[1].line, 3, "after a CRLF: line");
		INT_EQ(r.notes[1].col, 3, "after a CRLF: col");
		INT_EQ(r.notes[2].line, 3, "same line: line");
		INT_EQ(r.notes[2].col, 11, "same line: col");
	}
	template_result_free(&r);
	/* A removed line in an HTML block keeps the block whole. */
	TP_EQ("<div class=\"q\">\n\t{{ \"x\" | team_photo }}\n\t<p>Hi</p>\n"
	    "</div>\n", "<div class=\"q\">\n\t<!-- -->\n\t<p>Hi</p>\n</div>\n");
	/* An unknown variable is removed too. */
	TP_EQ("by {{ page.author }}.\n", "by .\n");
	/* A long construct's text is cut at a code point, with "…". */
	rw("{% include \"x.html\" a=\"\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9"
	    "\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9"
	    "\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9"
	    "\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9"
	    "\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\" %}\n",
	    &r);
	OK(r.nnotes == 1 && strstr(r.notes[0].text, "\xe2\x80\xa6") != NULL &&
	    strlen(r.notes[0].text) < sizeof(r.notes[0].text),
	    "cut note: %s", r.nnotes ? r.notes[0].text : "");
	template_result_free(&r);
}

static void
test_code(void)
{
	/* Code is the writer's example: left alone, but for raw. */
	TP_EQ("```\n{{ site.baseurl }} {% if %}\n```\n",
	    "```\n{{ site.baseurl }} {% if %}\n```\n");
	TP_EQ("~~~liquid\n{% raw %}{{ x }}{% endraw %}\n~~~\n",
	    "~~~liquid\n{{ x }}\n~~~\n");
	TP_EQ("Use `{{ page.title }}` here.\n",
	    "Use `{{ page.title }}` here.\n");
	TP_EQ("`sys/{% raw %}{{{% endraw %}pw}}@db`\n", "`sys/{{pw}}@db`\n");
	TP_EQ("Para.\n\n    {{ indented }}\n", "Para.\n\n    {{ indented }}\n");
	/* Not code: a paragraph's continuation, an escaped backtick. */
	TP_EQ("Para\n    {{ \"/c\" | url }}\n", "Para\n    /c\n");
	TP_EQ("\\`{{ \"/e\" | url }}\\`\n", "\\`/e\\`\n");
	/* An unclosed backtick opens no span. */
	TP_EQ("a ` b {{ \"/u\" | url }}\n", "a ` b /u\n");
	/* Inside an open element indented lines are HTML, not code. */
	TP_EQ("<div>\n<blockquote>\n\n\t\tHi {{ \"/q\" | url }}\n",
	    "<div>\n<blockquote>\n\n\t\tHi /q\n");
	/* Lists: an indented continuation is prose. */
	TP_EQ("- item\n\n    {{ \"/l\" | url }}\n", "- item\n\n    /l\n");
	/*
	 * Fences as CommonMark reads them (markdown/blocks.c): a run
	 * indented four columns after a paragraph opens none (template.c
	 * took it for one), a shorter run does not close one, a backtick
	 * in a backtick fence's info string makes it inline code.
	 */
	TP_EQ("Para\n    ```\n{{ \"/f\" | url }}\n", "Para\n    ```\n/f\n");
	TP_EQ("````\n```\n{{ x }}\n````\n", "````\n```\n{{ x }}\n````\n");
	TP_EQ("``` a`b\n{{ \"/i\" | url }}\n", "``` a`b\n/i\n");
	TP_EQ("- item\n\n      ```\n      {{ x }}\n      ```\n",
	    "- item\n\n      ```\n      {{ x }}\n      ```\n");
}

static void
test_not_constructs(void)
{
	TP_EQ("{{ no end\n\nlater }}\n", "{{ no end\n\nlater }}\n");
	TP_EQ("a { b } {c}\n", "a { b } {c}\n");
	TP_EQ("{{\n", "{{\n");
	TP_EQ("{%\n", "{%\n");
	TP_EQ("", "");
}

/* Line numbers stay whatever the constructs span. */
static void
test_lines(void)
{
	static const char *const cases[] = {
		"{% comment %}\na\nb\n{% endcomment %}\nx\n",
		"{% include \"f.html\",\n a: 1,\n b: 2 %}\nx\n",
		"{{< figure\n src=\"a\"\n caption=\"c\" >}}\nx\n",
		"{% raw %}\n{{ a }}\n{% endraw %}\nx\n",
		"<div>\n{% if a %}\n{% endif %}\n</div>\nx\n",
	};
	struct template_result	 r;
	size_t			 i;

	for (i = 0; i < nitems(cases); i++) {
		rw(cases[i], &r);
		INT_EQ(lines(r.body), lines(cases[i]), cases[i]);
		template_result_free(&r);
	}
}

/* The body md rewritten against a bundle of the files in names. */
static void
rwb(const char *md, const char *const *names, size_t n,
    struct template_result *r)
{
	struct template_files	 tf = { names, n };

	template_rewrite_bundle(md, strlen(md), &tf, NULL, r);
}

#define TB_EQ(md, want) do {						\
	struct template_result r_;					\
	const char *m_ = (md);						\
	rwb(m_, bundle, nitems(bundle), &r_);				\
	OK(strcmp(r_.body, (want)) == 0, "bundle template of \"%s\": "	\
	    "got \"%s\", want \"%s\"", m_, r_.body, (want));		\
	OK(r_.nnotes == 0, "no note for \"%s\"", m_);		\
	template_result_free(&r_);					\
} while (0)

/* Shortcodes that name a page bundle's files, as Hugo matches them. */
static void
test_bundle(void)
{
	static const char *const bundle[] = { "flickr/a.JPG", "flickr/b.png",
	    "flickr/notes.txt", "kubecon-welcome-featured.jpg", "stage",
	    "stage.png", "x.jpg", "x.jpg.png" };
	struct template_result	 r;

	/* The prefix docsy's imgproc asks for; the command is no label. */
	TB_EQ("{{< imgproc kubecon-welcome Resize 600x >}}\n",
	    "![kubecon-welcome-featured.jpg](kubecon-welcome-featured.jpg)\n");
	/* Paired: what it holds is the caption, its lines kept. */
	TB_EQ("{{< imgproc kubecon Fill \"400x450\" >}}\nThe desk.\n"
	    "{{< /imgproc >}}\n",
	    "![The desk.](kubecon-welcome-featured.jpg)\n\n\n");
	/* The exact name first, then the name without extension. */
	TB_EQ("{{< figure src=\"stage\" caption=\"On stage\" >}}\n",
	    "![On stage](stage)\n");
	TB_EQ("{{< img src=\"x\" alt=\"X\" >}}\n", "![X](x.jpg)\n");
	TB_EQ("{{< figure src=\"./x.jpg\" title=\"T\" >}}\n",
	    "![T](x.jpg)\n");
	/* A glob: every image it matches, each a link, text left out. */
	TB_EQ("{{< gallery match=\"flickr/*\" sortOrder=\"desc\" >}}\n",
	    "![a.JPG](flickr/a.JPG) ![b.png](flickr/b.png)\n");
	TB_EQ("{{< gallery dir=\"flickr\" />}}\n",
	    "![a.JPG](flickr/a.JPG) ![b.png](flickr/b.png)\n");
	TB_EQ("{{% gallery match=\"FLICKR/B*\" %}}\n",
	    "![b.png](flickr/b.png)\n");
	/* Not the bundle's: as without one. */
	TB_EQ("{{< figure src=\"/img/y.png\" caption=\"Y\" >}}\n",
	    "![Y](/img/y.png)\n");
	TB_EQ("{{< figure src=\"https://e.x/y.png\" >}}\n",
	    "![](https://e.x/y.png)\n");
	/* In an HTML block: an <img>. */
	TB_EQ("<div>\n{{< imgproc stage Resize \"9x\" >}}\n</div>\n",
	    "<div>\n<img src=\"stage\" alt=\"stage\">\n</div>\n");
	/* Naming nothing: noted where it is; the caption stays as text. */
	rwb("Intro.\n\n  {{< imgproc gone Fill \"1x1\" >}}Gone *away*"
	    "{{< /imgproc >}}\n{{< gallery match=\"none/*\" >}}\n"
	    "{{< figure src=\"lost.png\" caption=\"L\" >}}\n", bundle,
	    nitems(bundle), &r);
	STR_EQ(r.body, "Intro.\n\n  Gone \\*away\\*\n\n![L](lost.png)\n",
	    "unresolved");
	INT_EQ(r.nnotes, 3, "three unresolved");
	if (r.nnotes == 3) {
		INT_EQ(r.notes[0].what, TEMPLATE_UNRESOLVED, "imgproc");
		INT_EQ(r.notes[0].line, 3, "imgproc line");
		INT_EQ(r.notes[0].col, 3, "imgproc col");
		INT_EQ(r.notes[1].line, 4, "gallery line");
		INT_EQ(r.notes[2].what, TEMPLATE_UNRESOLVED, "figure");
		INT_EQ(r.notes[2].line, 5, "figure line");
	}
	template_result_free(&r);
	/* No bundle (a single-file post): imgproc names nothing either. */
	rw("{{< imgproc x Resize 600x >}}\n", &r);
	STR_EQ(r.body, "\n", "imgproc without a bundle");
	OK(r.nnotes == 1 && r.notes[0].what == TEMPLATE_UNRESOLVED,
	    "imgproc without a bundle noted");
	template_result_free(&r);
}

/* A callout keeps its title, on a line of its own. */
static void
test_callouts(void)
{
	struct template_result	 r;

	TP_EQ("{{% alert title=\"Breaking change\" color=\"warning\" %}}\n"
	    "The API moved.\n{{% /alert %}}\n",
	    "**Breaking change**\\\nThe API moved.\n\n");
	TP_EQ("{{< alert title=\"A *b*\" >}}\n\nText.\n{{< /alert >}}\n",
	    "**A \\*b\\***\n\nText.\n\n");
	TP_EQ("<div>\n{{% note title=\"N & M\" %}}\n</div>\n",
	    "<div>\n<p><strong>N &amp; M</strong></p>\n</div>\n");
	/* Approximated, and the closing says nothing more. */
	rw("{{% alert title=\"T\" %}}\nx\n{{% /alert %}}\n", &r);
	OK(r.nnotes == 1 && r.notes[0].what == TEMPLATE_APPROXIMATED,
	    "callout: one note");
	template_result_free(&r);
}

/* Hostile input stays linear. */
static void
test_linear(void)
{
	struct template_result	 r;
	struct buf		 b = BUF_INIT;
	clock_t			 t0;
	size_t			 i;
	double			 secs;

	for (i = 0; i < 200000; i++)
		buf_addstr(&b, "{{ `` {% ");
	buf_add(&b, "", 0);
	t0 = clock();
	template_rewrite(b.data, b.len, &r);
	secs = (double)(clock() - t0) / CLOCKS_PER_SEC;
	OK(secs < harness_time_bound(2.0), "2 MB of openers: %.2f s", secs);
	template_result_free(&r);
	buf_truncate(&b, 0);
	for (i = 0; i < 100000; i++)
		buf_addstr(&b, "` {{ \"/a\" | url }} ``x\n");
	t0 = clock();
	template_rewrite(b.data, b.len, &r);
	secs = (double)(clock() - t0) / CLOCKS_PER_SEC;
	OK(secs < harness_time_bound(2.0), "backtick runs: %.2f s", secs);
	template_result_free(&r);
	/* Paired shortcodes that never close: each no search again. */
	buf_truncate(&b, 0);
	for (i = 0; i < 100000; i++)
		buf_addstr(&b, "{{< imgproc a >}} {{< ");
	buf_add(&b, "", 0);
	t0 = clock();
	template_rewrite(b.data, b.len, &r);
	secs = (double)(clock() - t0) / CLOCKS_PER_SEC;
	OK(secs < harness_time_bound(2.0), "open imgprocs: %.2f s", secs);
	OK(r.nmore == 0 || r.nnotes == TEMPLATE_MAX_NOTES, "notes capped");
	template_result_free(&r);
	buf_free(&b);
}

/* A probe that knows two files: one beside the post, one at the root. */
static enum template_where
probe(void *arg, const char *path, size_t len)
{
	(void)arg;
	if (len == 9 && memcmp(path, "photo.jpg", 9) == 0)
		return TEMPLATE_HERE;
	if ((len == 14 && memcmp(path, "/img/chart.png", 14) == 0) ||
	    (len == 13 && memcmp(path, "docs/spec.pdf", 13) == 0))
		return TEMPLATE_SITE;
	return TEMPLATE_NOWHERE;
}

static char *
rwp(const char *md, struct template_result *r)
{
	struct template_probe	 p = { probe, NULL };

	template_rewrite_bundle(md, strlen(md), NULL, &p, r);
	return r->body;
}

#define TQ_EQ(md, want) do {						\
	struct template_result r_;					\
	const char *m_ = (md);						\
	rwp(m_, &r_);							\
	OK(strcmp(r_.body, (want)) == 0, "probed template of \"%s\": got " \
	    "\"%s\", want \"%s\"", m_, r_.body, (want));		\
	template_result_free(&r_);					\
} while (0)

/*
 * Other generators' tags: Hexo's asset and post tags, code block tags,
 * an include's parameters, JSX props, a site's own figure tag naming a
 * file the capsule holds, and an unknown tag noted once.
 */
static void
test_generators(void)
{
	struct template_result	 r;
	char			 more[64];

	TP_EQ("{% asset_img a.png A cat %}\n", "![A cat](a.png)\n");
	TP_EQ("{% asset_img left a.png 200 100 \"The title\" \"alt\" %}\n",
	    "![The title](a.png)\n");
	TP_EQ("{% asset_link doc.pdf The paper %} {% asset_link x.zip %}\n",
	    "[The paper](doc.pdf) [x.zip](x.zip)\n");
	TP_EQ("![p]({% asset_path a.png %})\n", "![p](a.png)\n");
	TP_EQ("{% post_link 2019-01-02-hello %}\n",
	    "[2019-01-02-hello](/posts/2019-01-02-hello.md)\n");
	TP_EQ("{% post_link _posts/hello.md Hello, world true %}\n",
	    "[Hello, world](/posts/hello.md)\n");
	TP_EQ("[x]({% post_path hello %}#top)\n", "[x](/posts/hello.md#top)\n");
	TP_EQ("[x]({% post_url 2019-01-01-x %}#setup)\n",
	    "[x](/posts/2019-01-01-x.md#setup)\n");
	TP_EQ("{% codeblock Deploy lang:sh http://x.org/ it %}\nmake\n"
	    "{% endcodeblock %}\n", "````sh Deploy\nmake\n````\n");
	TP_EQ("{% code lang:js %}\nvar x;\n{% endcode %}\n",
	    "````js\nvar x;\n````\n");
	TP_EQ("{% include person.html name=\"Ada Lovelace\" role=\"Engineer\" "
	    "class=\"card\" year=\"1843\" %}\n", "Ada Lovelace, Engineer\n");
	TP_EQ("<div style={{color: \"red\", m: {a: 1}}} id=\"x\">Hi</div>\n",
	    "<div style=\"\" id=\"x\">Hi</div>\n");
	TP_EQ("<Image src={{uri: 'x.png'}}\n  alt=\"A\" />\n",
	    "<Image src=\"\"\n  alt=\"A\" />\n");
	TP_EQ("x = {{ a }} and <b>y</b>\n", "x =  and <b>y</b>\n");
	/* A site's own tag: the file it names, where the capsule has it. */
	TQ_EQ("{% lazy_pic photo.jpg \"A photo\" %}\n",
	    "![A photo](photo.jpg)\n");
	TQ_EQ("{% chart /img/chart.png caption=\"Sales\" %}\n",
	    "![Sales](/img/chart.png)\n");
	TQ_EQ("{% pdf docs/spec.pdf %}\n", "[spec.pdf](/docs/spec.pdf)\n");
	TQ_EQ("{% lazy_pic left photo.jpg %}\n", "![photo.jpg](photo.jpg)\n");
	TQ_EQ("{% lazy_pic gone.jpg %}\n", "\n");
	TP_EQ("{% lazy_pic photo.jpg %}\n", "\n");
	/* An unknown name is noted once, with how many more there are. */
	rw("{% note info %}a{% endnote %}\n{% note warn %}b{% endnote %}\n"
	    "{% note x %}\n", &r);
	INT_EQ(r.nnotes, 2, "note and endnote, once each");
	if (r.nnotes == 2) {
		STR_EQ(r.notes[0].text, "{% note info %}", "the first place");
		INT_EQ(r.notes[0].more, 2, "two more");
		STR_EQ(template_more(&r.notes[0], more, sizeof(more)),
		    " (and 2 more like it in this file)", "said so");
		INT_EQ(r.notes[1].more, 1, "one more endnote");
	}
	template_result_free(&r);
}

static const struct harness_test tests[] = {
	TEST(test_generators),
	TEST(test_present),
	TEST(test_urls),
	TEST(test_posts),
	TEST(test_images),
	TEST(test_embeds),
	TEST(test_bundle),
	TEST(test_callouts),
	TEST(test_blocks),
	TEST(test_removed),
	TEST(test_code),
	TEST(test_not_constructs),
	TEST(test_lines),
	TEST(test_linear),
};

int
main(int argc, char **argv)
{
	HARNESS_INIT(argc, argv, tests);
	harness_run();
	return harness_done();
}
