/*
 * html_embed.h -- the address to link for an embedded thing.
 *
 * Shared by the HTML tree builder (html.c) and the template reader
 * (template.c).  Knows URLs; nothing of HTML or cmark.
 */
#ifndef CAPSULED_HTML_EMBED_H
#define CAPSULED_HTML_EMBED_H

/*
 * The address to link for an embedded thing: "//host/x" gets https:,
 * a YouTube or Vimeo player URL becomes the video's own page.  malloc'd.
 */
char		*html_embed_url(const char *url);

#endif
