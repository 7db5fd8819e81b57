import request from 'supertest';
import { createTestApp, registerUser, type TestApp } from '../../test/app.test-util';
import { as } from '../../test/auth';
import { type FakeWebhook, startFakeWebhook } from '../../test/realtime.test-util';

describe('webhook tester (real PostgreSQL)', () => {
  let hook: FakeWebhook;
  let demo: TestApp;
  let custom: TestApp;

  beforeAll(async () => {
    hook = await startFakeWebhook();
    demo = await createTestApp();
    custom = await createTestApp({
      DEFAULT_AGENT_WEBHOOK: `${hook.url}/ok`,
      WEBHOOK_ALLOWED_HOSTS: hook.hostPort,
    });
  });
  afterAll(async () => {
    await demo.close();
    await custom.close();
    await hook.close();
  });

  const signedIn = async (t: TestApp) => as((await registerUser(t)).accessToken);

  it('out of the box, answers with the built-in demo agent', async () => {
    const auth = await signedIn(demo);
    const target = await request(demo.http).get('/api/webhook-test').set(auth).expect(200);
    expect(target.body.url).toMatch(/\/api\/demo-agent\/webhook$/);
    const res = await request(demo.http)
      .post('/api/webhook-test')
      .set(auth)
      .send({ message: 'hi' })
      .expect(200);
    expect(res.body).toMatchObject({ url: target.body.url, status: 200, ok: true });
    expect(JSON.parse(res.body.raw)).toEqual([{ output: res.body.output }]);
  });

  it("calls DEFAULT_AGENT_WEBHOOK and shows its raw answer and the chat's reading", async () => {
    const auth = await signedIn(custom);
    const res = await request(custom.http)
      .post('/api/webhook-test')
      .set(auth)
      .send({ message: '  ping ' })
      .expect(200);
    expect(res.body).toEqual({
      url: `${hook.url}/ok`,
      status: 200,
      raw: JSON.stringify([{ output: 'pong: ping' }]),
      output: 'pong: ping',
      ok: true,
    });
  });

  it('refuses a blank message with the spec message, and strangers', async () => {
    const auth = await signedIn(demo);
    const res = await request(demo.http)
      .post('/api/webhook-test')
      .set(auth)
      .send({ message: ' ' })
      .expect(400);
    expect(res.body.message).toBe('Message Required: Please enter a message to send to the webhook');
    await request(demo.http).post('/api/webhook-test').send({ message: 'hi' }).expect(401);
  });
});
