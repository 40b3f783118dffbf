// Seeded point sets for the benchmark and the example: every run sees the same points.

/** A small seeded generator (mulberry32). */
export function mulberry32(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** `n` points spread evenly over longitudes and latitudes up to ±85°. */
export function uniform(n, random) {
  const out = new Float64Array(2 * n);
  for (let i = 0; i < n; i++) {
    out[2 * i] = random() * 360 - 180;
    out[2 * i + 1] = random() * 170 - 85;
  }
  return out;
}

/** Gaussian-ish blobs of spreads from metres to continents; some straddle the antimeridian. */
export function clustered(n, random) {
  const blobs = [];
  for (let b = 0; b < 300; b++) {
    const acrossAntimeridian = b % 25 === 0;
    blobs.push({
      lng: acrossAntimeridian ? 180 - random() * 2 : random() * 360 - 180,
      lat: random() * 140 - 70,
      spread: 10 ** (random() * 4.5 - 3.5), // 0.0003° … 10°
      weight: random() ** 2,
    });
  }
  const total = blobs.reduce((s, b) => s + b.weight, 0);
  let acc = 0;
  const cumulative = blobs.map((b) => (acc += b.weight / total));
  // Sum of three uniforms: bell-shaped, cheap, bounded.
  const bell = () => (random() + random() + random() - 1.5) / 0.5;
  const out = new Float64Array(2 * n);
  for (let i = 0; i < n; i++) {
    const r = random();
    let lo = 0;
    let hi = cumulative.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (cumulative[mid] < r) lo = mid + 1; else hi = mid;
    }
    const b = blobs[lo];
    let lng = b.lng + bell() * b.spread;
    if (lng >= 180) lng -= 360;
    if (lng < -180) lng += 360;
    out[2 * i] = lng;
    out[2 * i + 1] = Math.max(-85, Math.min(85, b.lat + bell() * b.spread));
  }
  return out;
}
