import { AGENT_SERIES_MAX, agentReplyOutcomes, recordAgentReply } from './metrics';

describe('switchboard_agent_replies_total', () => {
  it('labels replies by company, agent and outcome, and folds pairs past the cap into "other"', async () => {
    agentReplyOutcomes.reset();
    recordAgentReply('c1', 'a1', 'replied');
    recordAgentReply('c1', 'a1', 'replied');
    recordAgentReply('c1', 'a1', 'timeout');
    for (let i = 0; i < AGENT_SERIES_MAX + 10; i++) recordAgentReply('c2', `agent-${i}`, 'replied');
    const { values } = await agentReplyOutcomes.get();
    const value = (labels: Record<string, string>) =>
      values.find((v) =>
        Object.entries(labels).every(([k, x]) => (v.labels as Record<string, unknown>)[k] === x),
      )?.value;
    expect(value({ company_id: 'c1', agent_id: 'a1', outcome: 'replied' })).toBe(2);
    expect(value({ company_id: 'c1', agent_id: 'a1', outcome: 'timeout' })).toBe(1);
    // c1/a1 took one of the places: 11 of c2's agents are past the cap.
    expect(value({ company_id: 'other', agent_id: 'other', outcome: 'replied' })).toBe(11);
    expect(new Set(values.map((v) => `${v.labels.company_id}/${v.labels.agent_id}`)).size).toBe(
      AGENT_SERIES_MAX + 1,
    );
  });
});
