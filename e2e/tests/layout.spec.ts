import { expect, test, type Locator, type Page } from '@playwright/test';
import { agentWebhookUrl, createAgent, registerViaApi } from '../fixtures/api';
import { agentMessage, chatTitle, messageInput, sendMessage, sidebar } from '../fixtures/chat';
import { newAccount, register, toast, userMenuButton } from '../fixtures/ui';

// The mobile header gives the chat title the room; Agent Details keeps Save Changes in view and
// explains request signing.

/** True when the element shows all of its text (no ellipsis). */
function showsWholeText(locator: Locator): Promise<boolean> {
  return locator.evaluate((el) => el.scrollWidth <= el.clientWidth);
}

async function openAgentDetails(page: Page, agent: string) {
  await sidebar(page).getByRole('button', { name: 'Settings' }).click();
  const settings = page.getByRole('dialog', { name: 'Settings' });
  await expect(settings).toBeVisible();
  await settings.getByRole('tab', { name: 'Agents' }).click();
  await settings.getByRole('list', { name: 'Agents' }).getByText(agent, { exact: true }).click();
  await expect(settings.getByRole('tab', { name: 'Details' })).toHaveAttribute('aria-selected', 'true');
  return settings;
}

test.describe('on a phone (375×812)', () => {
  test.use({ viewport: { width: 375, height: 812 }, isMobile: true, hasTouch: true });

  test('the header shows the whole chat title and a square avatar; name and company are in the user menu', async ({
    page,
  }) => {
    const account = newAccount('mobile', {
      fullName: 'Ada Lovelace-Byron',
      companyName: 'Analytical Engines Ltd',
    });
    await registerViaApi(page, account);
    await page.goto('/chat');
    await sendMessage(page, 'hello');
    await expect(agentMessage(page, "Hello! I'm the Switchboard demo agent.")).toBeVisible();

    const header = page.getByRole('banner');
    await expect(chatTitle(page)).toHaveText('Chat with Assistant');
    expect(await showsWholeText(chatTitle(page))).toBe(true);
    // The title is the page's heading, and comes before the agent's name.
    await expect(header.getByRole('heading', { level: 1 })).toHaveText('Chat with Assistant');
    const [titleBox, agentBox] = [
      await chatTitle(page).boundingBox(),
      await page.getByTestId('header-agent-name').boundingBox(),
    ];
    expect(titleBox!.y).toBeLessThan(agentBox!.y);

    const avatar = header.getByRole('img', { name: "Assistant's avatar" });
    const box = (await avatar.boundingBox())!;
    expect(Math.abs(box.width - box.height)).toBeLessThanOrEqual(1);
    expect(box.width).toBeGreaterThanOrEqual(24);

    // No room for name and company beside the title: the user menu shows them.
    await expect(page.getByTestId('header-user-name')).toHaveCount(0);
    await expect(page.getByTestId('header-company-name')).toHaveCount(0);
    await userMenuButton(page).click();
    await expect(page.getByTestId('menu-user-name')).toHaveText(account.fullName);
    await expect(page.getByTestId('menu-company-name')).toHaveText(account.companyName);
  });
});

test('a skip link leads from the top of the chat page to the message box', async ({ page }) => {
  await registerViaApi(page, newAccount('skip'));
  await page.goto('/chat');
  await expect(messageInput(page)).toBeVisible();
  // It is the page's first stop, right before the sidebar's first control.
  await sidebar(page).getByRole('button', { name: 'New Chat' }).focus();
  await page.keyboard.press('Shift+Tab');
  const skip = page.getByRole('link', { name: 'Skip to message box' });
  await expect(skip).toBeFocused();
  await expect(skip).toBeInViewport();
  await page.keyboard.press('Enter');
  await expect(messageInput(page)).toBeFocused();
});

