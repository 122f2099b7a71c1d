# stencilmap - build, run, check, bench, install.
#   make            build ./stencilmap
#   make run        install missing Debian packages, build, open the workbench
#   make check      every test suite (unit, sanitized, script, screen); ends "N passed, N failed"
#   make bench      benchmarks (tests/bench), not part of check
#   make fuzz       run each loader's libFuzzer target (clang) for FUZZ_SECONDS,
#                   then the safe interpreter's command fuzzer (grants and
#                   limits in force, tests/fuzz/safe_run.sh) as long
#   make install    PREFIX=/usr/local DESTDIR=   (after a plain make: the
#                   program finds its data relative to itself, so a binary
#                   built for one PREFIX works installed under another)
#   make check-slurm  a study on a real Slurm (root, slurm-wlm + munge)
# CC, CPPFLAGS, CFLAGS, LDFLAGS and PKG_CONFIG are honoured; libraries are
# found with pkg-config (lp_solve, which ships no .pc, by its Debian paths).

PREFIX ?= /usr/local
DESTDIR ?=
BINDIR = $(PREFIX)/bin
MANDIR = $(PREFIX)/share/man
DATADIR = $(PREFIX)/share/stencilmap
DOCDIR = $(PREFIX)/share/doc/stencilmap
FUZZ_SECONDS ?= 60

CC ?= gcc
PKG_CONFIG ?= pkg-config
STD = -std=c11 -D_POSIX_C_SOURCE=200809L -D_XOPEN_SOURCE=700 -DNCURSES_WIDECHAR=1
WARN = -Wall -Wextra -Werror
OPT ?= -O2 -g
# pc NAME FLAGS FALLBACK: pkg-config's answer, or FALLBACK without a .pc.
pc = $(shell $(PKG_CONFIG) --exists $(1) 2>/dev/null && $(PKG_CONFIG) $(2) $(1) || echo '$(3)')
TCL_PC := $(shell $(PKG_CONFIG) --exists tcl8.6 2>/dev/null && echo tcl8.6 || echo tcl)
TCL_INC ?= $(call pc,$(TCL_PC),--cflags-only-I,-I/usr/include/tcl8.6)
TCL_LIB ?= $(call pc,$(TCL_PC),--libs,-ltcl8.6)
LP_INC ?= -I/usr/include/lpsolve
LP_LIB ?= -llpsolve55 -lcolamd -ldl
# Only ncursesw's -I: its .pc also defines _XOPEN_SOURCE=600, below ours.
CURSES_INC ?= $(call pc,ncursesw,--cflags-only-I,)
CURSES_LIB ?= $(call pc,ncursesw,--libs,-lncursesw)
CJSON_INC ?= $(call pc,libcjson,--cflags-only-I,)
CJSON_LIB ?= $(call pc,libcjson,--libs,-lcjson)
CMOCKA_LIB ?= $(call pc,cmocka,--libs,-lcmocka)
# Evaluated once, not at every use.
TCL_INC := $(TCL_INC)
TCL_LIB := $(TCL_LIB)
CURSES_INC := $(CURSES_INC)
CURSES_LIB := $(CURSES_LIB)
CJSON_INC := $(CJSON_INC)
CJSON_LIB := $(CJSON_LIB)
CMOCKA_LIB := $(CMOCKA_LIB)
# libhwloc is optional: with it, topo detect/import work (core/io/hwloc_read_lstopo_xml_or_this_machine.c).
HWLOC_FLAGS := $(shell $(PKG_CONFIG) --exists hwloc 2>/dev/null && echo -DSM_HAVE_HWLOC $$($(PKG_CONFIG) --cflags hwloc))
HWLOC_LIB := $(shell $(PKG_CONFIG) --exists hwloc 2>/dev/null && $(PKG_CONFIG) --libs hwloc)
VERSION := $(shell cat VERSION)
CFLAGS_ALL = $(STD) $(WARN) -I. $(OPT) -DSM_VERSION='"$(VERSION)"' -DSM_DATADIR='"$(DATADIR)"' $(HWLOC_FLAGS) $(CJSON_INC) $(CURSES_INC) $(CPPFLAGS) $(CFLAGS)
# zlib: the compact mapping form (core/io/mapping_value_text.c).
ZLIB_LIB ?= $(call pc,zlib,--libs,-lz)
ZLIB_LIB := $(ZLIB_LIB)
LIBS = $(CJSON_LIB) $(ZLIB_LIB) -lm $(HWLOC_LIB) -pthread

