import { DeleteOutlined } from '@ant-design/icons';
import { Alert, Button, Card, Flex, Form, Input, Popconfirm, Switch, Tag, Typography, theme } from 'antd';
import { useState } from 'react';
import type { SsoSettingsView, UpdateSsoSettingsRequest } from '../../../api/contracts';
import { useSsoSettings } from '../hooks/useSsoSettings';

interface ProviderValues {
  enabled: boolean;
  issuer: string;
  clientId: string;
  clientSecret?: string;
  requireSso: boolean;
  autoJoin: boolean;
}

interface DomainValues {
  domain: string;
  email?: string;
}

/**
 * Company Admin → Settings → Single sign-on (owners only): the company's OpenID Connect provider and the
 * email domains it covers. The client secret is write-only: the field is always empty, and saving it
 * empty keeps the one already saved.
 */
export function SingleSignOnSettings({ companyId }: { companyId: string }) {
  const { settings, loadError, save, claimDomain, removeDomain } = useSsoSettings(companyId);
  const { token } = theme.useToken();

  return (
    <Card
      // A section of the page (under its h1): its title is the next heading level.
      title={
        <Typography.Title level={2} style={{ margin: 0, fontSize: token.fontSizeHeading5 }}>
          Single sign-on
        </Typography.Title>
      }
      style={{ maxWidth: 560, marginTop: 16 }}
    >
      {loadError ? (
        <Alert type="error" title={loadError} />
      ) : !settings ? (
        <Typography.Text type="secondary">Loading...</Typography.Text>
      ) : (
        <>
          <ProviderForm settings={settings} onSave={save} />
          <DomainList settings={settings} onClaim={claimDomain} onRemove={removeDomain} />
        </>
      )}
    </Card>
  );
}

function ProviderForm({
  settings,
  onSave,
}: {
  settings: SsoSettingsView;
  onSave: (request: UpdateSsoSettingsRequest) => Promise<boolean>;
}) {
  const [form] = Form.useForm<ProviderValues>();
  const [saving, setSaving] = useState(false);

  const submit = async (values: ProviderValues) => {
    setSaving(true);
    const { clientSecret, ...rest } = values;
    const saved = await onSave({
      ...rest,
      issuer: rest.issuer.trim(),
      clientId: rest.clientId.trim(),
      ...(clientSecret ? { clientSecret } : {}),
    });
    setSaving(false);
    if (saved) form.setFieldValue('clientSecret', '');
  };

  return (
    <Form<ProviderValues>
      form={form}
      name="single-sign-on"
      layout="vertical"
      initialValues={{
        enabled: settings.enabled,
        issuer: settings.issuer ?? '',
        clientId: settings.clientId ?? '',
        clientSecret: '',
        requireSso: settings.requireSso,
        autoJoin: settings.autoJoin,
      }}
      onFinish={(values) => void submit(values)}
    >
      <Typography.Paragraph type="secondary">
        Register this redirect URI at your identity provider:{' '}
        <Typography.Text code copyable>
          {settings.redirectUri}
        </Typography.Text>
      </Typography.Paragraph>
      <Form.Item
        label="Issuer URL"
        name="issuer"
        rules={[{ required: true, whitespace: true, message: 'Please enter the issuer URL' }]}
      >
        <Input maxLength={2000} placeholder="https://login.example.com/realms/acme" />
      </Form.Item>
      <Form.Item
        label="Client ID"
        name="clientId"
        rules={[{ required: true, whitespace: true, message: 'Please enter the client ID' }]}
      >
        <Input maxLength={500} />
      </Form.Item>
      <Form.Item
        label="Client secret"
        name="clientSecret"
        extra={settings.hasClientSecret ? 'A secret is saved. Leave empty to keep it.' : undefined}
        rules={
          settings.hasClientSecret ? [] : [{ required: true, message: 'Please enter the client secret' }]
        }
      >
        <Input.Password maxLength={1000} autoComplete="new-password" />
      </Form.Item>
      <Form.Item label="Sign-in through this provider" name="enabled" valuePropName="checked">
        <Switch />
      </Form.Item>
      <Form.Item label="Members must use SSO" name="requireSso" valuePropName="checked">
        <Switch />
      </Form.Item>
      <Form.Item
        label="People from these domains join automatically as User"
        name="autoJoin"
        valuePropName="checked"
      >
        <Switch />
      </Form.Item>
      <Button type="primary" htmlType="submit" disabled={saving}>
        {saving ? 'Saving...' : 'Save single sign-on'}
      </Button>
    </Form>
  );
}

function DomainList({
  settings,
  onClaim,
  onRemove,
}: {
  settings: SsoSettingsView;
  onClaim: (request: DomainValues) => Promise<boolean>;
  onRemove: (domainId: string, domain: string) => Promise<void>;
}) {
  const [form] = Form.useForm<DomainValues>();
  const [sending, setSending] = useState(false);
  const { token } = theme.useToken();

  const submit = async (values: DomainValues) => {
    setSending(true);
    const email = values.email?.trim();
    const sent = await onClaim({ domain: values.domain.trim(), ...(email ? { email } : {}) });
    setSending(false);
    if (sent) form.resetFields();
  };

  return (
    <>
      <Typography.Title level={3} style={{ marginTop: 24, fontSize: token.fontSize }}>
        Email domains
      </Typography.Title>
      <Typography.Paragraph type="secondary">
        A domain counts once proved: we mail a link to an address at it (postmaster@ unless you name one).
      </Typography.Paragraph>
      {settings.domains.length === 0 ? (
        <Typography.Text type="secondary">No domains yet</Typography.Text>
      ) : (
        <Flex vertical gap="small" role="list" aria-label="Email domains">
          {settings.domains.map((domain) => (
            <Flex key={domain.id} role="listitem" gap="small" align="center" justify="space-between" wrap>
              <Flex gap="small" align="center" wrap>
                <Typography.Text>{domain.domain}</Typography.Text>
                {domain.verifiedAt ? (
                  <Tag color="success">Verified</Tag>
                ) : (
                  <Tag color="warning">
                    Waiting for proof{domain.proofSentTo ? ` (${domain.proofSentTo})` : ''}
                  </Tag>
                )}
              </Flex>
              <Popconfirm
                title={`Remove ${domain.domain}?`}
                okText="Remove"
                onConfirm={() => onRemove(domain.id, domain.domain)}
              >
                <Button type="text" danger icon={<DeleteOutlined />} aria-label={`Remove ${domain.domain}`} />
              </Popconfirm>
            </Flex>
          ))}
        </Flex>
      )}
      <Form<DomainValues>
        form={form}
        name="sso-domain"
        layout="vertical"
        style={{ marginTop: 16 }}
        onFinish={(values) => void submit(values)}
      >
        <Form.Item
          label="Domain"
          name="domain"
          rules={[{ required: true, whitespace: true, message: 'Please enter a domain' }]}
        >
          <Input maxLength={253} placeholder="example.com" />
        </Form.Item>
        <Form.Item label="Address that receives the proof link (optional)" name="email">
          <Input maxLength={320} placeholder="postmaster@example.com" />
        </Form.Item>
        <Button htmlType="submit" disabled={sending}>
          {sending ? 'Sending...' : 'Send proof link'}
        </Button>
      </Form>
    </>
  );
}
