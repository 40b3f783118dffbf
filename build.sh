#!/usr/bin/env bash
# The one entry point. ./build.sh [wasm|test|bench|demo|clean]
#   wasm  (default) build web/dist/cairn.wasm with Embedded Swift; the module has no imports
#   test  install what is missing, build, run every test suite (swift test, node --test)
#   bench build (release) and print the benchmark figures
#   clean remove build output
set -euo pipefail
cd "$(dirname "$0")"

WASI_SYSROOT=/usr/lib/wasm32-wasi
BUILTINS=$(ls /usr/lib/llvm-*/lib/clang/*/lib/wasi/libclang_rt.builtins-wasm32.a 2>/dev/null | head -n 1 || true)
OUT=web/dist/cairn.wasm
WORK=.build/wasm

log() { printf '\033[1m==> %s\033[0m\n' "$*" >&2; }

# Debian packages the wasm link needs (libc and libm, compiler builtins), and Node for the JS
# tests. Installed only when missing.
install_deps() {
  local need=()
  [ -f "$WASI_SYSROOT/libc.a" ] || need+=(wasi-libc)
  [ -n "$BUILTINS" ] || need+=(libclang-rt-14-dev-wasm32)
  command -v node >/dev/null || need+=(nodejs)
  if [ ${#need[@]} -gt 0 ]; then
    log "installing ${need[*]}"
    local sudo=""
    [ "$(id -u)" -eq 0 ] || sudo="sudo"
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${need[@]}" >/dev/null
    BUILTINS=$(ls /usr/lib/llvm-*/lib/clang/*/lib/wasi/libclang_rt.builtins-wasm32.a | head -n 1)
  fi
}

build_wasm() {
  install_deps
  command -v swiftc >/dev/null || { echo "swiftc not found: install Swift 6.3 with the Embedded wasm stdlib" >&2; exit 1; }
  local flags=(-target wasm32-unknown-none-wasm -enable-experimental-feature Embedded
               -enable-experimental-feature Extern -wmo -Osize -parse-as-library
               -Xfrontend -disable-stack-protector)
  mkdir -p "$WORK" web/dist
  log "compiling Cairn for wasm32 (Embedded Swift)"
  swiftc "${flags[@]}" -module-name Cairn -emit-module -emit-module-path "$WORK/Cairn.swiftmodule" \
    -c $(find Sources/Cairn -name '*.swift' | sort) -o "$WORK/Cairn.o"
  swiftc "${flags[@]}" -module-name CairnWasm -I "$WORK" \
    -c $(find Sources/CairnWasm -name '*.swift' | sort) -o "$WORK/CairnWasm.o"
  wasm-ld --no-entry --gc-sections --strip-all --stack-first -z stack-size=1048576 \
    --initial-memory=16777216 --max-memory=4294967296 \
    "$WASI_SYSROOT/crt1-reactor.o" "$WORK/CairnWasm.o" "$WORK/Cairn.o" \
    "$WASI_SYSROOT/libc.a" "$BUILTINS" -o "$OUT"
  log "built $OUT ($(wc -c <"$OUT") bytes)"
}

run_tests() {
  build_wasm
  log "swift test"
  swift test 2>&1 | tee .build/swift-test.log | grep -vE '^\[[0-9]+/[0-9]+\]' || true
  grep -qE "Executed [0-9]+ tests?, with 0 failures" .build/swift-test.log || { echo "swift test failed" >&2; exit 1; }
  log "node --test web/test"
  node --test web/test/
}

case "${1:-wasm}" in
  wasm) build_wasm ;;
  test) run_tests ;;
  bench)
    build_wasm
    log "native benchmark (swift run -c release CairnBench)"
    swift run -c release CairnBench
    log "wasm benchmark (node web/bench/cluster-bench.js)"
    node web/bench/cluster-bench.js
    ;;
  clean) rm -rf .build web/dist ;;
  *) echo "usage: ./build.sh [wasm|test|bench|clean]" >&2; exit 2 ;;
esac
