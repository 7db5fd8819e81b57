import { Client } from 'pg';
import sharp from 'sharp';
import request from 'supertest';
import { createTestApp, type TestApp } from '../../test/app.test-util';
import { buildDib, buildIco } from '../../test/ico.test-util';
import { type Account, registerAccount, TINY_PNG } from '../../test/identities.test-util';
import { as } from '../../test/auth';
import { setSuperadmin } from '../../test/factories';
import { useSockets } from '../../test/realtime.test-util';
import {
  type ColorSettings,
  DEFAULT_COLOR_SETTINGS,
  INVALID_COLOR_MESSAGE,
  type PlatformAppearance,
} from '../contracts/platform-appearance';
import { IMAGE_TOO_LARGE_MESSAGE } from '../files/files.service';
import { INVALID_FAVICON_MESSAGE, INVALID_LOGO_MESSAGE } from './appearance.images';
import { assetUrlMessage } from './appearance.validation';
import { UPLOAD_GONE } from './appearance.service';
import { SUPERADMIN_REQUIRED } from './superadmin.guard';

interface AuditRow {
  id: string;
  action: string;
  actor_id: string | null;
  actor_label: string | null;
  target_type: string | null;
  ip: string | null;
  details: { changed?: string[] };
}

describe('platform appearance (real PostgreSQL)', () => {
  let t: TestApp;
  let db: Client;
  let admin: Account;
  let member: Account;
  const openSocket = useSockets();

  const settings = (body: object, caller: Account = admin) =>
    request(t.http).put('/api/admin/settings').set(as(caller, null)).send(body);
  const colors = (body: unknown, caller: Account = admin) =>
    request(t.http)
      .put('/api/admin/colors')
      .set(as(caller, null))
      .send(body as object);
  const upload = (kind: 'logo' | 'favicon', data: Buffer, filename: string, caller: Account = admin) =>
    request(t.http)
      .post(`/api/admin/settings/${kind}`)
      .set(as(caller, null))
      .attach('file', data, { filename, contentType: 'application/octet-stream' });
  const appearance = async (): Promise<PlatformAppearance> =>
    (await request(t.http).get('/api/appearance').expect(200)).body as PlatformAppearance;
  const auditAfter = async (id: string, action: string): Promise<AuditRow[]> =>
    (
      await db.query<AuditRow>('SELECT * FROM audit_log WHERE id > $1 AND action = $2 ORDER BY id', [
        id,
        action,
      ])
    ).rows;
  const lastAuditId = async (): Promise<string> =>
    (await db.query<{ id: string | null }>('SELECT max(id)::text AS id FROM audit_log')).rows[0].id ?? '0';
  const withTheme = (theme: 'light_theme' | 'dark_theme', patch: Record<string, unknown>) => ({
    ...DEFAULT_COLOR_SETTINGS,
    [theme]: { ...DEFAULT_COLOR_SETTINGS[theme], ...patch },
  });
  const defaults = { logoUrl: null, faviconUrl: null, accentColor: '#9b87f5' };

  beforeAll(async () => {
    t = await createTestApp();
    db = new Client({ connectionString: t.config.databaseUrl });
    await db.connect();
    admin = await registerAccount(t, 'appearance-admin');
    await setSuperadmin(t.app, admin.userId);
    member = await registerAccount(t, 'appearance-member');
    await setSuperadmin(t.app, member.userId, false);
  });
  afterAll(async () => {
    // Other suites of the run share the database: leave the built-in look behind.
    await db?.query('DELETE FROM admin_settings');
    await db?.end();
    await t?.close();
  });

  it('is public, complete, and answered 304 when unchanged', async () => {
    const res = await request(t.http).get('/api/appearance').expect(200);
    expect(res.headers['cache-control']).toBe('no-cache');
    const body = res.body as PlatformAppearance;
    expect(Object.keys(body.colors.light_theme)).toHaveLength(13);
    expect(Object.keys(body.colors.dark_theme)).toHaveLength(13);
    expect(body.accentColor).toMatch(/^#[0-9a-f]{6}$/);
    const etag = res.headers.etag as string;
    expect(etag).toBeTruthy();
    await request(t.http).get('/api/appearance').set('If-None-Match', etag).expect(304);
  });

  it('saves settings: audit entry, live to every signed-in socket, accent made the primary', async () => {
    const memberSocket = await openSocket(t.baseUrl, member.accessToken);
    const since = await lastAuditId();

    const res = await settings({
      logoUrl: ' https://cdn.example.com/logo.png ',
      faviconUrl: '',
      accentColor: '#12A150',
    }).expect(200);
    const saved = res.body as PlatformAppearance;
    expect(saved).toMatchObject({
      logoUrl: 'https://cdn.example.com/logo.png',
      faviconUrl: null,
      accentColor: '#12a150',
    });
    expect(saved.colors.light_theme).toMatchObject({ primary: '#12a150', ring: '#12a150' });
    expect(saved.colors.dark_theme.primary).toBe('#12a150');
    expect(saved.colors.light_theme.background).toBe(DEFAULT_COLOR_SETTINGS.light_theme.background);
    expect(await appearance()).toEqual(saved);

    const event = await memberSocket.waitFor<PlatformAppearance>(
      'platform.appearance_updated',
      (p) => p.accentColor === '#12a150',
    );
    expect(event).toEqual(saved);

    const entries = await auditAfter(since, 'settings.updated');
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({ actor_id: admin.userId, target_type: 'settings' });
    expect(entries[0].details.changed).toEqual(expect.arrayContaining(['logoUrl', 'accentColor']));
    expect(entries[0].ip).toBeTruthy();

    // The same accent again leaves a later palette edit alone.
    await colors(withTheme('light_theme', { primary: '#334455' })).expect(200);
    const again = (await settings({ ...defaults, accentColor: '#12a150' }).expect(200))
      .body as PlatformAppearance;
    expect(again.colors.light_theme.primary).toBe('#334455');
    expect(again.logoUrl).toBeNull();
  });

  it('refuses bad colours and unsafe addresses with readable messages, changing nothing', async () => {
    await settings(defaults).expect(200);
    const before = await appearance();
    const since = await lastAuditId();

    for (const accentColor of ['#12345', '#GGGGGG', '123456', 'red', '#1234567', ' #123456', 42]) {
      const res = await settings({ ...defaults, accentColor }).expect(400);
      expect(res.body.message).toBe(INVALID_COLOR_MESSAGE);
    }
    expect((await settings({ ...defaults, accentColor: null }).expect(400)).body.message).toBe(
      'Accent color is required.',
    );
    for (const logoUrl of [
      'javascript:alert(document.cookie)',
      'data:image/png;base64,iVBORw0KGgo=',
      '//evil.example/logo.png',
      'http://example.com/logo.png',
      `https://example.com/${'x'.repeat(2100)}`,
      42,
    ]) {
      expect((await settings({ ...defaults, logoUrl }).expect(400)).body.message).toBe(
        assetUrlMessage('Logo URL'),
      );
    }
    expect((await settings({ ...defaults, faviconUrl: 'vbscript:x' }).expect(400)).body.message).toBe(
      assetUrlMessage('Favicon URL'),
    );
    expect((await settings({ ...defaults, theme: 'x' }).expect(400)).body.message).toBe(
      'Unknown field "theme".',
    );

    expect((await colors(withTheme('dark_theme', { primary: '#12345' })).expect(400)).body.message).toBe(
      INVALID_COLOR_MESSAGE,
    );
    expect((await colors(withTheme('light_theme', { ring: 'blue' })).expect(400)).body.message).toBe(
      INVALID_COLOR_MESSAGE,
    );
    const { ring: _ring, ...missingRing } = DEFAULT_COLOR_SETTINGS.dark_theme;
    expect(
      (await colors({ ...DEFAULT_COLOR_SETTINGS, dark_theme: missingRing }).expect(400)).body.message,
    ).toBe('The color "ring" is required.');
    expect((await colors(withTheme('light_theme', { sidebar: '#000000' })).expect(400)).body.message).toBe(
      'Unknown field "sidebar".',
    );
    expect((await colors({ light_theme: DEFAULT_COLOR_SETTINGS.light_theme }).expect(400)).body.message).toBe(
      'dark_theme must be an object with the 13 color keys.',
    );
    expect(
      (await colors({ ...DEFAULT_COLOR_SETTINGS, light_theme: ['#000000'] }).expect(400)).body.message,
    ).toBe('light_theme must be an object with the 13 color keys.');
    await colors('#000000').expect(400);

    expect(await appearance()).toEqual(before);
    expect(await auditAfter(since, 'settings.updated')).toEqual([]);
    expect(await auditAfter(since, 'colors.updated')).toEqual([]);
  });

  it('saves colours: normalised, audited with the keys changed, live to others', async () => {
    const memberSocket = await openSocket(t.baseUrl, member.accessToken);
    await colors(DEFAULT_COLOR_SETTINGS).expect(200);
    const since = await lastAuditId();
    const next: ColorSettings = withTheme('dark_theme', { background: '#0A0B0C', primary: '#FF8800' });
    const saved = (await colors(next).expect(200)).body as PlatformAppearance;
    expect(saved.colors.dark_theme).toMatchObject({ background: '#0a0b0c', primary: '#ff8800' });
    expect(saved.colors.light_theme).toEqual(DEFAULT_COLOR_SETTINGS.light_theme);
    await memberSocket.waitFor<PlatformAppearance>(
      'platform.appearance_updated',
      (p) => p.colors.dark_theme.primary === '#ff8800',
    );
    const [entry] = await auditAfter(since, 'colors.updated');
    expect(entry.details.changed).toEqual(['dark_theme.background', 'dark_theme.primary']);
  });

  it('refuses everyone but superadmins, and a superadmin demoted a moment ago', async () => {
    for (const [method, path] of [
      ['put', '/api/admin/settings'],
      ['put', '/api/admin/colors'],
      ['post', '/api/admin/settings/logo'],
      ['post', '/api/admin/settings/favicon'],
    ] as const) {
      const refused = await request(t.http)[method](path).set(as(member, null)).send({}).expect(403);
      expect(refused.body.message).toBe(SUPERADMIN_REQUIRED);
      await request(t.http)[method](path).send({}).expect(401);
    }
    const demoted = await registerAccount(t, 'appearance-demoted');
    await setSuperadmin(t.app, demoted.userId);
    await settings(defaults, demoted).expect(200);
    await setSuperadmin(t.app, demoted.userId, false);
    await settings(defaults, demoted).expect(403);
  });

  it('writes nothing, not even the audit entry, when the save fails at commit', async () => {
    const memberSocket = await openSocket(t.baseUrl, member.accessToken);
    await settings(defaults).expect(200);
    const before = await appearance();
    const since = await lastAuditId();
    // A deferred constraint trigger fails the transaction at COMMIT: after the row and the entry were written.
    await db.query(`CREATE FUNCTION appearance_fail() RETURNS trigger AS $$
      BEGIN RAISE EXCEPTION 'refused by the test'; END $$ LANGUAGE plpgsql`);
    await db.query(`CREATE CONSTRAINT TRIGGER appearance_fail AFTER UPDATE ON admin_settings
      DEFERRABLE INITIALLY DEFERRED FOR EACH ROW
      WHEN (NEW.accent_color = '#abcdef') EXECUTE FUNCTION appearance_fail()`);
    try {
      await settings({ ...defaults, accentColor: '#abcdef' }).expect(500);
    } finally {
      await db.query('DROP TRIGGER appearance_fail ON admin_settings');
      await db.query('DROP FUNCTION appearance_fail()');
    }
    expect(await appearance()).toEqual(before);
    expect(await auditAfter(since, 'settings.updated')).toEqual([]);
    await new Promise((r) => setTimeout(r, 200));
    expect(
      memberSocket.events.some(
        (e) =>
          e.event === 'platform.appearance_updated' &&
          (e.payload as PlatformAppearance).accentColor === '#abcdef',
      ),
    ).toBe(false);
  });

  describe('uploads', () => {
    const png = (width: number, height: number) =>
      sharp({ create: { width, height, channels: 4, background: { r: 10, g: 120, b: 200, alpha: 1 } } })
        .png()
        .toBuffer();

    it('stores a logo and a favicon as PNGs whose addresses the settings can name', async () => {
      const logo = await upload('logo', await png(300, 100), 'logo.png').expect(201);
      expect(logo.body.url).toMatch(/^\/api\/files\/[0-9a-f-]{36}$/);
      const served = await request(t.http)
        .get(logo.body.url as string)
        .expect(200);
      expect(served.headers['content-type']).toBe('image/png');
      expect((await sharp(served.body as Buffer).metadata()).width).toBe(300);

      const ico = buildIco([
        {
          width: 16,
          height: 16,
          data: buildDib({ width: 16, height: 16, bpp: 32, pixel: () => [9, 9, 9, 255] }),
        },
        {
          width: 32,
          height: 32,
          data: buildDib({ width: 32, height: 32, bpp: 32, pixel: () => [9, 9, 9, 255] }),
        },
      ]);
      const favicon = await upload('favicon', ico, 'favicon.ico').expect(201);
      const icon = await request(t.http)
        .get(favicon.body.url as string)
        .expect(200);
      expect((await sharp(icon.body as Buffer).metadata()).width).toBe(32);

      const saved = await settings({
        ...defaults,
        logoUrl: logo.body.url,
        faviconUrl: favicon.body.url,
      }).expect(200);
      expect(saved.body).toMatchObject({ logoUrl: logo.body.url, faviconUrl: favicon.body.url });

      // Replacing an uploaded logo drops the old file; the favicon, still named, stays.
      const next = await upload('logo', await png(150, 50), 'logo2.png').expect(201);
      await settings({ ...defaults, logoUrl: next.body.url, faviconUrl: favicon.body.url }).expect(200);
      await request(t.http)
        .get(logo.body.url as string)
        .expect(404);
      await request(t.http)
        .get(favicon.body.url as string)
        .expect(200);
      await request(t.http)
        .get(next.body.url as string)
        .expect(200);

      // A gone upload cannot be saved.
      expect((await settings({ ...defaults, logoUrl: logo.body.url }).expect(400)).body.message).toBe(
        UPLOAD_GONE.logoUrl,
      );
    });

    it('refuses SVG logos, other favicon types, empty and oversized files', async () => {
      const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>');
      expect((await upload('logo', svg, 'logo.svg').expect(400)).body.message).toBe(INVALID_LOGO_MESSAGE);
      const jpeg = await sharp(await png(16, 16))
        .jpeg()
        .toBuffer();
      expect((await upload('favicon', jpeg, 'favicon.png').expect(400)).body.message).toBe(
        INVALID_FAVICON_MESSAGE,
      );
      expect((await upload('favicon', TINY_PNG, 'favicon.png').expect(201)).body.url).toMatch(
        /^\/api\/files\//,
      );
      const none = await request(t.http).post('/api/admin/settings/logo').set(as(admin, null)).expect(400);
      expect(none.body.message).toBe(INVALID_LOGO_MESSAGE);
      const huge = Buffer.concat([await png(10, 10), Buffer.alloc(5 * 1024 * 1024)]);
      expect((await upload('logo', huge, 'huge.png').expect(413)).body.message).toBe(IMAGE_TOO_LARGE_MESSAGE);
    });
  });
});
