// CPU accounting from /proc (Linux only; elsewhere the CPU columns read '-'): where the time goes.
import { existsSync, readdirSync, readFileSync } from 'node:fs';

export const HAS_PROC = existsSync('/proc/self/stat');
const CLOCK_TICKS_PER_SECOND = 100; // USER_HZ, 100 on every mainstream Linux

function procStat(pid) {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return text.slice(text.lastIndexOf(')') + 2).split(' '); // [0] is field 3 (state)
  } catch {
    return null;
  }
}

/** User + system CPU of a process (ms); with children, also of its children that have exited. */
function processCpuMs(pid, withExitedChildren = false) {
  const f = pid ? procStat(pid) : null;
  if (!f) return 0;
  const ticks = Number(f[11]) + Number(f[12]) + (withExitedChildren ? Number(f[13]) + Number(f[14]) : 0);
  return (ticks * 1000) / CLOCK_TICKS_PER_SECOND;
}

/** The embedded PostgreSQL: the postmaster and every backend and helper it forked. */
function postgresCpuMs(postmasterPid) {
  let total = processCpuMs(postmasterPid, true);
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const f = procStat(name);
    if (f && Number(f[1]) === postmasterPid) total += processCpuMs(name);
  }
  return total;
}

function benchCpuMs() {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
}

/**
 * Probe for measureRoundTrips: CPU ms per message of the server process, PostgreSQL and this process,
 * summed over the blocks between begin() and end(); take() returns it (with `extra`'s figures) and resets.
 */
export function cpuProbe(serverPid, postmasterPid, extra = { begin() {}, end() {}, take: () => ({}) }) {
  const sample = () => ({
    // Several server processes (distributed: api nodes and workers) count together.
    server: [serverPid].flat().reduce((sum, pid) => sum + processCpuMs(pid), 0),
    postgres: postmasterPid ? postgresCpuMs(postmasterPid) : 0,
    client: benchCpuMs(),
  });
  let before = null;
  let used = { server: 0, postgres: 0, client: 0 };
  return {
    begin() {
      extra.begin();
      before = HAS_PROC ? sample() : null;
    },
    end() {
      extra.end();
      if (!before) return;
      const after = sample();
      for (const key of Object.keys(used)) used[key] += after[key] - before[key];
    },
    take(count) {
      const result = extra.take();
      const per = (key) => Math.round((used[key] / count) * 100) / 100;
      const cpu = HAS_PROC
        ? { cpuMsPerMessage: { server: per('server'), postgres: per('postgres'), client: per('client') } }
        : {};
      used = { server: 0, postgres: 0, client: 0 };
      return { ...result, ...cpu };
    },
  };
}
