import { Form, Input } from 'antd';

/** An agent's ElevenLabs voice agent id, the same field when adding an agent and in its details. */
export function VoiceAgentIdField() {
  return (
    <Form.Item
      label="Voice Agent ID (elevenlabs)"
      name="elevenlabsAgentId"
      extra="The voice agent id is required to enable voice calls"
    >
      <Input maxLength={200} />
    </Form.Item>
  );
}
