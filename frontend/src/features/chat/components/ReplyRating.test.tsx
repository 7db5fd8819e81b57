import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { MessageView, RateReplyRequest } from '../../../api/contracts';
import { messageView } from '../../../test/fixtures';
import { renderWithProviders } from '../../../test/renderWithProviders';
import { useCompanyStore } from '../../../stores/companyStore';

const rateReply =
  vi.fn<(companyId: string, messageId: string, rating: RateReplyRequest) => Promise<MessageView>>();
vi.mock('../../../api/chatsApi', () => ({
  chatsApi: {
    rateReply: (companyId: string, messageId: string, rating: RateReplyRequest) =>
      rateReply(companyId, messageId, rating),
  },
}));

const { ReplyRating, REASON_TITLE } = await import('./ReplyRating');

const reply = (feedback: MessageView['feedback'] = null) =>
  messageView({ id: 'a-1', seq: '2', senderType: 'agent', content: 'An answer', feedback });

describe('ReplyRating', () => {
  beforeEach(() => {
    useCompanyStore.setState({ currentCompanyId: 'c1' });
    rateReply.mockImplementation((_c, id, rating) =>
      Promise.resolve({ ...reply(rating.score), id, feedbackReason: rating.reason ?? null }),
    );
  });
  afterEach(() => rateReply.mockReset());

  it('thumbs up rates; the pressed one again takes it back', async () => {
    const { rerender } = renderWithProviders(<ReplyRating message={reply()} />);
    const like = screen.getByRole('button', { name: 'Like this response' });
    expect(like).toHaveAttribute('aria-pressed', 'false');
    await userEvent.click(like);
    expect(rateReply).toHaveBeenLastCalledWith('c1', 'a-1', { score: 'like', reason: null });

    rerender(<ReplyRating message={reply('like')} />);
    expect(screen.getByRole('button', { name: 'Like this response' })).toHaveAttribute(
      'aria-pressed',
      'true',
    );
    await userEvent.click(screen.getByRole('button', { name: 'Like this response' }));
    expect(rateReply).toHaveBeenLastCalledWith('c1', 'a-1', { score: null, reason: null });
  });

  it('thumbs down asks for an optional reason in a titled dialog; Enter sends it', async () => {
    renderWithProviders(<ReplyRating message={reply()} />);
    await userEvent.click(screen.getByRole('button', { name: 'Dislike this response' }));
    const dialog = await screen.findByRole('dialog', { name: REASON_TITLE });
    expect(dialog).toBeInTheDocument();
    expect(rateReply).not.toHaveBeenCalled();
    const field = screen.getByLabelText('Reason (optional)');
    await userEvent.type(field, 'Made up a fact{Enter}');
    await waitFor(() =>
      expect(rateReply).toHaveBeenCalledWith('c1', 'a-1', { score: 'dislike', reason: 'Made up a fact' }),
    );
    await waitFor(() => expect(screen.queryByRole('dialog', { name: REASON_TITLE })).toBeNull());
  });

  it('Escape closes the dialog without rating; a disliked reply is un-rated with one click', async () => {
    const { rerender } = renderWithProviders(<ReplyRating message={reply()} />);
    await userEvent.click(screen.getByRole('button', { name: 'Dislike this response' }));
    await userEvent.type(await screen.findByLabelText('Reason (optional)'), 'nah{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog', { name: REASON_TITLE })).toBeNull());
    expect(rateReply).not.toHaveBeenCalled();
    expect(screen.getByRole('button', { name: 'Dislike this response' })).toHaveFocus();

    rerender(<ReplyRating message={reply('dislike')} />);
    await userEvent.click(screen.getByRole('button', { name: 'Dislike this response' }));
    expect(rateReply).toHaveBeenLastCalledWith('c1', 'a-1', { score: null, reason: null });
    expect(screen.queryByRole('dialog', { name: REASON_TITLE })).toBeNull();
  });
});
