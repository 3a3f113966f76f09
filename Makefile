# capsuled -- a small-web publishing server (Gemini + Gopher).
#
#   make            build build/capsuled (installs missing Debian packages
#                   when run as root, else prints the apt-get line)
#   make run        build, then serve capsule/ with config/capsuled.yaml
#                   (PORT=, GOPHER_PORT=, CONFIG= to change them)
#   make test       build and run every test; ends with "N passed, N
#                   failed, N skipped" (as root, first installs the
#                   Debian packages of every tool the tests drive that
#                   is missing, naming them; else prints the one apt-get
#                   line, and their checks are skipped: mk/testdeps.sh)
#   make asan       the same tests under ASan+UBSan (build-asan/)
#   make valgrind   unit tests and the server under valgrind memcheck, no
#                   leaks allowed (build-valgrind/; about 2 minutes)
#   make fuzz       every libFuzzer target for FUZZ_SECONDS (build-fuzz/)
#   make golden     rewrite tests/golden expectations (review the diff!)
#   make modules    rewrite the module map in docs/design.md
#                   from the files' opening lines (make test checks it)
#   make test-slow  the slow tests: 10,000 posts, 1,000 rebuilds, a storm of
#                   saves under load, a 10-minute soak
#                   (CAPSULED_SOAK_SECONDS=60 for a short one)
#   make bench      capsuled against molly-brown and gophernicus: one table
#                   (bench/README.md; a few minutes; loopback only)
#   make install    PREFIX=/usr/local DESTDIR= (binary, man pages, the
#                   example config, README.md and docs/*.md in DOCDIR, the
#                   systemd unit and its sysusers.d entry); make uninstall
#                   removes exactly those
#   make clean      remove what builds make: build/, build-asan/,
#                   build-fuzz/, build-valgrind/ (and BUILD= when given)
#
# Warnings are errors in a git checkout and in CI, not in a release
# tarball (WERROR, below).

PREFIX	?= /usr/local
BINDIR	?= $(PREFIX)/bin
MANDIR	?= $(PREFIX)/share/man
DOCDIR	?= $(PREFIX)/share/doc/capsuled
UNITDIR	?= $(PREFIX)/lib/systemd/system
SYSUSERSDIR ?= $(PREFIX)/lib/sysusers.d
# Where the unit's ExecStart reads capsuled.yaml (the binary's default
# is /etc/capsuled/capsuled.yaml).  Nothing is installed there: the
# example goes to DOCDIR, so no install overwrites a live configuration.
SYSCONFDIR ?= /etc/capsuled
# The installed example names its capsule and certificates absolutely,
# where contrib/capsuled.service lets the service read the one and write
# the other: the repository's "../capsule" and "../certs" would mean
# /etc/capsule and /etc/certs once it is copied to /etc/capsuled/.
EXAMPLE_PATHS = -e 's|^capsule: \.\./capsule$$|capsule: /srv/capsule|' \
	-e 's|^certs: \.\./certs$$|certs: /var/lib/capsuled/certs|'

BUILD	?= build
CC	?= cc
OPT	?= -O2
VERSION	:= 0.1.0

# Warnings are errors in a git checkout, where the code is worked on and
# CI builds it (.ci/run also says WERROR=-Werror itself); a release
# tarball has no .git, so a newer compiler's new warning does not stop
# a user's build.  `make WERROR=` or `make WERROR=-Werror` overrides.
WERROR	?= $(if $(wildcard .git),-Werror)
WARN	= -Wall -Wextra -Wshadow -Wstrict-prototypes -Wmissing-prototypes \
	  -Wno-unused-parameter $(WERROR)
# Every compile also writes the headers it read to a .d file beside its
# output (-MMD: the tree's own headers, not the system's), included
# below, so touching a header rebuilds only what includes it; -MP keeps
# a header that was removed or moved from stopping the build.
DEPFLAGS = -MMD -MP
CFLAGS	?= $(OPT) -g
ALL_CFLAGS = -std=c17 -D_GNU_SOURCE -DCAPSULED_VERSION='"$(VERSION)"' \
	  $(WARN) $(CFLAGS) $(SAN) $(DEPFLAGS) $(PKG_CFLAGS) -Isrc
ALL_LDFLAGS = $(LDFLAGS) $(SAN)

