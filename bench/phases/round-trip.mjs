// Phase: the message round trip, from sending a message to the agent's reply arriving on the client's
// socket, for Switchboard and the baseline, in every shape given (sequential, concurrent, ...).
import { fmt, table } from '../lib/output.mjs';
import { baselineSystem, measureRoundTrips, switchboardSystem } from '../lib/round-trip.mjs';
import { CONFIG } from '../lib/config.mjs';
import { ratio } from '../lib/stats.mjs';

export function roundTrip(shapes) {
  return {
    key: 'roundTrip',
    title: 'Message round trip (send → agent reply event on the socket):',

    async measure(ctx, result) {
      const sequentialChat = await ctx.newChat('sequential');
      const concurrentChats = [];
      for (let i = 0; i < CONFIG.concurrentChats; i++)
        concurrentChats.push(await ctx.newChat(`concurrent ${i}`));
      const chats = { sequentialChat, concurrentChats };
      const switchboard = await switchboardSystem(ctx, chats);
      const baseline = await baselineSystem(ctx, chats);
      await measureRoundTrips([baseline, switchboard], shapes, result);
      result.table = shapes
        .flatMap((shape) => shape.ratioRows(result.baseline[shape.name], result.switchboard[shape.name]))
        .map(([metric, b, s]) => ({ metric, baseline: b, switchboard: s, ratio: ratio(s, b) }));
    },

    print(result) {
      const { baseline, switchboard } = result;
      console.log(
        '\nMessage round trip: ratio = switchboard / baseline (latency: >1 is slower; msgs/s: <1 is slower)',
      );
      console.log(
        table(
          ['metric', 'baseline', 'switchboard', 'ratio'],
          result.table.map((r) => [r.metric, fmt(r.baseline), fmt(r.switchboard), `${fmt(r.ratio)}x`]),
        ),
      );
      console.log(
        '\nWhere the time goes (switchboard): POST /messages → 201 alone (message stored, reply queued), ms',
      );
      console.log(
        table(
          ['run', 'p50', 'p90', 'p99', 'mean'],
          shapes.map(({ name }) => {
            const post = switchboard[name].postOnly;
            return [name, fmt(post.p50), fmt(post.p90), fmt(post.p99), fmt(post.mean)];
          }),
        ),
      );
      console.log(
        '\nCPU ms per message (server = app or baseline process; client = this process, incl. the webhook)',
      );
      console.log(
        table(
          ['run', 'server', 'postgres', 'client', 'total'],
          [
            ['baseline', baseline],
            ['switchboard', switchboard],
          ].flatMap(([system, systemResult]) =>
            shapes.map(({ name }) => {
              const cpu = systemResult[name].cpuMsPerMessage;
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
