/// Elements per call for the loops that run over every point of a large load.
///
/// A WebAssembly engine first runs each function as quickly compiled baseline code and
/// compiles the busy ones again, optimized, in the background; a call already running stays
/// on the code it started with, and only later calls take the optimized code. A loop over a
/// million points written as one call therefore runs entirely on baseline code in a fresh page
/// or process (two to four times slower in V8), however early the optimized code is ready. The
/// loops a load spends its time in make one call per chunk of this many elements instead (to a
/// function kept out of line for that): the first chunks tier the function up, the rest run
/// optimized. A chunk is long enough that the calls cost nothing beside the work.
let _callChunk = 1 << 14
