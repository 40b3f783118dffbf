"""The Python package beside pysupercluster (a C++ port of supercluster) on the same points,
in one run: load time and memory, each library in a process of its own so that its peak
memory is its own.

    python python/bench/cluster_bench.py [--points N] [--repeat K] [--markdown FILE]

Needs the package (pip install ./python) and pysupercluster installed; ./build.sh bench makes
an environment with both.
"""

import argparse
import json
import os
import platform
import resource
import subprocess
import sys
import time

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
OPTIONS = {"radius": 40, "extent": 512, "min_zoom": 0, "max_zoom": 16}
WORLD = (-180.0, -85.0, 180.0, 85.0)


def points(n, kind, seed=42, draws=None):
    """``n`` seeded points: uniform over +-180/+-85, or in 300 blobs of 0.0003 to 10 degrees
    (the blobs from ``seed``; the points drawn in them from ``draws`` when given, so that
    several sets of the same blobs can be made one at a time)."""
    rng = np.random.default_rng(seed)
    if kind == "uniform":
        return np.column_stack([rng.uniform(-180, 180, n), rng.uniform(-85, 85, n)])
    centres = np.column_stack([rng.uniform(-170, 170, 300), rng.uniform(-75, 75, 300)])
    sizes = 10 ** rng.uniform(np.log10(0.0003), 1, 300)
    if draws is not None:
        rng = np.random.default_rng(draws)
    which = rng.integers(0, 300, n)
    p = centres[which] + rng.normal(0, 1, (n, 2)) * sizes[which, None]
    p[:, 0] = (p[:, 0] + 180) % 360 - 180
    p[:, 1] = np.clip(p[:, 1], -85, 85)
    return p


def rss_bytes():
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")


def measure(library, n, kind):
    """One load in this process: time, memory held after it, peak memory, clusters at zoom 5."""
    p = points(n, kind)
    if library == "cairn":
        import cairn
        cairn.get_module()              # compiling the module is not part of the load
        make = lambda: cairn.ClusterIndex(**OPTIONS).load_coordinates(p)
        count = lambda index: len(index.get_cluster_records(WORLD, 5))
    else:
        import pysupercluster
        make = lambda: pysupercluster.SuperCluster(p, **OPTIONS)
        count = lambda index: len(index.getClusters(top_left=(WORLD[0], WORLD[3]), bottom_right=(WORLD[2], WORLD[1]), zoom=5))
    before = rss_bytes()
    start = time.perf_counter()
    index = make()
    seconds = time.perf_counter() - start
    held = rss_bytes() - before
    start = time.perf_counter()
    items = count(index)
    query = time.perf_counter() - start
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
    return {"seconds": seconds, "held": held, "peak": peak, "items": items, "query": query}


def run_child(library, n, kind):
    out = subprocess.run([sys.executable, __file__, "--child", library, "--points", str(n), "--kind", kind],
                         check=True, capture_output=True, text=True)
    return json.loads(out.stdout)


def machine_line():
    """The date and machine line every benchmark's table starts with (web/bench/report.js)."""
    out = subprocess.run(["node", os.path.join(REPO, "web", "bench", "report.js"), "machine"],
                         check=True, capture_output=True, text=True)
    return out.stdout.strip()


def fmt_time(s):
    return f"{s * 1000:.0f} ms" if s < 1 else f"{s:.2f} s"


def fmt_bytes(b):
    return f"{b / 2 ** 20:.0f} MiB"


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--points", type=int, default=1_000_000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--markdown")
    parser.add_argument("--child")
    parser.add_argument("--kind", default="uniform")
    args = parser.parse_args()
    if args.child:
        print(json.dumps(measure(args.child, args.points, args.kind)))
        return
    from importlib.metadata import version
    rows = []
    for kind in ("uniform", "clustered"):
        best = {}
        for _ in range(args.repeat):
            for library in ("cairn", "pysupercluster"):
                r = run_child(library, args.points, kind)
                if library not in best or r["seconds"] < best[library]["seconds"]:
                    best[library] = r
        c, s = best["cairn"], best["pysupercluster"]
        print(f"{kind}: load {fmt_time(c['seconds'])} vs {fmt_time(s['seconds'])}; peak {fmt_bytes(c['peak'])} vs {fmt_bytes(s['peak'])}; "
              f"zoom 5 items {c['items']} vs {s['items']}")
        rows.append([kind, "load (`load_coordinates`; `SuperCluster(points)`)", fmt_time(c["seconds"]), fmt_time(s["seconds"]),
                     f"{s['seconds'] / c['seconds']:.1f}×"])
        rows.append([kind, "memory held after the load", f"{c['held'] / args.points:.0f} B/point", f"{s['held'] / args.points:.0f} B/point",
                     f"{s['held'] / max(c['held'], 1):.1f}×"])
        rows.append([kind, "peak memory of the process", fmt_bytes(c["peak"]), fmt_bytes(s["peak"]), f"{s['peak'] / c['peak']:.1f}×"])
        rows.append([kind, "clusters and points of the world at zoom 5 (query)", f"{c['items']:,} ({fmt_time(c['query'])})",
                     f"{s['items']:,} ({fmt_time(s['query'])})", ""])
    if args.markdown:
        about = (f"`python python/bench/cluster_bench.py`: {args.points:,} points, uniform over ±180°/±85° or clustered in 300 "
                 f"blobs of 0.0003° to 10°, seeded, the same array for both; options radius 40, extent 512, zooms 0–16. "
                 f"Best of {args.repeat} loads, each in a fresh process; peak memory includes the points and the interpreter. "
                 f"Python {platform.python_version()}, wasmtime {version('wasmtime')}, pysupercluster {version('pysupercluster')}. "
                 "The items at zoom 5 show that both clustered the same data; Cairn's are supercluster's, and "
                 "pysupercluster's may differ from them by a few.")
        table = ["| points | measurement | Cairn (Python) | pysupercluster | pysupercluster ÷ Cairn |",
                 "| --- | --- | --- | --- | --- |"] + ["| " + " | ".join(r) + " |" for r in rows]
        with open(args.markdown, "w") as f:
            f.write("\n\n".join(["## Python: ClusterIndex and pysupercluster", f"*{machine_line()}*", about, "\n".join(table)]) + "\n")
        print(f"  wrote {args.markdown}")


if __name__ == "__main__":
    main()