test('Agent Details keeps Save Changes in view and links to how signatures are verified', async ({
  page,
}) => {
  const session = await registerViaApi(page, newAccount('details'));
  await createAgent(session, {
    name: 'Long Form',
    webhook: agentWebhookUrl('/echo'),
    description: 'An agent whose details fill more than the dialog',
    defaultQuestions: ['First question?', 'Second question?', 'Third question?', 'Fourth question?'],
  });
  await page.goto('/chat');
  const settings = await openAgentDetails(page, 'Long Form');

  // The form is taller than the 500 px dialog, and Save Changes is in view without scrolling.
  const scroller = settings.locator('.ant-modal-body > div').first();
  const overflow = await scroller.evaluate((el) => ({
    scrollTop: el.scrollTop,
    more: el.scrollHeight - el.clientHeight,
  }));
  expect(overflow.scrollTop).toBe(0);
  expect(overflow.more).toBeGreaterThan(0);
  const save = settings.getByRole('button', { name: 'Save Changes' });
  const [saveBox, scrollerBox] = [(await save.boundingBox())!, (await scroller.boundingBox())!];
  expect(saveBox.y).toBeGreaterThanOrEqual(scrollerBox.y);
  expect(saveBox.y + saveBox.height).toBeLessThanOrEqual(scrollerBox.y + scrollerBox.height);
  await expect(settings.getByRole('button', { name: 'Delete Agent' })).toBeInViewport();

  // Signing is explained, with a link to how to verify it (opened in a new tab).
  const signing = settings.getByText(
    'Adds a webhook-signature header that proves a request comes from Switchboard.',
  );
  await expect(signing).toBeVisible();
  const howTo = settings.getByRole('link', { name: 'How to verify it' });
  const [guide] = await Promise.all([page.context().waitForEvent('page'), howTo.click()]);
  await expect(guide).toHaveURL(/\/docs\/webhook-signatures$/);
  await expect(guide.getByRole('heading', { level: 1, name: 'Verifying webhook signatures' })).toBeVisible();
  await expect(guide.getByText('webhook-signature', { exact: true }).first()).toBeVisible();
  await guide.close();
});

test("the default agent's webhook address looks read-only", async ({ page }) => {
  await registerViaApi(page, newAccount('default-agent'));
  await page.goto('/chat');
  const settings = await openAgentDetails(page, 'Assistant');
  const webhook = settings.getByLabel('Webhook URL', { exact: true });
  await expect(webhook).not.toBeEditable();
  // Filled, not the outlined box of an editable field.
  await expect(webhook).toHaveClass(/ant-input-filled/);
});

for (const [device, viewport] of [
  ['a desktop (1440×900)', { width: 1440, height: 900 }],
  ['a phone (375×812)', { width: 375, height: 812 }],
] as const) {
  test.describe(`on ${device}`, () => {
    test.use({ viewport });

    test("a toast shows at the top, below the header: never over the header's controls", async ({ page }) => {
      await registerViaApi(page, newAccount('toasts'));
      await page.goto('/webhook-test');
      await page.getByRole('button', { name: 'Test Webhook' }).click();
      const notice = toast(page, 'Message Required');
      await expect(notice).toBeVisible();
      const header = (await page.getByRole('banner').boundingBox())!;
      // antd slides a toast in from above: its position is final once the motion has ended.
      await expect
        .poll(async () => (await notice.boundingBox())!.y)
        .toBeGreaterThanOrEqual(header.y + header.height);
      const box = (await notice.boundingBox())!;
      expect(box.y).toBeLessThan(header.y + header.height + 24);
      // Desktop: the top-right corner; phone: across the top.
      if (viewport.width > 600) expect(viewport.width - (box.x + box.width)).toBeLessThanOrEqual(32);
      else expect(Math.abs(box.x + box.width / 2 - viewport.width / 2)).toBeLessThanOrEqual(2);
    });

    test('a menu opened while a toast shows is above it: each of its entries takes the click', async ({
      page,
    }) => {
      await register(page, newAccount('toast-menu'));
      await expect(toast(page, 'Registration successful')).toBeVisible();
      await userMenuButton(page).click();
      const items = page.getByRole('menu').getByRole('menuitem');
      await expect(items.last()).toBeVisible();
      for (const item of await items.all()) {
        const topmost = await item.evaluate((el) => {
          const r = el.getBoundingClientRect();
          const hit = document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2);
          return !!hit && el.contains(hit);
        });
        expect(topmost, await item.innerText()).toBe(true);
      }
    });
  });
}
