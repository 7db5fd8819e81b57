// Round-trip shape: CONFIG.concurrentChats chats at once, each sending CONFIG.messagesPerChat messages one
// after another, over one socket (one user, one tab).
import { CONFIG } from '../lib/config.mjs';
import { runConcurrent } from '../lib/round-trip.mjs';

const label = `concurrent ${CONFIG.concurrentChats}×${CONFIG.messagesPerChat}`;

export const concurrent = {
  name: 'concurrent',
  label,
  blocks: CONFIG.concurrentBlocks,
  total: CONFIG.messagesPerChat,
  warmUp: (system) => runConcurrent(system.send, system.concurrentChats, CONFIG.concurrentWarmupPerChat),
  run: (system, size) => runConcurrent(system.send, system.concurrentChats, size),
  /** Rows of the ratio tables: [label, key of the summary]. */
  metrics: [
    [`${label} p50 (ms)`, 'p50'],
    [`${label} p99 (ms)`, 'p99'],
    [`${label} msgs/s`, 'perSecond'],
  ],
};
