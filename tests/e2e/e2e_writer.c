/*
 * e2e_writer.c -- the writer's loop: `capsuled serve DIR` on a bare
 * folder, crawled on both protocols and edited live, and a writer's
 * capsule with every kind of problem, each named once where the writer
 * looks: --check, --render and the live log.
 *
 * The writer's capsule: a post whose front matter does not parse (skipped),
 * one with three values of the wrong shape and a link to nothing, a
 * draft, a file and a folder of posts/ that are no posts, a series file
 * that names no series of the posts, a page and a post whose body
 * starts with their title as a heading.
 */
#include "e2e.h"

static char	 tmp[64];
static char	 cap[128];
static char	 conf[128];
static const char *bin;

/*
 * Run capsuled with args (a shell word list): *out its stdout, *err its
 * stderr (free both); its exit status.
 */
static int
run(char **out, char **err, const char *fmt, ...)
{
	char	 args[1024], cmd[2400];
	va_list	 ap;
	int	 rv;

	va_start(ap, fmt);
	vsnprintf(args, sizeof(args), fmt, ap);
	va_end(ap);
	snprintf(cmd, sizeof(cmd), "'%s' %s >'%s/out' 2>'%s/err' </dev/null",
	    bin, args, tmp, tmp);
	rv = system(cmd);
	snprintf(cmd, sizeof(cmd), "%s/out", tmp);
	*out = test_read(cmd, "");
	snprintf(cmd, sizeof(cmd), "%s/err", tmp);
	*err = test_read(cmd, "");
	return WIFEXITED(rv) ? WEXITSTATUS(rv) : -1;
}

static void
make_capsule(void)
{
	snprintf(cap, sizeof(cap), "%s/cap", tmp);
	snprintf(conf, sizeof(conf), "%s/c.yaml", tmp);
	test_put(cap, "index.md", "---\ntitle: Bench Notes\n---\nHello.\n");
	test_put(cap, "posts/2025-03-10-broken.md",
	    "---\ntitle: \"Broken\ndate: 2025-03-10\n---\nBody\n");
	test_put(cap, "posts/2025-03-11-messy.md",
	    "---\ntitle: Messy\ndate: 2025-03-11\npart: two\nlang: en_GB\n"
	    "draft: maybe\n---\nSee [gone](/posts/never-written).\n");
	test_put(cap, "posts/2025-04-01-wip.md",
	    "---\ntitle: Work in progress\ndraft: true\ndate: 2025-04-01\n"
	    "---\nWIP\n");
	test_put(cap, "posts/2025-01-01-flatten.md",
	    "---\ntitle: Flatten the Back\nseries: Sharpening, From Scratch\n"
	    "part: 1\ndate: 2025-01-01\n---\n# Flatten the back\n\n"
	    "Text one.\n");
	test_put(cap, "posts/2025-01-08-hone.md",
	    "---\ntitle: Hone the Edge \xe2\x80\x94 \xc3\xa0 la main\n"
	    "series: Sharpening, From Scratch\npart: 2\ndate: 2025-01-08\n"
	    "---\nText two.\n");
	test_put(cap, "series/sharpening.md",
	    "---\ntitle: Sharpening\n---\nA series on sharpening.\n");
	test_put(cap, "series/blades.md",
	    "---\ntitle: Blade Care\n---\nMatched by its title.\n");
	test_put(cap, "posts/2025-02-01-strop.md",
	    "---\ntitle: Strop\nseries: Blade Care\ndate: 2025-02-01\n---\n"
	    "Leather.\n");
	test_put(cap, "pages/about.md",
	    "---\ntitle: About &amp; Me\n---\n# About & me\n\nMe.\n");
	test_put(cap, "posts/notes.txt", "notes\n");
	test_put(cap, "posts/empty-folder/readme.txt", "x\n");
	test_write(conf, "hostname: localhost\ncapsule: %s\ncerts: %s/certs\n",
	    cap, tmp);
}

