/*
 * search.c -- full-text search over a snapshot's posts.
 *
 * The index is an inverted list per folded token.  Each post is a
 * document, numbered by its place in a->posts (newest first, so a lower
 * number is a newer post), and its tokens have positions in one stream:
 *
 *   title  GAP  tag  GAP  tag ...  GAP  series  GAP | body ... GAP | summary
 *                                                  bodypos        sumpos
 *
 * A token's postings are one byte string of varints, one entry per post
 * that has it: doc delta, term frequency, byte length of the positions,
 * then the positions as deltas.  The length lets a cursor skip the
 * positions of a post it does not need, so an AND of a rare and a
 * common word costs one pass over each list and no decoding of the
 * common word's positions.  Positions make phrases exact (consecutive
 * positions; a gap between fields stops a phrase from spanning two of
 * them) and tell title/tag matches (before bodypos) from body ones.
 *
 * Building is two passes over each post's tokens with no sorting: the
 * (token, position) pairs of one post are grouped by token with a
 * counting pass, then appended to each token's list.  The lists are
 * packed into one array at the end.  Nothing here changes after
 * search_build() returns, so any number of threads read one index.
 *
 * Knows the archive's structs; nothing of pages or protocols.
 * The index owns all its memory and borrows the snapshot it indexes;
 * hits borrow posts from it.  Who builds the index, when, and keeps it
 * is the site layer's business (site/site.c).
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "content/archive.h"
#include "content/search.h"
#include "core/buf.h"
#include "core/fold.h"
#include "core/hash.h"
#include "core/log.h"
#include "core/utf8.h"
#include "core/util.h"
#include "markdown/gemtext.h"
#include "markdown/plain.h"
#include "markdown/scan.h"

#define SEARCH_GAP	8		/* positions between two fields */
#define SEARCH_NONE	UINT32_MAX	/* no position */
#define BM25_K1		1.2
#define BM25_B		0.75
#define ELLIPSIS	"\xe2\x80\xa6"	/* U+2026 */

/* A token's postings, once packed. */
struct sterm {
	uint64_t	 off;		/* in x->post */
	uint32_t	 len;		/* bytes */
	uint32_t	 key;		/* NUL-terminated, at x->strs + key */
	uint32_t	 df;		/* posts that have the token */
};

struct search_index {
	const struct archive *a;	/* borrowed: the one indexed */
	size_t		 ndocs;		/* == a->nposts when built */
	uint32_t	*doclen;	/* tokens per post */
	uint32_t	*bodypos;	/* first body position per post */
	uint32_t	*sumpos;	/* first summary position per post */
	double		 avgdl;
	struct sterm	*terms;
	size_t		 nterms;
	uint32_t	*table;		/* term id + 1 by hash; 0 = empty */
	size_t		 tcap;		/* a power of two */
	char		*strs;
	size_t		 strslen;
	unsigned char	*post;
	size_t		 postlen;
};

/* ---- characters and tokens ------------------------------------------ */

/*
 * The folded form of cp into out (room for 4 bytes): its length, 0 for
 * a combining mark (part of a word, folded away: "e" U+0301 is "e"), or
 * -1 when cp is not part of a word (blanks, punctuation, symbols, bad
 * bytes).
 */
static int
token_cp(uint32_t cp, char *out)
{
	const char	*ascii;
	size_t		 len;

	if (cp == UTF8_INVALID)
		return -1;
	if (cp < 0x80) {
		if (cp >= 'A' && cp <= 'Z') {
			out[0] = (char)(cp + 32);
			return 1;
		}
		if ((cp >= 'a' && cp <= 'z') || (cp >= '0' && cp <= '9')) {
			out[0] = (char)cp;
			return 1;
		}
		return -1;
	}
	if (cp < 0xC0 || cp == 0xD7 || cp == 0xF7)
		return -1;		/* Latin-1 punctuation and symbols */
	if (cp <= 0x17F) {		/* Latin-1 and Extended-A letters */
		if ((ascii = fold_latin(cp)) == NULL)
			return -1;
		len = strlen(ascii);
		memcpy(out, ascii, len);
		return (int)len;
	}
	if (cp >= 0x300 && cp <= 0x36F)
		return 0;		/* combining diacritical marks */
	if ((cp >= 0x2000 && cp <= 0x2BFF) ||	/* punctuation, symbols */
	    (cp >= 0x3000 && cp <= 0x303F) ||	/* CJK punctuation */
	    (cp >= 0xFE00 && cp <= 0xFE0F) ||	/* variation selectors */
	    (cp >= 0xFE30 && cp <= 0xFE4F) ||
	    (cp >= 0xFF00 && cp <= 0xFF0F) || cp == 0xFEFF ||
	    (cp >= 0x1F000 && cp <= 0x1FAFF))	/* emoji and the like */
		return -1;
	/* Greek and Cyrillic capitals: their lower case. */
	if ((cp >= 0x391 && cp <= 0x3A9 && cp != 0x3A2) ||
	    (cp >= 0x410 && cp <= 0x42F))
		cp += 0x20;
	else if (cp >= 0x400 && cp <= 0x40F)
		cp += 0x50;
	return (int)utf8_encode(cp, out);
}

