import request from 'supertest';
import { createTestApp, registerUser, type TestApp } from '../../test/app.test-util';
import { as } from '../../test/auth';

/** /api/companies at the edge: bodies, ids and sign-in. The rules are in companies.service.int-spec.ts. */
describe('companies (real PostgreSQL)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  it('creates a company for the caller and answers its view', async () => {
    const user = await registerUser(t, { companyName: 'First Co' });
    const created = await request(t.http)
      .post('/api/companies')
      .set(as(user.accessToken))
      .send({ name: '  Second Co ' })
      .expect(201);
    expect(created.body).toMatchObject({ name: 'Second Co', role: 'owner' });
    const one = await request(t.http)
      .get(`/api/companies/${created.body.id}`)
      .set(as(user.accessToken))
      .expect(200);
    expect(one.body).toEqual(created.body);
  });

  it("answers another company's id with the readable 404", async () => {
    const alice = await registerUser(t);
    const mallory = await registerUser(t);
    const res = await request(t.http)
      .get(`/api/companies/${alice.companyId}`)
      .set(as(mallory.accessToken))
      .expect(404);
    expect(res.body.message).toBe('Company not found');
  });

  it.each([
    [{}, 'Company name is required'],
    [{ name: '   ' }, 'Company name is required'],
    [{ name: 42 }, 'Company name is required'],
    [{ name: 'x'.repeat(201) }, 'Company name must be at most 200 characters'],
    [{ name: 'Ok', ownerId: 'someone-else' }, 'Unknown field "ownerId".'],
  ])('refuses %j with a readable 400 and creates nothing', async (body, message) => {
    const user = await registerUser(t);
    const res = await request(t.http).post('/api/companies').set(as(user.accessToken)).send(body).expect(400);
    expect(res.body.message).toBe(message);
    const list = await request(t.http).get('/api/companies').set(as(user.accessToken)).expect(200);
    expect(list.body).toHaveLength(1);
  });

  it('answers unknown and malformed ids with 404, and strangers with 401', async () => {
    const user = await registerUser(t);
    await request(t.http)
      .get('/api/companies/00000000-0000-4000-8000-000000000000')
      .set(as(user.accessToken))
      .expect(404);
    await request(t.http).get('/api/companies/not-a-uuid').set(as(user.accessToken)).expect(404);
    await request(t.http).get('/api/companies').expect(401);
    await request(t.http).post('/api/companies').send({ name: 'X' }).expect(401);
  });
});