/* A formatted string that lives until the next call but three. */
static const char *
xbuf(const char *fmt, ...)
{
	static char	 ring[4][512];
	static int	 k;
	va_list		 ap;

	k = (k + 1) % 4;
	va_start(ap, fmt);
	vsnprintf(ring[k], sizeof(ring[k]), fmt, ap);
	va_end(ap);
	return ring[k];
}

/* Does text hold line, a whole line? */
static int
has_line(const char *text, const char *line)
{
	size_t		 n = strlen(line);
	const char	*p;

	for (p = text; (p = strstr(p, line)) != NULL; p++)
		if ((p == text || p[-1] == '\n') &&
		    (p[n] == '\n' || p[n] == '\0'))
			return 1;
	return 0;
}

#define LINE(text, line, what)						\
	OK(has_line((text), (line)), "%s: no line \"%s\" in:\n%s", (what),\
	    (line), (text))

/* How many lines of text hold needle. */
static int
count(const char *text, const char *needle)
{
	const char	*p;
	int		 n = 0;

	for (p = text; (p = strstr(p, needle)) != NULL; p++)
		n++;
	return n;
}

/*
 * --check: each problem under its heading, once, with the totals; the
 * load's warnings are not logged to stderr as well.
 */
static void
test_check(void)
{
	char	*out, *err;
	int	 rv;

	rv = run(&out, &err, "-c '%s' --check", conf);
	INT_EQ(rv, 0, "--check exits 0: warnings do not fail a capsule "
	    "that loads");
	LINE(out, "skipped:  1", "the skipped count");
	LINE(out, "          posts/2025-03-10-broken.md:2:8: a quoted scalar "
	    "opened here is never closed; file skipped, not served",
	    "the skipped file, and why");
	LINE(out, "drafts:   1", "the drafts count");
	LINE(out, "          posts/2025-04-01-wip.md  Work in progress",
	    "the draft");
	LINE(out, "ignored:  2", "the ignored count");
	LINE(out, "          posts/empty-folder: a folder without a post or "
	    "an index file: no post", "an ignored folder, and why");
	LINE(out, "          posts/notes.txt: not Markdown, HTML or gemtext: "
	    "no post", "an ignored file, and why");
	LINE(out, "          posts/2025-03-11-messy.md:4:7: part: expected a "
	    "whole number; ignored", "the first bad value");
	LINE(out, "          posts/2025-03-11-messy.md:5:7: lang: 'en_GB' is "
	    "not a language tag like en or pt-BR; ignored", "the second");
	LINE(out, "          posts/2025-03-11-messy.md:6:8: draft: expected "
	    "true or false; ignored", "the third");
	HAS(out, "posts/2025-03-11-messy.md:8:12: link to /posts/never-written "
	    "names nothing", "the link to nothing");
	INT_EQ(count(out, "messy.md"), 4, "each of messy.md's problems once");
	LINE(out, "          series/sharpening.md:1:1: no post names this "
	    "series by its file name (sharpening) or its title (Sharpening); "
	    "the nearest series of the posts is \"Sharpening, From Scratch\"",
	    "the series file no post names, and the nearest");
	LINE(out, "          /series/blades/  Blade Care, 1 part",
	    "a series file matched by its title");
	LINE(out, "warnings: 5", "the warnings count");
	INT_EQ(count(err, "warn:"), 0, "no warning logged on stderr too");
	free(out);
	free(err);
	rv = run(&out, &err, "-c '%s' --check --strict", conf);
	INT_EQ(rv, 1, "--check --strict exits 1: there are warnings");
	LINE(out, "warnings: 5", "--strict: the same list");
	free(out);
	free(err);

	/* No capsule: an error, as the server says it. */
	test_write(conf, "capsule: %s/nonexistent\ncerts: %s/certs\n", tmp,
	    tmp);
	rv = run(&out, &err, "-c '%s' --check", conf);
	INT_EQ(rv, 1, "no capsule: --check exits 1");
	HAS(err, "error: the capsule ", "no capsule: an error");
	OK(strstr(err, "warn:") == NULL, "no capsule: not a warning");
	free(out);
	free(err);
	make_capsule();
}

