import { useServiceContext } from '../../test/service-context';
import { COMPANY_NOT_FOUND, CompaniesService } from './companies.service';

/** Companies a user belongs to; what the request body may hold, and who may ask, is in companies.int-spec.ts. */
describe('companies (CompaniesService on real PostgreSQL, no HTTP)', () => {
  const ctx = useServiceContext();
  let companies: CompaniesService;
  beforeAll(() => (companies = ctx.get(CompaniesService)));

  it('creates a company owned by its creator and lists it with the others', async () => {
    const user = await ctx.newUser();
    await ctx.newCompany(user, 'First Co');
    const created = await companies.create(user.userId, '  Second Co ');
    expect(created).toMatchObject({ name: 'Second Co', role: 'owner' });
    expect((await companies.listForUser(user.userId)).map((c) => c.name)).toEqual(['First Co', 'Second Co']);
    expect(await companies.getForUser(user.userId, created.id)).toEqual(created);
    expect(await companies.roleOf(user.userId, created.id)).toBe('owner');
  });

  it("never shows one user another company's data", async () => {
    const alice = await ctx.newMember();
    const mallory = await ctx.newMember();
    await expect(companies.getForUser(mallory.userId, alice.companyId)).rejects.toMatchObject({
      code: 'NOT_FOUND',
      message: COMPANY_NOT_FOUND,
    });
    expect((await companies.listForUser(mallory.userId)).map((c) => c.id)).toEqual([mallory.companyId]);
    expect(await companies.roleOf(mallory.userId, alice.companyId)).toBeNull();
  });

  it('lists a company the user was added to, with the role they have there', async () => {
    const owner = await ctx.newMember();
    const colleague = await ctx.newMember();
    await ctx.newMembership(owner, colleague, 'admin');
    expect((await companies.listForUser(colleague.userId)).map((c) => [c.id, c.role])).toEqual([
      [owner.companyId, 'admin'],
      [colleague.companyId, 'owner'],
    ]);
  });
});
