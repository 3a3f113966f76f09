/*
 * e2e_titan.c -- Titan against the real server: uploads (with
 * and without a client certificate, unknown and authorised ones,
 * oversize, malformed, deletes, concurrent writers, kill -9 in the
 * middle of an upload), draft previews for each kind of client over
 * Gemini and Gopher, and search over both protocols.  Issue 18: a file
 * name held by another post is never written or trashed, replaced
 * bytes are kept in .trash/, and SIGKILL at random points of uploads
 * (20 rounds) leaves the old post or the new one, whole.
 *
 * Client certificates are made here with OpenSSL (as test_tlsconn.c
 * does); the authorised one's SHA-256 goes into "titan_writers".  New
 * posts go live through the watcher, so the checks that read them back
 * poll (bounded).
 */
#include <dirent.h>
#include <pthread.h>

#include <openssl/evp.h>
#include <openssl/x509.h>

#include "e2e.h"

static struct e2e_server srv;
static SSL_CTX	*anon, *writer, *stranger;
static char	 capsule[512];
static char	 host[64];		/* "localhost:PORT" */

static int
exists(const char *rel)
{
	char	 path[1024];

	snprintf(path, sizeof(path), "%s/%s", capsule, rel);
	return access(path, F_OK) == 0;
}

/* capsule/rel, whole (free it); NULL when it is not there. */
static char *
read_rel(const char *rel)
{
	char	 path[1024];

	snprintf(path, sizeof(path), "%s/%s", capsule, rel);
	return test_read(path, NULL);
}

/* The bytes of the first entry of capsule/sub starting with prefix. */
static char *
slurp_prefix(const char *sub, const char *prefix)
{
	char		 path[1024];
	DIR		*d;
	struct dirent	*e;
	char		*got = NULL;

	snprintf(path, sizeof(path), "%s/%s", capsule, sub);
	if ((d = opendir(path)) == NULL)
		return NULL;
	while (got == NULL && (e = readdir(d)) != NULL)
		if (strncmp(e->d_name, prefix, strlen(prefix)) == 0) {
			snprintf(path, sizeof(path), "%s/%s", sub, e->d_name);
			got = read_rel(path);
		}
	closedir(d);
	return got;
}

/* Entries of capsule/sub whose names start with prefix. */
static int
count_prefix(const char *sub, const char *prefix)
{
	char		 path[1024];
	DIR		*d;
	struct dirent	*e;
	int		 n = 0;

	snprintf(path, sizeof(path), "%s/%s", capsule, sub);
	if ((d = opendir(path)) == NULL)
		return 0;
	while ((e = readdir(d)) != NULL)
		if (strncmp(e->d_name, prefix, strlen(prefix)) == 0)
			n++;
	closedir(d);
	return n;
}

/* A Titan upload: the line for /posts/slug, then body. */
static int
upload_n(SSL_CTX *ctx, const char *slug, const char *params,
    const char *body, size_t len, struct reply *r)
{
	struct buf	 req = BUF_INIT;
	int		 rv;

	buf_printf(&req, "titan://%s/posts/%s;size=%zu%s\r\n", host, slug, len,
	    params);
	buf_add(&req, body, len);
	rv = e2e_gemini_raw(srv.gemini_port, req.data, req.len, r, ctx, NULL);
	buf_free(&req);
	return rv;
}

static int
upload(SSL_CTX *ctx, const char *slug, const char *params,
    const char *body, struct reply *r)
{
	return upload_n(ctx, slug, params, body, strlen(body), r);
}

/* GET until status want (the watcher publishes within ~100 ms). */
static int
poll_status(SSL_CTX *ctx, const char *path, int want, struct reply *r)
{
	uint64_t	 deadline = e2e_now_ms() + 8000;

	for (;;) {
		*r = e2e_gemini_get(srv.gemini_port, ctx, "%s", path);
		if (r->status == want || e2e_now_ms() > deadline)
			return r->status;
		reply_free(r);
		e2e_sleep_ms(50);
	}
}

#define POST_A	"---\ntitle: Fresh from Titan\ndate: 2025-03-04\n" \
		"tags: [titan]\n---\nUploaded with quokkaword inside.\n"

