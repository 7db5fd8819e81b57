import { expect, test } from '@playwright/test';
import { agentWebhookUrl, createAgent, registerViaApi } from '../fixtures/api';
import { agentMessage, selectAgent, sendMessage } from '../fixtures/chat';
import { newAccount } from '../fixtures/ui';

// A readable thread: fenced code is a block (no inline-code chip on each line), long lines scroll
// inside the bubble instead of being cut, code is highlighted and can be copied, bare URLs are links.

const LONG_LINE = `const sentence = "${'the quick brown fox jumps over the lazy dog '.repeat(6).trim()}";`;
const MESSAGE = [
  'Use `npm test` and read https://example.com/guide for more.',
  '',
  '```js',
  'function greet(name) {',
  '  return `Hello, ${name}!`; // friendly',
  '}',
  LONG_LINE,
  '```',
].join('\n');
const CODE = ['function greet(name) {', '  return `Hello, ${name}!`; // friendly', '}', LONG_LINE].join('\n');

test.use({ permissions: ['clipboard-read', 'clipboard-write'] });

test('an agent reply shows code as a highlighted, scrollable, copyable block and bare URLs as links', async ({
  page,
}) => {
  const session = await registerViaApi(page, newAccount('markdown'));
  await createAgent(session, { name: 'Echo', webhook: agentWebhookUrl('/echo') });
  await page.goto('/chat');
  await selectAgent(page, 'Echo');
  await sendMessage(page, MESSAGE);

  const reply = agentMessage(page, 'echo: Use');
  const block = reply.getByTestId('code-block');
  await expect(block).toBeVisible();

  // One block; its code has no chip: no background, padding or rounded corners of its own.
  await expect(reply.locator('pre')).toHaveCount(1);
  const code = block.locator('pre > code');
  const codeStyle = await code.evaluate((el) => {
    const s = getComputedStyle(el);
    return { background: s.backgroundColor, padding: s.paddingLeft, radius: s.borderTopLeftRadius };
  });
  expect(codeStyle).toEqual({ background: 'rgba(0, 0, 0, 0)', padding: '0px', radius: '0px' });
  // Inline code keeps its chip.
  const inline = reply.locator('code', { hasText: 'npm test' });
  expect(await inline.evaluate((el) => getComputedStyle(el).backgroundColor)).not.toBe('rgba(0, 0, 0, 0)');

  // Highlighted: keywords, strings and comments get highlight.js classes.
  await expect(code).toHaveClass(/hljs/);
  await expect(code.locator('.hljs-keyword').first()).toHaveText('function');
  await expect(code.locator('.hljs-comment')).toHaveText('// friendly');
  await expect(code.locator('.hljs-string').first()).toBeVisible();

  // The long line is not cut: the block scrolls sideways inside the bubble, which stays in the column.
  const pre = block.locator('pre');
  const scroll = await pre.evaluate((el) => ({
    scrollWidth: el.scrollWidth,
    clientWidth: el.clientWidth,
    overflowX: getComputedStyle(el).overflowX,
    whiteSpace: getComputedStyle(el).whiteSpace,
  }));
  expect(scroll.scrollWidth).toBeGreaterThan(scroll.clientWidth);
  expect(scroll.overflowX).toBe('auto');
  expect(scroll.whiteSpace).toBe('pre');
  const [bubbleBox, preBox] = [await reply.boundingBox(), await pre.boundingBox()];
  expect(preBox!.x + preBox!.width).toBeLessThanOrEqual(bubbleBox!.x + bubbleBox!.width + 1);
  await pre.evaluate((el) => el.scrollTo({ left: el.scrollWidth }));
  await expect.poll(() => pre.evaluate((el) => el.scrollLeft)).toBeGreaterThan(0);

  // The bare URL is a link that opens in a new tab, without access to this page.
  const link = reply.getByRole('link', { name: 'https://example.com/guide' });
  await expect(link).toHaveAttribute('href', 'https://example.com/guide');
  await expect(link).toHaveAttribute('target', '_blank');
  await expect(link).toHaveAttribute('rel', 'noopener noreferrer');

  // Copy code puts exactly the code on the clipboard and says so.
  await block.getByRole('button', { name: 'Copy code' }).click();
  await expect(block.getByRole('status')).toHaveText('Copied');
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(CODE);
});
