import type { ClientEventMap, StreamingReply } from '../api/contracts';

type Delta = Pick<ClientEventMap['message.delta'], 'messageId' | 'text' | 'offset'>;

/**
 * A reply's text so far after one `message.delta`. Deltas carry the length of the text before them
 * (`offset`), so the same delta seen twice (by event and again after a page load that already held
 * it) is applied once, and a piece partly known is cut to its new part. A delta for another reply
 * (the next message's) starts afresh; one after a gap is left out rather than shown out of place (the
 * stored reply, which follows, has the whole text).
 */
export function applyStreamDelta(current: StreamingReply | null, delta: Delta): StreamingReply | null {
  if (!current || current.messageId !== delta.messageId) {
    return delta.offset === 0 ? { messageId: delta.messageId, text: delta.text } : current;
  }
  const known = current.text.length;
  if (delta.offset > known) return current;
  const end = delta.offset + delta.text.length;
  if (end <= known) return current;
  return { messageId: current.messageId, text: current.text + delta.text.slice(known - delta.offset) };
}

/**
 * What a page load says about a reply being streamed, merged with what deltas already brought: for
 * the same reply the longer text wins (the page may have been read before the last deltas came).
 */
export function mergeStreamingReply(
  current: StreamingReply | null,
  fromPage: StreamingReply | null,
): StreamingReply | null {
  if (!fromPage) return current;
  if (current?.messageId === fromPage.messageId && current.text.length >= fromPage.text.length)
    return current;
  return fromPage;
}
