import { EditOutlined, LeftOutlined, ReloadOutlined, RightOutlined } from '@ant-design/icons';
import { Button, Input, theme } from 'antd';
import { useState } from 'react';
import type { MessageVersionView, MessageView } from '../../../api/contracts';
import { Flex, Text } from '../../../components/Plain';
import { useReplyVersions } from '../hooks/useReplyVersions';
import './MessageTools.css';

export interface MessageToolsProps {
  message: MessageView;
  /** The latest reply (or the latest message whose reply failed): Regenerate is offered. */
  canRegenerate: boolean;
  /** The latest message of the user's: Edit is offered (on hover or focus). */
  canEdit: boolean;
  /** The latest message got no reply (it failed, or was stopped before any text came). */
  noReply: boolean;
  onEdit: () => void;
  /** The version shown in place of the message (null: the message itself, the latest). */
  shown: MessageVersionView | null;
  onShow: (version: MessageVersionView | null) => void;
}

/**
 * Under a message: its versions (‹ 2 / 3 ›), Regenerate on the latest reply, Edit on the latest message
 * of the user's. A chunk of its own, loaded after the thread's first paint.
 */
export function MessageTools({
  message,
  canRegenerate,
  canEdit,
  noReply,
  onEdit,
  shown,
  onShow,
}: MessageToolsProps) {
  const { token } = theme.useToken();
  const actions = useReplyVersions();
  const [busy, setBusy] = useState(false);
  const [versions, setVersions] = useState<MessageVersionView[] | null>(null);
  const total = message.version ?? 1;
  const at = shown?.version ?? total;

  const regenerate = async () => {
    setBusy(true);
    await actions.regenerate(message.id);
    setBusy(false);
  };
  const go = async (step: -1 | 1) => {
    let list = versions;
    if (!list || list.at(-1)?.version !== total) {
      list = await actions.versions(message.id);
      if (!list) return;
      setVersions(list);
    }
    const next = list.find((v) => v.version === at + step);
    if (next) onShow(next.current ? null : next);
  };

  const browser = total > 1 && (
    <Flex align="center" gap={2} role="group" aria-label="Versions" data-testid="version-browser">
      <Button
        type="text"
        size="small"
        aria-label="Previous version"
        disabled={at <= 1}
        icon={<LeftOutlined />}
        onClick={() => void go(-1)}
      />
      <Text type="secondary" style={{ fontSize: token.fontSizeSM }} aria-live="polite">
        {at} / {total}
      </Text>
      <Button
        type="text"
        size="small"
        aria-label="Next version"
        disabled={at >= total}
        icon={<RightOutlined />}
        onClick={() => void go(1)}
      />
    </Flex>
  );
  const regenerateButton = canRegenerate && (
    <Button
      type="text"
      size="small"
      aria-label="Regenerate"
      title="Regenerate"
      loading={busy}
      icon={<ReloadOutlined />}
      onClick={() => void regenerate()}
    />
  );

  if (message.senderType === 'user')
    return (
      <Flex vertical align="flex-end" gap={2}>
        <Flex align="center" gap={2}>
          {browser}
          {canEdit && (
            <span className="sb-hover-tools">
              <Button
                type="text"
                size="small"
                aria-label="Edit"
                title="Edit"
                icon={<EditOutlined />}
                onClick={onEdit}
              />
            </span>
          )}
        </Flex>
        {noReply && (
          <Flex align="center" gap="small" data-testid="no-reply">
            <Text type="secondary" style={{ fontSize: token.fontSizeSM }}>
              The agent did not reply.
            </Text>
            {regenerateButton}
          </Flex>
        )}
      </Flex>
    );
  return (
    <Flex align="center" gap={2}>
      {browser}
      {regenerateButton}
    </Flex>
  );
}

/** The latest message's text, edited in place: Enter saves, Shift+Enter breaks the line, Escape cancels. */
export function EditMessageForm({ message, onDone }: { message: MessageView; onDone: () => void }) {
  const actions = useReplyVersions();
  const [text, setText] = useState(message.content);
  const [saving, setSaving] = useState(false);
  const save = async () => {
    const content = text.trim();
    if (!content || saving) return;
    if (content === message.content) return onDone();
    setSaving(true);
    const saved = await actions.edit(message.id, content);
    setSaving(false);
    if (saved) onDone();
  };
  return (
    <Flex vertical gap="small" style={{ width: 'min(600px, 70vw)' }} data-testid="edit-message">
      <Input.TextArea
        aria-label="Edit message"
        autoFocus
        autoSize={{ minRows: 1, maxRows: 8 }}
        value={text}
        disabled={saving}
        onChange={(event) => setText(event.target.value)}
        onKeyDown={(event) => {
          if (event.key === 'Escape') {
            event.preventDefault();
            onDone();
          } else if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
            event.preventDefault();
            void save();
          }
        }}
      />
      <Flex gap="small" justify="flex-end">
        <Button size="small" onClick={onDone} disabled={saving}>
          Cancel
        </Button>
        <Button
          size="small"
          type="primary"
          loading={saving}
          disabled={!text.trim()}
          onClick={() => void save()}
        >
          Save
        </Button>
      </Flex>
    </Flex>
  );
}
