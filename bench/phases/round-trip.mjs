// Phase: the message round trip, from sending a message to the agent's reply arriving on the client's
// socket, in every shape given (sequential, concurrent, ...), for three systems taking turns block by
// block: Switchboard, the same-path baseline (the same work by hand: the fair target) and the floor (bare
// Socket.IO and one INSERT).
import { fmt, table } from '../lib/output.mjs';
import { measureRoundTrips, roundTripSystems } from '../lib/round-trip.mjs';
import { ratio } from '../lib/stats.mjs';

const SYSTEMS = ['floor', 'samePath', 'switchboard'];

/** App + PostgreSQL CPU per message: what the goal compares. */
const serverCpu = (r) => (r.cpuMsPerMessage ? r.cpuMsPerMessage.server + r.cpuMsPerMessage.postgres : NaN);

export function roundTrip(shapes) {
  return {
    key: 'roundTrip',
    title: 'Message round trip (send → agent reply event on the socket):',

    async measure(ctx, result) {
      const { floor, samePath, switchboard } = await roundTripSystems(ctx);
      await measureRoundTrips([floor, samePath, switchboard], shapes, result);
      result.table = shapes.flatMap((shape) => {
        const [f, p, s] = SYSTEMS.map((name) => result[name][shape.name]);
        return [
          ...shape.metrics.map(([metric, key]) => [metric, f[key], p[key], s[key]]),
          [`${shape.name} CPU ms/msg (app + PostgreSQL)`, serverCpu(f), serverCpu(p), serverCpu(s)],
        ].map(([metric, floorValue, samePathValue, switchboardValue]) => ({
          metric,
          floor: floorValue,
          samePath: samePathValue,
          switchboard: switchboardValue,
          vsSamePath: ratio(switchboardValue, samePathValue),
          vsFloor: ratio(switchboardValue, floorValue),
        }));
      });
    },

    print(result) {
      console.log(
        '\nMessage round trip: ratio = switchboard / same-path (the goal: CPU ≤ 1.5x, p50 ≤ 1.5x, msgs/s ≥ 0.67x),\n' +
          'and switchboard / floor (latency and CPU: >1 is slower; msgs/s: <1 is slower)',
      );
      console.log(
        table(
          ['metric', 'floor', 'same-path', 'switchboard', 'sb/same-path', 'sb/floor'],
          result.table.map((r) => [
            r.metric,
            fmt(r.floor),
            fmt(r.samePath),
            fmt(r.switchboard),
            `${fmt(r.vsSamePath)}x`,
            `${fmt(r.vsFloor)}x`,
          ]),
        ),
      );
      console.log('\nPOST /messages → 201 alone (message stored, reply queued), ms');
      console.log(
        table(
          ['run', 'p50', 'p90', 'p99', 'mean'],
          ['samePath', 'switchboard'].flatMap((system) =>
            shapes.map(({ name }) => {
              const post = result[system][name].postOnly;
              return [`${system} ${name}`, fmt(post.p50), fmt(post.p90), fmt(post.p99), fmt(post.mean)];
            }),
          ),
        ),
      );
      console.log(
        '\nCPU ms per message (server = app, same-path or floor process; client = this process, incl. the webhook)',
      );
      console.log(
        table(
          ['run', 'server', 'postgres', 'client', 'total'],
          SYSTEMS.flatMap((system) =>
            shapes.map(({ name }) => {
              const cpu = result[system][name].cpuMsPerMessage;
              if (!cpu) return [`${system} ${name}`, '-', '-', '-', '-'];
              return [
                `${system} ${name}`,
                fmt(cpu.server),
                fmt(cpu.postgres),
                fmt(cpu.client),
                fmt(cpu.server + cpu.postgres + cpu.client),
              ];
            }),
          ),
        ),
      );
    },
  };
}
