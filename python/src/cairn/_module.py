"""Loading cairn.wasm with wasmtime and binding the exports the cluster index uses.

The module is instantiated once per process and shared by every ClusterIndex: the engine keeps
its own registry of indexes and buffers, so one instance serves them all. ``BINDINGS`` is the
list of what these bindings expect from the module; loading checks the module against it, so a
mismatched build fails at load time with a clear message rather than later.
"""

import atexit
import ctypes
import os
import threading

import numpy as np

from .errors import CairnError

# The ABI version these bindings were written for (``cairn_abi_version()`` must return it).
ABI_VERSION = 1

# Every export the bindings call, with its wasm parameter types and result type
# (docs/c-abi.md has what each does).
BINDINGS = {
    "cairn_abi_version": ((), "i32"),
    "cairn_record_stride": ((), "i32"),
    "cairn_status_count": ((), "i32"),
    "cairn_buffer_limit": ((), "i32"),
    "cairn_last_error_detail": ((), "f64"),
    "cairn_alloc": (("i32",), "i32"),
    "cairn_free": (("i32",), "i32"),
    "cairn_index_create": (("f64", "f64", "i32", "i32", "i32"), "i32"),
    "cairn_index_destroy": (("i32",), "i32"),
    "cairn_index_reserve": (("i32", "i32"), "i32"),
    "cairn_index_add": (("i32", "i32", "i32"), "i32"),
    "cairn_index_add_weighted": (("i32", "i32", "i32"), "i32"),
    "cairn_index_world_items": (("i32", "f64", "i32", "i32"), "i32"),
    "cairn_index_build_step": (("i32",), "i32"),
    "cairn_index_point_count": (("i32",), "i32"),
    "cairn_index_cluster_count": (("i32",), "i32"),
    "cairn_index_clusters": (("i32", "f64", "f64", "f64", "f64", "f64", "i32", "i32"), "i32"),
    "cairn_index_children": (("i32", "f64", "i32", "i32"), "i32"),
    "cairn_index_leaves": (("i32", "f64", "f64", "f64", "i32", "i32"), "i32"),
    "cairn_index_expansion_zoom": (("i32", "f64"), "i32"),
    "cairn_index_tile": (("i32", "i32", "i32", "i32", "i32", "i32"), "i32"),
    "cairn_index_aggregate_add": (("i32", "i32", "i32", "i32"), "i32"),
    "cairn_index_aggregate_values": (("i32", "i32", "i32", "i32", "i32"), "i32"),
    "cairn_index_parents": (("i32", "i32", "i32"), "i32"),
    "cairn_index_edit": (("i32", "i32", "i32", "i32", "i32", "i32", "i32", "i32"), "i32"),
    "cairn_index_placed_bounds": (("i32", "i32", "i32"), "i32"),
    "cairn_index_tile_extent": (("i32", "i32", "i32", "i32", "f64", "f64", "i32", "i32"), "i32"),
    "cairn_index_tiles_extent": (("i32", "i32", "i32", "i32", "f64", "f64", "i32", "i32", "i32"), "i32"),
    "cairn_index_tile_cover": (("i32", "i32", "f64", "f64", "i32", "i32", "i32"), "i32"),
    "cairn_mvt_encode": (("i32", "i32", "i32", "i32"), "i32"),
    "cairn_mvt_encode_clusters": (("i32",) * 10, "i32"),
    "cairn_tiles_hilbert_sort": (("i32", "i32", "i32"), "i32"),
    "cairn_pmtiles_create": ((), "i32"),
    "cairn_pmtiles_destroy": (("i32",), "i32"),
    "cairn_pmtiles_add": (("i32", "i32", "i32", "i32", "i32", "i32"), "i32"),
    "cairn_pmtiles_add_tiles": (("i32",) * 7, "i32"),
    "cairn_pmtiles_entry_count": (("i32",), "i32"),
    "cairn_pmtiles_leaf": (("i32", "i32", "i32", "i32", "i32"), "i32"),
    "cairn_pmtiles_root": (("i32", "i32", "i32", "i32", "i32", "i32"), "i32"),
    "cairn_pmtiles_header": (("i32", "i32", "i32", "i32"), "i32"),
}

INT32_MIN = -(2 ** 31)
INT32_MAX = 2 ** 31 - 1


def clamp_int32(value):
    """An integer as a wasm i32 argument: out of range values are clamped, not wrapped, so the
    engine refuses them instead of seeing a plausible small number."""
    return INT32_MIN if value < INT32_MIN else INT32_MAX if value > INT32_MAX else int(value)


def as_pointer(address):
    """A buffer address (unsigned) as the i32 the ABI takes."""
    return address - 2 ** 32 if address > INT32_MAX else address


