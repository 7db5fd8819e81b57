import { AudioOutlined, PhoneOutlined } from '@ant-design/icons';
import { Button, Tooltip } from 'antd';
import type { AgentView } from '../../../api/contracts';
import { useVoiceCall } from '../hooks/useVoiceCall';
import { useVoiceStore } from '../../../stores/voiceStore';

interface VoiceCallButtonProps {
  agent: AgentView;
  /** The chat on screen (null: a call creates 'Chat with {agent}'). */
  chatId: string | null;
}

/**
 * Spec: shown only for an agent with a voice agent id; red while a call is active, green while the agent
 * speaks. One call at a time: while one is on, this button ends it.
 */
export function VoiceCallButton({ agent, chatId }: VoiceCallButtonProps) {
  const status = useVoiceStore((s) => s.status);
  const speaking = useVoiceStore((s) => s.mode === 'speaking');
  const { startCall, endCall } = useVoiceCall();
  if (!agent.elevenlabsAgentId) return null;

  const active = status === 'active';
  const loading = status === 'loading';
  const label = active ? 'End voice call' : loading ? 'Starting voice call' : 'Start voice call';
  return (
    <Tooltip title={label}>
      <Button
        shape="circle"
        aria-label={label}
        aria-pressed={active}
        data-call-status={status}
        data-agent-speaking={active && speaking ? 'true' : 'false'}
        icon={active ? <PhoneOutlined rotate={135} /> : <AudioOutlined />}
        loading={loading}
        color={active ? (speaking ? 'green' : 'danger') : 'default'}
        variant={active ? 'solid' : 'outlined'}
        onClick={() => void (active ? endCall() : startCall(agent, chatId))}
      />
    </Tooltip>
  );
}
