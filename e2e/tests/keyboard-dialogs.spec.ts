import { expect, test } from '@playwright/test';
import { registerViaApi } from '../fixtures/api';
import { messageInput } from '../fixtures/chat';
import { newAccount } from '../fixtures/ui';

// From the keyboard, Profile and Settings opened for ~50 ms and then closed (the Enter that
// chose them pressed the dialog's close button), and focus fell to the page.
for (const [item, title] of [
  ['Profile', 'Profile Settings'],
  ['Settings', 'Settings'],
  ['Create Company', 'Create New Company'],
] as const) {
  test(`from the keyboard, the user menu's ${item} opens its dialog, which keeps focus`, async ({ page }) => {
    await registerViaApi(page, newAccount('keys'));
    await page.goto('/chat');
    await expect(messageInput(page)).toBeVisible();
    await page.getByRole('button', { name: 'User menu' }).focus();
    await page.keyboard.press('Enter');
    await expect(page.getByRole('menuitem', { name: item, exact: true })).toBeVisible();
    // Into the menu and down to the entry, as a keyboard user does.
    const path: string[] = [];
    for (let step = 0; step < 12; step += 1) {
      await page.keyboard.press(step === 0 ? 'Tab' : 'ArrowDown');
      const text = await page.evaluate(() => document.activeElement?.textContent?.trim() ?? '');
      path.push(text);
      if (text === item) break;
    }
    expect(path.at(-1), `focus went ${path.join(' → ')}`).toBe(item);
    await page.keyboard.press('Enter');

    const dialog = page.getByRole('dialog', { name: title });
    await expect(dialog).toBeVisible();
    // Still open a moment later, with focus inside it.
    await page.waitForTimeout(500);
    await expect(dialog).toBeVisible();
    expect(await dialog.evaluate((el) => el.contains(document.activeElement))).toBe(true);
    await page.keyboard.press('Escape');
    await expect(dialog).toBeHidden();
  });
}