class Module:
    """The instantiated module: its exports as Python callables and views of its memory."""

    def __init__(self, path):
        import wasmtime

        try:
            config = wasmtime.Config()
            # Compiling the module takes a moment; wasmtime's cache keeps the machine code.
            try:
                config.cache = True
            except Exception:  # a wasmtime without the cache: compile every time
                pass
            engine = wasmtime.Engine(config)
            module = wasmtime.Module.from_file(engine, path)
        except FileNotFoundError as error:
            raise CairnError(f"cairn: could not read the module {path}: {error}", "MODULE_LOAD_FAILED") from error
        except Exception as error:
            raise CairnError(f"cairn: {path} is not a module these bindings can use: {error}", "MODULE_MISMATCH") from error
        self.store = wasmtime.Store(engine)
        # At exit the interpreter tears wasmtime's objects down in no set order: an index freed
        # after the store went would call into freed memory. From then on nothing is called.
        self.shut_down = False
        atexit.register(self._shut_down)
        try:
            # The module imports nothing.
            instance = wasmtime.Instance(self.store, module, [])
        except Exception as error:
            raise CairnError(f"cairn: {path} does not start: {error}", "MODULE_MISMATCH") from error
        exports = instance.exports(self.store)
        names = {e.name for e in module.exports}
        if "cairn_abi_version" not in names or "memory" not in names:
            raise CairnError(f"cairn: {path} is not cairn.wasm (no cairn_abi_version or memory export)", "MODULE_MISMATCH")
        if "_initialize" in names:
            exports["_initialize"](self.store)
        self.memory = exports["memory"]
        problems = []
        self.fn = {}
        store = self.store
        for name, (params, result) in BINDINGS.items():
            if name not in names:
                problems.append(f"missing export {name}")
                continue
            func = exports[name]
            kinds = [str(p) for p in func.type(store).params]
            if kinds != list(params):
                problems.append(f"{name} takes ({', '.join(kinds)}), the bindings pass ({', '.join(params)})")
                continue
            self.fn[name] = _fast_call(store, func, params, result) or (lambda f: lambda *args: f(store, *args))(func)
        if problems:
            raise CairnError(f"cairn: {path} does not match the bindings: {'; '.join(problems)}", "MODULE_MISMATCH")
        self.abi_version = self.fn["cairn_abi_version"]()
        if self.abi_version != ABI_VERSION:
            raise CairnError(f"cairn: {path} has ABI version {self.abi_version} but these bindings know version "
                             f"{ABI_VERSION}; rebuild the module (./build.sh wasm) or update the package", "MODULE_MISMATCH")
        self.record_stride = self.fn["cairn_record_stride"]()
        self.buffer_limit = self.fn["cairn_buffer_limit"]()
        self.status_count = self.fn["cairn_status_count"]()
        self.path = path

    def doubles(self, address, count):
        """A NumPy view of ``count`` doubles of the module's memory at ``address``. Never kept:
        any call that allocates may grow the memory and move it."""
        return self._view(address, count, ctypes.c_double, np.float64)

    def uint8s(self, address, count):
        """A view of ``count`` bytes at ``address`` (never kept, as ``doubles``)."""
        return self._view(address, count, ctypes.c_uint8, np.uint8)

    def int32s(self, address, count):
        """A view of ``count`` int32s at ``address`` (never kept, as ``doubles``)."""
        return self._view(address, count, ctypes.c_int32, np.int32)

    def _view(self, address, count, ctype, dtype):
        if count == 0:
            return np.empty(0, dtype=dtype)
        base = ctypes.addressof(self.memory.data_ptr(self.store).contents)
        return np.ctypeslib.as_array((ctype * count).from_address(base + address))

    def _shut_down(self):
        self.shut_down = True

    def memory_bytes(self):
        """The module's memory size, in bytes."""
        return self.memory.data_len(self.store)


def _fast_call(store, func, params, result):
    """A caller of ``func`` through wasmtime's unchecked entry, with the argument buffer made
    once: wasmtime's ``Func.__call__`` reads the function's type and converts every argument on
    each call, which costs far more than the engine's work for a small query. The types are
    checked once, against BINDINGS, when the module is bound. None when this wasmtime lacks the
    entry (the checked call is used then)."""
    try:
        from wasmtime import Trap, WasmtimeError
        from wasmtime import _ffi as ffi
        call = ffi.wasmtime_func_call_unchecked
        raw = ffi.wasmtime_val_raw
    except (ImportError, AttributeError):
        return None
    slots = (raw * max(1, len(params)))()
    size = len(slots)
    fields = tuple(params)
    context = store._context()
    func_ref = ctypes.byref(func._func)
    out = "i32" if result == "i32" else "f64"

    def invoke(*args):
        for k, kind in enumerate(fields):
            setattr(slots[k], kind, args[k])
        trap = ctypes.POINTER(ffi.wasm_trap_t)()
        error = call(context, func_ref, slots, size, ctypes.byref(trap))
        if error:
            raise WasmtimeError._from_ptr(error)
        if trap:
            raise Trap._from_ptr(trap)
        return getattr(slots[0], out)

    return invoke


_loaded = None
_lock = threading.Lock()


def default_path():
    return os.environ.get("CAIRN_WASM") or os.path.join(os.path.dirname(os.path.abspath(__file__)), "cairn.wasm")


def get_module(path=None):
    """The process's module, loaded on first use (from ``path``, ``$CAIRN_WASM`` or the copy
    the package ships); later calls return the same one."""
    global _loaded
    with _lock:
        if _loaded is None:
            _loaded = Module(path or default_path())
        return _loaded
