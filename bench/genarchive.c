/*
 * genarchive.c -- write a synthetic capsule archive for the benchmark
 * and the slow tests (tests/slow/slow_live.c).
 *
 *   genarchive -o DIR -n POSTS [-s SEED] [-m MEAN_BYTES] [-p]
 *
 * DIR gets index.md, pages/, series/ and posts/ with POSTS posts whose
 * front matter looks like a real blog's (dates in the three accepted
 * forms, tags as flow lists, block lists or strings, series with parts,
 * summaries) and whose Markdown mixes paragraphs with emphasis, code
 * spans, links (outside, and to other posts' .md files), headings,
 * nested lists, code fences, tables, quotes and footnotes.  Post sizes
 * follow a log-normal spread around MEAN_BYTES (default 6,000, so
 * 10,000 posts come to about 60 MB).  Two posts have fixed sizes for the
 * benchmark: posts/<date>-bench-4k.md (about 4 KB) and bench-20k (about
 * 20 KB); with -p (plain) only bench-4k is fixed, and every other post
 * follows the spread, as in one of many small capsules.  The same seed
 * writes the same bytes.
 *
 * Prints key=value lines for the driver: posts, md_bytes, post4k,
 * post20k, biggest_tag, biggest_tag_posts.  Knows nothing of capsuled.
 */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define NTAGS		120
#define NSERIES		40

static const char *words[] = {
	"the", "a", "of", "and", "to", "in", "is", "that", "it", "for",
	"on", "with", "as", "was", "at", "by", "this", "from", "but", "not",
	"or", "have", "an", "they", "which", "one", "you", "were", "all",
	"we", "when", "there", "can", "more", "if", "no", "so", "what",
	"up", "out", "about", "into", "than", "them", "some", "could",
	"time", "these", "two", "may", "then", "first", "any", "my", "now",
	"such", "like", "other", "how", "its", "our", "over", "only", "new",
	"also", "after", "back", "way", "even", "most", "where", "much",
	"server", "request", "client", "archive", "capsule", "gopher",
	"gemini", "protocol", "menu", "page", "post", "line", "text",
	"link", "file", "folder", "config", "certificate", "key", "socket",
	"thread", "buffer", "cache", "render", "parser", "token", "byte",
	"header", "status", "reader", "writer", "editor", "terminal",
	"keyboard", "laptop", "network", "router", "cable", "battery",
	"morning", "evening", "winter", "summer", "train", "bicycle",
	"garden", "kitchen", "coffee", "tea", "bread", "soup", "letter",
	"notebook", "pencil", "library", "station", "harbour", "river",
	"mountain", "village", "window", "door", "table", "chair", "lamp",
	"quiet", "small", "simple", "slow", "careful", "plain", "old",
	"honest", "patient", "useful", "odd", "brief", "steady", "bright",
	"cheap", "fragile", "robust", "tiny", "large", "warm", "cold",
	"write", "read", "serve", "build", "keep", "fix", "break", "test",
	"measure", "notice", "wonder", "remember", "forget", "choose",
	"carry", "follow", "explain", "improve", "repair", "wait", "walk",
	"usually", "rarely", "almost", "quite", "perhaps", "really",
	"still", "again", "already", "together", "instead", "anyway",
	"because", "although", "while", "until", "before", "since",
};
#define NWORDS	(sizeof(words) / sizeof(words[0]))

static const char *langs[] = { "c", "sh", "python", "go", "yaml", "lua" };
static const char *code_lines[] = {
	"for (i = 0; i < n; i++)",
	"\tif (buf[i] == '\\n')",
	"\t\tlines++;",
	"return lines;",
	"printf '%s\\n' \"$line\" | sort | uniq -c",
	"while read -r path; do wc -c \"$path\"; done",
	"def render(node, out):",
	"    out.write(node.text)",
	"if err != nil { return err }",
	"conn.SetDeadline(time.Now().Add(10 * time.Second))",
	"gemini_port: 1965",
	"local t = {} -- a table",
	"x = x * 2 + 1  # halve the misses",
	"make && ./capsuled --check",
};

static uint64_t rng_state;

static uint64_t
rnd(void)
{
	/* xorshift64*: small, fast, and the same everywhere. */
	rng_state ^= rng_state >> 12;
	rng_state ^= rng_state << 25;
	rng_state ^= rng_state >> 27;
	return rng_state * 0x2545F4914F6CDD1Dull;
}

static unsigned
rn(unsigned n)
{
	return (unsigned)(rnd() % n);
}

