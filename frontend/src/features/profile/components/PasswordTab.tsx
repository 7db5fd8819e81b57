import { App, Button, Form, Input } from 'antd';
import { useState } from 'react';
import { getClientErrorMessage } from '../../../api/errors';
import { http } from '../../../api/httpClient';
import { meApi } from '../../../api/meApi';
import { useSessionStore } from '../../../stores/sessionStore';

interface PasswordValues {
  currentPassword: string;
  newPassword: string;
  confirmPassword: string;
}

export function PasswordTab() {
  const { notification } = App.useApp();
  const setUser = useSessionStore((s) => s.setUser);
  const [form] = Form.useForm<PasswordValues>();
  const [updating, setUpdating] = useState(false);

  const onFinish = async ({ currentPassword, newPassword, confirmPassword }: PasswordValues) => {
    // Spec: a mismatch stops the submission silently (the field shows its own hint).
    if (newPassword !== confirmPassword) return;
    setUpdating(true);
    try {
      const auth = await meApi.changePassword(currentPassword, newPassword);
      // Other sessions were revoked and this one rotated: keep the new token.
      http.setSession(auth);
      setUser(auth.user);
      form.resetFields();
      notification.success({ title: 'Password updated' });
    } catch (error) {
      notification.error({ title: 'Error updating password', description: getClientErrorMessage(error) });
    } finally {
      setUpdating(false);
    }
  };

  return (
    <Form<PasswordValues>
      name="password"
      form={form}
      layout="vertical"
      onFinish={(values) => void onFinish(values)}
    >
      <Form.Item
        label="Current Password"
        name="currentPassword"
        rules={[{ required: true, message: 'Please enter your current password' }]}
      >
        <Input.Password autoComplete="current-password" />
      </Form.Item>
      <Form.Item
        label="New Password"
        name="newPassword"
        rules={[{ required: true, message: 'Please enter a new password' }]}
      >
        <Input.Password autoComplete="new-password" />
      </Form.Item>
      <Form.Item
        label="Confirm New Password"
        name="confirmPassword"
        dependencies={['newPassword']}
        rules={[
          { required: true, message: 'Please confirm your new password' },
          ({ getFieldValue }) => ({
            validator: (_rule, value: string | undefined) =>
              !value || getFieldValue('newPassword') === value
                ? Promise.resolve()
                : Promise.reject(new Error('Passwords do not match')),
          }),
        ]}
      >
        <Input.Password autoComplete="new-password" />
      </Form.Item>
      <Button type="primary" htmlType="submit" disabled={updating}>
        {updating ? 'Updating...' : 'Update Password'}
      </Button>
    </Form>
  );
}
