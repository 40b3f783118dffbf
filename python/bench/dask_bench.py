"""Distributed clustering on Dask to a PMTiles archive, beside one ClusterIndex writing the same
archive on the same points where they fit one module: time, peak memory, archive size.

    python python/bench/dask_bench.py [--points N ...] [--max-zoom Z] [--workers W] [--markdown FILE]

The points (300 seeded blobs, as python/bench/cluster_bench.py makes them) are written to Parquet
files first, which is not timed; the run reads them on the workers. It runs on a LocalCluster of
W worker processes with one thread each, started here. Needs the package and its Dask extras
(./build.sh bench makes the environment).
"""

import argparse
import json
import os
import platform
import resource
import shutil
import subprocess
import sys
import tempfile
import time

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from cluster_bench import fmt_bytes, machine_line, points  # noqa: E402

# Points per Parquet file.
FILE_POINTS = 2_000_000
MAX_POINTS = 1 << 24


def write_files(folder, n):
    import pandas as pd

    paths = []
    starts = range(0, n, FILE_POINTS)
    for k, start in enumerate(starts):
        count = min(FILE_POINTS, n - start)
        p = points(count, "clustered", draws=1000 + k)   # the same 300 blobs in every file
        path = os.path.join(folder, f"points-{k:03d}.parquet")
        pd.DataFrame({"lng": p[:, 0], "lat": p[:, 1]}).to_parquet(path)
        paths.append(path)
    return paths


def peak_rss():
    """This process's peak resident set. The kernel's high-water mark starts afresh at exec;
    getrusage's maxrss carries the parent's over into a child started with subprocess."""
    try:
        with open("/proc/self/status") as f:
            for line in f:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024


def distributed_run(paths, folder, max_zoom, workers):
    import distributed

    from cairn.dask import cluster_points

    out = os.path.join(folder, "dask.pmtiles")
    with distributed.LocalCluster(n_workers=workers, threads_per_worker=1, processes=True, dashboard_address=None,
                                  memory_limit=0) as cluster, distributed.Client(cluster) as client:
        start = time.perf_counter()
        phases = {}

        def progress(phase, done, total):
            if done == total:
                phases[phase] = time.perf_counter() - start

        run = cluster_points(client, paths, max_zoom=max_zoom, pmtiles=out, labels=False, on_progress=progress)
        seconds = time.perf_counter() - start
        worker_peaks = list(client.run(peak_rss).values())
    return {"seconds": seconds, "worker_peak": max(worker_peaks), "client_peak": peak_rss(), "bytes": os.path.getsize(out),
            "tiles": run.tiles, "partitions": run.partitions, "reruns": run.reruns, "handover": run.handover_items,
            "handover_zoom": run.handover_zoom, "phases": phases}


def single_child(paths, folder, max_zoom):
    """One ClusterIndex in this process: read, load, write the archive."""
    import pandas as pd

    import cairn

    cairn.get_module()
    start = time.perf_counter()
    p = np.concatenate([pd.read_parquet(path).to_numpy() for path in paths])
    out = os.path.join(folder, "one.pmtiles")
    with cairn.ClusterIndex(max_zoom=max_zoom).load_coordinates(p) as index:
        tiles = index.write_pmtiles(out)
    return {"seconds": time.perf_counter() - start, "peak": peak_rss(), "bytes": os.path.getsize(out), "tiles": tiles}


def fmt_time(s):
    return f"{s:.1f} s" if s < 600 else f"{s / 60:.1f} min"


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--points", type=int, nargs="+", default=[1_000_000, 10_000_000])
    parser.add_argument("--max-zoom", type=int, default=14)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--markdown")
    parser.add_argument("--child", nargs=2)
    args = parser.parse_args()
    if args.child:
        folder, paths = args.child
        print(json.dumps(single_child(json.loads(paths), folder, args.max_zoom)))
        return
    rows = []
    for n in args.points:
        folder = tempfile.mkdtemp(prefix="cairn-dask-bench-")
        try:
            paths = write_files(folder, n)
            d = distributed_run(paths, folder, args.max_zoom, args.workers)
            print(f"{n:,} points: Dask {fmt_time(d['seconds'])}, worker peak {fmt_bytes(d['worker_peak'])}, "
                  f"archive {d['bytes'] / 1e6:.1f} MB, {d['tiles']:,} tiles, {d['partitions']} partitions, "
                  f"{d['reruns']} redone, {d['handover']:,} items at the hand-over zoom {d['handover_zoom']}; phases done at "
                  + ", ".join(f"{k} {fmt_time(v)}" for k, v in d["phases"].items()), flush=True)
            s = None
            if n <= MAX_POINTS:
                out = subprocess.run([sys.executable, __file__, "--max-zoom", str(args.max_zoom), "--child", folder,
                                      json.dumps(paths)], check=True, capture_output=True, text=True)
                s = json.loads(out.stdout)
                print(f"  one ClusterIndex: {fmt_time(s['seconds'])}, peak {fmt_bytes(s['peak'])}, "
                      f"archive {s['bytes'] / 1e6:.1f} MB, {s['tiles']:,} tiles", flush=True)
            rows.append([f"{n:,}", fmt_time(d["seconds"]), fmt_bytes(d["worker_peak"]), fmt_bytes(d["client_peak"]),
                         f"{d['bytes'] / 1e6:.1f} MB ({d['tiles']:,} tiles)", f"{d['partitions']} ({d['reruns']} redone)",
                         f"{d['handover']:,} at zoom {d['handover_zoom']}",
                         f"{fmt_time(s['seconds'])}, peak {fmt_bytes(s['peak'])}, {s['bytes'] / 1e6:.1f} MB" if s
                         else "beyond one module"])
        finally:
            shutil.rmtree(folder, ignore_errors=True)
    if args.markdown:
        from importlib.metadata import version
        beside = any(n <= MAX_POINTS for n in args.points)
        about = (f"`python python/bench/dask_bench.py --points {' '.join(str(n) for n in args.points)}`: points in 300 "
                 f"seeded blobs of 0.0003° to 10°, in Parquet files of {FILE_POINTS:,}, clustered with radius 40, extent "
                 f"512, zooms 0–{args.max_zoom} into one PMTiles archive (extent 4096, cluster ids). "
                 f"`cairn.dask.cluster_points(pmtiles=…, labels=False)` on a LocalCluster of {args.workers} worker "
                 f"processes with one thread each on this machine, from reading the files to the archive in place"
                 + ("; beside it, one `ClusterIndex` in a process of its own reading the same files and writing the same "
                    "archive (`write_pmtiles`)" if beside else "") +
                 f". Peak memory is the largest resident set of a process. Python {platform.python_version()}, "
                 f"Dask {version('dask')}, wasmtime {version('wasmtime')}.")
        columns = ["points", "Dask run", "peak per worker", "peak of the client", "archive", "partitions",
                   "hand-over items"] + (["one ClusterIndex"] if beside else [])
        table = ["| " + " | ".join(columns) + " |", "|" + " --- |" * len(columns)] + \
            ["| " + " | ".join(r[:len(columns)]) + " |" for r in rows]
        heading = "## Python: distributed clustering on Dask" if beside else \
            "## Python: Dask beyond what one module holds"
        with open(args.markdown, "w") as f:
            f.write("\n\n".join([heading, f"*{machine_line()}*", about, "\n".join(table)]) + "\n")
        print(f"  wrote {args.markdown}")


if __name__ == "__main__":
    main()
