import { getMetadataStorage } from 'class-validator';
import { createValidationPipe } from '../../common/validation';
import { MAX_MESSAGE_LENGTH, plainSendMessage, SendMessageDto } from './chat.dto';

/** The global pipe's answer for a body: the DTO it makes, or the message of its 400. */
async function throughPipe(body: unknown): Promise<SendMessageDto | string> {
  try {
    return (await createValidationPipe().transform(body, {
      type: 'body',
      metatype: SendMessageDto,
    })) as SendMessageDto;
  } catch (error) {
    return (error as Error).message;
  }
}

const long = 'x'.repeat(MAX_MESSAGE_LENGTH);
/** Bodies, and whether plainSendMessage takes them (else the pipe answers them, refusals included). */
const bodies: Array<[body: unknown, taken: boolean]> = [
  [{ content: 'hello' }, true],
  [{ content: '  hello  ' }, true],
  [{ content: '\u00a0\ufeffhello\u2028\n' }, true],
  [{ content: long }, true],
  [{ content: ` ${long} ` }, true],
  [{ content: '' }, false],
  [{ content: '   ' }, false],
  [{ content: '\u00a0\u3000' }, false],
  [{ content: `${long}x` }, false],
  [{ content: `\n${long}x` }, false],
  [{ content: 42 }, false],
  [{ content: null }, false],
  [{ content: ['hello'] }, false],
  [{ content: { text: 'hello' } }, false],
  [{}, false],
  [{ content: 'hello', attachmentIds: [] }, false],
  [{ content: 'hello', extra: 1 }, false],
  [{ attachmentIds: ['x'] }, false],
  [JSON.parse('{"content":"hello","__proto__":{"admin":true}}'), false],
  [JSON.parse('{"content":"hello","constructor":{"name":"x"}}'), false],
  [[{ content: 'hello' }], false],
  [['hello'], false],
  ['hello', false],
  [null, false],
  [undefined, false],
];

describe('plainSendMessage: the common send without the ValidationPipe', () => {
  it.each(bodies.map(([body, taken]) => [String(JSON.stringify(body)).slice(0, 60), body, taken]))(
    '%s',
    async (_name, body, taken) => {
      const plain = plainSendMessage(body);
      expect(plain !== null).toBe(taken);
      if (plain === null) return;
      // What it takes, the pipe takes too, and makes the same DTO of.
      const piped = await throughPipe(body);
      expect(piped).toBeInstanceOf(SendMessageDto);
      expect(plain).toBeInstanceOf(SendMessageDto);
      expect({ ...plain }).toEqual({ ...(piped as SendMessageDto) });
    },
  );

  it('leaves the refusals to the pipe, with their messages', async () => {
    expect(await throughPipe({ content: `${long}x` })).toBe(
      `A message can be at most ${MAX_MESSAGE_LENGTH} characters`,
    );
    expect(await throughPipe({ content: '   ' })).toBe('Please enter a message');
    expect(await throughPipe({ content: 42 })).toBe('Please enter a message');
    expect(await throughPipe({ content: 'hello', extra: 1 })).toBe('Unknown field "extra".');
  });

  it('applies every rule the DTO has: a new one must be added to plainSendMessage (or there refused)', () => {
    const rules = getMetadataStorage()
      .getTargetValidationMetadatas(SendMessageDto, '', true, false)
      .map((m) => `${m.propertyName}: ${m.name ?? m.type}`)
      .sort();
    expect(rules).toEqual([
      'attachmentIds: arrayMaxSize',
      'attachmentIds: conditionalValidation',
      'attachmentIds: isArray',
      'attachmentIds: isUuid',
      'content: isMessageContent',
    ]);
  });
});