static void
test_auth(void)
{
	struct reply	 r;

	upload(anon, "fresh", ";mime=text/markdown", POST_A, &r);
	INT_EQ(r.status, 60, "no certificate: 60");
	OK(r.close_notify, "60 ends with close_notify");
	reply_free(&r);
	upload(stranger, "fresh", ";mime=text/markdown", POST_A, &r);
	INT_EQ(r.status, 61, "unknown certificate: 61");
	reply_free(&r);
	OK(!exists("posts/fresh.md"), "nothing written for them");
}

static void
test_upload(void)
{
	struct reply	 r;
	char		*got, want[256];

	upload(writer, "fresh", ";mime=text/markdown;token=ignored", POST_A,
	    &r);
	INT_EQ(r.status, 30, "writer: 30");
	snprintf(want, sizeof(want), "30 gemini://localhost:%d/posts/fresh",
	    srv.gemini_port);
	STR_EQ(r.header, want, "redirect to the post");
	reply_free(&r);
	got = read_rel("posts/fresh.md");
	STR_EQ(got, POST_A, "written byte for byte");
	free(got);
	INT_EQ(count_prefix("posts", ".titan-"), 0, "no temporary file");
	OK(poll_status(anon, "/posts/fresh", 20, &r) == 20,
	    "live through the watcher");
	HAS(r.body.data, "# Fresh from Titan", "the new post");
	reply_free(&r);
	OK(poll_status(anon, "/search?quokkaword", 20, &r) == 20,
	    "search after the upload");
	HAS(r.body.data, "=> /posts/fresh 2025-03-04 Fresh from Titan",
	    "the next snapshot's index has it");
	reply_free(&r);

	/* An existing post under a dated name keeps its name. */
	upload(writer, "hello", "", "---\ntitle: Hello Again\n---\nEdited.\n",
	    &r);
	INT_EQ(r.status, 30, "edit: 30 (no mime: fine)");
	reply_free(&r);
	got = read_rel("posts/2024-01-02-hello.md");
	STR_EQ(got, "---\ntitle: Hello Again\n---\nEdited.\n",
	    "edited in place");
	free(got);
	OK(!exists("posts/hello.md"), "no second file");
	got = slurp_prefix(".trash", "2024-01-02-hello.md.20");
	STR_EQ(got, "---\ntitle: Hello World\n---\nHi.\n",
	    "the replaced bytes are kept in .trash/");
	free(got);
}

/*
 * Issue 18: posts/foo2.md holds "slug: bar".  An upload to
 * /posts/foo2 must not replace bar's file, nor a delete of foo2 trash
 * it; bar's own upload goes to that file and keeps the old bytes.
 */
static void
test_taken(void)
{
	static const char bar[] = "---\ntitle: Bar\ndate: 2024-04-04\n"
	    "slug: bar\n---\nThe bar post.\n";
	static const char bar2[] = "---\ntitle: Bar Again\ndate: "
	    "2024-04-04\nslug: bar\n---\nThe bar post, edited.\n";
	struct reply	 r;
	char		*got;

	test_put(capsule, "posts/foo2.md", bar);
	OK(poll_status(anon, "/posts/bar", 20, &r) == 20, "bar is up");
	reply_free(&r);
	upload(writer, "foo2", ";mime=text/markdown", "---\ntitle: Foo Two\n"
	    "date: 2024-05-05\n---\nfoo two\n", &r);
	INT_EQ(r.status, 59, "foo2 into bar's file: 59");
	HAS(r.header, "slug \"bar\"", "says whose file it is");
	reply_free(&r);
	got = read_rel("posts/foo2.md");
	STR_EQ(got, bar, "bar's file untouched");
	free(got);
	upload(writer, "foo2", "", "", &r);
	INT_EQ(r.status, 51, "deleting foo2: no such post, 51");
	reply_free(&r);
	got = read_rel("posts/foo2.md");
	STR_EQ(got, bar, "bar's file still untouched");
	free(got);
	INT_EQ(count_prefix(".trash", "foo2.md."), 0, "nothing trashed");
	INT_EQ(count_prefix("posts", ".titan-"), 0, "no temporary file");
	r = e2e_gemini_get(srv.gemini_port, anon, "/posts/bar");
	INT_EQ(r.status, 20, "/posts/bar is still served");
	reply_free(&r);

	upload(writer, "bar", "", bar2, &r);
	INT_EQ(r.status, 30, "bar's own upload: 30");
	reply_free(&r);
	got = read_rel("posts/foo2.md");
	STR_EQ(got, bar2, "written into the file that holds bar");
	free(got);
	OK(!exists("posts/bar.md"), "no second file for bar");
	got = slurp_prefix(".trash", "foo2.md.20");
	STR_EQ(got, bar, "the old bar in .trash/");
	free(got);
	OK(e2e_gemini_wait(srv.gemini_port, anon, "/posts/bar", 20,
	    "Bar Again", 1, 8000) >= 0, "the new bar is live");
}

