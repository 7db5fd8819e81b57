// What the A/B tools print: one measured round of two systems, B / A per metric.
import { fmt, table } from './output.mjs';
import { ratio } from './stats.mjs';

/**
 * `result` as measureRoundTrips fills it for systems named A and B; `cpu`: the CPU rows per shape,
 * [label, key of cpuMsPerMessage].
 */
export function printAbRound(heading, result, shapes, cpu) {
  const rows = [];
  for (const shape of shapes) {
    const [ra, rb] = [result.A[shape.name], result.B[shape.name]];
    for (const [metric, key] of shape.metrics) rows.push([metric, ra[key], rb[key]]);
    for (const [label, key] of cpu) {
      rows.push([`${shape.name} CPU ms/msg ${label}`, ra.cpuMsPerMessage?.[key], rb.cpuMsPerMessage?.[key]]);
    }
  }
  console.log(`\n${heading}; ratio = B / A`);
  console.log(
    table(
      ['metric', 'A', 'B', 'B/A'],
      rows.map(([m, x, y]) => [m, fmt(x), fmt(y), `${fmt(ratio(y, x))}x`]),
    ),
  );
}
