"""Errors of the engine and of the bindings.

Every export of the module returns a status (negative on failure) and leaves a number in
``cairn_last_error_detail`` saying which point, option or cluster was at fault; this file turns
the two into an exception a person can act on. The codes and their numbers are the engine's
(docs/c-abi.md, "Status codes"); a test checks that the module defines exactly these.
"""

import math

# The clustering options in the order of the engine's option field numbers (the detail of an
# INVALID_OPTION status), with the rule the engine enforces, for the message.
OPTION_FIELDS = (
    ("radius", "must be a finite number > 0"),
    ("extent", "must be a finite number > 0"),
    ("min_zoom", "must be an integer from 0 to 30"),
    ("max_zoom", "must be an integer from min_zoom to 30"),
    ("min_points", "must be an integer >= 1"),
)


def _option(field):
    field = int(field)
    if 0 <= field < len(OPTION_FIELDS):
        name, rule = OPTION_FIELDS[field]
        return f"option {name} is out of range: {rule}"
    return f"an option is out of range (field {field})"


def _n(value):
    return int(value) if math.isfinite(value) and value == int(value) else value


# The engine's status codes (positive; the ABI returns them negated): name and message.
# Why a buffer was refused as a saved index (the detail of INVALID_SAVED_INDEX).
_SAVED_INDEX_PROBLEMS = {
    0: "it is truncated (shorter than its content)",
    1: "it is not a saved index",
    2: "it was saved in another format version than this engine reads",
    3: "its content does not match its checksum (altered or damaged)",
    4: "its content contradicts itself",
}

STATUS_CODES = {
    1: ("INVALID_HANDLE", lambda d: "the index does not exist (closed, or never created)"),
    2: ("INVALID_ARGUMENT", lambda d: "invalid argument"),
    3: ("INVALID_OPTION", _option),
    4: ("NON_FINITE_COORDINATE", lambda d: f"point {_n(d)} has a non-finite coordinate"),
    5: ("LATITUDE_OUT_OF_RANGE", lambda d: f"point {_n(d)} has a latitude outside -90...90"),
    6: ("UNKNOWN_CLUSTER", lambda d: f"no cluster with id {_n(d)} (unknown or stale)"),
    7: ("INVALID_STATE", lambda d: "the index is not in a state that allows this call"),
    8: ("TOO_MANY_POINTS", lambda d: "too many points for one index"),
    9: ("OUT_OF_MEMORY", lambda d: f"not enough memory left to hold and cluster {_n(d)} more points"),
    10: ("NON_FINITE_VALUE", lambda d: f"point {_n(d)} has an infinite value for an aggregated property"),
    11: ("INVALID_RECORD", lambda d: f"record {_n(d)} of the batch is malformed"),
    12: ("INVALID_BUCKETS", lambda d: "cluster icon buckets are invalid"),
    13: ("UNKNOWN_MARKER", lambda d: f"no marker with id {_n(d)}"),
    14: ("INVALID_MARKER", lambda d: "a marker property is invalid"),
    15: ("INVALID_MARKER_IN_BATCH", lambda d: f"marker {_n(d)} of the batch has an invalid property"),
    16: ("TOO_MANY_INDEXES", lambda d: f"too many indexes at once: at most {_n(d)} can exist (close one first)"),
    17: ("TOO_MANY_MAPS", lambda d: f"too many maps at once: at most {_n(d)} can exist"),
    18: ("TOO_MANY_CLUSTER_MANAGERS", lambda d: f"a map holds at most {_n(d)} cluster managers at once"),
    19: ("TOO_MANY_MARKERS", lambda d: f"a map holds at most {_n(d)} markers"),
    20: ("TOO_MANY_ITEMS", lambda d: f"a cluster manager holds at most {_n(d)} items"),
    21: ("TOO_MANY_ICONS", lambda d: f"a map registers at most {_n(d)} icons"),
    22: ("TOO_MANY_BUILDINGS", lambda d: f"a map takes at most {_n(d)} indoor buildings over its life"),
    23: ("INVALID_SAVED_INDEX", lambda d: f"not a usable saved index: {_SAVED_INDEX_PROBLEMS.get(int(d), 'it is malformed')}"),
    24: ("UNKNOWN_POINT", lambda d: f"no point with id {_n(d)} (never added, or removed)"),
}

# The ABI status (negative) of each code, by name.
STATUS_BY_CODE = {name: -number for number, (name, _) in STATUS_CODES.items()}

# Codes only the bindings raise, with no engine status (their ``status`` is 0).
BINDING_CODES = {
    "MODULE_LOAD_FAILED": "the module could not be read",
    "MODULE_MISMATCH": "the module is not the cairn.wasm these bindings were written for",
}


class CairnError(Exception):
    """An error of the engine, or of the bindings on its behalf.

    ``code`` is a stable name to branch on (``"NON_FINITE_COORDINATE"``, ...); ``status`` the
    engine's numeric status (negative), 0 for the binding codes; ``detail`` the point index,
    option field, cluster id or count the error is about.
    """

    def __init__(self, message, code, status=0, detail=0):
        super().__init__(message)
        self.code = code
        self.status = status
        self.detail = detail

    def __reduce__(self):
        # Raised on a Dask worker and re-raised where the run was started: pickled whole.
        return (CairnError, (str(self), self.code, self.status, self.detail))


def error_from_status(status, detail, call=None, hint=None):
    """A CairnError for a negative status an export returned and its detail."""
    entry = STATUS_CODES.get(-status)
    text = entry[1](detail) if entry else f"unknown engine status {status}"
    message = f"{call + ': ' if call else ''}{text}{f' ({hint})' if hint else ''}"
    return CairnError(message, entry[0] if entry else "UNKNOWN", status, detail)


def argument_error(call, text, detail=0):
    return CairnError(f"{call}: {text}", "INVALID_ARGUMENT", STATUS_BY_CODE["INVALID_ARGUMENT"], detail)


def option_error(name, text):
    """INVALID_OPTION as the engine reports it: the detail is the option's field number, -1
    for an option the engine does not take (aggregates, map, reduce)."""
    field = next((i for i, (n, _) in enumerate(OPTION_FIELDS) if n == name), -1)
    return CairnError(f"ClusterIndex: {text}", "INVALID_OPTION", STATUS_BY_CODE["INVALID_OPTION"], field)


def memory_error(call, text):
    return CairnError(f"{call}: {text}", "OUT_OF_MEMORY", STATUS_BY_CODE["OUT_OF_MEMORY"])