/* --render FILE: what --check says of that file. */
static void
test_render(void)
{
	char	*out, *err, want[512];
	int	 rv;

	rv = run(&out, &err, "--render '%s/posts/2025-03-11-messy.md'", cap);
	INT_EQ(rv, 0, "--render exits 0");
	snprintf(want, sizeof(want), "%s/posts/2025-03-11-messy.md:4:7: part: "
	    "expected a whole number; ignored", cap);
	LINE(err, want, "--render: part");
	snprintf(want, sizeof(want), "%s/posts/2025-03-11-messy.md:6:8: draft: "
	    "expected true or false; ignored", cap);
	LINE(err, want, "--render: draft");
	HAS(err, "lang: 'en_GB'", "--render: lang");
	HAS(err, "link to /posts/never-written names nothing",
	    "--render: the link to nothing");
	INT_EQ(count(err, "\n"), 4, "--render: four lines, as --check");
	free(out);
	free(err);
	rv = run(&out, &err, "--render '%s/posts/2025-03-10-broken.md'", cap);
	INT_EQ(rv, 1, "--render of a broken file exits 1");
	HAS(err, "never closed; the server skips this file",
	    "--render: the skip said");
	free(out);
	free(err);
}

/* How many times text holds needle, in any case. */
static int
icount(const char *text, const char *needle)
{
	const char	*p;
	int		 n = 0;

	for (p = text; *p != '\0'; p++)
		n += strncasecmp(p, needle, strlen(needle)) == 0;
	return n;
}

/*
 * A page and a post whose bodies open with their title as a heading
 * (entities, case aside) show it once, on both protocols.
 */
static void
headings(const struct e2e_server *s)
{
	static const struct {
		const char	*gemini, *gopher, *title;
	} c[] = {
		{ "/about", "/about", "About & Me" },
		{ "/posts/flatten", "/posts/flatten", "Flatten the Back" },
	};
	SSL_CTX		*ctx = e2e_client_ctx(0);
	struct reply	 r;
	struct buf	 b;
	size_t		 i;

	for (i = 0; i < nitems(c); i++) {
		r = e2e_gemini_get(s->gemini_port, ctx, "%s", c[i].gemini);
		INT_EQ(r.status, 20, c[i].gemini);
		OK(icount(r.body.data ? r.body.data : "", c[i].title) == 1,
		    "gemini %s: \"%s\" once in:\n%s", c[i].gemini,
		    c[i].title, r.body.data ? r.body.data : "");
		reply_free(&r);
		if (e2e_gopher_get(s->gopher_port, &b, "%s", c[i].gopher) ==
		    -1 || b.data == NULL) {
			OK(0, "gopher %s", c[i].gopher);
			continue;
		}
		OK(icount(b.data, c[i].title) == 1, "gopher %s: \"%s\" once "
		    "in:\n%s", c[i].gopher, c[i].title, b.data);
		buf_free(&b);
	}
	SSL_CTX_free(ctx);
}

/*
 * The server's own words in ASCII on Gopher (gopher_charset is utf-8
 * here), typographic on Gemini; the writer's title as written on both.
 */
