import { useServiceContext } from '../../test/service-context';
import { AgentsService, CANNED_QUESTIONS, DEFAULT_AGENT_NOT_EDITABLE } from './agents.service';

/** An address literal needs no DNS look-up: the save-time check decides on the address alone. */
const PUBLIC_HOOK = 'https://93.184.215.14/hook';

describe('agent rules (AgentsService on real PostgreSQL, no HTTP)', () => {
  const ctx = useServiceContext();
  let agents: AgentsService;
  beforeAll(() => (agents = ctx.get(AgentsService)));

  it("gives every user a 'default-agent' in every company, with the four built-in prompts, that cannot be deleted", async () => {
    const user = await ctx.newUser();
    const first = await ctx.newCompany(user);
    const second = await ctx.newCompany(user, 'Second Company');
    for (const scope of [first, second]) {
      const listed = await agents.list(scope);
      expect(listed).toEqual([
        expect.objectContaining({
          id: 'default-agent',
          companyId: scope.companyId,
          description: 'Your helpful AI assistant',
          isDefault: true,
          isEditable: false,
          webhook: null,
          defaultQuestions: [...CANNED_QUESTIONS],
        }),
      ]);
      expect(listed[0].defaultQuestions).toHaveLength(4);
      await expect(agents.remove(scope, 'default-agent')).rejects.toMatchObject({
        code: 'VALIDATION_FAILED',
      });
    }
  });

  it('creates, edits and deletes an agent, each change pushed to its user only', async () => {
    const me = await ctx.newMember();
    const agent = await agents.create(me, {
      name: 'Agent',
      description: 'Echoes',
      webhook: PUBLIC_HOOK,
      signed: true,
    });
    expect(agent.signingSecret).toMatch(/^whsec_/);
    expect(agent).toMatchObject({ description: 'Echoes', hasSigningSecret: true, isEditable: true });
    const edited = await agents.update(me, agent.id, { name: 'Renamed', defaultQuestions: ['One?', 'Two?'] });
    expect(edited).toMatchObject({
      name: 'Renamed',
      defaultQuestions: ['One?', 'Two?'],
      hasSigningSecret: true,
    });
    expect(edited).not.toHaveProperty('signingSecret');
    await agents.remove(me, agent.id);
    expect((await agents.list(me)).map((a) => a.id)).toEqual(['default-agent']);
    expect(ctx.events.eventsOf(me.userId)).toEqual(['agent.created', 'agent.updated', 'agent.deleted']);
    expect(ctx.events.sent.filter((e) => e.userId !== me.userId)).toEqual([]);
  });

  it('the default agent, which reports isEditable: false, cannot be renamed or edited', async () => {
    const me = await ctx.newMember();
    const before = await agents.list(me);
    expect(before[0]).toMatchObject({ id: 'default-agent', isEditable: false });
    for (const change of [
      { name: 'Renamed' },
      { description: 'Mine now' },
      { defaultQuestions: ['Why?'] },
      { isActive: false },
      { webhook: PUBLIC_HOOK },
    ]) {
      await expect(agents.update(me, 'default-agent', change)).rejects.toMatchObject({
        code: 'FORBIDDEN',
        message: DEFAULT_AGENT_NOT_EDITABLE,
      });
    }
    expect(await agents.list(me)).toEqual(before);
  });

  it.each([
    'http://localhost.:5678/webhook',
    'http://metadata.google.internal./computeMetadata/v1',
    'http://127.0.0.1:1/hook',
    'http://[::127.0.0.1]/',
  ])('refuses %s on save (a trailing dot or a private address), as at send', async (webhook) => {
    const me = await ctx.newMember();
    await expect(agents.create(me, { name: 'A', webhook })).rejects.toMatchObject({
      code: 'VALIDATION_FAILED',
      message: expect.stringContaining('private or local network'),
    });
    const existing = await ctx.newAgent(me);
    await expect(agents.update(me, existing.id, { webhook })).rejects.toMatchObject({
      message: expect.stringContaining('private or local network'),
    });
    expect((await agents.list(me)).map((a) => a.webhook)).toEqual([null, existing.webhook]);
  });

  it("never reaches another user's agent", async () => {
    const owner = await ctx.newMember();
    const stranger = await ctx.newMember();
    const agent = await ctx.newAgent(owner);
    await expect(agents.update(stranger, agent.id, { name: 'x' })).rejects.toMatchObject({
      code: 'NOT_FOUND',
    });
    await expect(agents.remove(stranger, agent.id)).rejects.toMatchObject({ code: 'NOT_FOUND' });
    expect((await agents.list(owner)).map((a) => a.name)).toEqual(['Assistant', 'Test agent']);
  });
});