SAN = -fsanitize=address,undefined,float-cast-overflow,float-divide-by-zero -fno-omit-frame-pointer -fno-sanitize-recover=all

# Sources are found by folder (core/<subsystem>/, solvers/<family>/, tui/...);
# a new file needs no line here. Includes across folders are written from
# the repository root (-I.); tools/check-layout.tcl checks their direction.
srcs_under = $(shell find $(1) -name '*.$(2)' | sort)
CORE_SRC = $(call srcs_under,core,c)
SOLVER_SRC = $(call srcs_under,solvers,c)
TUI_SRC = $(call srcs_under,tui,c)
UNIT_SRC = $(shell find tests/unit -name 'test_*.c' | sort)
HDRS = $(call srcs_under,core solvers tui,h)

B = build
LIB_OBJ = $(CORE_SRC:%.c=$(B)/%.o) $(SOLVER_SRC:%.c=$(B)/%.o)
TUI_OBJ = $(TUI_SRC:%.c=$(B)/%.o) $(B)/embedded.o
SAN_LIB_OBJ = $(CORE_SRC:%.c=$(B)/san/%.o) $(SOLVER_SRC:%.c=$(B)/san/%.o)
SAN_TUI_OBJ = $(TUI_SRC:%.c=$(B)/san/%.o) $(B)/san/embedded.o

APP_LIBS = $(TCL_LIB) $(CURSES_LIB) -pthread

# stencilmap-run (run/, SPEC 9): the MPI program that runs a mapping, built
# with mpicc where it exists (Debian: openmpi-bin, libopenmpi-dev).
MPICC ?= mpicc
HAVE_MPICC := $(shell command -v $(MPICC) >/dev/null 2>&1 && echo yes)
RUN_SRC = $(call srcs_under,run,c)
RUN_HDRS = $(call srcs_under,run,h)
RUN_OBJ = $(RUN_SRC:%.c=$(B)/mpi/%.o)
RUN_PROGRAM = $(if $(HAVE_MPICC),stencilmap-run,no-mpicc)

.PHONY: man all run check check-run check-slurm unit-tests script-tests bench baseline files-today fuzz install uninstall deps clean no-mpicc
all: stencilmap $(RUN_PROGRAM)

stencilmap-run: $(RUN_OBJ) $(B)/libsm.a
	$(MPICC) $(OPT) $(CFLAGS) $(LDFLAGS) -o $@ $(RUN_OBJ) $(B)/libsm.a $(LIBS) -pthread

$(B)/mpi/%.o: %.c $(RUN_HDRS) $(HDRS)
	@mkdir -p $(@D)
	$(MPICC) $(CFLAGS_ALL) -c $< -o $@

no-mpicc:
	@echo "stencilmap-run not built: no $(MPICC) (install openmpi-bin and libopenmpi-dev, or set MPICC)"

stencilmap: $(TUI_OBJ) $(B)/libsm.a
	$(CC) $(OPT) $(CFLAGS) $(LDFLAGS) -o $@ $(TUI_OBJ) $(B)/libsm.a $(APP_LIBS) $(LP_LIB) $(LIBS)

$(B)/libsm.a: $(LIB_OBJ)
	@mkdir -p $(@D)
	rm -f $@ && ar rcs $@ $^

$(B)/san/libsm.a: $(SAN_LIB_OBJ)
	@mkdir -p $(@D)
	rm -f $@ && ar rcs $@ $^

