import { DeleteOutlined } from '@ant-design/icons';
import { Alert, Button, Flex, Form, Input, Popconfirm, Switch, theme } from 'antd';
import { useState } from 'react';
import { Link } from 'react-router-dom';
import type { AgentView, UpdateAgentRequest } from '../../../api/contracts';
import { AvatarImage } from '../../../components/AvatarImage';
import { AvatarUploadButton } from '../../../components/AvatarUploadButton';
import { useAgentActions } from '../hooks/useAgentActions';
import { DefaultQuestionsEditor } from './DefaultQuestionsEditor';
import { SendRatingsField } from './SendRatingsField';
import { ReplyDeadlineField } from './ReplyDeadlineField';
import { SigningSecretAlert } from './SigningSecretAlert';
import { VoiceAgentIdField } from './VoiceAgentIdField';

interface AgentValues {
  name: string;
  description?: string;
  webhook?: string;
  elevenlabsAgentId?: string;
  signed: boolean;
  sendFeedback: boolean;
  defaultQuestions: string[];
  callbackDeadlineMinutes: number;
  sendFilesInline: boolean;
}

interface AgentDetailsProps {
  agent: AgentView;
  onDeleted: () => void;
}

/** The Details tab: edit form, avatar, default questions, signing secret, Delete Agent and Save Changes. */
export function AgentDetails({ agent, onDeleted }: AgentDetailsProps) {
  const { token } = theme.useToken();
  const [form] = Form.useForm<AgentValues>();
  const actions = useAgentActions();
  const [saving, setSaving] = useState(false);
  const [deleting, setDeleting] = useState(false);
  const [secret, setSecret] = useState<string | null>(null);
  // The server refuses edits of an agent that is not editable (the default agent): show it read-only.
  const readOnly = !agent.isEditable;

  /** A new secret replaces the old one at once: the webhook must be given the new one. */
  const regenerateSecret = async () => {
    const saved = await actions.updateAgent(agent.id, { signed: true });
    if (saved) setSecret(saved.signingSecret);
  };

  const save = async (values: AgentValues) => {
    const request: UpdateAgentRequest = {
      name: values.name.trim(),
      description: values.description?.trim() ?? '',
      defaultQuestions: values.defaultQuestions,
      elevenlabsAgentId: values.elevenlabsAgentId?.trim() || null,
      callbackDeadlineMinutes: values.callbackDeadlineMinutes,
    };
    // The default agent's webhook and signing belong to the installation.
    if (!agent.isDefault) {
      request.webhook = values.webhook?.trim() ?? '';
      request.sendFeedback = values.sendFeedback;
      if (values.sendFilesInline !== (agent.sendFilesInline ?? false))
        request.sendFilesInline = values.sendFilesInline;
      if (values.signed !== agent.hasSigningSecret) request.signed = values.signed;
    }
    setSaving(true);
    const saved = await actions.updateAgent(agent.id, request);
    setSaving(false);
    if (saved) setSecret(saved.signingSecret);
  };

  const remove = async () => {
    setDeleting(true);
    const deleted = await actions.deleteAgent(agent.id);
    setDeleting(false);
    if (deleted) onDeleted();
  };

  return (
    <Flex vertical gap="middle">
      <Flex align="center" gap="middle">
        <AvatarImage src={agent.avatar} name={agent.name} size={64} />
        {!readOnly && (
          <AvatarUploadButton
            successTitle="Agent updated"
            upload={(file) => actions.uploadAvatar(agent.id, file)}
          />
        )}
      </Flex>
      {readOnly && (
        <Alert
          type="info"
          showIcon
          title="This agent cannot be edited"
          description="Its name, webhook and prompts are set by the installation. Create your own agent to choose them."
        />
      )}
      {secret && <SigningSecretAlert secret={secret} onClose={() => setSecret(null)} />}
      <Form<AgentValues>
        form={form}
        name={`agent-${agent.id}`}
        layout="vertical"
        disabled={readOnly}
        initialValues={{
          name: agent.name,
          description: agent.description,
          webhook: agent.webhook ?? '',
          elevenlabsAgentId: agent.elevenlabsAgentId ?? '',
          signed: agent.hasSigningSecret,
          sendFeedback: agent.sendFeedback,
          defaultQuestions: agent.defaultQuestions,
          callbackDeadlineMinutes: agent.callbackDeadlineMinutes,
          sendFilesInline: agent.sendFilesInline ?? false,
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
            // Read-only looks read-only: filled, not an outlined box that invites typing.
            variant={agent.isDefault ? 'filled' : 'outlined'}
            aria-readonly={agent.isDefault || undefined}
            placeholder={agent.isDefault ? 'Built-in demo agent' : 'https://n8n.example.com/webhook/...'}
            maxLength={2000}
          />
        </Form.Item>
        <VoiceAgentIdField />
        <Form.Item
          label="Sign webhook requests"
          name="signed"
          valuePropName="checked"
          extra={
            agent.isDefault ? undefined : (
              <>
                Adds a webhook-signature header that proves a request comes from Switchboard.{' '}
                <Link to="/docs/webhook-signatures" target="_blank" rel="noopener">
                  How to verify it
                </Link>
              </>
            )
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
        <SendRatingsField disabled={agent.isDefault} />
        {!agent.isDefault && (
          <Form.Item
            label="Send files inline"
            name="sendFilesInline"
            valuePropName="checked"
            extra="Small files go in the request body (base64, as n8n's chat trigger has them) instead of links the agent fetches."
          >
            <Switch />
          </Form.Item>
        )}
        <ReplyDeadlineField />
        <Form.Item label="Default questions" name="defaultQuestions">
          <DefaultQuestionsEditor />
        </Form.Item>
        {/* Kept in view at the bottom of the 500 px dialog, however long the form above. */}
        {(!agent.isDefault || !readOnly) && (
          <Flex
            justify="space-between"
            gap="small"
            data-testid="agent-details-actions"
            style={{
              position: 'sticky',
              bottom: 0,
              zIndex: 1,
              paddingBlock: token.paddingSM,
              background: token.colorBgElevated,
              borderTop: `1px solid ${token.colorBorderSecondary}`,
            }}
          >
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
            {!readOnly && (
              <Button type="primary" htmlType="submit" loading={saving}>
                Save Changes
              </Button>
            )}
          </Flex>
        )}
      </Form>
    </Flex>
  );
}