static void
typography(const struct e2e_server *s)
{
	SSL_CTX		*ctx = e2e_client_ctx(0);
	struct reply	 r;
	struct buf	 b;
	const char	*next;

	next = "Part 2: Hone the Edge \xe2\x80\x94 \xc3\xa0 la main";

	if (e2e_gopher_get(s->gopher_port, &b, "/posts/flatten") == 0 &&
	    b.data != NULL) {
		HAS(b.data, "2025-01-01 - 1 min read", "gopher text: \" - \"");
		HAS(b.data, xbuf("\n%s ->:", next), "gopher text: \"->\", the "
		    "title as written");
	} else
		OK(0, "gopher /posts/flatten");
	buf_free(&b);
	if (e2e_gopher_get(s->gopher_port, &b, "/posts/hone/") == 0 &&
	    b.data != NULL)
		HAS(b.data, "\r\n1<- Part 1: Flatten the Back\t", "gopher "
		    "menu: \"<-\"");
	else
		OK(0, "gopher /posts/hone/");
	buf_free(&b);
	r = e2e_gemini_get(s->gemini_port, ctx, "/posts/flatten");
	HAS(r.body.data ? r.body.data : "", "2025-01-01 \xc2\xb7 1 min read",
	    "gemini: \" \xc2\xb7 \"");
	HAS(r.body.data ? r.body.data : "", xbuf("=> /posts/hone %s "
	    "\xe2\x86\x92", next), "gemini: the arrow");
	reply_free(&r);
	SSL_CTX_free(ctx);
}

/* The home page lists the series with parts, not the empty one. */
static void
home_series(const struct e2e_server *s)
{
	SSL_CTX		*ctx = e2e_client_ctx(0);
	struct reply	 r;
	const char	*body;

	r = e2e_gemini_get(s->gemini_port, ctx, "/");
	body = r.body.data ? r.body.data : "";
	HAS(body, "=> /series/sharpening-from-scratch/ Sharpening, From "
	    "Scratch (2 parts", "home: the series with parts");
	HAS(body, "=> /series/blades/ Blade Care (1 part", "home: the series "
	    "file matched by title");
	OK(strstr(body, "no parts yet") == NULL, "home: no empty series in:"
	    "\n%s", body);
	reply_free(&r);
	r = e2e_gemini_get(s->gemini_port, ctx, "/series/");
	HAS(r.body.data ? r.body.data : "", "(no parts yet)",
	    "/series/: the empty one still there");
	reply_free(&r);
	SSL_CTX_free(ctx);
}

/*
 * The live log: the first start counts the problems and names the
 * command that lists them (each line kept at debug); a save of a file
 * says its lines, the skipped file that it is skipped, each bad value
 * its line (issue 34, item 4).
 */
static void
test_live_log(void)
{
	struct e2e_server	 s;
	char			*log, want[400];

	if (e2e_start(&s, cap, "") == -1) {
		OK(0, "start on the writer's capsule");
		return;
	}
	log = test_read(s.log, "");
	HAS(log, "1 files skipped, ", "start: the count of each kind");
	snprintf(want, sizeof(want), "all of them: capsuled -c %s/capsuled.yaml"
	    " --check --report", s.dir);
	HAS(log, want, "start: the command that lists them all");
	HAS(log, "debug: posts/2025-03-10-broken.md:2:8: a quoted scalar "
	    "opened here is never closed; file skipped, not served",
	    "start: each line at debug");
	OK(strstr(log, "warn: posts/2025-03-11-messy.md:4:7") == NULL,
	    "start: not each as a warning");
	free(log);
	/* Saved again, with a change: its lines, once. */
	test_put(cap, "posts/2025-03-11-messy.md", "---\ntitle: Messy\n"
	    "date: 2025-03-11\npart: two\nlang: en_GB\ndraft: maybe\n---\n"
	    "See [gone](/posts/never-written), again.\n");
	test_put(cap, "posts/2025-03-10-broken.md", "---\ntitle: \"Broken\n"
	    "date: 2025-03-10\n---\nBody, again\n");
	OK(e2e_log_wait(s.log, "warn: posts/2025-03-10-broken.md:2:8: a quoted "
	    "scalar opened here is never closed; file skipped, not served",
	    5000), "log: the skip said");
	OK(e2e_log_wait(s.log, "warn: posts/2025-03-11-messy.md:4:7: part:",
	    5000), "log: part");
	log = test_read(s.log, "");
	HAS(log, "warn: posts/2025-03-11-messy.md:5:7: lang:", "log: lang");
	HAS(log, "warn: posts/2025-03-11-messy.md:6:8: draft:", "log: draft");
	OK(strstr(log, "more values below") == NULL, "log: no value untold");
	free(log);
	/* As they were, for the checks that read them after this one. */
	test_put(cap, "posts/2025-03-10-broken.md",
	    "---\ntitle: \"Broken\ndate: 2025-03-10\n---\nBody\n");
	test_put(cap, "posts/2025-03-11-messy.md",
	    "---\ntitle: Messy\ndate: 2025-03-11\npart: two\nlang: en_GB\n"
	    "draft: maybe\n---\nSee [gone](/posts/never-written).\n");
	headings(&s);
	home_series(&s);
	typography(&s);
	e2e_stop(&s);
}

