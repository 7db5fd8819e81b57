// Phase: the SQL behind one message, from pg_stat_statements (preloaded in the bench's embedded cluster):
// statements per message and where PostgreSQL's time goes, for Switchboard and the same-path baseline,
// each over the same number of sequential messages with the counters reset before it.
import { CONFIG } from '../lib/config.mjs';
import { fmt, table } from '../lib/output.mjs';
import { roundTripSystems, runSequential } from '../lib/round-trip.mjs';
import { delay } from '../lib/util.mjs';

const { messages, top } = CONFIG.statements;
const SYSTEMS = ['samePath', 'samePathProduct', 'switchboard'];

/**
 * The delivery log's rows of a chat's messages with their headers and body kept (and the signed ones):
 * the app writes one per message, so must the same path doing the product work (the plain one none).
 */
async function deliveryRows(db, chatId) {
  const { rows } = await db.query(
    `SELECT count(*)::int AS n, count(*) FILTER (WHERE d.request_headers ? 'webhook-signature')::int AS signed
     FROM webhook_deliveries d WHERE d.chat_id = $1 AND d.request_body IS NOT NULL`,
    [chatId],
  );
  return rows[0];
}

async function measureSystem(db, system) {
  await runSequential(system.send, system.sequentialChat, 5); // plans cached, connections warm
  await db.query('SELECT pg_stat_statements_reset()');
  // The chat may have had messages in an earlier phase: the rows of the measured ones are the difference.
  const loggedBefore = await deliveryRows(db, system.sequentialChat);
  await runSequential(system.send, system.sequentialChat, messages);
  await delay(200); // the last reply's trailing statements (none expected: it is emitted after COMMIT)
  const { rows } = await db.query(
    `SELECT s.query, s.calls::int AS calls, s.total_exec_time AS ms, s.total_plan_time AS plan_ms, s.rows::int AS rows
     FROM pg_stat_statements s JOIN pg_database d ON d.oid = s.dbid
     WHERE d.datname = current_database() AND s.query NOT ILIKE '%pg_stat_statements%'
     ORDER BY s.total_exec_time + s.total_plan_time DESC`,
  );
  const statements = rows.map((r) => ({
    query: r.query.replace(/\s+/g, ' ').slice(0, 150),
    perMessage: Math.round((r.calls / messages) * 100) / 100,
    msPerMessage: Math.round((r.ms / messages) * 1000) / 1000,
    planMsPerMessage: Math.round((r.plan_ms / messages) * 1000) / 1000,
  }));
  const loggedAfter = await deliveryRows(db, system.sequentialChat);
  return {
    messages,
    deliveryRowsPerMessage: Math.round(((loggedAfter.n - loggedBefore.n) / messages) * 100) / 100,
    signedPerMessage: Math.round(((loggedAfter.signed - loggedBefore.signed) / messages) * 100) / 100,
    statementsPerMessage: Math.round((rows.reduce((n, r) => n + r.calls, 0) / messages) * 100) / 100,
    execMsPerMessage: Math.round((rows.reduce((n, r) => n + r.ms, 0) / messages) * 1000) / 1000,
    planMsPerMessage: Math.round((rows.reduce((n, r) => n + r.plan_ms, 0) / messages) * 1000) / 1000,
    statements,
  };
}

export const statements = {
  key: 'statements',
  title: `SQL per message (pg_stat_statements, ${messages} sequential messages per system):`,

  async measure(ctx, result) {
    await ctx.db.query('CREATE EXTENSION IF NOT EXISTS pg_stat_statements');
    const { samePath, samePathProduct, switchboard } = await roundTripSystems(ctx);
    result.samePath = await measureSystem(ctx.db, samePath);
    result.samePathProduct = await measureSystem(ctx.db, samePathProduct);
    result.switchboard = await measureSystem(ctx.db, switchboard);
  },

  print(result) {
    console.log('\nSQL per message (pg_stat_statements; BEGIN and COMMIT count as statements)');
    console.log(
      table(
        ['system', 'statements/msg', 'plan ms/msg', 'exec ms/msg', 'delivery rows/msg', 'signed/msg'],
        SYSTEMS.map((name) => [
          name,
          fmt(result[name].statementsPerMessage),
          fmt(result[name].planMsPerMessage),
          fmt(result[name].execMsPerMessage),
          fmt(result[name].deliveryRowsPerMessage),
          fmt(result[name].signedPerMessage),
        ]),
      ),
    );
    for (const name of SYSTEMS) {
      console.log(`\n  ${name}: top statements by execution time`);
      console.log(
        table(
          ['per msg', 'plan ms', 'exec ms', 'statement'],
          result[name].statements
            .slice(0, top)
            .map((s) => [
              fmt(s.perMessage),
              s.planMsPerMessage.toFixed(3),
              s.msPerMessage.toFixed(3),
              s.query,
            ]),
        ),
      );
    }
  },
};
