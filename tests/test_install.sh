#!/usr/bin/env bash
# The installed package as a program outside the tree sees it: `cmake --install` of this build
# into a temporary prefix, then examples/ configured against it with find_package(clgemm) (the
# shared library, then the static one) and built once more with pkg-config; each program runs on
# the machine's OpenCL device and must print a verified result.
#   test_install.sh BUILD_DIR SOURCE_DIR LIBDIR CMAKE
# (LIBDIR: CMAKE_INSTALL_LIBDIR, "lib" unless the build was configured for /usr.) Exit 77 (ctest:
# skipped) when the library has no C API yet.
set -euo pipefail
build=$1 source=$2 libdir=$3 cmake=$4

fail() { echo "test_install: FAIL: $*" >&2; exit 1; }
# Runs a program, shows what it printed, and requires `verified` in it.
run_verified() {
  local out
  out=$("$@") || fail "$* exited $?: $out"
  echo "$out"
  grep -q "verified" <<<"$out" || fail "$* printed no verified result"
}

library=$(ls "$build"/libclgemm.so.*.* 2>/dev/null | head -n 1)
[ -n "$library" ] || fail "no libclgemm.so.* in $build"
# (Here-strings, not pipes, into grep -q: it exits at the first match, and under pipefail the
# writer's SIGPIPE would fail the pipeline whenever output was still coming.)
if ! grep -qw clgemmSgemm <<<"$(nm -D --defined-only "$library")"; then
  echo "test_install: skipped: $library does not define clgemmSgemm (host/api/ not in this tree)"
  exit 77
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
prefix=$tmp/prefix
# What the programs read: the installed package's shipped entries, never the user's store.
export CLGEMM_STORE=$tmp/no-store
unset CLGEMM_DATA

"$cmake" --install "$build" --prefix "$prefix" >"$tmp/install.log" || {
  cat "$tmp/install.log"
  fail "cmake --install"
}
for f in bin/clgemm "$libdir/libclgemm.so" "$libdir/libclgemm.a" include/clgemm/clgemm.h \
  share/clgemm/kernels.cl share/clgemm/data/params "$libdir/cmake/clgemm/clgemmConfig.cmake" \
  "$libdir/cmake/clgemm/clgemmConfigVersion.cmake" "$libdir/cmake/clgemm/clgemmTargets.cmake" \
  "$libdir/pkgconfig/clgemm.pc"; do
  [ -e "$prefix/$f" ] || fail "$f not installed"
done
[ ! -e "$prefix/bin/kernels.cl" ] || fail "kernels.cl installed in bin/ (it goes to share/clgemm)"
[ ! -e "$prefix/share/clgemm/data/results" ] || fail "data/results installed"
# Only the C API is exported, and the interface names nothing internal.
exported=$(nm -D --defined-only "$prefix/$libdir/libclgemm.so" | awk '{print $3}' | sort)
[ -z "$(grep -v '^clgemm' <<<"$exported")" ] || fail "libclgemm.so exports $(grep -v '^clgemm' <<<"$exported" | head -n 3)"
! grep -E 'nlohmann|clblast|openblas|/host' "$prefix/$libdir/cmake/clgemm/clgemmTargets.cmake" ||
  fail "clgemmTargets.cmake names an internal dependency"

# The installed CLI reads the installed kernels (opencl/kernel_source.hpp).
out=$("$prefix/bin/clgemm" --kernel naive --size 16 --reps 1 --warmup 0) || fail "installed clgemm: $out"
grep -q "kernels from $prefix/share/clgemm/kernels.cl" <<<"$out" ||
  fail "the installed clgemm did not read $prefix/share/clgemm/kernels.cl: $out"

# find_package(clgemm): clgemm::clgemm, libclgemm.so.
"$cmake" -S "$source/examples" -B "$tmp/shared" -DCMAKE_PREFIX_PATH="$prefix" \
  -DCMAKE_BUILD_TYPE=Release >"$tmp/shared.log" 2>&1 || { cat "$tmp/shared.log"; fail "configure"; }
"$cmake" --build "$tmp/shared" >>"$tmp/shared.log" 2>&1 || { cat "$tmp/shared.log"; fail "build"; }
linked=$(ldd "$tmp/shared/sgemm_example")
grep -q "$prefix/$libdir/libclgemm.so.0" <<<"$linked" ||
  fail "sgemm_example does not load the installed libclgemm.so: $linked"
run_verified "$tmp/shared/sgemm_example"
# The library reads the installed kernels.cl, found from libclgemm.so's folder (ahead of the
# source tree and the embedded copy): a broken installed copy must make the call fail to build.
kernels=$prefix/share/clgemm/kernels.cl
cp "$kernels" "$tmp/kernels.cl"
echo '#error the installed kernels.cl was read' >>"$kernels"
if out=$("$tmp/shared/sgemm_example" 2>&1); then
  fail "sgemm_example passed with a broken $kernels: the library did not read it: $out"
fi
grep -q clgemmBuildFailed <<<"$out" || fail "a broken $kernels did not fail the build: $out"
cp "$tmp/kernels.cl" "$kernels"
run_verified "$tmp/shared/gemm_bench" 96 fp32 3
run_verified "$tmp/shared/gemm_bench" 64 fp64 2

# The same through pkg-config, as a Makefile would build it.
export PKG_CONFIG_PATH=$prefix/$libdir/pkgconfig
flags=$(pkg-config --cflags --libs clgemm) || fail "pkg-config clgemm"
cc -std=c99 -O2 -o "$tmp/pc_example" "$source/examples/sgemm_example.c" $flags -lm \
  -Wl,-rpath,"$prefix/$libdir" || fail "cc \$(pkg-config --cflags --libs clgemm)"
run_verified "$tmp/pc_example"

# clgemm::clgemm_static, libclgemm.a: no libclgemm.so at run time.
"$cmake" -S "$source/examples" -B "$tmp/static" -DCMAKE_PREFIX_PATH="$prefix" \
  -DCMAKE_BUILD_TYPE=Release -DCLGEMM_EXAMPLES_STATIC=ON >"$tmp/static.log" 2>&1 ||
  { cat "$tmp/static.log"; fail "configure (static)"; }
"$cmake" --build "$tmp/static" >>"$tmp/static.log" 2>&1 || { cat "$tmp/static.log"; fail "build (static)"; }
! grep -q libclgemm <<<"$(ldd "$tmp/static/sgemm_example")" ||
  fail "the static sgemm_example loads libclgemm.so"
run_verified "$tmp/static/sgemm_example"
echo "test_install: ok"