/* A started `serve`: its pid, ports, and where it writes. */
struct serve {
	pid_t	 pid;
	int	 gemini, gopher;
	char	 out[160];
};

/* serve DIR, with more options (NULL-ended, or NULL for none). */
static int
serve_start_with(struct serve *sv, const char *dir, const char *const *more)
{
	char		 state[128], *text;
	uint64_t	 deadline;
	int		 fd;

	snprintf(state, sizeof(state), "%s/state", tmp);
	snprintf(sv->out, sizeof(sv->out), "%s/serve.out", tmp);
	sv->gemini = e2e_free_port();
	do
		sv->gopher = e2e_free_port();
	while (sv->gopher == sv->gemini);
	unlink(sv->out);		/* not the last run's lines */
	if ((sv->pid = fork()) == -1)
		return -1;
	if (sv->pid == 0) {
		char		 g[16], o[16];
		const char	*argv[16] = { "capsuled", "serve",
				    "--allow-root", "--gemini-port", g,
				    "--gopher-port", o };
		size_t		 n = 7;

		if ((fd = open(sv->out, O_WRONLY | O_CREAT | O_TRUNC,
		    0644)) == -1)
			_exit(127);
		dup2(fd, 1);
		dup2(fd, 2);
		setenv("XDG_STATE_HOME", state, 1);
		snprintf(g, sizeof(g), "%d", sv->gemini);
		snprintf(o, sizeof(o), "%d", sv->gopher);
		while (more != NULL && *more != NULL && n < 14)
			argv[n++] = *more++;
		argv[n++] = dir;
		argv[n] = NULL;
		execv(bin, (char *const *)argv);
		_exit(127);
	}
	deadline = e2e_now_ms() + 10000;
	while (e2e_now_ms() < deadline) {
		text = test_read(sv->out, "");
		fd = strstr(text, "Edits show at once") != NULL;
		free(text);
		if (fd)
			return 0;
		if (waitpid(sv->pid, &fd, WNOHANG) == sv->pid)
			break;
		e2e_sleep_ms(20);
	}
	return -1;
}

static int
serve_start(struct serve *sv, const char *dir)
{
	return serve_start_with(sv, dir, NULL);
}

static void
serve_stop(struct serve *sv)
{
	int	 status;

	kill(sv->pid, SIGTERM);
	waitpid(sv->pid, &status, 0);
	OK(WIFEXITED(status) && WEXITSTATUS(status) == 0,
	    "serve: exits 0 on SIGTERM");
}

/*
 * `capsuled serve DIR` on a bare folder of posts: no configuration, the
 * URLs printed, both protocols crawled, an edit shown live, and the
 * certificate made once in the state directory and reused.
 */
