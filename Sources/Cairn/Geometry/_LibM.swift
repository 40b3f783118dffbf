// The few libm functions the engine needs. Embedded Swift has no Foundation, so both targets
// bind them straight from C: natively from libm, in the wasm build from wasi-libc's libm,
// which is linked into the module (it has no imports).

@_extern(c, "sin") func _sin(_ x: Double) -> Double
@_extern(c, "log") func _log(_ x: Double) -> Double
@_extern(c, "exp") func _exp(_ x: Double) -> Double
@_extern(c, "atan") func _atan(_ x: Double) -> Double
@_extern(c, "floor") func _floor(_ x: Double) -> Double
@_extern(c, "fmod") func _fmod(_ x: Double, _ y: Double) -> Double
@_extern(c, "cos") func _cos(_ x: Double) -> Double
@_extern(c, "tan") func _tan(_ x: Double) -> Double
@_extern(c, "atan2") func _atan2(_ y: Double, _ x: Double) -> Double
@_extern(c, "exp2") func _exp2(_ x: Double) -> Double
@_extern(c, "log2") func _log2(_ x: Double) -> Double
@_extern(c, "round") func _round(_ x: Double) -> Double
@_extern(c, "ceil") func _ceil(_ x: Double) -> Double