static void
test_bad_uploads(void)
{
	struct reply	 r;
	struct buf	 b = BUF_INIT;
	char		*before, *after, line[300];

	before = read_rel("posts/2024-02-03-second.md");
	/* Over titan_max_size (64 KiB): answered before any body. */
	snprintf(line, sizeof(line), "titan://%s/posts/second;size=70000;"
	    "mime=text/markdown\r\n", host);
	e2e_gemini_raw(srv.gemini_port, line, strlen(line), &r, writer, NULL);
	INT_EQ(r.status, 59, "oversize: 59");
	HAS(r.header, "too large", "says why");
	reply_free(&r);

	upload(writer, "second", "", "---\ntitle: [unclosed\n---\nx\n", &r);
	INT_EQ(r.status, 59, "bad front matter: 59");
	HAS(r.header, "front matter", "says front matter");
	reply_free(&r);
	upload(writer, "second", "", "---\ndate: 2024-02-03\n---\n\xff\xfe\n",
	    &r);
	INT_EQ(r.status, 59, "bad UTF-8: 59");
	reply_free(&r);
	upload(writer, "second", ";mime=image/png", "x", &r);
	INT_EQ(r.status, 59, "not Markdown: 59");
	reply_free(&r);
	upload(writer, "brand-new", "", "no front matter, no date\n", &r);
	INT_EQ(r.status, 59, "no date: 59");
	reply_free(&r);
	snprintf(line, sizeof(line), "titan://%s/posts/second;mime=text/plain"
	    "\r\nabc", host);
	e2e_gemini_raw(srv.gemini_port, line, strlen(line), &r, writer, NULL);
	INT_EQ(r.status, 59, "no size: 59");
	reply_free(&r);
	snprintf(line, sizeof(line), "titan://%s/pages/about;size=1\r\nx",
	    host);
	e2e_gemini_raw(srv.gemini_port, line, strlen(line), &r, writer, NULL);
	INT_EQ(r.status, 59, "only posts: 59");
	reply_free(&r);
	after = read_rel("posts/2024-02-03-second.md");
	STR_EQ(after, before, "the post is untouched");
	OK(!exists("posts/brand-new.md"), "nothing new");
	INT_EQ(count_prefix("posts", ".titan-"), 0, "no temporary file");
	free(before);
	free(after);
	buf_free(&b);
}

static void
test_delete(void)
{
	struct reply	 r;

	test_put(capsule, "posts/2024-06-01-doomed.md",
	    "---\ntitle: Doomed\n---\nbye\n");
	OK(poll_status(anon, "/posts/doomed", 20, &r) == 20, "doomed is up");
	reply_free(&r);
	upload(writer, "doomed", ";mime=text/markdown", "", &r);
	INT_EQ(r.status, 30, "size=0: 30");
	HAS(r.header, "/posts/", "back to the list");
	reply_free(&r);
	OK(!exists("posts/2024-06-01-doomed.md"), "out of posts/");
	INT_EQ(count_prefix(".trash", "2024-06-01-doomed.md."), 1,
	    "kept in .trash/");
	OK(poll_status(anon, "/posts/doomed", 51, &r) == 51, "then 51");
	reply_free(&r);
	r = e2e_gemini_get(srv.gemini_port, anon, "/files/../.trash/");
	OK(r.status != 20, "the trash is not served");
	reply_free(&r);
	upload(writer, "never-was", "", "", &r);
	INT_EQ(r.status, 51, "deleting nothing: 51");
	reply_free(&r);
}

/*
 * A bundle two folders below posts/ and a gemtext post: an upload to
 * their slugs replaces their own files (no duplicate posts/<slug>.md),
 * a post keeps its format, and a delete takes the post away: the
 * bundle's whole folder, images too, into .trash/.
 */