$(B)/%.o: %.c $(HDRS)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_ALL) $(TCL_INC) $(LP_INC) -c $< -o $@

$(B)/san/%.o: %.c $(HDRS)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_ALL) $(SAN) $(TCL_INC) $(LP_INC) -c $< -o $@

$(B)/embedded.c: samples/default.json scripts/builtin-library.tcl themes/default.json tools/embed-text-as-c.sh
	@mkdir -p $(@D)
	{ sh tools/embed-text-as-c.sh sm_default_scenario samples/default.json; \
	  sh tools/embed-text-as-c.sh sm_tcl_library scripts/builtin-library.tcl; \
	  sh tools/embed-text-as-c.sh sm_default_theme themes/default.json; } > $@.tmp && mv $@.tmp $@

$(B)/embedded.o: $(B)/embedded.c
	$(CC) $(CFLAGS_ALL) -c $< -o $@
$(B)/san/embedded.o: $(B)/embedded.c
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_ALL) $(SAN) -c $< -o $@

# The sanitized program runs the script tests.
$(B)/san/stencilmap: $(SAN_TUI_OBJ) $(B)/san/libsm.a
	$(CC) $(OPT) $(SAN) $(LDFLAGS) -o $@ $(SAN_TUI_OBJ) $(B)/san/libsm.a $(APP_LIBS) $(LP_LIB) $(LIBS)

# Unit tests: cmocka, built with AddressSanitizer and UBSan.
# tests/unit mirrors the source tree: the test of core/model/cost_incremental.c is
# tests/unit/core/model/test_cost_incremental.c.
UNIT_BIN = $(UNIT_SRC:tests/unit/%.c=$(B)/san/tests/%)
$(B)/san/tests/%: tests/unit/%.c tests/unit/testutil.h $(B)/san/libsm.a
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_ALL) $(SAN) $(LP_INC) -o $@ $< $(B)/san/libsm.a $(LP_LIB) $(CMOCKA_LIB) $(LIBS)
# The exact-optimum test includes the bench's oracle and instances.
$(B)/san/tests/solvers/tabu/test_tabu_and_bound_against_exact_optima: tests/bench/exact_mapping_branch_and_bound.h tests/bench/comm_exact_instances.h

# Processor marks and the theme palette live in tui/ but need neither
# curses nor Tcl.
$(B)/san/tests/tui/app/test_processor_marks: tests/unit/tui/app/test_processor_marks.c tests/unit/testutil.h tui/app/processor_marks.c tui/app/processor_marks.h tui/app/colour_theme.c tui/app/colour_theme.h tui/app/installed_data_directory.c tui/app/installed_data_directory.h $(B)/san/libsm.a
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_ALL) $(SAN) $(LP_INC) -o $@ $< tui/app/processor_marks.c tui/app/colour_theme.c tui/app/installed_data_directory.c $(B)/san/libsm.a $(LP_LIB) $(CMOCKA_LIB) $(LIBS)

# A move's text fitted to a pane's columns needs no curses.
$(B)/san/tests/tui/pane/test_text_fit_to_width: tests/unit/tui/pane/test_text_fit_to_width.c tests/unit/testutil.h tui/pane/text_fit_to_width.c tui/pane/text_fit_to_width.h $(B)/san/libsm.a
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_ALL) $(SAN) $(LP_INC) -o $@ $< tui/pane/text_fit_to_width.c $(B)/san/libsm.a $(LP_LIB) $(CMOCKA_LIB) $(LIBS)

# stencilmap-run's plan (run/rank_halo_plan.c) needs no MPI: tested like the rest.
$(B)/san/tests/run/test_rank_halo_plan: tests/unit/run/test_rank_halo_plan.c tests/unit/testutil.h run/rank_halo_plan.c run/rank_halo_plan.h $(B)/san/libsm.a
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_ALL) $(SAN) $(LP_INC) -o $@ $< run/rank_halo_plan.c $(B)/san/libsm.a $(LP_LIB) $(CMOCKA_LIB) $(LIBS)
# ... and so does who reads which energy counter (run/package_energy_shares.c).
$(B)/san/tests/run/test_package_energy_shares: tests/unit/run/test_package_energy_shares.c tests/unit/testutil.h run/package_energy_shares.c run/package_energy_shares.h $(B)/san/libsm.a
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_ALL) $(SAN) $(LP_INC) -o $@ $< run/package_energy_shares.c $(B)/san/libsm.a $(LP_LIB) $(CMOCKA_LIB) $(LIBS)