/* ASCII folded: letters lower-cased, digits kept, 0 = not in a word. */
static const char ascii_fold[128] = {
	['0'] = '0', ['1'] = '1', ['2'] = '2', ['3'] = '3', ['4'] = '4',
	['5'] = '5', ['6'] = '6', ['7'] = '7', ['8'] = '8', ['9'] = '9',
	['A'] = 'a', ['B'] = 'b', ['C'] = 'c', ['D'] = 'd', ['E'] = 'e',
	['F'] = 'f', ['G'] = 'g', ['H'] = 'h', ['I'] = 'i', ['J'] = 'j',
	['K'] = 'k', ['L'] = 'l', ['M'] = 'm', ['N'] = 'n', ['O'] = 'o',
	['P'] = 'p', ['Q'] = 'q', ['R'] = 'r', ['S'] = 's', ['T'] = 't',
	['U'] = 'u', ['V'] = 'v', ['W'] = 'w', ['X'] = 'x', ['Y'] = 'y',
	['Z'] = 'z',
	['a'] = 'a', ['b'] = 'b', ['c'] = 'c', ['d'] = 'd', ['e'] = 'e',
	['f'] = 'f', ['g'] = 'g', ['h'] = 'h', ['i'] = 'i', ['j'] = 'j',
	['k'] = 'k', ['l'] = 'l', ['m'] = 'm', ['n'] = 'n', ['o'] = 'o',
	['p'] = 'p', ['q'] = 'q', ['r'] = 'r', ['s'] = 's', ['t'] = 't',
	['u'] = 'u', ['v'] = 'v', ['w'] = 'w', ['x'] = 'x', ['y'] = 'y',
	['z'] = 'z',
};

/* Tokens of a text, in order, with where each one is. */
struct tok {
	const unsigned char *base, *p, *end;
	size_t		 off, len;	/* the token's bytes in the text */
	char		 key[SEARCH_TOKEN_MAX + 1];
	size_t		 keylen;
};

static void
tok_init(struct tok *t, const char *s, size_t len)
{
	t->base = t->p = (const unsigned char *)s;
	t->end = t->base + len;
}

/* The next token: 1, or 0 at the end of the text. */
static int
tok_next(struct tok *t)
{
	const unsigned char	*start, *last, *q;
	char			 f[4];
	uint32_t		 cp;
	size_t			 n;
	int			 k;

	for (;;) {
		start = last = NULL;
		t->keylen = 0;
		while (t->p < t->end) {
			q = t->p;
			if (*q < 0x80) {	/* the common case, inline */
				t->p++;
				f[0] = (char)ascii_fold[*q];
				k = f[0] != '\0' ? 1 : -1;
			} else {
				n = utf8_decode((const char *)q,
				    (size_t)(t->end - q), &cp);
				t->p += n;
				k = token_cp(cp, f);
			}
			if (k < 0) {		/* not part of a word */
				if (start != NULL)
					break;
				continue;
			}
			if (start == NULL)
				start = q;
			last = t->p;
			if (k == 1 && t->keylen < SEARCH_TOKEN_MAX)
				t->key[t->keylen++] = f[0];
			else if (k > 1 && t->keylen + (size_t)k <=
			    SEARCH_TOKEN_MAX) {
				memcpy(t->key + t->keylen, f, (size_t)k);
				t->keylen += (size_t)k;
			}
		}
		if (start == NULL)
			return 0;
		if (t->keylen == 0)
			continue;	/* combining marks alone */
		t->key[t->keylen] = '\0';
		t->off = (size_t)(start - t->base);
		t->len = (size_t)(last - start);
		return 1;
	}
}

void
search_fold(const char *s, size_t len, struct buf *out)
{
	struct tok	 t;
	int		 first = 1;

	tok_init(&t, s, len);
	while (tok_next(&t)) {
		if (!first)
			buf_addc(out, ' ');
		buf_add(out, t.key, t.keylen);
		first = 0;
	}
}

/* The Markdown body of a post as indexed: without a repeated title. */
static void
post_plain(const struct post *p, struct buf *out)
{
	const char	*body = p->src + p->body_off;
	size_t		 len = p->srclen - p->body_off, skip;

	skip = scan_repeated_title(body, len, p->title);
	if (p->gemtext)
		gemtext_plain(body + skip, len - skip, out);
	else
		plain_markdown(body + skip, len - skip, out);
}

/* ---- query parsing -------------------------------------------------- */

static void
term_free(struct search_term *t)
{
	size_t	 i;

	for (i = 0; i < t->nwords; i++)
		free(t->words[i]);
	free(t->words);
	free(t->name);
}

