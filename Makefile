# SMART for Linux: build / boot / test pipeline.
# `make help` lists the targets. Everything generated goes to build/.

CONFIG ?= test
BUILD  := $(CURDIR)/build
OBJ     = $(BUILD)/obj-$(CONFIG)
HDRS    = $(BUILD)/obj-test/usr/include
S      := $(CURDIR)/scripts
export SMART_CONFIG := $(CONFIG)

.PHONY: help deps kernel headers initramfs host-test selftests demo tools tools-test media \
	test fuzz kcsan run trace trace-shot bench bench-bin patches check-patches check-series \
	deb deb-tools deb-test deb-kernel-test clean distclean

help:
	@echo "make deps                 install missing Debian packages (apt)"
	@echo "make kernel [CONFIG=test|bench|debug|kcsan]  unpack, overlay, patch, configure, build bzImage"
	@echo "make initramfs            busybox initramfs (build/initramfs.cpio)"
	@echo "make host-test            host unit tests (tests/host)"
	@echo "make selftests            build the kselftests into build/obj-test/kselftest/sched_smart"
	@echo "make demo                 build the share demo (build/demo/smart-demo)"
	@echo "make tools                libsmart + static smartctl in build/tools (make -C tools install)"
	@echo "make tools-test           host tests of libsmart, smartctl and smart-play (TAP)"
	@echo "make media                test clips for smart-play (build/media, scripts/mkclips)"
	@echo "make test                 everything; last line 'N passed, N failed'"
	@echo "make fuzz [FUZZ_CALLS=N]  long syscall fuzz (10^6 calls per mode) on the debug kernel (KASAN, UBSAN, lockdep)"
	@echo "make kcsan                the selftests on a KCSAN kernel in both modes; counts races in SMART code"
	@echo "make run                  boot in QEMU: shell on a terminal, else the demo"
	@echo "make bench [BENCH=quick|full|smoke]  evaluation suite in QEMU: build/bench/latest/report.md"
	@echo "make bench-bin            build the workloads (build/bench/bin)"
	@echo "make trace                record the media demo with trace-cmd: build/trace/trace.dat"
	@echo "make trace-shot           KernelShark screenshot of it under Xvfb (build/trace/kernelshark.png)"
	@echo "make patches              git format-patch series in build/patches-out"
	@echo "make check-series         build and boot every prefix of the series (not in make test)"
	@echo "make deb-tools            smart-tools, libsmart0, libsmart-dev packages in build/deb"
	@echo "make deb-test             install them in a clean bookworm chroot and use them (TAP)"
	@echo "make deb                  deb-tools + linux-image/linux-headers from Debian's config (hours)"
	@echo "make deb-kernel-test      boot the linux-image package's kernel in QEMU, run the selftests"
	@echo "make clean | distclean    remove objects | all of build/"
	@echo "scripts/vm-run --help     run a command in the guest"

deps:
	@$(S)/deps

kernel:
	@$(S)/build-kernel $(CONFIG) >/dev/null

# uapi headers of the test kernel (with the SMART syscall numbers) for user space
headers:
	@$(S)/prepare-tree
	@$(S)/kconfig-merge test
	@SMART_CONFIG=test bash -c '. $(S)/lib.sh; smart_kmake -s headers' >/dev/null

initramfs:
	@$(S)/mkinitramfs

host-test:
	@if [ -f tests/host/Makefile ]; then $(S)/prepare-tree && \
		$(MAKE) -C tests/host check KSRC=$(BUILD)/linux; \
	else echo "host-test: tests/host/Makefile absent: skipped"; fi

# tools/testing/selftests/sched_smart, built by the kernel's kselftest
# Makefiles against the test kernel's headers: build/obj-test/kselftest/sched_smart
selftests: headers
	@$(MAKE) -s -C $(BUILD)/linux/tools/testing/selftests TARGETS=sched_smart \
		O=$(BUILD)/obj-test

