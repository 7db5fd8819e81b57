import { expect, test, type Page } from '@playwright/test';
import { chooseFromMenu, newAccount, register } from '../fixtures/ui';

/** Brightness (0-255) of the chat header's background: what the user sees as a light or dark theme. */
async function headerBrightness(page: Page): Promise<number> {
  const color = await page.getByRole('banner').evaluate((el) => getComputedStyle(el).backgroundColor);
  const [r = 0, g = 0, b = 0] = (color.match(/\d+(\.\d+)?/g) ?? []).map(Number);
  return 0.299 * r + 0.587 * g + 0.114 * b;
}

async function chooseTheme(page: Page, mode: 'Light' | 'Dark' | 'System') {
  await chooseFromMenu(page, page.getByRole('button', { name: 'Toggle theme' }), mode);
}

test('the theme menu switches light and dark, follows the system, and is remembered', async ({ page }) => {
  await page.emulateMedia({ colorScheme: 'light' });
  await register(page, newAccount('theme', { fullName: 'Theo Mode' }));
  await expect.poll(() => headerBrightness(page)).toBeGreaterThan(128);

  await chooseTheme(page, 'Dark');
  await expect.poll(() => headerBrightness(page)).toBeLessThan(128);
  await page.reload();
  await expect(page.getByRole('banner')).toBeVisible();
  await expect.poll(() => headerBrightness(page)).toBeLessThan(128);

  await chooseTheme(page, 'Light');
  await expect.poll(() => headerBrightness(page)).toBeGreaterThan(128);

  await chooseTheme(page, 'System');
  await page.emulateMedia({ colorScheme: 'dark' });
  await expect.poll(() => headerBrightness(page)).toBeLessThan(128);
  await page.emulateMedia({ colorScheme: 'light' });
  await expect.poll(() => headerBrightness(page)).toBeGreaterThan(128);
});
