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
 *   {% asset_img a.png Alt %}, {% asset_link a.pdf Label %},
 *   {% asset_path a.png %} (Hexo)
 *                      "![Alt](a.png)", "[Label](a.pdf)", "a.png": a
 *                      file named from the post, which links resolve
 *                      in its asset folder first (content/links.c)
 *   {% post_link slug Title %}, {% post_path slug %} (Hexo)
 *                      "[Title](/posts/slug.md)", "/posts/slug.md"
 *   {% raw %}...{% endraw %}   the text inside, as it is
 *   {% comment %}...{% endcomment %}   nothing
 *   {% highlight go %}...{% endhighlight %}, {% codeblock Title
 *   lang:js %}...{% endcodeblock %}, {% code %}...{% endcode %}
 *                      a fenced code block, its language and title
 *                      in the info string
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
 *   <div style={{color: "red"}}> (JSX's expression props, MDX)
 *                      an empty value, style="": the tag stays HTML
 * Anything else (include, if, for, unknown filters and shortcodes) is
 * removed, and noted, once per name; an include or shortcode with an
 * image parameter (src:, image:) is read as that image, and noted; an
 * include with parameters that read as text ({% include person.html
 * name="Ada Lovelace" %}) keeps their text, the include file being no
 * template this server renders; a tag or shortcode of an unknown name
 * whose argument names a file the capsule holds (template_probe) is an
 * image of it, or a link.  Inside code -- a
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
	/*
	 * A tag or shortcode removed is noted once per name, at its first
	 * place: name (lower case), and how many more of that name the
	 * body has (a site's own tag used 57 times is one note).
	 */
	char		 name[40];
	unsigned	 more;
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

/*
 * Where the capsule has a file that a construct's argument names, as
 * the content layer answers for the file being read: beside it (or in
 * its post's asset folder), so the name stays as written; or from the
 * site's root, as a Liquid site names its files ("assets/x.png" is
 * "/assets/x.png").  A tag of a name with no meaning known here whose
 * argument names such a file is read as an image of it (a link for
 * what is no image), as a site's own figure tag would show it.
 */
enum template_where {
	TEMPLATE_NOWHERE,
	TEMPLATE_HERE,
	TEMPLATE_SITE,
};

struct template_probe {
	enum template_where (*where)(void *arg, const char *path, size_t len);
	void		*arg;
};

/* Rewrite md[0..len) into *res (see above).  Always succeeds. */
void	 template_rewrite(const char *md, size_t len,
	    struct template_result *res);
/*
 * The same for the index of a page bundle whose files are files (NULL:
 * none known, as template_rewrite()), with probe asked where a file
 * named by a construct is (NULL: nowhere).
 */
void	 template_rewrite_bundle(const char *md, size_t len,
	    const struct template_files *files,
	    const struct template_probe *probe, struct template_result *res);
void	 template_result_free(struct template_result *);
/*
 * What the note n says of the constructs of its name it stands for, as
 * the warning's end: " (and 56 more like it in this file)" in buf
 * (size bytes), or "".
 */
const char *template_more(const struct template_note *n, char *buf,
	    size_t size);

#endif
