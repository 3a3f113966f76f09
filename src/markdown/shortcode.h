/*
 * shortcode.h -- what a template construct's name and arguments mean:
 * the names Liquid tags and Hugo shortcodes go by, in one table, their
 * arguments, and the URLs, labels and bundle files they stand for.
 *
 * template.c finds the constructs in a body and writes their meaning;
 * this module answers its questions about one construct at a time.
 * Knows nothing of the pass over the body, of cmark or of files (the
 * names of a page bundle's files are given).  Arguments point into the
 * construct's text, borrowed for as long as it lives; what is written
 * goes into the caller's buffers.
 */
#ifndef CAPSULED_SHORTCODE_H
#define CAPSULED_SHORTCODE_H

#include <stddef.h>

struct buf;

/*
 * What a name says a construct is (shortcode_kind()).  A name may say
 * several things: "imgproc" is a bundle resource and an image; a
 * "youtube-figure" an embed, else an image.
 */
#define SC_POST		0x001	/* {% post_url %}: a post's file */
#define SC_LINK		0x002	/* link, ref, relref: a file of the site */
#define SC_INCLUDE	0x004	/* include, partial...: read by the name of
				   the file it includes */
#define SC_IMAGE	0x008	/* figure, img, image, picture, photo... */
#define SC_IMAGE_EXACT	0x010	/* an image a generator writes as one */
#define SC_PROC		0x020	/* imgproc: a bundle's image, processed */
#define SC_GALLERY	0x040	/* the images of a bundle folder */
#define SC_RAW		0x080	/* {% raw %}: the text as it is */
#define SC_COMMENT	0x100	/* comment: nothing */
#define SC_HIGHLIGHT	0x200	/* highlight: a fenced code block */
#define SC_END		0x400	/* endraw, endcomment, endhighlight */
#define SC_ASSET	0x800	/* asset_img, asset_link, asset_path (Hexo):
				   a file named from the post's own folder,
				   its asset folder first (content/links.c) */
#define SC_LABELLED	0x1000	/* a link or image with a label (asset_img,
				   asset_link, post_link), not a bare path */

/* An embed's kind, what shortcode_kind() says of the name. */
enum shortcode_embed {
	SC_EMBED_NONE,
	SC_EMBED_YOUTUBE,
	SC_EMBED_VIMEO,
	SC_EMBED_TWEET,
	SC_EMBED_GIST,
	SC_EMBED_INSTAGRAM,
};

/* name (lower case) as the SC_* bits; its embed kind into *embed. */
unsigned shortcode_kind(const char *name, enum shortcode_embed *embed);

/* What a Liquid filter does to the value of an output. */
enum shortcode_filter {
	SC_FILTER_UNKNOWN,	/* the site's own: the output means nothing */
	SC_FILTER_PATH,		/* url, relative_url, escape...: the path */
	SC_FILTER_PREPEND,
	SC_FILTER_APPEND,
	SC_FILTER_EMBED,	/* the site's embed filter: a link */
};

enum shortcode_filter shortcode_filter(const char *name);

struct shortcode_arg {
	const char	*key;		/* NULL: positional */
	size_t		 klen;
	const char	*val;
	size_t		 vlen;
};

/*
 * Arguments: "quoted", 'quoted', bare words, key=value, key: value,
 * commas between them ignored.  At most max into a; returns how many.
 */
size_t	 shortcode_args(const char *s, size_t len, struct shortcode_arg *a,
	    size_t max);
/* The argument named key (any case) with a value, or NULL. */
const struct shortcode_arg *shortcode_named(const struct shortcode_arg *a,
	    size_t n, const char *key);
/* The positional argument which (from 0), or NULL. */
const struct shortcode_arg *shortcode_nth(const struct shortcode_arg *a,
	    size_t n, size_t which);

/* u[0..len) as a Markdown destination, or an HTML attribute, into b. */
void	 shortcode_put_url(struct buf *b, const char *u, size_t len,
	    int html);
/* s[0..len) as Markdown link text or HTML, on one line, into b. */
void	 shortcode_put_label(struct buf *b, const char *s, size_t len,
	    int html);
/*
 * A site path as a Liquid site wrote it ("assets/x.png", "/x"), from
 * the site's root, into b.  Absolute URLs stay.
 */
void	 shortcode_site_path(struct buf *b, const char *p, size_t len);
/*
 * The file a link names: "/posts/2014-03-12-slug.md" for a post (post,
 * or a path in _posts/), which links to posts resolve; else "/" and the
 * path.  Into b.
 */
void	 shortcode_post_path(struct buf *b, const char *p, size_t len,
	    int post);
/*
 * The page of an embedded thing of kind, from its arguments, into u and
 * its label into l; 0 when the arguments name none.
 */
int	 shortcode_embed(enum shortcode_embed kind,
	    const struct shortcode_arg *a, size_t n, struct buf *u,
	    struct buf *l);
/*
 * An image construct's source and label (either may be NULL in them);
 * 0 when it names no source.
 */
int	 shortcode_image(const struct shortcode_arg *a, size_t n,
	    const struct shortcode_arg **src,
	    const struct shortcode_arg **label);
/* An include's file name, lower case: "figure" of "x/Figure.html". */
void	 shortcode_include_name(const struct shortcode_arg *a, size_t n,
	    char *out, size_t size);

/* Does name[0..len) end as an image's file name does (".jpg", ...)? */
int	 shortcode_image_name(const char *name, size_t len);
/* Could s[0..len) name a file of the bundle (not "/x", not a URL)? */
int	 shortcode_bundle_relative(const char *s, size_t len);
/*
 * The files of a page bundle (names[0..n), as template.h's
 * template_files) that pat names, as Hugo's resource matching picks
 * them: at most max indexes into m, in the files' order; how many.
 */
size_t	 shortcode_bundle_match(const char *const *names, size_t n,
	    const char *pat, size_t plen, size_t *m, size_t max);

#endif
