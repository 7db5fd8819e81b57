import { beforeEach, describe, expect, it } from 'vitest';
import { latestExchange } from '../features/chat/components/MessageList';
import { chatView, messageView } from '../test/fixtures';
import { applyServerEvent } from '../workspace/applyServerEvent';
import { refreshed, useChatStore } from './chatStore';
import { useCompanyStore } from './companyStore';

const user = (id: string, seq: string, content = 'hi') =>
  messageView({ id, seq, chatId: 'chat-1', senderType: 'user', content });
const agent = (id: string, seq: string, content = 'answer', extra = {}) =>
  messageView({ id, seq, chatId: 'chat-1', senderType: 'agent', content, ...extra });

describe('regenerated and edited messages in the store', () => {
  beforeEach(() => {
    useCompanyStore.setState({ currentCompanyId: 'c1' });
    useChatStore.getState().reset('c1');
  });

  it('message.versioned: the edited message shows, the replaced reply goes, the indicator comes', () => {
    const store = useChatStore.getState();
    store.addMessage(user('u-1', '1', 'frist'));
    store.addMessage(agent('a-1', '2'));
    applyServerEvent({
      name: 'message.versioned',
      payload: {
        companyId: 'c1',
        chatId: 'chat-1',
        message: { ...user('u-1', '1', 'first'), version: 2 },
        replacedReplyId: 'a-1',
        chat: chatView({ id: 'chat-1', pendingReply: true }),
      },
    });
    const now = useChatStore.getState();
    expect(now.messages['chat-1'].items.map((m) => [m.id, m.content, m.version])).toEqual([
      ['u-1', 'first', 2],
    ]);
    expect(now.typing['chat-1']).toBe(true);
    // The new reply arrives like a first one, and the indicator goes.
    applyServerEvent({
      name: 'message.created',
      payload: {
        companyId: 'c1',
        chatId: 'chat-1',
        message: agent('a-2', '3', 'new answer', { version: 2 }),
        chat: chatView({ id: 'chat-1', pendingReply: false }),
      },
    });
    expect(useChatStore.getState().messages['chat-1'].items.map((m) => m.id)).toEqual(['u-1', 'a-2']);
    expect(useChatStore.getState().typing['chat-1']).toBe(false);
  });

  it('a catch-up page drops what it no longer holds in its span and takes changes made in place', () => {
    const loaded = [user('u-0', '1'), agent('a-0', '2'), user('u-1', '3'), agent('a-1', '4')];
    const page = [user('u-1', '3', 'edited'), agent('a-2', '6', 'regenerated'), agent('a-0x', '7')].slice(
      0,
      2,
    );
    expect(refreshed(loaded, page).map((m) => [m.id, m.content])).toEqual([
      ['u-0', 'hi'],
      ['a-0', 'answer'],
      ['u-1', 'edited'],
      ['a-2', 'regenerated'],
    ]);
    // Nothing changed: the same array (no re-render).
    expect(refreshed(loaded, loaded.slice(2))).toBe(loaded);
  });

  it('a rating made while offline comes with the refreshed page', () => {
    const loaded = [user('u-1', '1'), agent('a-1', '2')];
    const next = refreshed(loaded, [user('u-1', '1'), agent('a-1', '2', 'answer', { feedback: 'dislike' })]);
    expect(next[1].feedback).toBe('dislike');
  });

  it('offers Regenerate and Edit on the latest exchange only (voice turns are not one)', () => {
    const items = [user('u-1', '1'), agent('a-1', '2'), user('u-2', '3'), agent('a-2', '4')];
    expect(latestExchange(items)).toEqual({ messageId: 'u-2', replyId: 'a-2' });
    expect(latestExchange(items.slice(0, 3))).toEqual({ messageId: 'u-2', replyId: null });
    const voice = agent('v-1', '5', 'said', { isVoiceMessage: true });
    expect(latestExchange([...items, voice])).toEqual({ messageId: 'u-2', replyId: 'a-2' });
    expect(latestExchange([])).toBeNull();
  });
});
