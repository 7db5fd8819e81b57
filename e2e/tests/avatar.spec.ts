import { expect, test } from '@playwright/test';
import { chooseFromUserMenu, expectToast, newAccount, register, userMenuButton } from '../fixtures/ui';

/** A real 8x8 PNG (the server decodes and re-encodes what it stores). */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAgAAAAICAIAAABLbSncAAAACXBIWXMAAAPoAAAD6AG1e1JrAAAAEUlEQVQImWM4YROFFTEMLQkATEZXgXkLcN8AAAAASUVORK5CYII=',
  'base64',
);

test('uploading an avatar shows it in the user menu; a non-image is refused', async ({ page }) => {
  await register(page, newAccount('avatar', { fullName: 'Ava Tar' }));
  await chooseFromUserMenu(page, 'Profile');
  const dialog = page.getByRole('dialog', { name: 'Profile Settings' });
  // antd's Upload keeps its <input type=file> hidden behind the 'Change Avatar' button.
  const fileInput = dialog.locator('input[type=file]');

  await fileInput.setInputFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('hello') });
  await expectToast(page, 'Invalid file type', 'Please upload an image file.');

  await fileInput.setInputFiles({ name: 'me.png', mimeType: 'image/png', buffer: PNG });
  await expectToast(page, 'Profile image updated');

  const menuAvatar = userMenuButton(page).getByRole('img', { name: "Ava Tar's avatar" });
  await expect(menuAvatar).toBeVisible();
  const src = await menuAvatar.getAttribute('src');
  expect(src).toBeTruthy();
  // Served by the app itself, as an image, and it actually loads in the browser.
  const response = await page.request.get(src ?? '');
  expect(response.status()).toBe(200);
  expect(response.headers()['content-type']).toMatch(/^image\//);
  expect(response.headers()['x-content-type-options']).toBe('nosniff');
  await expect
    .poll(() => menuAvatar.evaluate((img) => (img as HTMLImageElement).naturalWidth))
    .toBeGreaterThan(0);
});
