import { DeleteOutlined } from '@ant-design/icons';
import { App, Button, Flex, Form, Input, Popconfirm, Switch } from 'antd';
import { useState } from 'react';
import { agentsApi } from '../../../api/agentsApi';
import type { UpdateAgentRequest } from '../../../api/contracts';
import type { AgentView } from '../../../api/contracts';
import { getErrorMessage } from '../../../api/errors';
import { AvatarImage } from '../../../components/AvatarImage';
import { useAgentsStore } from '../../../stores/agentsStore';
import { useChatStore } from '../../../stores/chatStore';
import { useCompanyStore } from '../../../stores/companyStore';
import { AvatarUploadButton } from '../../../components/AvatarUploadButton';
import { DefaultQuestionsEditor } from './DefaultQuestionsEditor';
import { SigningSecretAlert } from './SigningSecretAlert';

interface AgentValues {
  name: string;
  description?: string;
  webhook?: string;
  elevenlabsAgentId?: string;
  signed: boolean;
  defaultQuestions: string[];
}

interface AgentDetailsProps {
  agent: AgentView;
  onDeleted: () => void;
}

/** The Details tab: edit form, avatar, default questions, signing secret, Delete Agent and Save Changes. */
export function AgentDetails({ agent, onDeleted }: AgentDetailsProps) {
  const { notification } = App.useApp();
  const [form] = Form.useForm<AgentValues>();
  const [saving, setSaving] = useState(false);
  const [deleting, setDeleting] = useState(false);
  const [secret, setSecret] = useState<string | null>(null);
  const companyId = useCompanyStore((s) => s.currentCompanyId);

  /** A new secret replaces the old one at once: the webhook must be given the new one. */
  const regenerateSecret = async () => {
    if (!companyId) return;
    try {
      const { signingSecret, ...saved } = await agentsApi.update(companyId, agent.id, { signed: true });
      useAgentsStore.getState().upsertAgent(saved);
      setSecret(signingSecret ?? null);
      notification.success({ title: 'Agent updated' });
    } catch (error) {
      notification.error({ title: 'Error updating agents', description: getErrorMessage(error) });
    }
  };

  const save = async (values: AgentValues) => {
    if (!companyId) return;
    const request: UpdateAgentRequest = {
      name: values.name.trim(),
      description: values.description?.trim() ?? '',
      defaultQuestions: values.defaultQuestions,
      elevenlabsAgentId: values.elevenlabsAgentId?.trim() || null,
    };
    // The default agent's webhook and signing belong to the installation.
    if (!agent.isDefault) {
      request.webhook = values.webhook?.trim() ?? '';
      if (values.signed !== agent.hasSigningSecret) request.signed = values.signed;
    }
    setSaving(true);
    try {
      const { signingSecret, ...saved } = await agentsApi.update(companyId, agent.id, request);
      useAgentsStore.getState().upsertAgent(saved);
      setSecret(signingSecret ?? null);
      notification.success({ title: 'Agent updated' });
    } catch (error) {
      notification.error({ title: 'Error updating agents', description: getErrorMessage(error) });
    } finally {
      setSaving(false);
    }
  };

  const remove = async () => {
    if (!companyId) return;
    setDeleting(true);
    try {
      await agentsApi.remove(companyId, agent.id);
      const chats = useChatStore.getState();
      const open = chats.activeChatId
        ? [...chats.activeChats, ...chats.archivedChats].find((c) => c.id === chats.activeChatId)
        : null;
      chats.removeChatsOfAgent(agent.id);
      if (open?.agentId === agent.id) chats.setActiveChat(null);
      useAgentsStore.getState().removeAgent(agent.id);
      notification.success({ title: 'Agent deleted' });
      onDeleted();
    } catch (error) {
      notification.error({ title: 'Error deleting agents', description: getErrorMessage(error) });
    } finally {
      setDeleting(false);
    }
  };

  return (
    <Flex vertical gap="middle">
      <Flex align="center" gap="middle">
        <AvatarImage src={agent.avatar} name={agent.name} size={64} />
        <AvatarUploadButton
          successTitle="Agent updated"
          upload={async (file) => {
            if (!companyId) return;
            useAgentsStore.getState().upsertAgent(await agentsApi.uploadAvatar(companyId, agent.id, file));
          }}
        />
      </Flex>
      {secret && <SigningSecretAlert secret={secret} onClose={() => setSecret(null)} />}
      <Form<AgentValues>
        form={form}
        name={`agent-${agent.id}`}
        layout="vertical"
        initialValues={{
          name: agent.name,
          description: agent.description,
          webhook: agent.webhook ?? '',
          elevenlabsAgentId: agent.elevenlabsAgentId ?? '',
          signed: agent.hasSigningSecret,
          defaultQuestions: agent.defaultQuestions,
        }}
        onFinish={(values) => void save(values)}
      >
        <Form.Item
          label="Name"
          name="name"
          rules={[{ required: true, whitespace: true, message: 'Agent name is required' }]}
        >
          <Input maxLength={100} />
        </Form.Item>
        <Form.Item label="Description" name="description">
          <Input.TextArea rows={2} maxLength={500} />
        </Form.Item>
        <Form.Item
          label="Webhook URL"
          name="webhook"
          extra={agent.isDefault ? "The default agent's webhook is set by the installation." : undefined}
          rules={
            agent.isDefault ? [] : [{ required: true, whitespace: true, message: 'Webhook URL is required' }]
          }
        >
          <Input
            type="url"
            readOnly={agent.isDefault}
            placeholder={agent.isDefault ? 'Built-in demo agent' : 'https://n8n.example.com/webhook/...'}
            maxLength={2000}
          />
        </Form.Item>
        <Form.Item label="Voice Agent ID (elevenlabs)" name="elevenlabsAgentId">
          <Input maxLength={200} />
        </Form.Item>
        <Form.Item
          label="Sign webhook requests"
          name="signed"
          valuePropName="checked"
          extra={
            agent.isDefault
              ? undefined
              : 'Adds a webhook-signature header (HMAC-SHA256). Turning it on creates a new secret.'
          }
        >
          <Switch disabled={agent.isDefault} />
        </Form.Item>
        {agent.hasSigningSecret && !agent.isDefault && (
          <Form.Item>
            <Popconfirm
              title="Regenerate secret"
              description="The current secret stops working at once."
              okText="Regenerate"
              onConfirm={() => void regenerateSecret()}
            >
              <Button>Regenerate secret</Button>
            </Popconfirm>
          </Form.Item>
        )}
        <Form.Item label="Default questions" name="defaultQuestions">
          <DefaultQuestionsEditor />
        </Form.Item>
        <Flex justify="space-between" gap="small">
          {agent.isDefault ? (
            <span />
          ) : (
            <Popconfirm
              title="Delete Agent"
              description="This agent and all its chats will be deleted."
              okText="Delete"
              okButtonProps={{ danger: true }}
              onConfirm={() => remove()}
            >
              <Button danger icon={<DeleteOutlined />} loading={deleting}>
                Delete Agent
              </Button>
            </Popconfirm>
          )}
          <Button type="primary" htmlType="submit" loading={saving}>
            Save Changes
          </Button>
        </Flex>
      </Form>
    </Flex>
  );
}
