"""Reading points for a distributed run: CSV or Parquet files, or the partitions of a Dask
DataFrame, checked as they are read so that a bad row is refused with its file and row named
before anything is clustered."""

import os

import numpy as np

from ..errors import STATUS_BY_CODE, CairnError


def read_file(path, lng, lat):
    """The ``(n, 2)`` longitude, latitude array of a CSV or Parquet file (by its extension)."""
    import pandas as pd

    name = os.path.basename(path)
    try:
        if path.endswith((".parquet", ".pq")):
            frame = pd.read_parquet(path, columns=[lng, lat])
        else:
            frame = pd.read_csv(path, usecols=[lng, lat], dtype=str, keep_default_na=False)
    except FileNotFoundError as error:
        raise CairnError(f"{path}: cannot be read: {error}", "INVALID_ARGUMENT", STATUS_BY_CODE["INVALID_ARGUMENT"]) from None
    except ValueError as error:   # a missing column, or not Parquet
        raise CairnError(f"{name}: {error} (the columns must include {lng!r} and {lat!r})",
                         "INVALID_ARGUMENT", STATUS_BY_CODE["INVALID_ARGUMENT"]) from None
    # A CSV's first line is its header: data row r (from 1) is on line r + 1.
    return checked(frame, lng, lat, name, header_lines=0 if path.endswith((".parquet", ".pq")) else 1)


def checked(frame, lng, lat, name, header_lines=0):
    """The frame's two columns as an ``(n, 2)`` float array, longitudes wrapped into
    [-180, 180); the first row that is not a number, not finite or beyond ±90° latitude is
    refused with ``name`` and its row (from 1) in the message and the row as the detail."""
    import pandas as pd

    for column in (lng, lat):
        if column not in frame.columns:
            raise CairnError(f"{name}: no column {column!r}", "INVALID_ARGUMENT", STATUS_BY_CODE["INVALID_ARGUMENT"])
    x = pd.to_numeric(frame[lng], errors="coerce").to_numpy(dtype=np.float64)
    y = pd.to_numeric(frame[lat], errors="coerce").to_numpy(dtype=np.float64)
    bad = ~(np.isfinite(x) & np.isfinite(y))
    out_of_range = ~bad & (np.abs(y) > 90)
    first = np.flatnonzero(bad | out_of_range)
    if len(first):
        row = int(first[0])
        where = f"{name}: row {row + 1}" + (f" (line {row + 1 + header_lines})" if header_lines else "")
        raw = frame.iloc[row]
        if bad[row]:
            raise CairnError(f"{where}: {lng}={raw[lng]!r}, {lat}={raw[lat]!r} is not a finite coordinate",
                             "NON_FINITE_COORDINATE", STATUS_BY_CODE["NON_FINITE_COORDINATE"], row + 1)
        raise CairnError(f"{where}: latitude {raw[lat]!r} is outside -90...90",
                         "LATITUDE_OUT_OF_RANGE", STATUS_BY_CODE["LATITUDE_OUT_OF_RANGE"], row + 1)
    # Wrapped as the engine wraps them, so that every task places a point where the engine does.
    x = np.where((x >= -180) & (x < 180), x, (x + 180) % 360 - 180)
    return np.column_stack([x, y])