static double
unit(void)
{
	return (double)(rnd() >> 11) / 9007199254740992.0;
}

static double
gauss(void)
{
	double u = unit(), v = unit();

	if (u < 1e-12)
		u = 1e-12;
	return sqrt(-2 * log(u)) * cos(2 * M_PI * v);
}

/* --- a growable string ---------------------------------------------------- */

struct str {
	char	*p;
	size_t	 len, cap;
};

static void
sadd(struct str *s, const char *t, size_t n)
{
	if (s->len + n + 1 > s->cap) {
		s->cap = s->cap ? s->cap * 2 : 8192;
		while (s->len + n + 1 > s->cap)
			s->cap *= 2;
		if ((s->p = realloc(s->p, s->cap)) == NULL) {
			perror("genarchive");
			exit(1);
		}
	}
	memcpy(s->p + s->len, t, n);
	s->len += n;
	s->p[s->len] = '\0';
}

static void
sputs(struct str *s, const char *t)
{
	sadd(s, t, strlen(t));
}

static void
sprint(struct str *s, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static void
sprint(struct str *s, const char *fmt, ...)
{
	char	 tmp[1024];
	va_list	 ap;
	int	 n;

	va_start(ap, fmt);
	n = vsnprintf(tmp, sizeof(tmp), fmt, ap);
	va_end(ap);
	if (n > 0)
		sadd(s, tmp, (size_t)n < sizeof(tmp) ? (size_t)n :
		    sizeof(tmp) - 1);
}

/* --- the archive's cast --------------------------------------------------- */

struct post {
	char	 file[160];		/* "2019-03-04-slug-12.md" */
	char	 date[16];
	int	 series;		/* -1 = none */
	int	 part;
	int	 tags[4];
	int	 ntags;
};

static struct post	*posts;
static unsigned		 nposts;
static char		 tagname[NTAGS][32];
static unsigned		 tagcount[NTAGS];
static char		 seriesname[NSERIES][96];
static int		 seriesparts[NSERIES];
static unsigned		 nfootnotes;

static void
capital(struct str *s, const char *w)
{
	char	 c = w[0];

	if (c >= 'a' && c <= 'z')
		c = (char)(c - 32);
	sadd(s, &c, 1);
	sputs(s, w + 1);
}

static void
title_words(struct str *s, unsigned n)
{
	for (unsigned i = 0; i < n; i++) {
		if (i > 0)
			sputs(s, " ");
		capital(s, words[rn(NWORDS)]);
	}
}

/* One sentence with the inline mix; cur is the post being written. */
static void
sentence(struct str *s, unsigned cur)
{
	unsigned	 n = 6 + rn(13), i, r;
	const char	*w;

	for (i = 0; i < n; i++) {
		w = words[rn(NWORDS)];
		if (i > 0)
			sputs(s, " ");
		r = rn(1000);
		if (i == 0)
			capital(s, w);
		else if (r < 25)
			sprint(s, "*%s*", w);
		else if (r < 40)
			sprint(s, "**%s**", w);
		else if (r < 60)
			sprint(s, "`%s_%s()`", w, words[rn(NWORDS)]);
		else if (r < 75)
			sprint(s, "[%s %s](https://example.org/%s/%u)", w,
			    words[rn(NWORDS)], words[rn(NWORDS)], rn(10000));
		else if (r < 83 && cur > 0)
			sprint(s, "[%s](%s)", w, posts[rn(cur)].file);
		else if (r < 86)
			sprint(s, "gemini://example.org/%s/", w);
		else
			sputs(s, w);
	}
	if (rn(40) == 0)
		sprint(s, "[^%u]", ++nfootnotes);
	sputs(s, rn(12) == 0 ? "?" : ".");
}

static void
paragraph(struct str *s, unsigned cur)
{
	unsigned	 n = 2 + rn(6), col = 0;
	size_t		 at;

	for (unsigned i = 0; i < n; i++) {
		/* Hard-wrapped at ~76 columns, as editors leave it. */
		if (i > 0 && col > 76) {
			sputs(s, "\n");
			col = 0;
		} else if (i > 0)
			sputs(s, " ");
		at = s->len;
		sentence(s, cur);
		col += (unsigned)(s->len - at);
	}
	sputs(s, "\n\n");
}

static void
list(struct str *s, unsigned cur)
{
	unsigned	 n = 3 + rn(4);
	int		 ordered = rn(3) == 0;

	for (unsigned i = 0; i < n; i++) {
		if (ordered)
			sprint(s, "%u. ", i + 1);
		else
			sputs(s, "- ");
		sentence(s, cur);
		sputs(s, "\n");
		if (rn(5) == 0) {
			sputs(s, ordered ? "   - " : "  - ");
			sentence(s, cur);
			sputs(s, "\n");
		}
	}
	sputs(s, "\n");
}

static void
code(struct str *s)
{
	unsigned	 n = 4 + rn(12);

	sprint(s, "```%s\n", langs[rn(sizeof(langs) / sizeof(langs[0]))]);
	for (unsigned i = 0; i < n; i++) {
		sputs(s, code_lines[rn(sizeof(code_lines) /
		    sizeof(code_lines[0]))]);
		sputs(s, "\n");
	}
	sputs(s, "```\n\n");
}

static void
table(struct str *s)
{
	unsigned	 cols = 3 + rn(2), rows = 3 + rn(6), c, r;

	for (c = 0; c < cols; c++)
		sprint(s, "| %s ", words[rn(NWORDS)]);
	sputs(s, "|\n");
	for (c = 0; c < cols; c++)
		sputs(s, c == cols - 1 ? "| ---: " : "| --- ");
	sputs(s, "|\n");
	for (r = 0; r < rows; r++) {
		for (c = 0; c < cols; c++) {
			if (c == cols - 1)
				sprint(s, "| %u.%u ", rn(1000), rn(10));
			else
				sprint(s, "| %s %s ", words[rn(NWORDS)],
				    words[rn(NWORDS)]);
		}
		sputs(s, "|\n");
	}
	sputs(s, "\n");
}

static void
quote(struct str *s, unsigned cur)
{
	sputs(s, "> ");
	sentence(s, cur);
	sputs(s, "\n> ");
	sentence(s, cur);
	sputs(s, "\n\n");
}

static void
heading(struct str *s)
{
	sputs(s, rn(4) == 0 ? "### " : "## ");
	title_words(s, 2 + rn(4));
	sputs(s, "\n\n");
}

/* Body Markdown of about target bytes. */
static void
body(struct str *s, unsigned cur, size_t target)
{
	size_t		 start = s->len;
	unsigned	 blocks = 0, r, first_fn;

	first_fn = nfootnotes;
	paragraph(s, cur);
	while (s->len - start < target) {
		r = rn(100);
		if (blocks % 4 == 3 || r < 8)
			heading(s);
		else if (r < 62)
			paragraph(s, cur);
		else if (r < 74)
			list(s, cur);
		else if (r < 84)
			code(s);
		else if (r < 91)
			table(s);
		else
			quote(s, cur);
		blocks++;
	}
	for (unsigned f = first_fn + 1; f <= nfootnotes; f++) {
		sprint(s, "[^%u]: ", f);
		sentence(s, cur);
		sputs(s, "\n");
	}
	nfootnotes = 0;
}

static void
front_matter(struct str *s, const struct post *p, const char *title,
    unsigned i)
{
	unsigned	 form = rn(10), t;

	sputs(s, "---\n");
	sprint(s, "title: \"%s\"\n", title);
	if (form < 8)
		sprint(s, "date: %s\n", p->date);
	else if (form < 9)
		sprint(s, "date: %sT%02u:%02u:00+01:00\n", p->date, rn(24),
		    rn(60));
	else
		sprint(s, "date: \"%s %02u:%02u\"\n", p->date, rn(24), rn(60));
	form = rn(10);
	if (form < 6) {
		sputs(s, "tags: [");
		for (t = 0; t < (unsigned)p->ntags; t++)
			sprint(s, "%s%s", t ? ", " : "", tagname[p->tags[t]]);
		sputs(s, "]\n");
	} else if (form < 8) {
		sputs(s, "tags:\n");
		for (t = 0; t < (unsigned)p->ntags; t++)
			sprint(s, "  - %s\n", tagname[p->tags[t]]);
	} else {
		sputs(s, "tags: ");
		for (t = 0; t < (unsigned)p->ntags; t++)
			sprint(s, "%s%s", t ? ", " : "", tagname[p->tags[t]]);
		sputs(s, "\n");
	}
	if (p->series >= 0)
		sprint(s, "series: \"%s\"\npart: %d\n", seriesname[p->series],
		    p->part);
	sputs(s, "summary: \"");
	title_words(s, 1);
	for (t = 0; t < 8 + rn(10); t++)
		sprint(s, " %s", words[rn(NWORDS)]);
	sputs(s, ".\"\n");
	if (i % 97 == 0)
		sputs(s, "featured: true\n");
	sputs(s, "---\n");
}

static void
write_file(const char *dir, const char *name, const struct str *s)
{
	char	 path[4096];
	FILE	*f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	if ((f = fopen(path, "w")) == NULL ||
	    fwrite(s->p, 1, s->len, f) != s->len || fclose(f) != 0) {
		fprintf(stderr, "genarchive: %s: %s\n", path, strerror(errno));
		exit(1);
	}
}

static void
mkdir_or_die(const char *path)
{
	if (mkdir(path, 0755) == -1 && errno != EEXIST) {
		fprintf(stderr, "genarchive: %s: %s\n", path, strerror(errno));
		exit(1);
	}
}

static void
slugify(char *out, size_t len, const char *name)
{
	size_t	 j = 0;
	int	 sep = 0;

	for (const char *p = name; *p != '\0' && j + 2 < len; p++) {
		if ((*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9') ||
		    (*p >= 'A' && *p <= 'Z')) {
			if (sep && j > 0)
				out[j++] = '-';
			sep = 0;
			out[j++] = (char)(*p >= 'A' && *p <= 'Z' ? *p + 32 :
			    *p);
		} else
			sep = 1;
	}
	out[j] = '\0';
}

/* A tag by rank, Zipf-like: a few big tags and a long tail. */
static int
pick_tag(void)
{
	static double	 cdf[NTAGS];
	static int	 ready;
	double		 u, sum = 0;
	int		 i;

	if (!ready) {
		for (i = 0; i < NTAGS; i++)
			sum += 1.0 / (i + 1);
		for (i = 0; i < NTAGS; i++)
			cdf[i] = (i ? cdf[i - 1] : 0) + 1.0 / (i + 1) / sum;
		ready = 1;
	}
	u = unit();
	for (i = 0; i < NTAGS - 1; i++)
		if (u < cdf[i])
			return i;
	return NTAGS - 1;
}

/*
 * The 20 KB posts: bench-20k (the newest), bench-20k-2 to -7 just
 * before bench-4k, so the first-render figure can be a median of seven
 * (one first render is one sample, at the mercy of the machine).
 */
static int	 plain;		/* -p: no 20 KB posts */

static int
is_20k(unsigned i, unsigned n)
{
	return !plain && (i == n - 1 || (n >= 10 && i >= n - 8 &&
	    i <= n - 3));
}

int
main(int argc, char *argv[])
{
	const char	*dir = NULL;
	char		 path[4096], name[200], slug[128];
	struct str	 s = { 0 }, title = { 0 };
	unsigned long long md_bytes = 0;
	unsigned	 i, t, seed = 1965, mean = 6000, i4k, i20k;
	int		 ch, biggest = 0;

	while ((ch = getopt(argc, argv, "o:n:s:m:p")) != -1) {
		switch (ch) {
		case 'p': plain = 1; break;
		case 'o': dir = optarg; break;
		case 'n': nposts = (unsigned)strtoul(optarg, NULL, 10); break;
		case 's': seed = (unsigned)strtoul(optarg, NULL, 10); break;
		case 'm': mean = (unsigned)strtoul(optarg, NULL, 10); break;
		default:
			fprintf(stderr, "usage: genarchive -o DIR -n POSTS "
			    "[-s SEED] [-m MEAN_BYTES] [-p]\n");
			return 2;
		}
	}
	if (dir == NULL || nposts < 3 || nposts > 1000000 || mean < 500) {
		fprintf(stderr, "usage: genarchive -o DIR -n POSTS (>= 3) "
		    "[-s SEED] [-m MEAN_BYTES (>= 500)]\n");
		return 2;
	}
	rng_state = 0x9E3779B97F4A7C15ull ^ ((uint64_t)seed << 17) ^ seed;
	mkdir_or_die(dir);
	snprintf(path, sizeof(path), "%s/posts", dir);
	mkdir_or_die(path);
	snprintf(path, sizeof(path), "%s/series", dir);
	mkdir_or_die(path);
	snprintf(path, sizeof(path), "%s/pages", dir);
	mkdir_or_die(path);

	/* Names first, so that posts can link to earlier ones. */
	for (t = 0; t < NTAGS; t++)
		snprintf(tagname[t], sizeof(tagname[t]), "%s%s",
		    words[(t * 7 + 72) % NWORDS], t < 20 ? "" :
		    words[(t * 13 + 5) % NWORDS]);
	for (t = 0; t < NSERIES; t++) {
		title.len = 0;
		sputs(&title, "Notes on ");
		title_words(&title, 2);
		snprintf(seriesname[t], sizeof(seriesname[t]), "%s %u",
		    title.p, t + 1);
	}
	if ((posts = calloc(nposts, sizeof(*posts))) == NULL) {
		perror("genarchive");
		return 1;
	}
	/* Posts 2005..2025, oldest first; the two bench posts are newest. */
	i4k = nposts - 2;
	i20k = nposts - 1;	/* and six more 20 KB posts before i4k */
	for (i = 0; i < nposts; i++) {
		struct post	*p = &posts[i];
		unsigned	 d = (unsigned)((double)i / nposts * 7600.0);
		unsigned	 y = 2005 + d / 365, doy = d % 365;
		unsigned	 m = doy / 31 + 1, dd = doy % 31 + 1;

		if (m > 12)
			m = 12;
		if (dd > 28)
			dd = 28;
		snprintf(p->date, sizeof(p->date), "%04u-%02u-%02u", y, m, dd);
		if (i == i4k)
			snprintf(slug, sizeof(slug), "bench-4k");
		else if (i == i20k && !plain)
			snprintf(slug, sizeof(slug), "bench-20k");
		else if (is_20k(i, nposts))
			snprintf(slug, sizeof(slug), "bench-20k-%u",
			    nposts - 1 - i);
		else
			snprintf(slug, sizeof(slug), "%s-%s-%u",
			    words[rn(NWORDS)], words[72 + rn(NWORDS - 72)],
			    i);
		snprintf(p->file, sizeof(p->file), "%s-%s.md", p->date, slug);
		p->ntags = 1 + (int)rn(4);
		for (t = 0; t < (unsigned)p->ntags; t++) {
			int tg, dup;

			do {
				tg = pick_tag();
				dup = 0;
				for (unsigned k = 0; k < t; k++)
					dup |= p->tags[k] == tg;
			} while (dup);
			p->tags[t] = tg;
			tagcount[tg]++;
		}
		p->series = -1;
		if (rn(100) < 8 && i != i4k && !is_20k(i, nposts)) {
			p->series = (int)rn(NSERIES);
			p->part = ++seriesparts[p->series];
		}
	}
	for (t = 1; t < NTAGS; t++)
		if (tagcount[t] > tagcount[biggest])
			biggest = (int)t;

	for (i = 0; i < nposts; i++) {
		size_t	 target;
		double	 g = gauss();

		if (i == i4k)
			target = 3600;
		else if (is_20k(i, nposts))
			target = 19500;
		else {
			target = (size_t)((double)mean * exp(0.6 * g - 0.18));
			if (target < 600)
				target = 600;
			if (target > 60000)
				target = 60000;
			/* Front matter is ~300 bytes of the mean. */
			target = target > 900 ? target - 300 : target;
		}
		s.len = 0;
		title.len = 0;
		title_words(&title, 3 + rn(5));
		front_matter(&s, &posts[i], title.p, i);
		body(&s, i, target);
		snprintf(name, sizeof(name), "posts/%s", posts[i].file);
		write_file(dir, name, &s);
		md_bytes += s.len;
	}

	for (t = 0; t < NSERIES; t++) {
		if (seriesparts[t] == 0)
			continue;
		s.len = 0;
		sprint(&s, "---\ntitle: \"%s\"\nsummary: \"A series about ",
		    seriesname[t]);
		title_words(&s, 3);
		sputs(&s, ".\"\nlevel: beginner\n---\n");
		paragraph(&s, nposts);
		slugify(slug, sizeof(slug), seriesname[t]);
		snprintf(name, sizeof(name), "series/%s.md", slug);
		write_file(dir, name, &s);
		md_bytes += s.len;
	}

	s.len = 0;
	sputs(&s, "---\ntitle: \"A Synthetic Capsule\"\nsubtitle: \"Posts "
	    "written by a benchmark\"\nauthor: \"genarchive\"\nlang: en\n"
	    "---\n");
	paragraph(&s, nposts);
	write_file(dir, "index.md", &s);
	md_bytes += s.len;
	s.len = 0;
	sputs(&s, "---\ntitle: About\n---\n");
	paragraph(&s, nposts);
	list(&s, nposts);
	write_file(dir, "pages/about.md", &s);
	md_bytes += s.len;

	printf("posts=%u\nmd_bytes=%llu\npost4k=bench-4k\npost4k_file=%s\n"
	    "post20k=bench-20k\npost20k_file=%s\nbiggest_tag=%s\n"
	    "biggest_tag_posts=%u\n", nposts, md_bytes, posts[i4k].file,
	    posts[i20k].file, tagname[biggest], tagcount[biggest]);
	free(posts);
	free(s.p);
	free(title.p);
	return 0;
}
