import { PaperClipOutlined, SendOutlined, StopOutlined } from '@ant-design/icons';
import { Button } from 'antd';
import { Flex } from '../../../components/Plain';
import {
  useEffect,
  useLayoutEffect,
  useRef,
  useState,
  type ClipboardEvent,
  type KeyboardEvent,
  type ReactNode,
  type RefObject,
} from 'react';
import '../../../components/nativeInput.css';
import './MessageInput.css';
import { AttachmentChips } from '../attachments/AttachmentChips';
import { ACCEPT } from '../attachments/attachmentRules';
import type { AttachmentUploads } from '../attachments/useAttachmentUploads';

interface MessageInputProps {
  /** Sends the trimmed text (and files); resolves false when it failed (the text is put back). */
  onSend: (text: string, attachmentIds?: string[]) => Promise<boolean> | boolean;
  /** True while the agent is typing. */
  disabled?: boolean;
  autoFocus?: boolean;
  /** Called as the user types (during a voice call: the agent is told the user is active). */
  onTyping?: () => void;
  /** Shown beside the send button (the voice-call button). */
  addon?: ReactNode;
  /** While a reply is pending: Stop takes the send button's place. */
  onStop?: () => void;
  /** Files for the message: an attach button, paste of images, chips; absent: text only. */
  attachments?: AttachmentUploads;
}

/** The message box's id: the chat's skip link (ChatShell) leads here. */
export const MESSAGE_INPUT_ID = 'message-input';

/** Browsers that size a field to its text themselves (CSS `field-sizing: content`, MessageInput.css). */
const sizesItself = typeof CSS !== 'undefined' && CSS.supports?.('field-sizing', 'content') === true;

/**
 * The message box's height follows its text where the browser cannot do it alone: measured after a
 * change of the text, never on the first render with an empty box (one line, from the stylesheet).
 */
function useGrowWithText(ref: RefObject<HTMLTextAreaElement | null>, text: string) {
  const measured = useRef(false);
  useLayoutEffect(() => {
    const box = ref.current;
    if (sizesItself || !box || (!text && !measured.current)) return;
    measured.current = true;
    box.style.height = 'auto';
    box.style.height = `${box.scrollHeight + box.offsetHeight - box.clientHeight}px`;
  }, [ref, text]);
}

/**
 * Spec: 'Type a message...', grows to at most 150px, Enter sends, Shift+Enter starts a new line.
 * A native textarea drawn as antd's Input (components/nativeInput.css): antd's TextArea measured a
 * hidden copy of itself (computed styles and a layout) on the chat's first render to size it.
 */
export function MessageInput({
  onSend,
  disabled = false,
  autoFocus = false,
  onTyping,
  addon,
  onStop,
  attachments,
}: MessageInputProps) {
  const [text, setText] = useState('');
  const [sending, setSending] = useState(false);
  const blocked = disabled || sending;
  const hasFiles = !!attachments?.items.length;
  // Text is optional with files; files must all be uploaded first.
  const canSend = !blocked && (text.trim() !== '' || hasFiles) && (attachments?.ready ?? true);
  const inputRef = useRef<HTMLTextAreaElement>(null);
  const fileRef = useRef<HTMLInputElement>(null);
  useGrowWithText(inputRef, text);

  // A disabled field drops focus; give it back when the reply is in, unless the user went elsewhere.
  useEffect(() => {
    if (!blocked && (document.activeElement === document.body || document.activeElement === null)) {
      inputRef.current?.focus();
    }
  }, [blocked]);

  const send = async () => {
    if (!canSend) return;
    const draft = text;
    const ids = attachments?.ids ?? [];
    setText('');
    setSending(true);
    try {
      if (!(await (ids.length ? onSend(draft.trim(), ids) : onSend(draft.trim())))) setText(draft);
      else attachments?.clear();
    } finally {
      setSending(false);
    }
  };

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key !== 'Enter' || event.shiftKey || event.nativeEvent.isComposing) return;
    event.preventDefault();
    void send();
  };

  // Pasting an image (a screenshot) attaches it; pasted text stays text.
  const onPaste = (event: ClipboardEvent<HTMLTextAreaElement>) => {
    if (!attachments) return;
    const images = Array.from(event.clipboardData.files).filter((file) => file.type.startsWith('image/'));
    if (!images.length) return;
    event.preventDefault();
    attachments.add(images);
  };

  const row = (
    <Flex gap="small" align="flex-end">
      {attachments && (
        <>
          <input
            ref={fileRef}
            type="file"
            multiple
            accept={ACCEPT}
            hidden
            aria-hidden
            tabIndex={-1}
            data-testid="attach-input"
            onChange={(event) => {
              attachments.add(Array.from(event.target.files ?? []));
              event.target.value = '';
            }}
          />
          <Button
            icon={<PaperClipOutlined />}
            aria-label="Attach files"
            title="Attach files"
            disabled={blocked}
            onClick={() => fileRef.current?.click()}
          />
        </>
      )}
      <textarea
        ref={inputRef}
        id={MESSAGE_INPUT_ID}
        className="sb-input sb-message-input"
        aria-label="Message"
        placeholder="Type a message..."
        rows={1}
        value={text}
        onChange={(event) => {
          setText(event.target.value);
          onTyping?.();
        }}
        onKeyDown={onKeyDown}
        onPaste={onPaste}
        disabled={blocked}
        autoFocus={autoFocus}
      />
      {addon}
      {onStop ? (
        <Button danger icon={<StopOutlined />} aria-label="Stop reply" title="Stop reply" onClick={onStop} />
      ) : (
        <Button
          type="primary"
          icon={<SendOutlined />}
          aria-label="Send message"
          disabled={!canSend}
          loading={sending}
          onClick={() => void send()}
        />
      )}
    </Flex>
  );
  if (!attachments) return row;
  return (
    <Flex vertical gap="small">
      <AttachmentChips items={attachments.items} onRemove={attachments.remove} />
      {row}
    </Flex>
  );
}