static void
test_serve_bare(void)
{
	struct serve	 sv;
	struct reply	 r;
	struct buf	 b;
	struct stat	 st1, st2;
	SSL_CTX		*ctx = e2e_client_ctx(0);
	char		 bare[128], cert[200], want[128], *text;

	snprintf(bare, sizeof(bare), "%s/bare", tmp);
	test_put(bare, "2025-01-01-hello.md",
	    "---\ntitle: Hello\n---\nHi there.\n");
	test_put(bare, "2025-02-01-gem.gmi", "# Gem\n\nA gemtext post.\n");
	if (serve_start(&sv, bare) == -1) {
		OK(0, "serve: started");
		return;
	}
	text = test_read(sv.out, "");
	HAS(text, "(a folder of posts)", "serve: says what it serves");
	snprintf(want, sizeof(want), "  gemini://localhost:%d/", sv.gemini);
	LINE(text, want, "serve: the Gemini URL");
	snprintf(want, sizeof(want), "  gopher://localhost:%d/", sv.gopher);
	LINE(text, want, "serve: the Gopher URL");
	free(text);

	r = e2e_gemini_get(sv.gemini, ctx, "/");
	INT_EQ(r.status, 20, "gemini: home");
	HAS(r.body.data ? r.body.data : "", "=> /posts/hello 2025-01-01 Hello",
	    "gemini: the Markdown post listed");
	HAS(r.body.data ? r.body.data : "", "=> /posts/gem 2025-02-01 Gem",
	    "gemini: the gemtext post listed");
	reply_free(&r);
	r = e2e_gemini_get(sv.gemini, ctx, "/posts/hello");
	HAS(r.body.data ? r.body.data : "", "Hi there.", "gemini: the post");
	reply_free(&r);
	OK(e2e_gopher_get(sv.gopher, &b, "/") == 0 && b.data != NULL &&
	    strstr(b.data, "1" "2025-01-01 Hello\t/posts/hello/\t") != NULL,
	    "gopher: the post in the home menu");
	buf_free(&b);
	OK(e2e_gopher_get(sv.gopher, &b, "/posts/gem") == 0 && b.data !=
	    NULL && strstr(b.data, "A gemtext post.") != NULL,
	    "gopher: the gemtext post");
	buf_free(&b);

	/* Live: a new post in the folder shows without a restart. */
	test_put(bare, "2025-03-01-new.md", "---\ntitle: Fresh\n---\nNew.\n");
	OK(e2e_gemini_wait(sv.gemini, ctx, "/", 20, "Fresh", 1, 5000) >= 0,
	    "live: the new post listed");
	serve_stop(&sv);

	snprintf(cert, sizeof(cert), "%s/state/capsuled/certs/localhost/"
	    "cert.pem", tmp);
	OK(stat(cert, &st1) == 0, "the certificate in the state directory");
	if (serve_start(&sv, bare) == -1) {
		OK(0, "serve: started again");
		SSL_CTX_free(ctx);
		return;
	}
	text = test_read(sv.out, "");
	OK(strstr(text, "generated") == NULL, "the second run made no "
	    "certificate");
	free(text);
	serve_stop(&sv);
	OK(stat(cert, &st2) == 0 && st1.st_ino == st2.st_ino &&
	    st1.st_mtim.tv_sec == st2.st_mtim.tv_sec, "the certificate reused");
	SSL_CTX_free(ctx);
}

/*
 * The site's name when the writer gave none is the folder's, never the
 * program's (issue 34, item 6), on every page that names it; serve's
 * --title and --gopher-charset (item 7).
 */
