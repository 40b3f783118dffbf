// Web Mercator, as far as the JavaScript side needs it. The engine does the projecting; this is
// for the few places that reason about its limits without asking it.

/** The latitude where the square Web Mercator world ends: atan(sinh(π)), in degrees (≈ 85.0511°). */
export const MAX_LATITUDE = (Math.atan(Math.sinh(Math.PI)) * 180) / Math.PI;
