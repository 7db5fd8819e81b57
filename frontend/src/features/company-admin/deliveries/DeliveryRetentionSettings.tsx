import { DELIVERY_RETENTION_MAX_DAYS } from '@contracts/deliveries';
import { Alert, Button, Card, Form, InputNumber, Typography, theme } from 'antd';
import { useEffect, useState } from 'react';
import { deliveriesApi } from '../../../api/deliveriesApi';
import { getErrorMessage } from '../../../api/errors';
import { App } from '../../../hooks/appApi';

/**
 * Company Admin → Settings → Delivery log: how many days the webhook request and answer bodies are kept
 * (0: not kept). Owners and admins; the change is audited.
 */
export function DeliveryRetentionSettings({ companyId }: { companyId: string }) {
  const { token } = theme.useToken();
  const { message } = App.useApp();
  const [days, setDays] = useState<number | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);

  useEffect(() => {
    let current = true;
    deliveriesApi.settings(companyId).then(
      (settings) => current && setDays(settings.retentionDays),
      (failure: unknown) => current && setLoadError(getErrorMessage(failure, 'Could not load the setting.')),
    );
    return () => {
      current = false;
    };
  }, [companyId]);

  const save = async ({ retentionDays }: { retentionDays: number }) => {
    setSaving(true);
    try {
      const saved = await deliveriesApi.saveSettings(companyId, { retentionDays });
      setDays(saved.retentionDays);
      void message.success('Delivery log retention saved');
    } catch (failure) {
      void message.error(getErrorMessage(failure, 'Could not save the setting.'));
    } finally {
      setSaving(false);
    }
  };

  return (
    <Card
      title={
        <Typography.Title level={2} style={{ margin: 0, fontSize: token.fontSizeHeading5 }}>
          Delivery log
        </Typography.Title>
      }
      style={{ maxWidth: 560, marginTop: 16 }}
    >
      {loadError ? (
        <Alert type="error" title={loadError} showIcon />
      ) : days === null ? null : (
        <Form<{ retentionDays: number }>
          key={days}
          name="delivery-retention"
          layout="vertical"
          initialValues={{ retentionDays: days }}
          onFinish={(values) => void save(values)}
        >
          <Form.Item
            label="Keep request and answer bodies for (days)"
            name="retentionDays"
            extra="0: bodies are not kept. The log itself (time, outcome, status) is kept for 90 days."
            rules={[{ required: true, message: 'Enter a number of days' }]}
          >
            <InputNumber min={0} max={DELIVERY_RETENTION_MAX_DAYS} precision={0} style={{ width: 120 }} />
          </Form.Item>
          <Button type="primary" htmlType="submit" disabled={saving}>
            {saving ? 'Saving...' : 'Save retention'}
          </Button>
        </Form>
      )}
    </Card>
  );
}