static void
test_serve_title(void)
{
	static const char *const opts[] = { "--title", "Desk Notes",
	    "--gopher-charset", "ascii", NULL };
	struct serve	 sv;
	struct reply	 r;
	struct buf	 b;
	SSL_CTX		*ctx = e2e_client_ctx(0);
	char		 desk[128];
	const char	*body;

	snprintf(desk, sizeof(desk), "%s/writing-desk", tmp);
	test_put(desk, "2025-01-01-hello.md",
	    "---\ntitle: Hello\ntags: [wood]\n---\nIt\xe2\x80\x99s here.\n");
	if (serve_start(&sv, desk) == -1) {
		OK(0, "serve: started");
		SSL_CTX_free(ctx);
		return;
	}
	r = e2e_gemini_get(sv.gemini, ctx, "/");
	body = r.body.data != NULL ? r.body.data : "";
	OK(strncmp(body, "# writing-desk\n", 15) == 0,
	    "default title: the folder's name heads the home page");
	OK(strstr(body, "capsuled") == NULL, "home: no program name");
	reply_free(&r);
	r = e2e_gemini_get(sv.gemini, ctx, "/posts/hello");
	body = r.body.data != NULL ? r.body.data : "";
	OK(strstr(body, "writing-desk") != NULL &&
	    strstr(body, "capsuled") == NULL, "a post's way home: the name");
	reply_free(&r);
	r = e2e_gemini_get(sv.gemini, ctx, "/gemlog/");
	body = r.body.data != NULL ? r.body.data : "";
	OK(strncmp(body, "# writing-desk\n", 15) == 0,
	    "the gemlog page: the name");
	reply_free(&r);
	r = e2e_gemini_get(sv.gemini, ctx, "/atom.xml");
	body = r.body.data != NULL ? r.body.data : "";
	HAS(body, "<title>writing-desk</title>", "the feed's title");
	HAS(body, "<author><name>writing-desk</name></author>",
	    "the feed's author: the site, not the program");
	reply_free(&r);
	serve_stop(&sv);

	if (serve_start_with(&sv, desk, opts) == -1) {
		OK(0, "serve --title --gopher-charset: started");
		SSL_CTX_free(ctx);
		return;
	}
	r = e2e_gemini_get(sv.gemini, ctx, "/");
	OK(r.body.data != NULL && strncmp(r.body.data, "# Desk Notes\n",
	    13) == 0, "--title: the home page's heading");
	reply_free(&r);
	OK(e2e_gopher_get(sv.gopher, &b, "/posts/hello") == 0 &&
	    b.data != NULL && strstr(b.data, "It's here.") != NULL,
	    "--gopher-charset ascii: the apostrophe transliterated");
	buf_free(&b);
	OK(e2e_gopher_get(sv.gopher, &b, "/caps.txt") == 0 && b.data !=
	    NULL && strstr(b.data, "ServerDefaultEncoding=US-ASCII") != NULL &&
	    strstr(b.data, "ServerDescription=Desk Notes") != NULL,
	    "caps.txt: the charset and the title");
	buf_free(&b);
	serve_stop(&sv);
	SSL_CTX_free(ctx);
}

/*
 * Gopher off (issue 34, item 8): neither the URLs serve prints nor the
 * log's "serving" line name a surface that does not listen (it once
 * logged gopher://localhost:0/).
 */
static void
test_gopher_off(void)
{
	static const char *const opts[] = { "--gopher-port", "0", NULL };
	struct serve	 sv;
	char		 dir[128], want[128], *text;

	snprintf(dir, sizeof(dir), "%s/quiet", tmp);
	test_put(dir, "2025-01-01-a.md", "---\ntitle: A\n---\nA.\n");
	if (serve_start_with(&sv, dir, opts) == -1) {
		OK(0, "serve --gopher-port 0: started");
		return;
	}
	/* The log line comes through the log's writer: wait for it. */
	snprintf(want, sizeof(want), "serving gemini://localhost:%d/ with ",
	    sv.gemini);
	OK(e2e_log_wait(sv.out, want, 5000),
	    "gopher off: the log names Gemini alone");
	text = test_read(sv.out, "");
	snprintf(want, sizeof(want), "  gemini://localhost:%d/", sv.gemini);
	LINE(text, want, "gopher off: the Gemini URL printed");
	OK(strstr(text, "gopher://") == NULL, "gopher off: never named");
	free(text);
	serve_stop(&sv);
}

/*
 * --check on a folder, as serve or alone (issue 34, item 5): the folder
 * serve would serve, checked with no configuration file and no
 * certificate made.
 */