SRCS	:= $(wildcard src/*/*.c)
LIB_OBJS := $(patsubst src/%.c,$(BUILD)/obj/%.o,$(filter-out src/app/main.c,$(SRCS)))
OBJ_DEPS := $(patsubst src/%.c,$(BUILD)/obj/%.d,$(SRCS))
UNIT_SRCS := $(wildcard tests/unit/test_*.c)
UNIT_BINS := $(patsubst tests/unit/%.c,$(BUILD)/tests/%,$(UNIT_SRCS))
E2E_SRCS := $(wildcard tests/e2e/*.c)
E2E_BINS := $(patsubst tests/e2e/%.c,$(BUILD)/tests/%,$(E2E_SRCS))
# Every fuzz harness replays its seeds (crash-* ones included) in the
# unit suite, built with $(CC) and tests/fuzz/replay.c, no libFuzzer.
SEED_BINS := $(patsubst tests/fuzz/fuzz_%.c,$(BUILD)/tests/test_seeds_%,\
	  $(wildcard tests/fuzz/fuzz_*.c))

ifeq ($(filter clean,$(MAKECMDGOALS)),)
-include $(BUILD)/deps.mk
endif

.PHONY: all run test asan golden install uninstall clean check tests fuzz fuzz-build \
	bench test-slow valgrind modules
all: $(BUILD)/capsuled

# What the last build of each object or program read (DEPFLAGS); none
# before the first build, which makes everything anyway.  Included after
# `all`, which stays the first target.
ifeq ($(filter clean,$(MAKECMDGOALS)),)
-include $(wildcard $(BUILD)/*.d $(BUILD)/*/*.d $(BUILD)/*/*/*.d \
    $(BUILD)/*/*/*/*.d)
endif

$(BUILD)/deps.mk: mk/deps.sh
	@mkdir -p $(BUILD)
	@sh mk/deps.sh $@

# An object without its .d file (made before DEPFLAGS, or the .d lost)
# is built again: named as a target with no rule, a missing .d counts
# as new.
$(BUILD)/obj/%.o: src/%.c $(BUILD)/obj/%.d | $(BUILD)/deps.mk
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) -c -o $@ $<

$(OBJ_DEPS):

$(BUILD)/libcapsuled.a: $(LIB_OBJS)
	rm -f $@
	ar rcs $@ $^

$(BUILD)/capsuled: $(BUILD)/obj/app/main.o $(BUILD)/libcapsuled.a
	$(CC) $(ALL_LDFLAGS) -o $@ $^ $(PKG_LIBS)

# The test library (tests/lib/: the harness, files, the e2e server and
# its clients), compiled once; every unit, e2e, slow and seed binary
# links it before the server's library.
TESTLIB_SRCS := $(wildcard tests/lib/*.c)
TESTLIB_HDRS := $(wildcard tests/lib/*.h)
TESTLIB_OBJS := $(patsubst tests/lib/%.c,$(BUILD)/tests/lib/%.o,$(TESTLIB_SRCS))
TESTLIB := $(BUILD)/tests/lib/libtest.a
TEST_CFLAGS = $(ALL_CFLAGS) -Itests/lib
TEST_LINK = $(TESTLIB) $(BUILD)/libcapsuled.a $(ALL_LDFLAGS) $(PKG_LIBS)

$(BUILD)/tests/lib/%.o: tests/lib/%.c $(TESTLIB_HDRS) $(HDRS)
	@mkdir -p $(@D)
	$(CC) $(TEST_CFLAGS) -c -o $@ $<

$(TESTLIB): $(TESTLIB_OBJS)
	rm -f $@
	ar rcs $@ $^

$(BUILD)/tests/%: tests/unit/%.c $(TESTLIB_HDRS) $(TESTLIB) \
	    $(BUILD)/libcapsuled.a
	@mkdir -p $(@D)
	$(CC) $(TEST_CFLAGS) -o $@ $< $(TEST_LINK)

$(BUILD)/tests/test_seeds_%: tests/fuzz/fuzz_%.c tests/fuzz/replay.c \
	    $(TESTLIB_HDRS) $(TESTLIB) $(BUILD)/libcapsuled.a
	@mkdir -p $(@D)
	$(CC) $(TEST_CFLAGS) -DFUZZ_NAME='"$*"' -o $@ $< \
	    tests/fuzz/replay.c $(TEST_LINK)

$(BUILD)/tests/%: tests/e2e/%.c $(TESTLIB_HDRS) $(TESTLIB) \
	    $(BUILD)/libcapsuled.a
	@mkdir -p $(@D)
	$(CC) $(TEST_CFLAGS) -o $@ $< $(TEST_LINK)

tests: $(BUILD)/capsuled $(UNIT_BINS) $(E2E_BINS) $(SEED_BINS)

# capsuled refuses to run as root without `user:`; `make run` is the
# try-it-now command, so as root it says --allow-root for you.
# `make run PORT=1966 GOPHER_PORT=7071` or `CONFIG=my.yaml`: the sample
# configuration, which the tests read, is never edited to try a port.
CONFIG	?= config/capsuled.yaml
run: $(BUILD)/capsuled
	./$(BUILD)/capsuled -c $(CONFIG) \
	    $(if $(PORT),--gemini-port $(PORT)) \
	    $(if $(GOPHER_PORT),--gopher-port $(GOPHER_PORT)) \
	    $$([ "$$(id -u)" = 0 ] && echo --allow-root)

test: tests
	@sh mk/testdeps.sh
	@sh tests/run.sh $(BUILD)

# Slow tests, not part of `make test`: the live archive on 10,000
# generated posts and 1,000 rebuilds, saves in pieces under load never
# served half-written, and a soak of every kind of work at once
# (CAPSULED_SOAK_SECONDS, default 600).
SLOW_SRCS := $(wildcard tests/slow/*.c)
SLOW_BINS := $(patsubst tests/slow/%.c,$(BUILD)/tests/slow/%,$(SLOW_SRCS))

$(BUILD)/tests/slow/%: tests/slow/%.c $(TESTLIB_HDRS) $(TESTLIB) \
	    $(BUILD)/libcapsuled.a
	@mkdir -p $(@D)
	$(CC) $(TEST_CFLAGS) -o $@ $< $(TEST_LINK)

test-slow: $(BUILD)/capsuled $(BUILD)/bench/genarchive $(SLOW_BINS)
	@sh tests/slow/run.sh $(BUILD)

check: test

valgrind:
	$(MAKE) BUILD=build-valgrind OPT=-O1 tests
	@sh tests/valgrind.sh build-valgrind

asan:
	$(MAKE) BUILD=build-asan OPT=-O1 \
	    SAN="-fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer" \
	    test

golden: $(BUILD)/capsuled $(BUILD)/tests/e2e_pages
	@sh tests/golden/run.sh $(BUILD)/capsuled --update
	@WEB_GOLDEN_UPDATE=1 CAPSULED_BIN=$(BUILD)/capsuled sh tests/e2e/web.sh
	@CAPSULED_UPDATE_GOLDEN=1 CAPSULED_TOP=$(CURDIR) \
	    CAPSULED_BIN=$(CURDIR)/$(BUILD)/capsuled $(BUILD)/tests/e2e_pages

modules:
	@sh mk/modules.sh --update

# Benchmark tools are standalone programs (OpenSSL, no libcapsuled),
# but for tlsfloor, which measures capsuled's own TLS code in memory,
# and rules, path-rule lookups for callgrind to count.
BENCH_BINS := $(BUILD)/bench/loadgen $(BUILD)/bench/genarchive \
	  $(BUILD)/bench/forkserve $(BUILD)/bench/tlsfloor $(BUILD)/bench/tcpfloor \
	  $(BUILD)/bench/rules

$(BUILD)/bench/tlsfloor $(BUILD)/bench/rules: $(BUILD)/bench/%: bench/%.c \
	    $(BUILD)/libcapsuled.a
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) -o $@ $< $(BUILD)/libcapsuled.a \
	    $(ALL_LDFLAGS) $(PKG_LIBS)

$(BUILD)/bench/%: bench/%.c | $(BUILD)/deps.mk
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) -o $@ $< $(ALL_LDFLAGS) -lssl -lcrypto -lpthread -lm

bench: $(BUILD)/capsuled $(BENCH_BINS)
	@sh bench/run.sh $(BUILD)

# The guides go to DOCDIR/docs/, beside README.md, so README's links
# to them (docs/operating.md) hold in the doc directory too.
GUIDES	= $(wildcard docs/*.md)
INSTALLED = $(BINDIR)/capsuled $(MANDIR)/man8/capsuled.8 \
	    $(MANDIR)/man5/capsuled.yaml.5 $(DOCDIR)/capsuled.yaml.example \
	    $(DOCDIR)/README.md $(addprefix $(DOCDIR)/,$(GUIDES)) \
	    $(UNITDIR)/capsuled.service $(SYSUSERSDIR)/capsuled.conf

install: $(BUILD)/capsuled
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(MANDIR)/man8 \
	    $(DESTDIR)$(MANDIR)/man5 $(DESTDIR)$(DOCDIR)/docs \
	    $(DESTDIR)$(UNITDIR) $(DESTDIR)$(SYSUSERSDIR)
	install -m 0755 $(BUILD)/capsuled $(DESTDIR)$(BINDIR)/capsuled
	sed 's|PREFIX/|$(PREFIX)/|g' man/capsuled.8 >$(DESTDIR)$(MANDIR)/man8/capsuled.8
	sed 's|PREFIX/|$(PREFIX)/|g' man/capsuled.yaml.5 \
	    >$(DESTDIR)$(MANDIR)/man5/capsuled.yaml.5
	sed $(EXAMPLE_PATHS) config/capsuled.yaml \
	    >$(DESTDIR)$(DOCDIR)/capsuled.yaml.example
	install -m 0644 README.md $(DESTDIR)$(DOCDIR)/README.md
	install -m 0644 $(GUIDES) $(DESTDIR)$(DOCDIR)/docs
	sed -e 's|/usr/local/bin/capsuled|$(BINDIR)/capsuled|' \
	    -e 's|/etc/capsuled/|$(SYSCONFDIR)/|g' \
	    -e 's|PREFIX/|$(PREFIX)/|g' contrib/capsuled.service \
	    >$(DESTDIR)$(UNITDIR)/capsuled.service
	install -m 0644 contrib/capsuled.sysusers $(DESTDIR)$(SYSUSERSDIR)/capsuled.conf
	chmod 0644 $(DESTDIR)$(DOCDIR)/capsuled.yaml.example \
	    $(DESTDIR)$(MANDIR)/man8/capsuled.8 \
	    $(DESTDIR)$(MANDIR)/man5/capsuled.yaml.5 \
	    $(DESTDIR)$(UNITDIR)/capsuled.service

uninstall:
	rm -f $(addprefix $(DESTDIR),$(INSTALLED))
	-rmdir $(DESTDIR)$(DOCDIR)/docs $(DESTDIR)$(DOCDIR) 2>/dev/null

# Everything a build makes is under its BUILD folder (build-* for the
# sanitized, valgrind and fuzz builds); a BUILD= of your own is removed
# by `make clean BUILD=...`.
clean:
	rm -rf $(sort build build-asan build-fuzz build-valgrind $(BUILD))

# Fuzzing (libFuzzer, clang): every tests/fuzz/fuzz_*.c against a
# sanitized, coverage-instrumented library.  `make fuzz FUZZ_SECONDS=1800`
# runs each target for that long; CI runs them briefly.
FUZZ_SRCS := $(wildcard tests/fuzz/fuzz_*.c)
FUZZ_BINS := $(patsubst tests/fuzz/%.c,build-fuzz/%,$(FUZZ_SRCS))
FUZZ_SAN  := -fsanitize=address,undefined -fno-sanitize-recover=all

# One make, so the library is built once and with the fuzzer's flags: a
# second make without SAN rebuilt every object whose .d file clang had
# written after the .o, and the targets linked a library with no
# coverage counters and no sanitizers.
fuzz-build:
	$(MAKE) BUILD=build-fuzz CC=clang OPT=-O1 \
	    SAN="-fsanitize=fuzzer-no-link $(FUZZ_SAN)" $(FUZZ_BINS)

build-fuzz/fuzz_%: tests/fuzz/fuzz_%.c build-fuzz/libcapsuled.a
	$(CC) -std=c17 -D_GNU_SOURCE -g -O1 -fsanitize=fuzzer $(FUZZ_SAN) \
	    $(DEPFLAGS) $(PKG_CFLAGS) -Isrc -o $@ $< build-fuzz/libcapsuled.a $(PKG_LIBS)

fuzz: fuzz-build
	@FUZZ_SECONDS=$${FUZZ_SECONDS:-60} sh tests/fuzz/run.sh --no-build