# The fuzz targets' corpus replay runs in check (gcc, sanitized).
FUZZ_SRC = $(wildcard tests/fuzz/fuzz_*.c)
FUZZ_REPLAY = $(FUZZ_SRC:tests/fuzz/%.c=$(B)/san/fuzz/%)
$(B)/san/fuzz/%: tests/fuzz/%.c tests/fuzz/corpus_replay_main.c $(B)/san/libsm.a
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_ALL) $(SAN) -o $@ $< tests/fuzz/corpus_replay_main.c $(B)/san/libsm.a $(LP_LIB) $(LIBS)
# The theme loader lives in tui/ but needs neither curses nor Tcl.
$(B)/san/fuzz/fuzz_theme: tests/fuzz/fuzz_theme.c tui/app/colour_theme.c tui/app/colour_theme.h tui/app/installed_data_directory.c tui/app/installed_data_directory.h tests/fuzz/corpus_replay_main.c $(B)/san/libsm.a
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_ALL) $(SAN) -o $@ $< tui/app/colour_theme.c tui/app/installed_data_directory.c tests/fuzz/corpus_replay_main.c $(B)/san/libsm.a $(LP_LIB) $(LIBS)

# check installs what is missing first (as run does), then builds and runs
# every suite in a second make, so nothing is compiled before the headers
# and libraries are there.
check: deps
	@$(MAKE) --no-print-directory check-run

check-run: stencilmap $(RUN_PROGRAM) $(B)/san/stencilmap $(UNIT_BIN) $(FUZZ_REPLAY)
	@sh tests/run-all.sh $(B)

# A study on a real Slurm started here (root, slurm-wlm and munge
# installed); says why and passes when it cannot run.
check-slurm: stencilmap $(RUN_PROGRAM)
	@sh tests/slurm/run.sh ./stencilmap

bench: stencilmap
	@$(MAKE) --no-print-directory baseline >/dev/null 2>&1 || \
		echo "baseline not built (needs the git history): bench_tabu_memory's before columns read n/a"
	@$(MAKE) --no-print-directory files-today >/dev/null 2>&1 || \
		echo "today's program not built (needs the git history): bench_files' today rows are missing"
	@sh tests/bench/run.sh

# bench_tabu_memory's "before": the program as of the last commit whose
# tabu kept two dense n x P tables (#14 item 3), built from git.
BASELINE_REV = 2107aed
baseline: $(B)/bench/baseline/stencilmap
$(B)/bench/baseline/stencilmap:
	rm -rf $(B)/bench/baseline
	mkdir -p $(B)/bench/baseline
	git archive $(BASELINE_REV) | tar -x -C $(B)/bench/baseline
	$(MAKE) -C $(B)/bench/baseline stencilmap

# bench_files' "today": main as of c024405, before #40 (files above 64 MB
# refused, mappings as cJSON trees), built from git.
FILES_TODAY_REV = c024405
files-today: $(B)/bench/files-today/stencilmap
$(B)/bench/files-today/stencilmap:
	rm -rf $(B)/bench/files-today
	mkdir -p $(B)/bench/files-today
	git archive $(FILES_TODAY_REV) | tar -x -C $(B)/bench/files-today
	$(MAKE) -C $(B)/bench/files-today stencilmap

# libFuzzer needs clang; each target runs FUZZ_SECONDS on its seed corpus.
fuzz: $(B)/san/stencilmap
	@sh tests/fuzz/run.sh $(FUZZ_SECONDS)
	@sh tests/fuzz/safe_run.sh $(FUZZ_SECONDS) $(B)/san/stencilmap