static void
test_check_dir(void)
{
	struct stat	 st;
	char		*out, *err, dir[128], state[160];

	snprintf(dir, sizeof(dir), "%s/checked", tmp);
	test_put(dir, "2025-01-01-a.md", "---\ntitle: A\n---\n"
	    "[gone](/posts/nowhere)\n");
	snprintf(state, sizeof(state), "%s/check-state", tmp);
	INT_EQ(run(&out, &err, "--check '%s'", dir), 0, "--check DIR: 0");
	LINE(out, "site:     checked", "--check DIR: the folder's site");
	LINE(out, "posts:    1 (2025-01-01 to 2025-01-01)", "its post");
	HAS(out, "link to /posts/nowhere names nothing", "its warning");
	free(out);
	free(err);
	INT_EQ(run(&out, &err, "serve --check --strict '%s'", dir), 1,
	    "serve --check --strict DIR: a warning is trouble");
	LINE(out, "site:     checked", "serve --check DIR: the same report");
	free(out);
	free(err);
	INT_EQ(run(&out, &err, "--check --report '%s'", dir), 0,
	    "--check --report DIR");
	HAS(out, "report:   1 file", "the report");
	free(out);
	free(err);
	setenv("XDG_STATE_HOME", state, 1);
	INT_EQ(run(&out, &err, "--check '%s'", dir), 0, "--check again");
	OK(stat(state, &st) == -1, "--check makes no certificate directory");
	unsetenv("XDG_STATE_HOME");
	free(out);
	free(err);
}

/* Bad arguments to serve: a clear error, exit 2. */
static void
test_serve_usage(void)
{
	char	*out, *err;

	INT_EQ(run(&out, &err, "serve '%s/nonexistent'", tmp), 2,
	    "serve: a missing folder exits 2");
	HAS(err, "No such file or directory", "serve: says why");
	free(out);
	free(err);
	INT_EQ(run(&out, &err, "serve --gemini-port 99999 '%s'", tmp), 2,
	    "serve: a bad port exits 2");
	HAS(err, "--gemini-port 99999: not a port", "serve: the bad port");
	free(out);
	free(err);
	/* A reason, not the usage text alone (issue 34, item 5). */
	INT_EQ(run(&out, &err, "serve"), 2, "serve without a folder: 2");
	HAS(err, "capsuled serve: which folder?", "serve: asks which");
	free(out);
	free(err);
	INT_EQ(run(&out, &err, "'%s'", tmp), 2, "a folder alone: 2");
	HAS(err, "is a folder: `capsuled serve", "a folder alone: says how");
	free(out);
	free(err);
	INT_EQ(run(&out, &err, "--title X -c '%s'", conf), 2,
	    "--title without serve: 2");
	HAS(err, "a configuration file says title:", "--title: says where");
	free(out);
	free(err);
	INT_EQ(run(&out, &err, "serve --gopher-charset latin1 '%s'", tmp), 2,
	    "a bad --gopher-charset: 2");
	HAS(err, "capsuled serve --gopher-charset: expected utf-8 or ascii, "
	    "got 'latin1'", "--gopher-charset: the file's wording");
	free(out);
	free(err);
	/* --help: serve's own synopsis names --allow-root (item 7). */
	INT_EQ(run(&out, &err, "--help"), 0, "--help: 0");
	HAS(out, "capsuled serve [--allow-root]", "serve's synopsis");
	HAS(out, "capsuled [serve] --check [--report] [--strict] DIR",
	    "--check DIR's synopsis");
	free(out);
	free(err);
}

static const struct harness_test tests[] = {
	TEST(test_check),
	TEST(test_render),
	TEST(test_live_log),
	TEST(test_serve_bare),
	TEST(test_serve_title),
	TEST(test_gopher_off),
	TEST(test_check_dir),
	TEST(test_serve_usage),
};

int
main(int argc, char **argv)
{
	char	 cmd[128];
	int	 rv;

	HARNESS_INIT(argc, argv, tests);
	signal(SIGPIPE, SIG_IGN);
	if ((bin = getenv("CAPSULED_BIN")) == NULL)
		bin = "build/capsuled";
	snprintf(tmp, sizeof(tmp), "/tmp/capsuled-writer.XXXXXX");
	if (mkdtemp(tmp) == NULL) {
		perror("mkdtemp");
		return 1;
	}
	make_capsule();
	harness_run();
	rv = harness_done();
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmp);
	if (getenv("E2E_KEEP") == NULL)
		(void)!system(cmd);
	return rv;
}