demo: headers
	@mkdir -p $(BUILD)/demo
	gcc -static -O2 -Wall -Wextra -I include/uapi -isystem $(HDRS) -o $(BUILD)/demo/smart-demo scripts/demo.c
	gcc -static -O2 -Wall -Wextra -pthread -I include/uapi -isystem $(HDRS) -o $(BUILD)/demo/smart-media scripts/media-demo.c

# libsmart and smartctl (static, for the guest too) in build/tools
tools:
	@$(MAKE) --no-print-directory -C tools O=$(BUILD)/tools

# deterministic test clips for smart-play (build/media)
media:
	@$(S)/mkclips >/dev/null

tools-test:
	@$(MAKE) --no-print-directory -C tools O=$(BUILD)/tools check

test: deps
	@$(S)/test-all

# the long fuzz: debug kernel (configs/debug.config), both modes, trinity beside
# the fuzzer when installed (TRINITY=0: never), CPU 1 hotplug (FUZZ_HOTPLUG=0:
# none); logs in build/fuzz/logs
FUZZ_CALLS ?= 1000000
FUZZ_MODES ?= optin all
fuzz: deps headers
	@$(S)/fuzz --calls $(FUZZ_CALLS) --modes "$(FUZZ_MODES)" $(if $(FUZZ_SEED),--seed $(FUZZ_SEED)) \
		$(if $(filter 0,$(TRINITY)),--no-trinity) $(if $(filter 0,$(FUZZ_HOTPLUG)),--no-hotplug)

# the data-race detector: configs/kcsan.config (build/obj-kcsan), the
# selftests in both modes, KCSAN reports in SMART code counted; logs in
# build/logs/kcsan
kcsan: deps selftests tools media initramfs
	@$(S)/kcsan

run: deps kernel demo tools media initramfs
	@if [ -t 0 ]; then $(S)/vm-run; \
	else $(S)/vm-run --timeout 300 -- sh scripts/demo.sh; fi

patches:
	@$(S)/mkpatches

check-patches:
	@$(S)/check-patches

check-series: deps
	@$(S)/check-series

deb-tools:
	@$(S)/mkdeb

deb-test: deps
	@$(S)/deb-test

deb: deps deb-tools
	@$(S)/mkdeb-kernel

deb-kernel-test: selftests tools
	@$(S)/deb-kernel-test
	@$(S)/deb-kernel-test --all

clean:
	rm -rf $(BUILD)/obj-* $(BUILD)/kconfig-* $(BUILD)/demo \
		$(BUILD)/initramfs.cpio $(BUILD)/initramfs.cpio.d $(BUILD)/vmrun $(BUILD)/patches-out \
		$(BUILD)/patchcheck $(BUILD)/obj-series $(BUILD)/obj-deb $(BUILD)/deb $(BUILD)/tools $(BUILD)/bench/bin $(BUILD)/initramfs-bench.cpio* \
		$(BUILD)/fuzz

distclean:
	chmod -R u+w $(BUILD) 2>/dev/null || true
	rm -rf $(BUILD)

# the evaluation suite: paper workloads and overheads under every label
BENCH ?= quick
bench: deps
	@$(S)/bench --$(BENCH)

bench-bin: tools
	@$(MAKE) --no-print-directory -C bench

# trace-cmd in the guest records the media demo (audio, video, batch on one CPU)
trace: deps kernel demo initramfs
	@mkdir -p $(BUILD)/trace
	$(S)/vm-run --cpus 2 --timeout 300 --log $(BUILD)/logs/trace.log -- sh scripts/trace-demo.sh build/trace/trace.dat
	@echo "trace: $(BUILD)/trace/trace.dat (open it with: kernelshark $(BUILD)/trace/trace.dat)"

# KernelShark (Debian's) opens that trace under Xvfb; a screenshot of its window
trace-shot:
	@$(S)/deps --shot
	$(S)/kernelshark-shot $(BUILD)/trace/trace.dat $(BUILD)/trace/kernelshark.png
