import { beforeEach, describe, expect, it } from 'vitest';
import { applyStreamDelta, mergeStreamingReply } from './streamingReply';
import { useStreamingStore } from './streamingStore';

const delta = (text: string, offset: number, messageId = 'm1') => ({ messageId, text, offset });

describe('applyStreamDelta', () => {
  it('grows the text piece by piece, in order', () => {
    let reply = applyStreamDelta(null, delta('Hel', 0));
    reply = applyStreamDelta(reply, delta('lo', 3));
    reply = applyStreamDelta(reply, delta(' world', 5));
    expect(reply).toEqual({ messageId: 'm1', text: 'Hello world' });
  });

  it('applies a delta seen twice once, and only the new part of one partly known', () => {
    const known = { messageId: 'm1', text: 'Hello' };
    expect(applyStreamDelta(known, delta('Hel', 0))).toBe(known);
    expect(applyStreamDelta(known, delta('lo!', 3))).toEqual({ messageId: 'm1', text: 'Hello!' });
  });

  it('leaves out a delta after a gap, and starts afresh for the next reply', () => {
    const known = { messageId: 'm1', text: 'Hi' };
    expect(applyStreamDelta(known, delta('later', 10))).toBe(known);
    expect(applyStreamDelta(known, delta('New', 0, 'm2'))).toEqual({ messageId: 'm2', text: 'New' });
    expect(applyStreamDelta(null, delta('middle', 4))).toBeNull();
  });
});

describe('mergeStreamingReply', () => {
  it('keeps the longer text of the same reply; a page about another reply wins', () => {
    const live = { messageId: 'm1', text: 'Hello wor' };
    expect(mergeStreamingReply(live, { messageId: 'm1', text: 'Hello' })).toBe(live);
    expect(mergeStreamingReply(live, { messageId: 'm1', text: 'Hello world' })).toEqual({
      messageId: 'm1',
      text: 'Hello world',
    });
    expect(mergeStreamingReply(live, { messageId: 'm2', text: 'x' })).toEqual({ messageId: 'm2', text: 'x' });
    expect(mergeStreamingReply(live, null)).toBe(live);
  });
});

describe('useStreamingStore', () => {
  beforeEach(() => useStreamingStore.getState().reset());

  it('a tab opened mid-stream: the page gives the text so far, the next deltas the rest', () => {
    const store = useStreamingStore.getState();
    // A delta that came while the page loaded, replayed after it: applied once.
    store.applyPage('c1', { messageId: 'm1', text: 'so far' });
    store.applyDelta({ companyId: 'co', chatId: 'c1', messageId: 'm1', text: 'far', offset: 3 });
    store.applyDelta({ companyId: 'co', chatId: 'c1', messageId: 'm1', text: ', and more', offset: 6 });
    expect(useStreamingStore.getState().replies.c1).toEqual({ messageId: 'm1', text: 'so far, and more' });
    store.clear('c1');
    expect(useStreamingStore.getState().replies.c1).toBeUndefined();
  });
});
