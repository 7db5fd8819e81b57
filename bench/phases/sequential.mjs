// Round-trip shape: CONFIG.sequential messages one after another in one chat (a chat takes its next
// message only after the reply: the API answers 409 while a reply is pending).
import { CONFIG } from '../lib/config.mjs';
import { runSequential } from '../lib/round-trip.mjs';

export const sequential = {
  name: 'sequential',
  label: `sequential ${CONFIG.sequential}`,
  blocks: CONFIG.sequentialBlocks,
  total: CONFIG.sequential,
  warmUp: (system) => runSequential(system.send, system.sequentialChat, CONFIG.warmup),
  run: (system, size) => runSequential(system.send, system.sequentialChat, size),
  /** Rows of the ratio tables: [label, key of the summary]. */
  metrics: [
    ['sequential p50 (ms)', 'p50'],
    ['sequential p90 (ms)', 'p90'],
    ['sequential p99 (ms)', 'p99'],
    ['sequential mean (ms)', 'mean'],
    ['sequential msgs/s', 'perSecond'],
  ],
};