static void
test_bundles(void)
{
	static const char trip2[] = "---\ntitle: Trip Edited\ndate: "
	    "2024-03-02\n---\nThe trip, edited.\n";
	static const char gmi2[] = "---\ntitle: Gemtext Edited\ndate: "
	    "2024-01-07\n---\n# Gemtext Edited\n=> /posts/ back\n";
	struct reply	 r;
	char		*got;

	test_put(capsule, "posts/2024/trip/index.md", "---\ntitle: Trip\n"
	    "date: 2024-03-02\n---\nThe trip.\n");
	test_put(capsule, "posts/2024/trip/a.txt", "bundle file\n");
	test_put(capsule, "posts/a-post-kept-in-gemtext.gmi", "---\ntitle: "
	    "In Gemtext\ndate: 2024-01-07\n---\n# In Gemtext\nplain\n");
	OK(poll_status(anon, "/posts/trip", 20, &r) == 20, "trip is up");
	reply_free(&r);
	OK(poll_status(anon, "/posts/a-post-kept-in-gemtext", 20, &r) == 20,
	    "the gemtext post is up");
	reply_free(&r);

	upload(writer, "trip", ";mime=text/markdown", trip2, &r);
	INT_EQ(r.status, 30, "bundle upload: 30");
	reply_free(&r);
	got = read_rel("posts/2024/trip/index.md");
	STR_EQ(got, trip2, "the bundle's index.md replaced");
	free(got);
	OK(!exists("posts/trip.md"), "no duplicate posts/trip.md");
	INT_EQ(count_prefix("posts/2024/trip", ".titan-"), 0,
	    "no temporary file in the bundle");
	OK(e2e_gemini_wait(srv.gemini_port, anon, "/posts/trip", 20,
	    "Trip Edited", 1, 8000) >= 0, "the edited bundle is live");
	r = e2e_gemini_get(srv.gemini_port, anon, "/posts/trip-2024-03-02");
	INT_EQ(r.status, 51, "no duplicate post");
	reply_free(&r);

	upload(writer, "a-post-kept-in-gemtext", ";mime=text/markdown", gmi2,
	    &r);
	INT_EQ(r.status, 59, "Markdown into a gemtext post: 59");
	HAS(r.header, "mime=text/gemini", "says which mime");
	reply_free(&r);
	upload(writer, "a-post-kept-in-gemtext", ";mime=text/gemini", gmi2,
	    &r);
	INT_EQ(r.status, 30, "text/gemini into the gemtext post: 30");
	reply_free(&r);
	got = read_rel("posts/a-post-kept-in-gemtext.gmi");
	STR_EQ(got, gmi2, "the .gmi replaced");
	free(got);
	OK(!exists("posts/a-post-kept-in-gemtext.md"), "no .md beside it");
	OK(e2e_gemini_wait(srv.gemini_port, anon,
	    "/posts/a-post-kept-in-gemtext", 20, "Gemtext Edited", 1, 8000) >=
	    0, "the edited gemtext post is live");
	upload(writer, "a-post-kept-in-gemtext", "", "", &r);
	INT_EQ(r.status, 30, "deleting the gemtext post: 30");
	reply_free(&r);
	OK(!exists("posts/a-post-kept-in-gemtext.gmi"), "the .gmi is gone");
	OK(poll_status(anon, "/posts/a-post-kept-in-gemtext", 51, &r) == 51,
	    "then 51");
	reply_free(&r);

	upload(writer, "trip", "", "", &r);
	INT_EQ(r.status, 30, "deleting the bundle: 30");
	reply_free(&r);
	OK(!exists("posts/2024/trip"), "the bundle's folder is gone");
	INT_EQ(count_prefix(".trash", "2024_trip.20"), 1,
	    "kept whole in .trash/");
	OK(poll_status(anon, "/posts/trip", 51, &r) == 51, "then 51");
	reply_free(&r);
	r = e2e_gemini_get(srv.gemini_port, anon, "/posts/trip/a.txt");
	OK(r.status != 20, "its file is no longer served");
	reply_free(&r);
}

struct racer {
	char		 body[4096];
	int		 status;
};

static void *
race(void *arg)
{
	struct racer	*rc = arg;
	struct reply	 r;

	upload(writer, "contested", "", rc->body, &r);
	rc->status = r.status;
	reply_free(&r);
	return NULL;
}

