# capsuled -- a small-web publishing server (Gemini + Gopher).
#
#   make            build build/capsuled (installs missing Debian packages
#                   when run as root, else prints the apt-get line)
#   make run        build, then serve capsule/ with config/capsuled.yaml
#   make test       build and run every test; ends with "N passed, N failed"
#   make asan       the same tests under ASan+UBSan (build-asan/)
#   make golden     rewrite tests/golden expectations (review the diff!)
#   make install    PREFIX=/usr/local DESTDIR=
#   make clean

PREFIX	?= /usr/local
BINDIR	?= $(PREFIX)/bin
MANDIR	?= $(PREFIX)/share/man
DOCDIR	?= $(PREFIX)/share/doc/capsuled
SYSCONFDIR ?= $(PREFIX)/etc/capsuled

BUILD	?= build
CC	?= cc
OPT	?= -O2
VERSION	:= 0.1.0

WARN	= -Wall -Wextra -Wshadow -Wstrict-prototypes -Wmissing-prototypes \
	  -Wno-unused-parameter -Werror
CFLAGS	?= $(OPT) -g
ALL_CFLAGS = -std=c17 -D_GNU_SOURCE -DCAPSULED_VERSION='"$(VERSION)"' \
	  $(WARN) $(CFLAGS) $(SAN) $(PKG_CFLAGS) -Isrc
ALL_LDFLAGS = $(LDFLAGS) $(SAN)

SRCS	:= $(wildcard src/*.c)
LIB_OBJS := $(patsubst src/%.c,$(BUILD)/obj/%.o,$(filter-out src/main.c,$(SRCS)))
UNIT_SRCS := $(wildcard tests/unit/test_*.c)
UNIT_BINS := $(patsubst tests/unit/%.c,$(BUILD)/tests/%,$(UNIT_SRCS))
E2E_SRCS := $(wildcard tests/e2e/*.c)
E2E_BINS := $(patsubst tests/e2e/%.c,$(BUILD)/tests/%,$(E2E_SRCS))

ifeq ($(filter clean,$(MAKECMDGOALS)),)
-include $(BUILD)/deps.mk
endif

.PHONY: all run test asan golden install uninstall clean check tests fuzz fuzz-build
all: $(BUILD)/capsuled

$(BUILD)/deps.mk: mk/deps.sh
	@mkdir -p $(BUILD)
	@sh mk/deps.sh $@

$(BUILD)/obj/%.o: src/%.c $(wildcard src/*.h) | $(BUILD)/deps.mk
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) -c -o $@ $<

$(BUILD)/libcapsuled.a: $(LIB_OBJS)
	rm -f $@
	ar rcs $@ $^

$(BUILD)/capsuled: $(BUILD)/obj/main.o $(BUILD)/libcapsuled.a
	$(CC) $(ALL_LDFLAGS) -o $@ $^ $(PKG_LIBS)

$(BUILD)/tests/%: tests/unit/%.c tests/harness.h $(BUILD)/libcapsuled.a
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) -Itests -o $@ $< $(BUILD)/libcapsuled.a $(ALL_LDFLAGS) $(PKG_LIBS)

$(BUILD)/tests/%: tests/e2e/%.c tests/harness.h $(BUILD)/libcapsuled.a
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) -Itests -o $@ $< $(BUILD)/libcapsuled.a $(ALL_LDFLAGS) $(PKG_LIBS)

tests: $(BUILD)/capsuled $(UNIT_BINS) $(E2E_BINS)

run: $(BUILD)/capsuled
	./$(BUILD)/capsuled -c config/capsuled.yaml

test: tests
	@sh tests/run.sh $(BUILD)

check: test

asan:
	$(MAKE) BUILD=build-asan OPT=-O1 \
	    SAN="-fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer" \
	    test

golden: $(BUILD)/capsuled
	@sh tests/golden/run.sh $(BUILD)/capsuled --update

install: $(BUILD)/capsuled
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(SYSCONFDIR) $(DESTDIR)$(DOCDIR)
	install -m 0755 $(BUILD)/capsuled $(DESTDIR)$(BINDIR)/capsuled
	install -m 0644 config/capsuled.yaml $(DESTDIR)$(SYSCONFDIR)/capsuled.yaml.example
	install -m 0644 README.md $(DESTDIR)$(DOCDIR)/README.md

uninstall:
	rm -f $(DESTDIR)$(BINDIR)/capsuled \
	    $(DESTDIR)$(SYSCONFDIR)/capsuled.yaml.example \
	    $(DESTDIR)$(DOCDIR)/README.md

clean:
	rm -rf build build-asan build-fuzz

# Fuzzing (libFuzzer, clang): every tests/fuzz/fuzz_*.c against a
# sanitized, coverage-instrumented library.  `make fuzz FUZZ_SECONDS=1800`
# runs each target for that long; CI runs them briefly.
FUZZ_SRCS := $(wildcard tests/fuzz/fuzz_*.c)
FUZZ_BINS := $(patsubst tests/fuzz/%.c,build-fuzz/%,$(FUZZ_SRCS))
FUZZ_SAN  := -fsanitize=address,undefined -fno-sanitize-recover=all

fuzz-build:
	$(MAKE) BUILD=build-fuzz CC=clang OPT=-O1 \
	    SAN="-fsanitize=fuzzer-no-link $(FUZZ_SAN)" build-fuzz/libcapsuled.a
	$(MAKE) BUILD=build-fuzz CC=clang $(FUZZ_BINS)

build-fuzz/fuzz_%: tests/fuzz/fuzz_%.c build-fuzz/libcapsuled.a
	$(CC) -std=c17 -D_GNU_SOURCE -g -O1 -fsanitize=fuzzer $(FUZZ_SAN) \
	    $(PKG_CFLAGS) -Isrc -o $@ $< build-fuzz/libcapsuled.a $(PKG_LIBS)

fuzz: fuzz-build
	@FUZZ_SECONDS=$${FUZZ_SECONDS:-60} sh tests/fuzz/run.sh --no-build
