import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '../../../test/renderWithProviders';
import { MessageInput } from '../components/MessageInput';
import { AttachmentChips } from './AttachmentChips';
import { MAX_FILE_BYTES, refuseFile, setMaxFileBytes } from './attachmentRules';
import type { AttachmentUploads, PendingAttachment } from './useAttachmentUploads';

const chip = (over: Partial<PendingAttachment>): PendingAttachment => ({
  key: 'k1',
  name: 'report.pdf',
  size: 2.5 * 1024 * 1024,
  progress: 0.4,
  status: 'uploading',
  ...over,
});

function uploads(items: PendingAttachment[], over: Partial<AttachmentUploads> = {}): AttachmentUploads {
  return {
    items,
    add: vi.fn(),
    remove: vi.fn(),
    clear: vi.fn(),
    ready: items.every((i) => i.status === 'done'),
    ids: items.flatMap((i) => (i.id ? [i.id] : [])),
    ...over,
  };
}

describe('attachment chips', () => {
  it('show each file with its name, size and upload progress, and a labelled remove button', async () => {
    const onRemove = vi.fn();
    renderWithProviders(
      <AttachmentChips
        items={[
          chip({}),
          chip({ key: 'k2', name: 'bad.csv', size: 300, status: 'error', error: 'Not UTF-8' }),
        ]}
        onRemove={onRemove}
      />,
    );
    const list = screen.getByRole('list', { name: 'Attached files' });
    const [uploading, failed] = within(list).getAllByRole('listitem');
    expect(uploading).toHaveTextContent('report.pdf');
    expect(uploading).toHaveTextContent('2.5 MB · uploading 40%');
    expect(within(uploading).getByRole('progressbar')).toBeInTheDocument();
    expect(within(failed).getByRole('alert')).toHaveTextContent('Not UTF-8');
    await userEvent.click(screen.getByRole('button', { name: 'Remove bad.csv' }));
    expect(onRemove).toHaveBeenCalledWith('k2');
  });

  it('keep Send disabled until every upload is done; then a message of files alone can be sent', async () => {
    const onSend = vi.fn(() => Promise.resolve(true));
    const pending = uploads([chip({})]);
    const { rerender } = renderWithProviders(<MessageInput onSend={onSend} attachments={pending} />);
    expect(screen.getByRole('button', { name: 'Send message' })).toBeDisabled();

    const done = uploads([chip({ status: 'done', progress: 1, id: 'file-1' })]);
    rerender(<MessageInput onSend={onSend} attachments={done} />);
    const send = screen.getByRole('button', { name: 'Send message' });
    expect(send).toBeEnabled();
    await userEvent.click(send);
    expect(onSend).toHaveBeenCalledExactlyOnceWith('', ['file-1']);
    expect(done.clear).toHaveBeenCalledOnce();
  });

  it('open the file picker from a labelled, keyboard-reachable attach button', async () => {
    const files = uploads([]);
    renderWithProviders(<MessageInput onSend={vi.fn()} attachments={files} />);
    const attach = screen.getByRole('button', { name: 'Attach files' });
    attach.focus();
    expect(attach).toHaveFocus();
    const picker = screen.getByTestId('attach-input');
    const png = new File([new Uint8Array([137, 80, 78, 71])], 'shot.png', { type: 'image/png' });
    await userEvent.upload(picker as HTMLInputElement, png);
    expect(files.add).toHaveBeenCalledWith([png]);
  });

  it('refuse a type no agent can use, an empty file and one over 20 MB, in words, before uploading', () => {
    expect(refuseFile({ name: 'setup.exe', size: 10, type: 'application/x-msdownload' })).toMatch(
      /^"setup.exe" is not a supported file type/,
    );
    expect(refuseFile({ name: 'a.zip', size: 10, type: 'application/zip' })).toMatch(
      /not a supported file type/,
    );
    expect(refuseFile({ name: 'empty.txt', size: 0, type: 'text/plain' })).toBe('"empty.txt" is empty.');
    expect(refuseFile({ name: 'huge.pdf', size: 21 * 1024 * 1024, type: 'application/pdf' })).toBe(
      '"huge.pdf" is too large: files can be at most 20 MB.',
    );
    expect(refuseFile({ name: 'image.png', size: 10, type: 'image/png' })).toBeNull();
    expect(refuseFile({ name: 'notes.MD', size: 10, type: '' })).toBeNull();
  });

  it("takes the size limit from the server's setting once the chat screen's data has come", () => {
    try {
      setMaxFileBytes(5 * 1024 * 1024);
      expect(refuseFile({ name: 'six.pdf', size: 6 * 1024 * 1024, type: 'application/pdf' })).toBe(
        '"six.pdf" is too large: files can be at most 5 MB.',
      );
      expect(refuseFile({ name: 'four.pdf', size: 4 * 1024 * 1024, type: 'application/pdf' })).toBeNull();
      setMaxFileBytes(Number.NaN); // nonsense leaves the limit as it was
      expect(refuseFile({ name: 'six.pdf', size: 6 * 1024 * 1024, type: 'application/pdf' })).not.toBeNull();
    } finally {
      setMaxFileBytes(MAX_FILE_BYTES);
    }
  });
});
