// Phase: the message round trip, from sending a message to the agent's reply arriving on the client's
// socket, in every shape given (sequential, concurrent, ...), for four systems taking turns block by
// block: Switchboard, the same-path baseline (the same work by hand: the fair target), the same path with
// the product's own per-message work added by hand (what the framework costs beyond the features:
// bench/same-path-server.mjs says what it adds) and the floor (bare Socket.IO and one INSERT).
import { fmt, table } from '../lib/output.mjs';
import { measureRoundTrips, roundTripSystems } from '../lib/round-trip.mjs';
import { ratio } from '../lib/stats.mjs';

const SYSTEMS = ['floor', 'samePath', 'samePathProduct', 'switchboard'];

/** App + PostgreSQL CPU per message: what the goal compares. */
const serverCpu = (r) => (r.cpuMsPerMessage ? r.cpuMsPerMessage.server + r.cpuMsPerMessage.postgres : NaN);

/**
 * The goals against the same path, each shape: [label, value of a shape's result, goal, true when more
 * is better]. p99 is a goal for the concurrent shape only (one message at a time has little to queue).
 */
const GOALS = [
  ['app CPU per message', (r) => r.cpuMsPerMessage?.server ?? NaN, 1.3, false],
  ['app + PostgreSQL CPU per message', serverCpu, 1.2, false],
  ['p99 round trip', (r) => r.p99, 1.5, false, ['concurrent']],
  ['messages per second', (r) => r.perSecond, 0.8, true],
];

export function roundTrip(shapes) {
  return {
    key: 'roundTrip',
    title: 'Message round trip (send → agent reply event on the socket):',

    async measure(ctx, result) {
      const { floor, samePath, samePathProduct, switchboard } = await roundTripSystems(ctx);
      await measureRoundTrips([floor, samePath, samePathProduct, switchboard], shapes, result);
      result.goals = shapes.flatMap((shape) =>
        GOALS.filter(([, , , , only]) => !only || only.includes(shape.name)).map(
          ([label, value, goal, moreIsBetter]) => {
            const measured = ratio(value(result.switchboard[shape.name]), value(result.samePath[shape.name]));
            // Not a goal: the same against the same path doing the product's features too.
            const vsProduct = ratio(
              value(result.switchboard[shape.name]),
              value(result.samePathProduct[shape.name]),
            );
            return { metric: `${shape.name} ${label}`, ratio: measured, goal, moreIsBetter, vsProduct };
          },
        ),
      );
      result.table = shapes.flatMap((shape) => {
        const [f, p, q, s] = SYSTEMS.map((name) => result[name][shape.name]);
        return [
          ...shape.metrics.map(([metric, key]) => [metric, f[key], p[key], q[key], s[key]]),
          [
            `${shape.name} CPU ms/msg (app + PostgreSQL)`,
            serverCpu(f),
            serverCpu(p),
            serverCpu(q),
            serverCpu(s),
          ],
        ].map(([metric, floorValue, samePathValue, productValue, switchboardValue]) => ({
          metric,
          floor: floorValue,
          samePath: samePathValue,
          samePathProduct: productValue,
          switchboard: switchboardValue,
          vsSamePath: ratio(switchboardValue, samePathValue),
          vsSamePathProduct: ratio(switchboardValue, productValue),
          vsFloor: ratio(switchboardValue, floorValue),
        }));
      });
    },

    print(result) {
      console.log(
        '\nMessage round trip: ratio = switchboard / same-path (the goals: in the next table), switchboard /\n' +
          'same-path with the product work (+product) and switchboard / floor (latency and CPU: >1 is slower;\n' +
          'msgs/s: <1 is slower)',
      );
      console.log(
        table(
          [
            'metric',
            'floor',
            'same-path',
            '+product',
            'switchboard',
            'sb/same-path',
            'sb/+product',
            'sb/floor',
          ],
          result.table.map((r) => [
            r.metric,
            fmt(r.floor),
            fmt(r.samePath),
            fmt(r.samePathProduct),
            fmt(r.switchboard),
            `${fmt(r.vsSamePath)}x`,
            `${fmt(r.vsSamePathProduct)}x`,
            `${fmt(r.vsFloor)}x`,
          ]),
        ),
      );
      if (result.goals?.length) {
        console.log(
          '\nMessage round trip against its goals: switchboard / same-path (and, not a goal, switchboard /\n' +
            'the same path doing the product work too: what is left is the framework)',
        );
        console.log(
          table(
            ['goal', 'measured', 'goal', 'met', 'vs +product'],
            result.goals.map((g) => [
              g.metric,
              `${fmt(g.ratio)}x`,
              `${g.moreIsBetter ? '≥' : '≤'} ${g.goal}x`,
              (g.moreIsBetter ? g.ratio >= g.goal : g.ratio <= g.goal) ? 'yes' : 'no',
              g.vsProduct === undefined ? '-' : `${fmt(g.vsProduct)}x`,
            ]),
          ),
        );
      }
      console.log('\nPOST /messages → 201 alone (message stored, reply queued), ms');
      console.log(
        table(
          ['run', 'p50', 'p90', 'p99', 'mean'],
          ['samePath', 'samePathProduct', 'switchboard'].flatMap((system) =>
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
