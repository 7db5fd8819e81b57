import { CALLBACK_BODY_INVALID, callbackReplyText, isStreamedCallback } from './callback-body';

describe('callback bodies', () => {
  it.each([
    [{ output: 'Done.' }, 'Done.'],
    [[{ output: 'Done.' }], 'Done.'],
    [[{ output: 'first' }, { output: 'second' }], 'first'],
    [{ output: 42 }, '42'],
    [{ output: false }, 'false'],
  ])('reads the reply of %j', (body, text) => {
    expect(callbackReplyText(body)).toBe(text);
  });

  it.each([
    undefined,
    null,
    {},
    [],
    [null],
    { output: '  ' },
    { output: { text: 'nested' } },
    { reply: 'x' },
    'x',
  ])('refuses %j with a message that says what to send', (body) => {
    expect(() => callbackReplyText(body)).toThrow(CALLBACK_BODY_INVALID);
  });

  it('reads NDJSON, SSE and text bodies as streams, JSON as a document', () => {
    expect(isStreamedCallback('application/x-ndjson')).toBe(true);
    expect(isStreamedCallback('text/event-stream; charset=utf-8')).toBe(true);
    expect(isStreamedCallback('Text/Plain')).toBe(true);
    expect(isStreamedCallback('application/json')).toBe(false);
    expect(isStreamedCallback(undefined)).toBe(false);
  });
});