static void
test_concurrent(void)
{
	struct racer	 rc[6];
	pthread_t	 th[6];
	char		*got;
	size_t		 len;
	int		 i, whole = 0;

	for (i = 0; i < 6; i++) {
		snprintf(rc[i].body, sizeof(rc[i].body), "---\ntitle: Racer "
		    "%d\ndate: 2024-07-0%d\n---\n", i, i + 1);
		len = strlen(rc[i].body);
		memset(rc[i].body + len, 'a' + i, 3000 - len);
		strcpy(rc[i].body + 3000, "\n");
		pthread_create(&th[i], NULL, race, &rc[i]);
	}
	for (i = 0; i < 6; i++)
		pthread_join(th[i], NULL);
	for (i = 0; i < 6; i++)
		INT_EQ(rc[i].status, 30, "each upload answered 30");
	got = read_rel("posts/contested.md");
	for (i = 0; got != NULL && i < 6; i++)
		if (strcmp(got, rc[i].body) == 0)
			whole = 1;
	OK(whole, "the post is one upload, whole");
	free(got);
	INT_EQ(count_prefix("posts", ".titan-"), 0, "no temporary file");
}

static void
test_drafts(void)
{
	struct reply	 r;
	struct buf	 g;

	r = e2e_gemini_get(srv.gemini_port, anon, "/drafts/");
	INT_EQ(r.status, 51, "no certificate: drafts 51");
	reply_free(&r);
	r = e2e_gemini_get(srv.gemini_port, anon, "/drafts/secret-draft");
	INT_EQ(r.status, 51, "no certificate: a draft 51");
	reply_free(&r);
	r = e2e_gemini_get(srv.gemini_port, stranger, "/drafts/");
	INT_EQ(r.status, 51, "unknown certificate: 51");
	reply_free(&r);
	r = e2e_gemini_get(srv.gemini_port, stranger, "/drafts/secret-draft");
	INT_EQ(r.status, 51, "unknown certificate: a draft 51");
	reply_free(&r);
	r = e2e_gemini_get(srv.gemini_port, writer, "/drafts/");
	INT_EQ(r.status, 20, "writer: the list");
	HAS(r.body.data, "=> /drafts/secret-draft", "lists the draft");
	HAS(r.body.data, "Secret Draft", "by title");
	reply_free(&r);
	r = e2e_gemini_get(srv.gemini_port, writer, "/drafts/secret-draft");
	INT_EQ(r.status, 20, "writer: the draft");
	HAS(r.body.data, "not for readers", "its body");
	reply_free(&r);
	r = e2e_gemini_get(srv.gemini_port, writer, "/drafts");
	INT_EQ(r.status, 31, "writer: /drafts -> /drafts/");
	reply_free(&r);
	r = e2e_gemini_get(srv.gemini_port, writer, "/drafts/nope");
	INT_EQ(r.status, 51, "writer: no such draft");
	reply_free(&r);
	r = e2e_gemini_get(srv.gemini_port, writer, "/posts/secret-draft");
	INT_EQ(r.status, 51, "a draft is no post, even for a writer");
	reply_free(&r);

	/* Nowhere else. */
	r = e2e_gemini_get(srv.gemini_port, writer, "/posts/");
	OK(r.status == 20 && strstr(r.body.data, "Secret") == NULL,
	    "not in /posts/");
	reply_free(&r);
	r = e2e_gemini_get(srv.gemini_port, anon, "/gemlog/");
	OK(r.status == 20 && strstr(r.body.data, "Secret") == NULL,
	    "not in the gemlog");
	reply_free(&r);
	r = e2e_gemini_get(srv.gemini_port, anon, "/atom.xml");
	OK(r.status == 20 && strstr(r.body.data, "Secret") == NULL,
	    "not in Atom");
	reply_free(&r);
	r = e2e_gemini_get(srv.gemini_port, anon, "/search?readers");
	OK(r.status == 20 && strstr(r.body.data, "Secret") == NULL,
	    "not in search");
	reply_free(&r);

	/* Gopher: never. */
	e2e_gopher_get(srv.gopher_port, &g, "/drafts/");
	OK(g.len > 0 && g.data[0] == '3', "gopher: drafts are an error");
	OK(g.data == NULL || strstr(g.data, "Secret") == NULL,
	    "gopher: not listed");
	buf_free(&g);
	e2e_gopher_get(srv.gopher_port, &g, "/drafts/secret-draft");
	OK(g.len > 0 && g.data[0] == '3' && strstr(g.data, "not for readers")
	    == NULL, "gopher: a draft is an error");
	buf_free(&g);
	e2e_gopher_get(srv.gopher_port, &g, "/");
	OK(g.data != NULL && strstr(g.data, "Secret") == NULL,
	    "gopher: not on the home menu");
	buf_free(&g);
	e2e_gopher_get(srv.gopher_port, &g, "/posts/");
	OK(g.data != NULL && strstr(g.data, "Secret") == NULL,
	    "gopher: not in the archive menu");
	buf_free(&g);

	/* Uploading a draft: 30 to its preview. */
	upload(writer, "wip", "", "---\ntitle: Work in progress\ndraft: true\n"
	    "---\nhalf an idea\n", &r);
	INT_EQ(r.status, 30, "draft upload: 30");
	HAS(r.header, "/drafts/wip", "to the preview");
	reply_free(&r);
	OK(poll_status(writer, "/drafts/wip", 20, &r) == 20,
	    "the new draft previews");
	reply_free(&r);
	r = e2e_gemini_get(srv.gemini_port, anon, "/posts/wip");
	INT_EQ(r.status, 51, "and is no post");
	reply_free(&r);
}

