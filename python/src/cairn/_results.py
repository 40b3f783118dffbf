"""The buffer an index's queries write their result records into: one per index, kept between
queries and doubled when a query reports more records than fit, then asked again."""

from ._module import as_pointer
from .errors import STATUS_CODES, memory_error

# Smallest result buffer, in records; it doubles from there as queries need more.
MIN_RESULT_RECORDS = 256


class ResultRecords:
    def __init__(self, module, error):
        self._mod = module
        self._error = error
        self.ptr = 0
        self.capacity = 0

    def query(self, run, call, argument_hint=None, cluster_id=None):
        """Runs ``run(ptr, capacity)`` and returns the records as an (n, stride) array copy."""
        total = run(as_pointer(self.ptr), self.capacity)
        if total > self.capacity:
            self._grow(total, call)
            total = run(as_pointer(self.ptr), self.capacity)
        if total < 0:
            entry = STATUS_CODES.get(-total)
            hint = argument_hint if entry and entry[0] == "INVALID_ARGUMENT" else None
            raise self._error(total, call, hint, cluster_id)
        stride = self._mod.record_stride
        n = min(total, self.capacity)
        return self._mod.doubles(self.ptr, n * stride).reshape(n, stride).copy()

    def free(self):
        if self.ptr:
            self._mod.fn["cairn_free"](as_pointer(self.ptr))
        self.ptr = 0
        self.capacity = 0

    def _grow(self, records, call):
        record_bytes = self._mod.record_stride * 8
        capacity = max(MIN_RESULT_RECORDS, self.capacity)
        while capacity < records:
            capacity *= 2
        limit = self._mod.buffer_limit
        if capacity * record_bytes > limit:
            capacity = max(records, limit // record_bytes)
        self.free()
        ptr = self._mod.fn["cairn_alloc"](min(capacity * record_bytes, 2 ** 31 - 1)) & 0xFFFFFFFF
        if not ptr:
            raise memory_error(call, f"out of WebAssembly memory for {records} result records")
        self.ptr = ptr
        self.capacity = capacity
