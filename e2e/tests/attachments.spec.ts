import { createHash } from 'node:crypto';
import { expect, test } from '@playwright/test';
import { ANSWER_CSV } from '../fixtures/agent-webhook';
import { agentWebhookUrl, createAgent, createChat } from '../fixtures/api';
import { agentMessage, messageInput, openChatRow, sendMessage, userMessage } from '../fixtures/chat';
import { twoDevices } from '../fixtures/devices';

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

/** A 4x4 PNG. */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAQAAAAECAIAAAAmkwkpAAAACXBIWXMAAAPoAAAD6AG1e1JrAAAAEElEQVQImWPgqjgBRwzEcQAMshShojnKgwAAAABJRU5ErkJggg==',
  'base64',
);
const PDF = Buffer.from(
  '%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Kids[]/Count 0>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n',
  'latin1',
);

test('a PNG and a PDF sent to an agent: it fetches both by their links, and the other tab shows them', async ({
  browser,
}) => {
  const { a, b, session, close } = await twoDevices(browser, 'files', async (s) => {
    const agent = await createAgent(s, { name: 'File reader', webhook: agentWebhookUrl('/files') });
    await createChat(s, { agentId: agent.id, title: 'Reading files' });
  });
  try {
    await openChatRow(a, 'Reading files');
    await openChatRow(b, 'Reading files');

    await a.getByTestId('attach-input').setInputFiles([
      { name: 'dot.png', mimeType: 'image/png', buffer: PNG },
      { name: 'brief.pdf', mimeType: 'application/pdf', buffer: PDF },
    ]);
    const chips = a.getByRole('list', { name: 'Attached files' }).getByTestId('attachment-chip');
    await expect(chips).toHaveCount(2);
    await expect(chips.filter({ hasText: 'brief.pdf' })).toHaveAttribute('data-status', 'done');
    await expect(chips.filter({ hasText: 'dot.png' })).toHaveAttribute('data-status', 'done');
    await messageInput(a).fill('What are these?');
    await a.getByRole('button', { name: 'Send message' }).click();
    await expect(chips).toHaveCount(0);

    // The other tab shows the message with its image and its file card, live.
    const sentOnB = userMessage(b, 'What are these?');
    await expect(sentOnB.getByRole('img', { name: 'dot.png' })).toBeVisible();
    await expect(sentOnB.getByTestId('attachment-file')).toContainText('brief.pdf');

    // The agent fetched both links: the PDF as sent, the PNG as Switchboard serves it (re-encoded).
    const served = await session.request.get(
      (await sentOnB.getByRole('img', { name: 'dot.png' }).getAttribute('src')) as string,
    );
    expect(served.status()).toBe(200);
    const png = await served.body();
    for (const page of [a, b]) {
      await expect(agentMessage(page, `brief.pdf 200 ${PDF.length} ${sha256(PDF)}`)).toBeVisible();
      await expect(agentMessage(page, `dot.png 200 ${png.length} ${sha256(png)}`)).toBeVisible();
    }

    // A signed-out request without the link's signature gets nothing.
    const bare = new URL(
      (await sentOnB.getByTestId('attachment-file').getAttribute('href')) as string,
      a.url(),
    );
    bare.search = '';
    const anonymous = await browser.newContext();
    try {
      expect((await anonymous.request.get(bare.toString())).status()).toBe(404);
    } finally {
      await anonymous.close();
    }
  } finally {
    await close();
  }
});

test('an agent that answers with an image and a CSV: both show in the reply, the CSV downloads', async ({
  browser,
}) => {
  const { a, b, session, close } = await twoDevices(browser, 'answer-files', async (s) => {
    const agent = await createAgent(s, { name: 'Chart maker', webhook: agentWebhookUrl('/answer-files') });
    await createChat(s, { agentId: agent.id, title: 'Charts' });
  });
  try {
    await openChatRow(a, 'Charts');
    await openChatRow(b, 'Charts');
    await sendMessage(a, 'Sales chart please');
    for (const page of [a, b]) {
      const reply = agentMessage(page, 'Here is the chart and the data.');
      await expect(reply.getByRole('img', { name: 'chart.png' })).toBeVisible();
      await expect(reply.getByTestId('attachment-file')).toContainText('data.csv');
    }
    const card = agentMessage(a, 'Here is the chart and the data.').getByTestId('attachment-file');
    const csv = await session.request.get((await card.getAttribute('href')) as string);
    expect(csv.status()).toBe(200);
    expect(csv.headers()['content-disposition']).toMatch(/^attachment; filename="data.csv"/);
    expect(await csv.text()).toBe(ANSWER_CSV);
  } finally {
    await close();
  }
});

