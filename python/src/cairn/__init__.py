"""Cairn's marker clustering engine for Python: supercluster's ``ClusterIndex`` over the same
cairn.wasm the JavaScript runs, executed by wasmtime."""

from ._module import ABI_VERSION, get_module
from .cluster_index import AGGREGATE_OPERATIONS, ClusterIndex
from .errors import CairnError

__all__ = ["ABI_VERSION", "AGGREGATE_OPERATIONS", "CairnError", "ClusterIndex", "get_module"]
