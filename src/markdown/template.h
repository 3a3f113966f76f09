/*
 * template.h -- the template constructs of a Markdown body, read for
 * what they mean before cmark sees the body.
 *
 * Writers' archives come from site generators, and their Markdown
 * carries the generator's template syntax: Liquid (Jekyll, Eleventy)
 * "{{ ... }}" and "{% ... %}", Hugo shortcodes "{{< ... >}}" and
 * "{{% ... %}}".  A reader must never see it.  template_rewrite() turns
 * each construct outside code into what it stands for:
 *   {{ "/x" | url }}, relative_url, absolute_url, relURL, absURL,
 *   {{ site.baseurl }}, {{ site.url }}
 *                      the path they name ("/x"; the site root is "/")
 *   {% post_url 2014-03-12-slug %}
 *                      "/posts/2014-03-12-slug.md", the path of the
 *                      post's file, which links to posts resolve
 *   {% link _posts/x.md %}, {{< ref "x" >}}, {{< relref "x" >}}
 *                      "/posts/x.md" for a post's file, else "/" and
 *                      the path as written
 *   {% image "src" "alt" %}, {{< figure src= caption= >}}, {{< img >}}
 *                      an image: "![alt](src)", or "<img>" inside an
 *                      HTML block, where Markdown is not read
 *   youtube, vimeo, tweet/x, gist, instagram (tags, shortcodes, an
 *   include of youtube.html, an "embed" filter)
 *                      a link to the thing embedded
 *   {% raw %}...{% endraw %}   the text inside, as it is
 *   {% comment %}...{% endcomment %}   nothing
 *   {% highlight go %}...{% endhighlight %}   a fenced code block
 *   {{< imgproc name Resize 600x >}}caption{{< /imgproc >}},
 *   {{< gallery match="PATTERN" >}}, figure/img/image, a relative src
 *                      with the files of the post's page bundle known
 *                      (template_rewrite_bundle()): the bundle's file
 *                      that Hugo's resource matching picks, as an
 *                      image "![label](file)" each (label: the caption,
 *                      alt or title, else the file's name); naming no
 *                      file is noted (TEMPLATE_UNRESOLVED), and the
 *                      label stays as text
 *   {{% alert title="Breaking change" %}} (any shortcode with a title
 *   that means nothing else)
 *                      the title, strong, on a line of its own before
 *                      the text
 * Anything else (include, if, for, unknown filters and shortcodes) is
 * removed, and noted; an include or shortcode with an image parameter
 * (src:, image:) is read as that image, and noted.  Inside code -- a
 * fenced or indented code block, a code span -- constructs are the
 * writer's example and stay, but for raw/endraw, which exist only to
 * protect such text and are never meant to be seen.
 *
 * Line numbers stay: a construct that spans lines leaves its line
 * breaks behind, so a later warning about the rewritten body names the
 * writer's line (columns after a construct on the same line shift).
 *
 * Pure (no I/O), linear in the length of the body.  Knows Markdown's
 * block shapes well enough to find code and HTML blocks (a fence, an
 * indented block, CommonMark's HTML block starts); knows nothing of
 * cmark, files or the archive.  The result owns its bytes and notes.
 */
#ifndef CAPSULED_TEMPLATE_H
#define CAPSULED_TEMPLATE_H

#include <stddef.h>

enum template_what {
	TEMPLATE_REMOVED,	/* nothing of it is shown */
	TEMPLATE_APPROXIMATED,	/* read as something near its meaning */
	TEMPLATE_UNRESOLVED,	/* names no file of the page bundle */
};

struct template_note {
	unsigned	 line, col;	/* 1-based, in the body */
	enum template_what what;
	char		 text[80];	/* the construct as written: one line,
					   cut at a code point with "…" */
};

#define TEMPLATE_MAX_NOTES	1000	/* kept per body; the rest counted */

struct template_result {
	char		*body;		/* owned, NUL-terminated */
	size_t		 len;
	struct template_note *notes;	/* owned */
	size_t		 nnotes;
	size_t		 nmore;		/* notes past TEMPLATE_MAX_NOTES */
};

/* Is there anything in md[0..len) that could be a construct? */
int	 template_present(const char *md, size_t len);

/*
 * The files of a post's page bundle, as its shortcodes name them: paths
 * below the bundle's folder ("a.jpg", "flickr/b.jpg"), the index left
 * out, each as the server would serve it.  The content layer lists
 * them; this module only matches names against them.  Borrowed for
 * the call.
 */
struct template_files {
	const char *const *names;
	size_t		 n;
};

/* Rewrite md[0..len) into *res (see above).  Always succeeds. */
void	 template_rewrite(const char *md, size_t len,
	    struct template_result *res);
/*
 * The same for the index of a page bundle whose files are files (NULL:
 * none known, as template_rewrite()).
 */
void	 template_rewrite_bundle(const char *md, size_t len,
	    const struct template_files *files, struct template_result *res);
void	 template_result_free(struct template_result *);

#endif
