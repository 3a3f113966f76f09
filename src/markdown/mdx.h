/*
 * mdx.h -- an MDX body (Markdown with JSX, as Docusaurus and Astro
 * keep posts) made Markdown, before cmark sees it.
 *
 * A reader must see what the writer meant, never JSX:
 *   import ... / export ... (a block of them, to a blank line)
 *                      nothing
 *   {expression}, and a comment in braces (JSX's)
 *                      nothing; the comment "truncate" is Docusaurus's
 *                      summary separator, "<!--truncate-->" (render.h);
 *                      a string {"x"} is its text
 *   <Tabs>, <TabItem label="A">
 *                      a section each: its label, a heading ("### A"),
 *                      then its text
 *   <Admonition type="tip" title="T">, ":::tip[T]" ... ":::"
 *                      a quote whose first line is its title, strong
 *                      (else its type: "Tip")
 *   <Link to="/x">, <Image img=...>, <ThemedImage sources=...>, <img>
 *   with src={require("./a.png").default}, <iframe>, <video>
 *                      a link, an image: the first string of the
 *                      address's expression
 *   <CodeBlock language="js">{`...`}</CodeBlock>
 *                      a fenced code block
 *   <details>, <a>, <kbd> and every other lower-case tag
 *                      HTML, its attributes that are expressions
 *                      dropped (but an address's string): what the
 *                      HTML reader (html.h) then makes of it
 *   any other component (<Highlight>, <BrowserWindow>, <DocCardList />)
 *                      its children's text; the tags go
 * docs/writing.md, "MDX", has the same as a table.  Lines inside a
 * component that opens a line are dedented by the indentation of the
 * first of them (MDX has no indented code).  Code -- fenced blocks and
 * code spans -- stays as written.  A tag or an expression that never
 * closes is text.
 *
 * Pure (no I/O), linear in the length of the body.  Knows MDX's JSX and
 * ESM and Docusaurus's components; nothing of cmark, files or posts.
 */
#ifndef CAPSULED_MDX_H
#define CAPSULED_MDX_H

#include <stddef.h>

#include "core/buf.h"

/* The Markdown of the MDX body src[0..len), appended to out. */
void	 mdx_rewrite(const char *src, size_t len, struct buf *out);

#endif