static void
test_search(void)
{
	struct reply	 r;
	struct buf	 g;
	char		 want[200];

	r = e2e_gemini_get(srv.gemini_port, anon, "/search");
	INT_EQ(r.status, 10, "/search asks");
	HAS(r.header, "Search", "with a prompt");
	reply_free(&r);
	r = e2e_gemini_get(srv.gemini_port, anon, "/search?");
	INT_EQ(r.status, 10, "an empty query asks again");
	reply_free(&r);
	r = e2e_gemini_get(srv.gemini_port, anon, "%s",
	    "/search?second%20post");
	INT_EQ(r.status, 20, "results");
	HAS(r.body.data, "=> /posts/second 2024-02-03 Second Post",
	    "title match listed with its date");
	HAS(r.body.data, "Results for: second post", "query decoded");
	reply_free(&r);
	r = e2e_gemini_get(srv.gemini_port, anon, "%s", "/search?%ff");
	INT_EQ(r.status, 59, "a query that is not UTF-8: 59");
	reply_free(&r);
	r = e2e_gemini_get(srv.gemini_port, anon, "/");
	HAS(r.body.data, "=> /search Search\n", "home links to search");
	reply_free(&r);

	e2e_gopher_get(srv.gopher_port, &g, "/");
	snprintf(want, sizeof(want), "7Search\t/search\tlocalhost\t%d\r\n",
	    srv.gopher_port);
	HAS(g.data, want, "gopher home: a type-7 item");
	buf_free(&g);
	e2e_gopher_get(srv.gopher_port, &g, "/search\tsecond post");
	snprintf(want, sizeof(want), "12024-02-03 Second Post\t/posts/second/\t"
	    "localhost\t%d\r\n", srv.gopher_port);
	HAS(g.data, want, "gopher search: the same results as a menu");
	OK(g.len >= 3 && strcmp(g.data + g.len - 3, ".\r\n") == 0,
	    "a whole menu");
	buf_free(&g);
	e2e_gopher_get(srv.gopher_port, &g, "/search");
	OK(g.data != NULL && strstr(g.data, "7Search the archive\t/search\t")
	    != NULL, "gopher /search alone: a search item");
	buf_free(&g);
}

/*
 * kill -9 while an upload is half sent: the old post is whole, and no
 * temporary file is there to be taken for a post.
 */
static void
test_crash(void)
{
	struct buf	 req = BUF_INIT;
	char		*before, *after;
	SSL		*ssl;
	int		 fd, status;
	size_t		 half;

	before = read_rel("posts/2024-02-03-second.md");
	buf_printf(&req, "titan://%s/posts/second;size=%d\r\n", host, 40000);
	buf_addstr(&req, "---\ntitle: Half\ndate: 2024-02-03\n---\n");
	while (req.len < 20000)
		buf_addstr(&req, "half of a post that never arrives whole\n");
	half = req.len;
	fd = e2e_connect(srv.gemini_port, 5000);
	ssl = SSL_new(writer);
	SSL_set_fd(ssl, fd);
	OK(fd != -1 && SSL_connect(ssl) == 1, "crash: connected");
	OK(SSL_write(ssl, req.data, (int)half) == (int)half, "half sent");
	e2e_sleep_ms(300);
	kill(srv.pid, SIGKILL);
	waitpid(srv.pid, &status, 0);
	srv.pid = -1;
	SSL_free(ssl);
	close(fd);
	after = read_rel("posts/2024-02-03-second.md");
	STR_EQ(after, before, "the old post is intact");
	INT_EQ(count_prefix("posts", ".titan-"), 0, "no temporary file");
	free(before);
	free(after);
	buf_free(&req);
}