test('a renamed executable, a file over the limit and a zip are refused with their messages', async ({
  browser,
}) => {
  const { a, close } = await twoDevices(browser, 'refusals', async (s) => {
    const agent = await createAgent(s, { name: 'Picky reader', webhook: agentWebhookUrl('/files') });
    await createChat(s, { agentId: agent.id, title: 'Refusals' });
  });
  try {
    await openChatRow(a, 'Refusals');
    const uploads: string[] = [];
    a.on('request', (request) => {
      if (request.method() === 'POST' && /\/attachments$/.test(new URL(request.url()).pathname))
        uploads.push(request.url());
    });
    const chips = a.getByRole('list', { name: 'Attached files' }).getByTestId('attachment-chip');

    // Over the server's MAX_ATTACHMENT_MB (2 MB here) and a zip: refused in the browser, never sent.
    await a.getByTestId('attach-input').setInputFiles([
      { name: 'huge.pdf', mimeType: 'application/pdf', buffer: Buffer.alloc(3 * 1024 * 1024, 0x20) },
      { name: 'archive.zip', mimeType: 'application/zip', buffer: Buffer.from('PK\x03\x04', 'latin1') },
    ]);
    await expect(a.getByText('"huge.pdf" is too large: files can be at most 2 MB.')).toBeVisible();
    await expect(a.getByText(/^"archive\.zip" is not a supported file type/)).toBeVisible();
    await expect(chips).toHaveCount(0);
    expect(uploads).toEqual([]);

    // An executable named like a PDF: the server reads its bytes and refuses it; the chip says why
    // and the message cannot be sent with it.
    const exe = Buffer.alloc(512, 0x90);
    exe.write('MZ', 0, 'latin1');
    await a
      .getByTestId('attach-input')
      .setInputFiles([{ name: 'setup.pdf', mimeType: 'application/pdf', buffer: exe }]);
    await expect(chips).toHaveCount(1);
    await expect(chips).toHaveAttribute('data-status', 'error');
    await expect(chips).toContainText('"setup.pdf" is not a supported file type');
    expect(uploads).toHaveLength(1);
    await messageInput(a).fill('Run this');
    await expect(a.getByRole('button', { name: 'Send message' })).toBeDisabled();
    await chips.getByRole('button', { name: /Remove/ }).click();
    await expect(chips).toHaveCount(0);
    await expect(a.getByRole('button', { name: 'Send message' })).toBeEnabled();
  } finally {
    await close();
  }
});

test('the welcome view takes files too: the first message, files alone, creates the chat', async ({
  browser,
}) => {
  const { a, b, close } = await twoDevices(browser, 'first-files');
  try {
    await expect(a.getByText('Start chatting with Assistant')).toBeVisible();
    await a
      .getByTestId('attach-input')
      .setInputFiles([{ name: 'first.pdf', mimeType: 'application/pdf', buffer: PDF }]);
    const chips = a.getByRole('list', { name: 'Attached files' }).getByTestId('attachment-chip');
    await expect(chips).toHaveAttribute('data-status', 'done');
    await a.getByRole('button', { name: 'Send message' }).click();
    await expect(chips).toHaveCount(0);
    await expect(a.getByTestId('attachment-file').filter({ hasText: 'first.pdf' })).toBeVisible();
    // The other device gets the new chat live and shows the file in it.
    await openChatRow(b, 'Chat with Assistant');
    await expect(b.getByTestId('attachment-file').filter({ hasText: 'first.pdf' })).toBeVisible();
  } finally {
    await close();
  }
});
