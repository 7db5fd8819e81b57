// Percentiles, summaries and ratios of measured samples.

export function percentile(sorted, p) {
  if (!sorted.length) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}

/** Latency percentiles (ms) and, given the wall time of the run, throughput (per second). */
export function summarize(samples, wallMs) {
  const sorted = [...samples].sort((a, b) => a - b);
  const mean = sorted.reduce((sum, x) => sum + x, 0) / sorted.length;
  const round = (x) => Math.round(x * 1000) / 1000;
  return {
    count: sorted.length,
    p50: round(percentile(sorted, 50)),
    p90: round(percentile(sorted, 90)),
    p99: round(percentile(sorted, 99)),
    mean: round(mean),
    min: round(sorted[0]),
    max: round(sorted[sorted.length - 1]),
    ...(wallMs === undefined
      ? {}
      : { wallMs: Math.round(wallMs), perSecond: Math.round((sorted.length / wallMs) * 1000 * 10) / 10 }),
  };
}

export function ratio(a, b) {
  return Math.round((a / b) * 100) / 100;
}