void
search_query_free(struct search_query *q)
{
	size_t	 i;

	for (i = 0; i < q->nterms; i++)
		term_free(&q->terms[i]);
	free(q->terms);
	q->terms = NULL;
	q->nterms = 0;
}

/* The words of s[0..len) as a SEARCH_WORDS term; 0 when it has none. */
static int
words_term(struct search_term *t, const char *s, size_t len)
{
	struct tok	 k;

	memset(t, 0, sizeof(*t));
	t->kind = SEARCH_WORDS;
	tok_init(&k, s, len);
	while (t->nwords < SEARCH_MAX_PHRASE && tok_next(&k)) {
		t->words = xreallocarray(t->words, t->nwords + 1,
		    sizeof(*t->words));
		t->words[t->nwords++] = xstrndup(k.key, k.keylen);
	}
	return t->nwords > 0;
}

static int
blank(int c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

int
search_parse(const char *q, struct search_query *out)
{
	struct search_term	 t;
	const char		*p = q, *v, *ve;
	size_t			 plen;
	enum search_kind	 kind;

	memset(out, 0, sizeof(*out));
	while (*p != '\0' && out->nterms < SEARCH_MAX_TERMS) {
		while (blank((unsigned char)*p))
			p++;
		if (*p == '\0')
			break;
		kind = SEARCH_WORDS;
		plen = 0;
		if (strncasecmp(p, "tag:", 4) == 0)
			kind = SEARCH_TAG, plen = 4;
		else if (strncasecmp(p, "series:", 7) == 0)
			kind = SEARCH_SERIES, plen = 7;
		v = p + plen;
		if (*v == '"') {
			v++;
			ve = strchr(v, '"');
			if (ve == NULL)
				ve = v + strlen(v);
			p = *ve == '"' ? ve + 1 : ve;
		} else {
			for (ve = v; *ve != '\0' && !blank((unsigned char)*ve);
			    ve++)
				;
			p = ve;
		}
		if (kind != SEARCH_WORDS) {
			memset(&t, 0, sizeof(t));
			t.kind = kind;
			t.name = xstrndup(v, (size_t)(ve - v));
			if (*t.name == '\0') {
				free(t.name);
				continue;	/* "tag:" alone */
			}
		} else if (!words_term(&t, v, (size_t)(ve - v))) {
			term_free(&t);
			continue;		/* punctuation alone */
		}
		out->terms = xreallocarray(out->terms, out->nterms + 1,
		    sizeof(*out->terms));
		out->terms[out->nterms++] = t;
	}
	return out->nterms > 0 ? 0 : -1;
}

/* ---- building ------------------------------------------------------- */

/* A token while building: its list grows as posts are added. */
struct bterm {
	struct buf	 post;
	uint32_t	 df;
	uint32_t	 prev;		/* doc of its last entry */
};

/* What grouping one post touches, apart to stay in cache. */
struct bhot {
	uint32_t	 stamp;		/* doc + 1 of the post being grouped */
	uint32_t	 cnt, start;	/* its positions in that post */
};

struct builder {
	struct bterm	*t;
	struct bhot	*hot;		/* parallel to t */
	uint32_t	*keys;		/* parallel to t: offsets in strs */
	size_t		 n, cap;
	uint64_t	*table;		/* hash << 32 | id + 1; 0 = empty */
	size_t		 tcap;
	struct buf	 strs;
	uint64_t	*occ;		/* (term << 32 | position), one post */
	size_t		 nocc, occcap;
	uint32_t	*touched, *sorted;
	size_t		 scap;
	uint32_t	 pos, ntok;
};

static void
rehash(uint32_t **table, size_t *tcap, const char *strs,
    const uint32_t *keys, size_t keystride, size_t n)
{
	uint32_t	*nt;
	size_t		 cap = *tcap ? *tcap * 2 : 1024, i, j;
	const char	*k;

	while (cap < n * 2)
		cap *= 2;
	nt = xcalloc(cap, sizeof(*nt));
	for (i = 0; i < n; i++) {
		k = strs + *(const uint32_t *)((const char *)keys +
		    i * keystride);
		for (j = hash_str(k) & (cap - 1); nt[j] != 0;
		    j = (j + 1) & (cap - 1))
			;
		nt[j] = (uint32_t)i + 1;
	}
	free(*table);
	*table = nt;
	*tcap = cap;
}

/* Double the builder's table. */
static void
b_grow(struct builder *b)
{
	uint64_t	*nt;
	size_t		 cap = b->tcap * 2, i, j;

	nt = xcalloc(cap, sizeof(*nt));
	for (i = 0; i < b->tcap; i++) {
		if (b->table[i] == 0)
			continue;
		for (j = (b->table[i] >> 32) & (cap - 1); nt[j] != 0;
		    j = (j + 1) & (cap - 1))
			;
		nt[j] = b->table[i];
	}
	free(b->table);
	b->table = nt;
	b->tcap = cap;
}

/* The id of a token, added when new. */
static uint32_t
b_term(struct builder *b, const char *key, size_t len)
{
	struct bterm	*t;
	uint64_t	 h = hash_bytes(key, len) >> 32, e;
	size_t		 i;
	uint32_t	 id;

	/* The stored hash spares most string compares. */
	for (i = h & (b->tcap - 1); (e = b->table[i]) != 0;
	    i = (i + 1) & (b->tcap - 1)) {
		if (e >> 32 != h)
			continue;
		id = (uint32_t)e - 1;
		if (memcmp(b->strs.data + b->keys[id], key, len) == 0 &&
		    b->strs.data[b->keys[id] + len] == '\0')
			return id;
	}
	if (b->n == b->cap) {
		b->cap = b->cap ? b->cap * 2 : 4096;
		b->t = xreallocarray(b->t, b->cap, sizeof(*b->t));
		b->hot = xreallocarray(b->hot, b->cap, sizeof(*b->hot));
		b->keys = xreallocarray(b->keys, b->cap, sizeof(*b->keys));
	}
	id = (uint32_t)b->n++;
	t = &b->t[id];
	memset(t, 0, sizeof(*t));
	memset(&b->hot[id], 0, sizeof(b->hot[id]));
	buf_init(&t->post);
	b->keys[id] = (uint32_t)b->strs.len;
	buf_add(&b->strs, key, len);
	buf_add(&b->strs, "", 1);
	b->table[i] = h << 32 | (id + 1);
	if (b->n * 2 > b->tcap)
		b_grow(b);
	return id;
}

/* Add the tokens of s[0..len) at the next positions, then a gap. */
static void
b_text(struct builder *b, const char *s, size_t len)
{
	struct tok	 k;
	uint32_t	 id;

	if (s == NULL)
		return;
	tok_init(&k, s, len);
	while (tok_next(&k)) {
		id = b_term(b, k.key, k.keylen);
		if (b->nocc == b->occcap) {
			b->occcap = b->occcap ? b->occcap * 2 : 4096;
			b->occ = xreallocarray(b->occ, b->occcap,
			    sizeof(*b->occ));
		}
		b->occ[b->nocc++] = (uint64_t)id << 32 | b->pos++;
		b->ntok++;
	}
	b->pos += SEARCH_GAP;
}

/* Write v at p (room for 5 bytes); returns the byte after it. */
static unsigned char *
put_varint(unsigned char *p, uint32_t v)
{
	while (v >= 0x80) {
		*p++ = (unsigned char)(v | 0x80);
		v >>= 7;
	}
	*p++ = (unsigned char)v;
	return p;
}

static size_t
varint_len(uint32_t v)
{
	size_t	 n = 1;

	while (v >= 0x80) {
		v >>= 7;
		n++;
	}
	return n;
}

static uint32_t
get_varint(const unsigned char **pp, const unsigned char *end)
{
	const unsigned char	*p = *pp;
	uint32_t		 v = 0;
	unsigned		 shift = 0;

	while (p < end && shift < 35) {
		v |= (uint32_t)(*p & 0x7F) << shift;
		shift += 7;
		if ((*p++ & 0x80) == 0)
			break;
	}
	*pp = p;
	return v;
}

/* Group this post's (token, position) pairs by token; append entries. */
static void
b_flush(struct builder *b, uint32_t doc)
{
	struct bterm	*t;
	struct bhot	*hh;
	unsigned char	*w;
	size_t		 i, nt = 0, plen;
	uint32_t	 run = 0, id, j, last, *ps;

	if (b->nocc > b->scap) {
		b->scap = b->nocc;
		b->touched = xreallocarray(b->touched, b->scap,
		    sizeof(*b->touched));
		b->sorted = xreallocarray(b->sorted, b->scap,
		    sizeof(*b->sorted));
	}
	for (i = 0; i < b->nocc; i++) {
		hh = &b->hot[b->occ[i] >> 32];
		if (hh->stamp != doc + 1) {
			hh->stamp = doc + 1;
			hh->cnt = 0;
			b->touched[nt++] = (uint32_t)(b->occ[i] >> 32);
		}
		hh->cnt++;
	}
	for (i = 0; i < nt; i++) {
		hh = &b->hot[b->touched[i]];
		hh->start = run;
		run += hh->cnt;
		hh->cnt = 0;
	}
	for (i = 0; i < b->nocc; i++) {
		hh = &b->hot[b->occ[i] >> 32];
		b->sorted[hh->start + hh->cnt++] = (uint32_t)b->occ[i];
	}
	for (i = 0; i < nt; i++) {
		id = b->touched[i];
		t = &b->t[id];
		hh = &b->hot[id];
		ps = b->sorted + hh->start;
		for (j = 0, last = 0, plen = 0; j < hh->cnt; j++) {
			plen += varint_len(ps[j] - last);
			last = ps[j];
		}
		buf_reserve(&t->post, 15 + plen);
		w = (unsigned char *)t->post.data + t->post.len;
		w = put_varint(w, doc - t->prev);
		w = put_varint(w, hh->cnt);
		w = put_varint(w, (uint32_t)plen);
		for (j = 0, last = 0; j < hh->cnt; j++) {
			w = put_varint(w, ps[j] - last);
			last = ps[j];
		}
		t->post.len = (size_t)(w - (unsigned char *)t->post.data);
		t->prev = doc;
		t->df++;
	}
	b->nocc = 0;
}

struct search_index *
search_build(const struct archive *a)
{
	struct search_index	*x;
	struct builder		 b;
	struct buf		 plain = BUF_INIT;
	const struct post	*p;
	const char		*series;
	size_t			 i, j, off;
	double			 total = 0;

	memset(&b, 0, sizeof(b));
	buf_init(&b.strs);
	b.tcap = 1024;
	b.table = xcalloc(b.tcap, sizeof(*b.table));
	x = xcalloc(1, sizeof(*x));
	x->a = a;
	x->ndocs = a->nposts;
	x->doclen = xcalloc(x->ndocs + 1, sizeof(*x->doclen));
	x->bodypos = xcalloc(x->ndocs + 1, sizeof(*x->bodypos));
	x->sumpos = xcalloc(x->ndocs + 1, sizeof(*x->sumpos));
	for (i = 0; i < a->nposts; i++) {
		p = a->posts[i];
		b.pos = b.ntok = 0;
		b_text(&b, p->title, p->title ? strlen(p->title) : 0);
		for (j = 0; j < p->ntags; j++)
			b_text(&b, p->tagnames[j], strlen(p->tagnames[j]));
		series = p->series != NULL ? p->series->title : p->series_name;
		if (series != NULL)
			b_text(&b, series, strlen(series));
		x->bodypos[i] = b.pos;
		buf_truncate(&plain, 0);
		post_plain(p, &plain);
		b_text(&b, plain.data, plain.len);
		x->sumpos[i] = b.pos;
		if (p->summary != NULL)
			b_text(&b, p->summary, strlen(p->summary));
		x->doclen[i] = b.ntok;
		total += b.ntok;
		b_flush(&b, (uint32_t)i);
	}
	x->avgdl = x->ndocs > 0 ? total / (double)x->ndocs : 1;
	if (x->avgdl < 1)
		x->avgdl = 1;

	/* Pack: one array of postings, exact-size string table. */
	x->nterms = b.n;
	x->terms = xcalloc(b.n + 1, sizeof(*x->terms));
	for (i = 0, off = 0; i < b.n; i++)
		off += b.t[i].post.len;
	x->postlen = off;
	x->post = xmalloc(off + 1);
	for (i = 0, off = 0; i < b.n; i++) {
		x->terms[i].off = off;
		x->terms[i].len = (uint32_t)b.t[i].post.len;
		x->terms[i].key = b.keys[i];
		x->terms[i].df = b.t[i].df;
		if (b.t[i].post.len > 0)
			memcpy(x->post + off, b.t[i].post.data,
			    b.t[i].post.len);
		off += b.t[i].post.len;
		buf_free(&b.t[i].post);
	}
	x->strslen = b.strs.len;
	x->strs = xmalloc(b.strs.len + 1);
	memcpy(x->strs, b.strs.data ? b.strs.data : "", b.strs.len);
	x->strs[b.strs.len] = '\0';
	x->table = NULL;
	x->tcap = 0;
	rehash(&x->table, &x->tcap, x->strs, &x->terms[0].key,
	    sizeof(*x->terms), x->nterms);

	free(b.t);
	free(b.hot);
	free(b.keys);
	free(b.table);
	buf_free(&b.strs);
	free(b.occ);
	free(b.touched);
	free(b.sorted);
	buf_free(&plain);
	return x;
}

void
search_free(struct search_index *x)
{
	if (x == NULL)
		return;
	free(x->doclen);
	free(x->bodypos);
	free(x->sumpos);
	free(x->terms);
	free(x->table);
	free(x->strs);
	free(x->post);
	free(x);
}

size_t
search_bytes(const struct search_index *x)
{
	return sizeof(*x) + 3 * (x->ndocs + 1) * sizeof(uint32_t) +
	    (x->nterms + 1) * sizeof(*x->terms) +
	    x->tcap * sizeof(*x->table) + x->strslen + 1 + x->postlen + 1;
}

size_t
search_nterms(const struct search_index *x)
{
	return x->nterms;
}

/* ---- querying ------------------------------------------------------- */

static const struct sterm *
find_term(const struct search_index *x, const char *key)
{
	const struct sterm	*t;
	size_t			 i;

	if (x->tcap == 0)
		return NULL;
	for (i = hash_str(key) & (x->tcap - 1); x->table[i] != 0;
	    i = (i + 1) & (x->tcap - 1)) {
		t = &x->terms[x->table[i] - 1];
		if (strcmp(x->strs + t->key, key) == 0)
			return t;
	}
	return NULL;
}

/* A walk over one token's postings. */
struct cur {
	const unsigned char	*p, *end;
	uint32_t		 left;		/* entries not read yet */
	uint32_t		 doc, tf;	/* of the current entry */
	const unsigned char	*pos, *posend;	/* its positions */
	int			 loaded;
};

static void
cur_init(struct cur *c, const struct search_index *x, const struct sterm *t)
{
	memset(c, 0, sizeof(*c));
	c->p = x->post + t->off;
	c->end = c->p + t->len;
	c->left = t->df;
}

static int
cur_next(struct cur *c)
{
	uint32_t	 n;

	if (c->left == 0 || c->p >= c->end)
		return 0;
	c->left--;
	c->doc += get_varint(&c->p, c->end);
	c->tf = get_varint(&c->p, c->end);
	n = get_varint(&c->p, c->end);
	if (n > (size_t)(c->end - c->p))
		n = (uint32_t)(c->end - c->p);
	c->pos = c->p;
	c->posend = c->p + n;
	c->p += n;
	c->loaded = 1;
	return 1;
}

/* Move to doc: 1 when the token is in it, 0 when not, -1 past the end. */
static int
cur_seek(struct cur *c, uint32_t doc)
{
	while (!c->loaded || c->doc < doc)
		if (!cur_next(c))
			return -1;
	return c->doc == doc;
}

/* The current entry's positions into v (grown as needed). */
static size_t
cur_positions(const struct cur *c, uint32_t **v, size_t *cap)
{
	const unsigned char	*p = c->pos;
	size_t			 n = 0;
	uint32_t		 at = 0;

	while (p < c->posend) {
		at += get_varint(&p, c->posend);
		if (n == *cap) {
			*cap = *cap ? *cap * 2 : 64;
			*v = xreallocarray(*v, *cap, sizeof(**v));
		}
		(*v)[n++] = at;
	}
	return n;
}

static int
has_pos(const uint32_t *v, size_t n, uint32_t want)
{
	size_t	 lo = 0, hi = n, mid;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (v[mid] < want)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < n && v[lo] == want;
}

/* One token of the query, with its walk. */
struct qtok {
	const struct sterm	*t;
	struct cur		 c;
	uint32_t		*pv;		/* positions in the doc */
	size_t			 pn, pcap;
};

/* One words term of the query: its tokens in qt[first..first+n). */
struct qword {
	size_t		 first, n;
	double		 idf;
};

struct hit {
	uint32_t	 doc;
	uint32_t	 meta;
	uint32_t	 first;		/* first match past bodypos, or NONE */
	double		 score;
};

static int
cmp_hit(const void *va, const void *vb)
{
	const struct hit	*a = va, *b = vb;

	if (a->meta != b->meta)
		return a->meta > b->meta ? -1 : 1;
	if (a->score != b->score)
		return a->score > b->score ? -1 : 1;
	return a->doc < b->doc ? -1 : a->doc > b->doc;
}

/* Folded names equal: "Small Web" is "small-web" is "small web". */
static int
same_name(const char *x, const char *y)
{
	struct buf	 a = BUF_INIT, b = BUF_INIT;
	int		 eq;

	search_fold(x, strlen(x), &a);
	search_fold(y, strlen(y), &b);
	eq = a.len > 0 && a.len == b.len && memcmp(a.data, b.data, a.len) == 0;
	buf_free(&a);
	buf_free(&b);
	return eq;
}

/* Is the tag or series of this title (or NULL) and slug called name? */
static int
named(const char *title, const char *slug, const char *name)
{
	return (title != NULL && same_name(title, name)) ||
	    same_name(slug, name);
}

/*
 * The tag (a SEARCH_TAG term) or the series term names: by the slug its
 * name makes, else by a folded title or slug ("Small Web" finds
 * "small-web").  Sets *tp or *sp; -1 when nothing is called so.
 */
static int
find_named(const struct archive *a, const struct search_term *term,
    struct tag **tp, struct series **sp)
{
	char	*slug;
	size_t	 i;
	int	 tag = term->kind == SEARCH_TAG;

	*tp = NULL;
	*sp = NULL;
	slug = archive_slugify(term->name);
	if (*slug != '\0' && tag)
		*tp = archive_tag(a, slug);
	else if (*slug != '\0')
		*sp = archive_series(a, slug);
	free(slug);
	for (i = 0; tag && *tp == NULL && i < a->ntags; i++)
		if (named(a->tags[i]->name, a->tags[i]->slug, term->name))
			*tp = a->tags[i];
	for (i = 0; !tag && *sp == NULL && i < a->nseries; i++)
		if (named(a->series[i]->title, a->series[i]->slug,
		    term->name))
			*sp = a->series[i];
	return *tp != NULL || *sp != NULL ? 0 : -1;
}

/*
 * Which posts the tag: and series: terms let through: allow[doc] is 1
 * for them.  Returns 0, or -1 with res->why set when a name is unknown.
 */
static int
filter(const struct archive *a, const struct search_query *q,
    unsigned char **allowp, struct search_result *res)
{
	unsigned char	*allow = NULL;
	struct tag	*t;
	struct series	*s;
	size_t		 i, j, d;
	int		 in;

	for (i = 0; i < q->nterms; i++) {
		if (q->terms[i].kind == SEARCH_WORDS)
			continue;
		if (find_named(a, &q->terms[i], &t, &s) == -1) {
			snprintf(res->why, sizeof(res->why),
			    "No %s is named \"%.80s\".",
			    q->terms[i].kind == SEARCH_TAG ? "tag" : "series",
			    q->terms[i].name);
			free(allow);
			return -1;
		}
		if (allow == NULL) {
			allow = xmalloc(a->nposts + 1);
			memset(allow, 1, a->nposts + 1);
		}
		for (d = 0; d < a->nposts; d++) {
			if (t != NULL) {
				for (j = 0, in = 0; j < a->posts[d]->ntags; j++)
					if (a->posts[d]->tags[j] == t)
						in = 1;
			} else
				in = a->posts[d]->series == s;
			if (!in)
				allow[d] = 0;
		}
	}
	*allowp = allow;
	return 0;
}

/*
 * Score doc for every words term (the cursors are on it).  Returns 0
 * when a phrase is not in it after all.
 */
static int
score_doc(const struct search_index *x, struct qtok *qt,
    const struct qword *qw, size_t nqw, struct hit *h)
{
	struct qtok	*t0;
	size_t		 i, j, k;
	uint32_t	 doc = h->doc, body = x->bodypos[doc], p, tf;
	double		 dl = x->doclen[doc], norm;
	int		 meta, ok;

	h->meta = 0;
	h->score = 0;
	h->first = SEARCH_NONE;
	norm = BM25_K1 * (1 - BM25_B + BM25_B * dl / x->avgdl);
	for (i = 0; i < nqw; i++) {
		meta = 0;
		tf = 0;
		for (k = 0; k < qw[i].n; k++) {
			t0 = &qt[qw[i].first + k];
			t0->pn = cur_positions(&t0->c, &t0->pv, &t0->pcap);
		}
		t0 = &qt[qw[i].first];
		for (j = 0; j < t0->pn; j++) {
			p = t0->pv[j];
			for (k = 1, ok = 1; ok && k < qw[i].n; k++)
				ok = has_pos(qt[qw[i].first + k].pv,
				    qt[qw[i].first + k].pn, p + (uint32_t)k);
			if (!ok)
				continue;
			tf++;
			if (p < body)
				meta = 1;
			else if (p < h->first)
				h->first = p;
		}
		if (tf == 0)
			return 0;
		h->meta += (uint32_t)meta;
		h->score += qw[i].idf * (tf * (BM25_K1 + 1)) / (tf + norm);
	}
	return 1;
}

/* Find the byte offset of token number k of text (or its end). */
static size_t
token_offset(const char *text, size_t len, uint32_t k)
{
	struct tok	 t;
	uint32_t	 i = 0;

	tok_init(&t, text, len);
	while (tok_next(&t)) {
		if (i++ == k)
			return t.off;
	}
	return 0;
}

/* About SEARCH_SNIPPET bytes of text around byte m, on word boundaries. */
static void
window(const char *text, size_t len, size_t m, struct buf *out)
{
	size_t	 start, end, i;

	start = m > SEARCH_SNIPPET / 3 ? m - SEARCH_SNIPPET / 3 : 0;
	if (start > 0) {
		for (i = start; i < m && text[i] != ' '; i++)
			;
		if (i < m)
			start = i + 1;
		while (start > 0 && ((unsigned char)text[start] & 0xC0) ==
		    0x80)
			start--;
	}
	end = start + SEARCH_SNIPPET;
	if (end >= len)
		end = len;
	else {
		for (i = end; i > start + SEARCH_SNIPPET / 2 &&
		    text[i] != ' '; i--)
			;
		if (i > start + SEARCH_SNIPPET / 2)
			end = i;
		while (end > start && ((unsigned char)text[end] & 0xC0) ==
		    0x80)
			end--;
	}
	while (start < end && text[start] == ' ')
		start++;
	while (end > start && text[end - 1] == ' ')
		end--;
	if (start > 0)
		buf_addstr(out, ELLIPSIS);
	buf_add(out, text + start, end - start);
	if (end < len)
		buf_addstr(out, ELLIPSIS);
}

static char *
snippet(const struct search_index *x, const struct post *p, uint32_t doc,
    uint32_t first)
{
	struct buf	 text = BUF_INIT, out = BUF_INIT;
	size_t		 m = 0;

	if (first != SEARCH_NONE && first >= x->sumpos[doc] &&
	    p->summary != NULL) {
		buf_addstr(&text, p->summary);
		m = token_offset(text.data, text.len, first - x->sumpos[doc]);
	} else if (first != SEARCH_NONE) {
		post_plain(p, &text);
		m = token_offset(text.data ? text.data : "", text.len,
		    first - x->bodypos[doc]);
	} else if (p->summary != NULL && *p->summary != '\0') {
		buf_addstr(&text, p->summary);
	} else
		post_plain(p, &text);
	window(text.data ? text.data : "", text.len, m, &out);
	buf_free(&text);
	buf_addc(&out, '\0');
	return buf_release(&out);
}

int
search_run(const struct search_index *x, const char *q, size_t max,
    struct search_result *res)
{
	const struct archive	*a = x->a;
	struct search_query	 sq;
	struct qtok		*qt = NULL;
	struct qword		*qw = NULL;
	struct hit		*hits = NULL, h;
	unsigned char		*allow = NULL;
	size_t			 nqt = 0, nqw = 0, nhits = 0;
	size_t			 i, j, k, drv;
	uint32_t		 df;
	int			 r, miss = 0;

	memset(res, 0, sizeof(*res));
	if (search_parse(q, &sq) == -1) {
		search_query_free(&sq);
		return -1;
	}
	if (filter(a, &sq, &allow, res) == -1)
		goto done;

	for (i = 0; i < sq.nterms; i++) {
		if (sq.terms[i].kind != SEARCH_WORDS)
			continue;
		qw = xreallocarray(qw, nqw + 1, sizeof(*qw));
		qw[nqw].first = nqt;
		qw[nqw].n = sq.terms[i].nwords;
		df = UINT32_MAX;
		for (j = 0; j < sq.terms[i].nwords; j++) {
			qt = xreallocarray(qt, nqt + 1, sizeof(*qt));
			memset(&qt[nqt], 0, sizeof(*qt));
			qt[nqt].t = find_term(x, sq.terms[i].words[j]);
			if (qt[nqt].t == NULL)
				miss = 1;
			else {
				cur_init(&qt[nqt].c, x, qt[nqt].t);
				if (qt[nqt].t->df < df)
					df = qt[nqt].t->df;
			}
			nqt++;
		}
		/* A phrase is as rare as its rarest word, at most. */
		qw[nqw].idf = miss ? 0 : log(1 + ((double)x->ndocs - df + 0.5) /
		    (df + 0.5));
		nqw++;
	}
	if (miss)
		goto done;
	hits = xcalloc(x->ndocs + 1, sizeof(*hits));
	if (nqw == 0) {
		/* Only tag: and series: terms: every post they allow. */
		for (i = 0; i < x->ndocs; i++)
			if (allow == NULL || allow[i]) {
				memset(&hits[nhits], 0, sizeof(*hits));
				hits[nhits].doc = (uint32_t)i;
				hits[nhits++].first = SEARCH_NONE;
			}
		goto rank;
	}
	/* Drive by the rarest token; every other one must be there too. */
	for (i = 1, drv = 0; i < nqt; i++)
		if (qt[i].t->df < qt[drv].t->df)
			drv = i;
	while (cur_next(&qt[drv].c)) {
		h.doc = qt[drv].c.doc;
		if (allow != NULL && !allow[h.doc])
			continue;
		for (k = 0, r = 1; r == 1 && k < nqt; k++)
			if (k != drv)
				r = cur_seek(&qt[k].c, h.doc);
		if (r == -1)
			break;		/* a list ran out: no more matches */
		if (r == 0)
			continue;
		if (score_doc(x, qt, qw, nqw, &h))
			hits[nhits++] = h;
	}
rank:
	qsort(hits, nhits, sizeof(*hits), cmp_hit);
	res->total = nhits;
	res->nhits = nhits < max ? nhits : max;
	res->hits = xcalloc(res->nhits + 1, sizeof(*res->hits));
	for (i = 0; i < res->nhits; i++) {
		res->hits[i].post = a->posts[hits[i].doc];
		res->hits[i].meta = hits[i].meta;
		res->hits[i].score = hits[i].score;
		res->hits[i].snippet = snippet(x, a->posts[hits[i].doc],
		    hits[i].doc, hits[i].first);
	}
done:
	free(hits);
	for (i = 0; i < nqt; i++)
		free(qt[i].pv);
	free(qt);
	free(qw);
	free(allow);
	search_query_free(&sq);
	return 0;
}

void
search_result_free(struct search_result *res)
{
	size_t	 i;

	for (i = 0; i < res->nhits; i++)
		free(res->hits[i].snippet);
	free(res->hits);
	memset(res, 0, sizeof(*res));
}
