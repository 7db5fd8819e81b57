// Console output: numbers and aligned tables.

export function fmt(x) {
  if (!Number.isFinite(x)) return '-';
  return x >= 100 ? x.toFixed(0) : x >= 10 ? x.toFixed(1) : x.toFixed(2);
}

export function table(headers, rows) {
  const cells = [headers, ...rows];
  const widths = headers.map((_, i) => Math.max(...cells.map((r) => String(r[i]).length)));
  const line = (r) =>
    r.map((c, i) => (i === 0 ? String(c).padEnd(widths[i]) : String(c).padStart(widths[i]))).join('   ');
  return [line(headers), widths.map((w) => '-'.repeat(w)).join('   '), ...rows.map(line)].join('\n');
}
