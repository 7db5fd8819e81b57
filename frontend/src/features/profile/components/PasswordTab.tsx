import { App, Button, Form, Input } from 'antd';
import { useState } from 'react';
import { getErrorMessage } from '../../../api/errors';
import { http } from '../../../api/httpClient';
import { meApi } from '../../../api/meApi';
import { useSessionStore } from '../../../stores/sessionStore';
import { NewPasswordFields } from '../../../components/NewPasswordFields';

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
      notification.error({ title: 'Error updating password', description: getErrorMessage(error) });
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
      <NewPasswordFields name="newPassword" />
      <Button type="primary" htmlType="submit" disabled={updating}>
        {updating ? 'Updating...' : 'Update Password'}
      </Button>
    </Form>
  );
}