deps:
	@sh tools/deps.sh

# stencilmap(1)'s KEYS list, regenerated from the key table (the script
# tests check that the page and the table agree).
man: stencilmap
	./stencilmap -b tools/man-keys.tcl man/stencilmap.1
	for m in man/*.1 man/*.5 man/*.7; do \
	    sed -e '$(MAN_VERSION_SED)' "$$m" > "$$m.tmp" && mv "$$m.tmp" "$$m" || exit 1; \
	done

# Every man page's footer carries VERSION, the program's one version
# (make man stamps the pages; install stamps what it installs).
MAN_VERSION_SED = 1s|^\(\.TH [^"]*"[^"]*" \)"stencilmap [^"]*"|\1"stencilmap $(VERSION)"|

run: deps
	@$(MAKE) --no-print-directory stencilmap
	./stencilmap

install: stencilmap
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(MANDIR)/man1 $(DESTDIR)$(MANDIR)/man5 \
	    $(DESTDIR)$(MANDIR)/man7 $(DESTDIR)$(DATADIR)/samples/topologies \
	    $(DESTDIR)$(DATADIR)/samples/grids $(DESTDIR)$(DATADIR)/samples/studies $(DESTDIR)$(DATADIR)/samples/profiles \
	    $(DESTDIR)$(DATADIR)/scripts $(DESTDIR)$(DATADIR)/themes $(DESTDIR)$(DOCDIR)
	install -m 755 stencilmap $(DESTDIR)$(BINDIR)/stencilmap
	if [ -x stencilmap-run ]; then install -m 755 stencilmap-run $(DESTDIR)$(BINDIR)/stencilmap-run; fi
	# Man pages name the installed paths of this PREFIX.
	for m in man/*.1 man/*.5 man/*.7; do \
	    sed -e 's|/usr/local/share/stencilmap|$(DATADIR)|g' -e 's|/usr/local/share/doc/stencilmap|$(DOCDIR)|g' -e '$(MAN_VERSION_SED)' \
	        "$$m" > "$(DESTDIR)$(MANDIR)/man$${m##*.}/$${m##*/}" && \
	    chmod 644 "$(DESTDIR)$(MANDIR)/man$${m##*.}/$${m##*/}" || exit 1; \
	done
	install -m 644 samples/*.json $(DESTDIR)$(DATADIR)/samples/
	install -m 644 samples/topologies/*.json $(DESTDIR)$(DATADIR)/samples/topologies/
	install -m 644 samples/grids/*.json $(DESTDIR)$(DATADIR)/samples/grids/
	install -m 644 samples/studies/*.json $(DESTDIR)$(DATADIR)/samples/studies/
	install -m 644 samples/profiles/*.csv $(DESTDIR)$(DATADIR)/samples/profiles/
	install -m 644 scripts/*.tcl $(DESTDIR)$(DATADIR)/scripts/
	install -m 755 scripts/*.sh $(DESTDIR)$(DATADIR)/scripts/
	if ls themes/*.json >/dev/null 2>&1; then install -m 644 themes/*.json $(DESTDIR)$(DATADIR)/themes/; fi
	install -m 644 README.md LICENSE CHANGELOG.md CITATION.cff $(DESTDIR)$(DOCDIR)/

uninstall:
	rm -f $(DESTDIR)$(BINDIR)/stencilmap $(DESTDIR)$(BINDIR)/stencilmap-run $(DESTDIR)$(MANDIR)/man1/stencilmap.1 \
	    $(DESTDIR)$(MANDIR)/man1/stencilmap-run.1 $(DESTDIR)$(MANDIR)/man5/stencilmap-formats.5 $(DESTDIR)$(MANDIR)/man7/stencilmap-*.7
	rm -rf $(DESTDIR)$(DATADIR) $(DESTDIR)$(DOCDIR)

clean:
	rm -rf $(B) stencilmap stencilmap-run
