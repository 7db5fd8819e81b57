import { Form, Input, Modal } from 'antd';
import { useState } from 'react';
import type { AgentView } from '../../../api/contracts';
import { useCompanyStore } from '../../../stores/companyStore';
import { useAgentActions } from '../hooks/useAgentActions';
import { DEFAULT_REPLY_DEADLINE_MINUTES, ReplyDeadlineField } from './ReplyDeadlineField';
import { SendRatingsField } from './SendRatingsField';
import { VoiceAgentIdField } from './VoiceAgentIdField';

interface AddAgentValues {
  name?: string;
  description?: string;
  webhook?: string;
  elevenlabsAgentId?: string;
  callbackDeadlineMinutes?: number;
  sendFeedback?: boolean;
}

interface AddAgentDialogProps {
  open: boolean;
  onClose: () => void;
  onAdded?: (agent: AgentView) => void;
}

/** Spec: name and webhook (non-blank) and a current company are required; new agents get the canned prompts. */
export function AddAgentDialog({ open, onClose, onAdded }: AddAgentDialogProps) {
  const { addAgent } = useAgentActions();
  const [form] = Form.useForm<AddAgentValues>();
  const [saving, setSaving] = useState(false);

  const submit = async (values: AddAgentValues) => {
    const name = values.name?.trim() ?? '';
    const webhook = values.webhook?.trim() ?? '';
    const companyId = useCompanyStore.getState().currentCompanyId;
    // Spec: otherwise the submission is silently ignored (the form's hints already say what is missing).
    if (!name || !webhook || !companyId) return;
    setSaving(true);
    // defaultQuestions left out: the server starts the agent with the four canned prompts.
    const agent = await addAgent({
      name,
      webhook,
      description: values.description?.trim() || undefined,
      elevenlabsAgentId: values.elevenlabsAgentId?.trim() || undefined,
      callbackDeadlineMinutes: values.callbackDeadlineMinutes,
      sendFeedback: values.sendFeedback ?? false,
    });
    setSaving(false);
    if (!agent) return;
    form.resetFields();
    onAdded?.(agent);
    onClose();
  };

  return (
    <Modal
      open={open}
      title="Add Agent"
      okText="Add Agent"
      onOk={() => form.submit()}
      onCancel={onClose}
      confirmLoading={saving}
      destroyOnHidden
    >
      <Form<AddAgentValues>
        form={form}
        layout="vertical"
        name="add-agent"
        initialValues={{ callbackDeadlineMinutes: DEFAULT_REPLY_DEADLINE_MINUTES }}
        onFinish={(v) => void submit(v)}
      >
        <Form.Item
          label="Name"
          name="name"
          rules={[{ required: true, whitespace: true, message: 'Agent name is required' }]}
        >
          <Input maxLength={100} autoFocus />
        </Form.Item>
        <Form.Item label="Description" name="description">
          <Input.TextArea rows={2} maxLength={500} placeholder="Custom agent" />
        </Form.Item>
        <Form.Item
          label="Webhook URL"
          name="webhook"
          rules={[{ required: true, whitespace: true, message: 'Webhook URL is required' }]}
        >
          <Input type="url" placeholder="https://n8n.example.com/webhook/..." maxLength={2000} />
        </Form.Item>
        <VoiceAgentIdField />
        <SendRatingsField />
        <ReplyDeadlineField />
      </Form>
    </Modal>
  );
}
