/*
 * buf.h -- a growable byte buffer: the one realloc in the tree.
 *
 * A struct buf owns its data.  data is always NUL-terminated (the NUL is
 * not counted in len), so a buf can be handed to string functions.
 * Growth aborts on out-of-memory (see util.h).
 */
#ifndef CAPSULED_BUF_H
#define CAPSULED_BUF_H

#include <stddef.h>
#include <stdint.h>

struct buf {
	char	*data;		/* owned; NULL until the first byte */
	size_t	 len;		/* bytes used, not counting the NUL */
	size_t	 cap;		/* bytes allocated */
};

#define BUF_INIT	{ NULL, 0, 0 }

void	 buf_init(struct buf *);
void	 buf_reserve(struct buf *, size_t);	/* room for len more */
void	 buf_add(struct buf *, const void *, size_t);
void	 buf_addstr(struct buf *, const char *);
/* One byte; inline, as the renderers write many of them one at a time. */
static inline void
buf_addc(struct buf *b, int c)
{
	if (b->cap - b->len < 2)	/* the byte and the NUL */
		buf_reserve(b, 1);
	b->data[b->len++] = (char)c;
	b->data[b->len] = '\0';
}
void	 buf_printf(struct buf *, const char *, ...)
	    __attribute__((format(printf, 2, 3)));
void	 buf_truncate(struct buf *, size_t);	/* shrink len, keep cap */
char	*buf_release(struct buf *);	/* caller owns result; buf is reset */
void	 buf_free(struct buf *);
/* Last byte, or -1 when empty. */
int	 buf_last(const struct buf *);

#endif
