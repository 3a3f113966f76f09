/*
 * html_embed.c -- the address a reader follows for an embedded thing
 * (html_embed.h): a player's URL made the video's own page.
 *
 * Used by the tree builder (html.c) for <iframe>, <video>, <embed>...
 * and by the template reader (template.c) for Hugo's youtube and vimeo
 * shortcodes, so both give one address for one video.  Knows URLs of
 * the form "scheme://host/path"; nothing of HTML or cmark.
 */
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "core/util.h"
#include "markdown/html_embed.h"

char *
html_embed_url(const char *url)
{
	const char	*host, *path, *id;
	char		*abs = NULL, *rv;
	size_t		 hlen, n;

	if (strncmp(url, "//", 2) == 0)		/* the web page's scheme */
		url = abs = xasprintf("https:%s", url);
	if (strncasecmp(url, "https://", 8) == 0)
		host = url + 8;
	else if (strncasecmp(url, "http://", 7) == 0)
		host = url + 7;
	else
		return xstrdup(url);
	path = host + strcspn(host, "/?#");
	hlen = (size_t)(path - host);
#define HOST_IS(h) (hlen >= sizeof(h) - 1 && strncasecmp(path -	\
	    (sizeof(h) - 1), h, sizeof(h) - 1) == 0 &&			\
	    (hlen == sizeof(h) - 1 || path[-(long)sizeof(h)] == '.'))
	id = NULL;
	n = 0;
	if ((HOST_IS("youtube.com") || HOST_IS("youtube-nocookie.com")) &&
	    strncmp(path, "/embed/", 7) == 0 &&
	    (n = strcspn(path + 7, "/?#&")) > 0)
		id = path + 7;
#undef HOST_IS
	if (id != NULL)
		rv = xasprintf("https://www.youtube.com/watch?v=%.*s", (int)n,
		    id);
	else if (hlen == 16 && strncasecmp(host, "player.vimeo.com", 16) == 0 &&
	    strncmp(path, "/video/", 7) == 0 &&
	    (n = strcspn(path + 7, "/?#&")) > 0)
		rv = xasprintf("https://vimeo.com/%.*s", (int)n, path + 7);
	else
		rv = xstrdup(url);
	free(abs);
	return rv;
}
