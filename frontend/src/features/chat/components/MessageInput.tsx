import { SendOutlined, StopOutlined } from '@ant-design/icons';
import { Button, Flex } from 'antd';
// TextArea alone: the Input module brings Search, Password and OTP, which the chat does not show.
import TextArea, { type TextAreaRef } from 'antd/es/input/TextArea';
import { useEffect, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';

interface MessageInputProps {
  /** Sends the trimmed text; resolves false when it failed (the text is put back). */
  onSend: (text: string) => Promise<boolean> | boolean;
  /** True while the agent is typing. */
  disabled?: boolean;
  autoFocus?: boolean;
  /** Called as the user types (during a voice call: the agent is told the user is active). */
  onTyping?: () => void;
  /** Shown beside the send button (the voice-call button). */
  addon?: ReactNode;
  /** While a reply is pending: Stop takes the send button's place. */
  onStop?: () => void;
}

/** The message box's id: the chat's skip link (ChatShell) leads here. */
export const MESSAGE_INPUT_ID = 'message-input';

/** Spec: 'Type a message...', grows to at most 150px, Enter sends, Shift+Enter starts a new line. */
export function MessageInput({
  onSend,
  disabled = false,
  autoFocus = false,
  onTyping,
  addon,
  onStop,
}: MessageInputProps) {
  const [text, setText] = useState('');
  const [sending, setSending] = useState(false);
  const blocked = disabled || sending;
  const canSend = !blocked && text.trim() !== '';
  const inputRef = useRef<TextAreaRef>(null);

  // A disabled field drops focus; give it back when the reply is in, unless the user went elsewhere.
  useEffect(() => {
    if (!blocked && (document.activeElement === document.body || document.activeElement === null)) {
      inputRef.current?.focus();
    }
  }, [blocked]);

  const send = async () => {
    if (!canSend) return;
    const draft = text;
    setText('');
    setSending(true);
    try {
      if (!(await onSend(draft.trim()))) setText(draft);
    } finally {
      setSending(false);
    }
  };

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key !== 'Enter' || event.shiftKey || event.nativeEvent.isComposing) return;
    event.preventDefault();
    void send();
  };

  return (
    <Flex gap="small" align="flex-end">
      <TextArea
        ref={inputRef}
        id={MESSAGE_INPUT_ID}
        aria-label="Message"
        placeholder="Type a message..."
        value={text}
        onChange={(event) => {
          setText(event.target.value);
          onTyping?.();
        }}
        onKeyDown={onKeyDown}
        disabled={blocked}
        autoFocus={autoFocus}
        autoSize={{ minRows: 1, maxRows: 6 }}
        style={{ maxHeight: 150 }}
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
}
