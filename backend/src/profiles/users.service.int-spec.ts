import sharp from 'sharp';
import { Database } from '../database/database';
import { FilesService } from '../files/files.service';
import { useServiceContext } from '../../test/service-context';
import { uniqueEmail } from '../../test/app.test-util';
import { hashPassword } from './password-hasher';
import { CURRENT_PASSWORD_INCORRECT, EMAIL_IN_USE, EMAIL_TAKEN, UsersService } from './users.service';

const PASSWORD = 'correct horse battery';

describe('profile rules (UsersService on real PostgreSQL, no HTTP)', () => {
  const ctx = useServiceContext();
  let users: UsersService;
  let database: Database;
  beforeAll(() => {
    users = ctx.get(UsersService);
    database = ctx.get(Database);
  });

  /** A user with a password, as one who registered with email and password. */
  async function withPassword(): Promise<{ userId: string; email: string }> {
    const user = await ctx.newUser();
    await users.setPassword(user.userId, PASSWORD);
    return user;
  }

  it('splits a full name at its first word and trims the bio', async () => {
    const { userId } = await ctx.newUser();
    const saved = await users.updateProfile(userId, {
      name: '  Grace  Brewster Hopper ',
      bio: ' Compilers. ',
    });
    expect(saved).toMatchObject({
      firstName: 'Grace',
      lastName: 'Brewster Hopper',
      name: 'Grace Brewster Hopper',
      bio: 'Compilers.',
    });
  });

  it('changes the email only with the current password, and then only as pending, with a mail to the new address', async () => {
    const user = await withPassword();
    const next = uniqueEmail('next');
    await expect(users.updateProfile(user.userId, { email: next })).rejects.toMatchObject({
      code: 'VALIDATION_FAILED',
      message: 'Current password is required to change your email',
    });
    await expect(
      users.updateProfile(user.userId, { email: next, currentPassword: 'wrong-password' }),
    ).rejects.toMatchObject({ code: 'VALIDATION_FAILED', message: CURRENT_PASSWORD_INCORRECT });
    expect(ctx.jobs.held.filter((job) => job.name === 'account.mail')).not.toContainEqual(
      expect.objectContaining({ data: expect.objectContaining({ userId: user.userId }) }),
    );

    // Addresses are compared and kept in lower case.
    const saved = await users.updateProfile(user.userId, {
      email: next.toUpperCase(),
      currentPassword: PASSWORD,
    });
    expect(saved).toMatchObject({ email: user.email, pendingEmail: next });
    const mails = () =>
      ctx.jobs.held.filter(
        (job) => job.name === 'account.mail' && (job.data as { userId?: string }).userId === user.userId,
      );
    expect(mails().map((job) => job.data)).toEqual([
      { kind: 'email-change', userId: user.userId, newEmail: next },
    ]);

    // Saving the form again as it shows (the pending address, no password) changes nothing, mails nobody.
    await expect(users.updateProfile(user.userId, { email: next, bio: 'Hi' })).resolves.toMatchObject({
      email: user.email,
      pendingEmail: next,
      bio: 'Hi',
    });
    expect(mails()).toHaveLength(1);
  });

  it('makes a pending email the address only for the address pending, and not when another account took it meanwhile', async () => {
    const user = await withPassword();
    const next = uniqueEmail('confirmed');
    await users.updateProfile(user.userId, { email: next, currentPassword: PASSWORD });

    await expect(
      database.transaction((tx) => users.confirmEmailChange(tx, user.userId, uniqueEmail('other'))),
    ).resolves.toBeNull();
    await expect(database.transaction((tx) => users.confirmEmailChange(tx, user.userId, next))).resolves.toBe(
      user.email,
    );
    await expect(users.profile(user.userId)).resolves.toMatchObject({
      email: next,
      pendingEmail: null,
      emailVerified: true,
    });

    // A second account asks for an address that someone then registers: the link no longer works.
    const second = await withPassword();
    const contested = uniqueEmail('contested');
    await users.updateProfile(second.userId, { email: contested, currentPassword: PASSWORD });
    await ctx.newUser({ email: contested });
    await expect(
      database.transaction((tx) => users.confirmEmailChange(tx, second.userId, contested)),
    ).rejects.toMatchObject({ code: 'CONFLICT', message: EMAIL_IN_USE });
    await expect(users.profile(second.userId)).resolves.toMatchObject({ email: second.email });
  });

  it('refuses a second account for an address, whatever its case, and keeps names within their limits', async () => {
    const email = uniqueEmail('taken');
    const passwordHash = await hashPassword(PASSWORD);
    const created = await database.transaction((tx) =>
      users.create(tx, {
        email: `  ${email.toUpperCase()} `,
        passwordHash,
        firstName: 'F'.repeat(150),
        lastName: 'L',
      }),
    );
    expect(created).toMatchObject({ email, firstName: 'F'.repeat(100) });
    await expect(
      database.transaction((tx) =>
        users.create(tx, { email: email.toUpperCase(), passwordHash, firstName: 'A', lastName: 'B' }),
      ),
    ).rejects.toMatchObject({ code: 'CONFLICT', message: EMAIL_TAKEN });
  });

  it('verifies an address only while the password is not unproven', async () => {
    const email = uniqueEmail('unproven');
    const passwordHash = await hashPassword(PASSWORD);
    const created = await database.transaction((tx) =>
      users.create(tx, { email, passwordHash, firstName: 'U', lastName: 'P', passwordUnproven: true }),
    );
    await expect(users.markEmailVerified(created.id, email)).resolves.toBe(false);
    // A password set through a link mailed to the address (a reset) is the address owner's.
    await database.transaction((tx) => users.setPasswordHash(created.id, passwordHash, tx, { proven: true }));
    await expect(users.markEmailVerified(created.id, email)).resolves.toBe(true);
    await expect(users.profile(created.id)).resolves.toMatchObject({ emailVerified: true });
  });

  it('re-encodes a new avatar and drops the one it replaces', async () => {
    const { userId } = await ctx.newUser();
    const files = ctx.get(FilesService);
    const png = (r: number) =>
      sharp({ create: { width: 8, height: 8, channels: 3, background: { r, g: 0, b: 0 } } })
        .png()
        .toBuffer();
    const first = await users.setAvatar(userId, await png(10));
    const firstId = first.avatar.split('/').pop()!;
    await expect(files.read(firstId)).resolves.toMatchObject({ contentType: 'image/webp' });

    const second = await users.setAvatar(userId, await png(200));
    const secondId = second.avatar.split('/').pop()!;
    expect(secondId).not.toBe(firstId);
    await expect(files.read(secondId)).resolves.toMatchObject({ contentType: 'image/webp' });
    await expect(files.read(firstId)).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });
});
