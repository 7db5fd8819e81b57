import { Button, Form, Input } from 'antd';
import { useState } from 'react';
import { NewPasswordFields } from '../../../components/NewPasswordFields';
import { useProfileActions } from '../hooks/useProfileActions';

interface PasswordValues {
  currentPassword: string;
  newPassword: string;
  confirmPassword: string;
}

export function PasswordTab() {
  const { changePassword } = useProfileActions();
  const [form] = Form.useForm<PasswordValues>();
  const [updating, setUpdating] = useState(false);

  const onFinish = async ({ currentPassword, newPassword, confirmPassword }: PasswordValues) => {
    // Spec: a mismatch stops the submission silently (the field shows its own hint).
    if (newPassword !== confirmPassword) return;
    setUpdating(true);
    const changed = await changePassword(currentPassword, newPassword);
    setUpdating(false);
    if (changed) form.resetFields();
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