/* A line for the log of the run (run.sh shows "e2e: " lines). */
static void
note(const char *fmt, ...)
{
	va_list	 ap;

	fputs("e2e: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

/* The posts' versions in test_kill(): each one's last line says it. */
static void
victim(struct buf *b, int version)
{
	int	 i;

	buf_truncate(b, 0);
	buf_printf(b, "---\ntitle: Victim\ndate: 2024-08-08\n---\n");
	for (i = 0; i < 3000; i++)
		buf_printf(b, "Version %d, line %d of the victim.\n", version,
		    i);
	buf_printf(b, "End of version %d.\n", version);
}

struct killed {
	struct e2e_server	*s;
	const char		*body;
	size_t			 len;
	int			 status;
};

static void *
upload_killed(void *arg)
{
	struct killed	*k = arg;
	struct buf	 req = BUF_INIT;
	struct reply	 r;

	buf_printf(&req, "titan://localhost:%d/posts/victim;size=%zu\r\n",
	    k->s->gemini_port, k->len);
	buf_add(&req, k->body, k->len);
	e2e_gemini_raw(k->s->gemini_port, req.data, req.len, &r, writer, NULL);
	k->status = r.status;
	reply_free(&r);
	buf_free(&req);
	return NULL;
}

/*
 * Issue 18: SIGKILL at random points of an upload, 20 times.  Each
 * time the file holds the old version or the new one, whole, and a new
 * one has the old one's bytes in .trash/; the restarted server serves
 * the post whole.  The first upload runs to its end to time one, and
 * the kills fall anywhere from before the body to after the answer.
 */
static void
test_kill(const char *writers)
{
	static const char	 rel[] = "posts/2024-08-08-victim.md";
	struct e2e_server	 s;
	struct killed		 k;
	struct buf		 old = BUF_INIT, new = BUF_INIT;
	struct reply		 r;
	pthread_t		 th;
	char			*got, extra[512], want[64], cmd[600];
	uint64_t		 t0, span = 0;
	unsigned		 seed = (unsigned)time(NULL);
	int			 i, version = 0, nold = 0, nnew = 0, ntrash,
	    bad = 0;
	int			 status;

	snprintf(extra, sizeof(extra), "%stitan_max_size: 1M\n", writers);
	victim(&old, 0);
	test_put(capsule, rel, old.data);
	note("kill test seed %u", seed);
	for (i = 0; i <= 20; i++) {
		if (e2e_start(&s, capsule, extra) == -1) {
			OK(0, "kill: server %d did not start", i);
			break;
		}
		/* What is on disk is what is served, whole. */
		snprintf(want, sizeof(want), "End of version %d.", version);
		snprintf(cmd, sizeof(cmd), "gemini://localhost:%d/posts/victim"
		    "\r\n", s.gemini_port);
		e2e_gemini_raw(s.gemini_port, cmd, strlen(cmd), &r, anon, NULL);
		if (r.status != 20 || strstr(r.body.data, want) == NULL)
			bad++, note("kill %d: served %d, not version %d", i,
			    r.status, version);
		reply_free(&r);

		victim(&new, i + 1);
		ntrash = count_prefix(".trash", "2024-08-08-victim.md.");
		k.s = &s;
		k.body = new.data;
		k.len = new.len;
		k.status = -1;
		t0 = e2e_now_ms();
		pthread_create(&th, NULL, upload_killed, &k);
		if (i == 0) {
			pthread_join(th, NULL);
			span = e2e_now_ms() - t0;
			INT_EQ(k.status, 30, "kill: a whole upload first");
			note("kill: one upload takes %llu ms",
			    (unsigned long long)span);
		} else
			e2e_sleep_ms((unsigned)(rand_r(&seed) %
			    (span * 3 / 2 + 2)));
		kill(s.pid, SIGKILL);
		waitpid(s.pid, &status, 0);
		if (i > 0)
			pthread_join(th, NULL);
		snprintf(cmd, sizeof(cmd), "rm -rf '%s'", s.dir);
		(void)!system(cmd);

		got = read_rel(rel);
		if (got != NULL && strcmp(got, new.data) == 0) {
			nnew++;
			version = i + 1;
			if (count_prefix(".trash", "2024-08-08-victim.md.") !=
			    ntrash + 1)
				bad++, note("kill %d: old bytes not in .trash/",
				    i);
			buf_truncate(&old, 0);
			buf_add(&old, new.data, new.len);
		} else if (got != NULL && strcmp(got, old.data) == 0) {
			nold++;
			if (k.status == 30)
				bad++, note("kill %d: answered 30, not "
				    "written", i);
		} else
			bad++, note("kill %d: neither version, whole", i);
		free(got);
	}
	INT_EQ(bad, 0, "kill: every time the old post or the new, whole");
	note("kill: %d old, %d new; %d temporary files left", nold, nnew,
	    count_prefix("posts", ".titan-"));
	buf_free(&old);
	buf_free(&new);
}

static void
test_disabled(const char *top)
{
	struct e2e_server	 s2, save = srv;
	struct reply		 r;
	char			 line[300];

	if (e2e_start(&s2, capsule, "") == -1) {
		OK(0, "second server did not start");
		return;
	}
	srv = s2;
	snprintf(line, sizeof(line), "titan://localhost:%d/posts/x;size=1\r\nx",
	    s2.gemini_port);
	e2e_gemini_raw(s2.gemini_port, line, strlen(line), &r, writer, NULL);
	INT_EQ(r.status, 53, "no titan_writers: Titan is off (53)");
	reply_free(&r);
	snprintf(line, sizeof(line), "gemini://localhost:%d/drafts/\r\n",
	    s2.gemini_port);
	e2e_gemini_raw(s2.gemini_port, line, strlen(line), &r, writer, NULL);
	INT_EQ(r.status, 51, "no titan_writers: no drafts for anyone");
	reply_free(&r);
	INT_EQ(e2e_stop(&s2), 0, "second server exits 0");
	srv = save;
	(void)top;
}

static const struct harness_test tests[] = {
	NAMED("auth"),
	NAMED("upload"),
	NAMED("taken"),
	NAMED("bad_uploads"),
	NAMED("delete"),
	NAMED("bundles"),
	NAMED("concurrent"),
	NAMED("drafts"),
	NAMED("search"),
	NAMED("disabled"),
	NAMED("crash"),
	NAMED("kill"),
};

int
main(int argc, char **argv)
{
	char	 top[] = "/tmp/capsuled-e2e-titan.XXXXXX";
	char	 hex[65], other[65], extra[400], cmd[600];

	HARNESS_INIT(argc, argv, tests);

	signal(SIGPIPE, SIG_IGN);
	if (mkdtemp(top) == NULL)
		return 1;
	snprintf(capsule, sizeof(capsule), "%s/capsule", top);
	mkdir(capsule, 0755);
	test_put(capsule, "index.md", "---\ntitle: Titan Test\n---\nHi.\n");
	test_put(capsule, "posts/2024-01-02-hello.md",
	    "---\ntitle: Hello World\n---\nHi.\n");
	test_put(capsule, "posts/2024-02-03-second.md",
	    "---\ntitle: Second Post\n---\n"
	    "The second post.\n");
	test_put(capsule, "posts/2023-05-06-secret-draft.md",
	    "---\ntitle: Secret Draft\n"
	    "draft: true\n---\nnot for readers\n");
	test_put(capsule, "pages/about.md", "---\ntitle: About\n---\nAbout.\n");

	anon = e2e_client_ctx(0);
	writer = e2e_cert_ctx("writer", hex);
	stranger = e2e_cert_ctx("stranger", other);
	snprintf(extra, sizeof(extra), "titan_writers: [\"%s\"]\n"
	    "titan_max_size: 64K\nwatch_debounce: 50ms\n", hex);
	if (e2e_start(&srv, capsule, extra) == -1) {
		OK(0, "server did not start");
		return harness_done();
	}
	snprintf(host, sizeof(host), "localhost:%d", srv.gemini_port);
	RUN("auth", test_auth());
	RUN("upload", test_upload());
	RUN("taken", test_taken());
	RUN("bad_uploads", test_bad_uploads());
	RUN("delete", test_delete());
	RUN("bundles", test_bundles());
	RUN("concurrent", test_concurrent());
	RUN("drafts", test_drafts());
	RUN("search", test_search());
	RUN("disabled", test_disabled(top));
	RUN("crash", test_crash());
	snprintf(extra, sizeof(extra), "titan_writers: [\"%s\"]\n", hex);
	RUN("kill", test_kill(extra));
	if (srv.pid > 0)
		e2e_stop(&srv);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s' '%s'", srv.dir, top);
	(void)!system(cmd);
	SSL_CTX_free(anon);
	SSL_CTX_free(writer);
	SSL_CTX_free(stranger);
	return harness_done();
}
