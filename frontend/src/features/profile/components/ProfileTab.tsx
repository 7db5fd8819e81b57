import { App, Button, Flex, Form, Input } from 'antd';
import { useState } from 'react';
import { getErrorMessage } from '../../../api/errors';
import type { UpdateProfileRequest } from '../../../api/contracts';
import { meApi } from '../../../api/meApi';
import type { User } from '../../../api/contracts';
import { AvatarImage } from '../../../components/AvatarImage';
import { AvatarUploadButton } from '../../../components/AvatarUploadButton';
import { useSessionStore } from '../../../stores/sessionStore';

interface ProfileValues {
  name: string;
  email: string;
  bio?: string;
  currentPassword?: string;
}

export function ProfileTab({ user }: { user: User }) {
  const { notification } = App.useApp();
  const setUser = useSessionStore((s) => s.setUser);
  const [form] = Form.useForm<ProfileValues>();
  const [saving, setSaving] = useState(false);
  const email = Form.useWatch('email', form);
  const emailChanged = typeof email === 'string' && email.trim() !== '' && email.trim() !== user.email;

  const onFinish = async (values: ProfileValues) => {
    const request: UpdateProfileRequest = { name: values.name.trim(), bio: values.bio ?? '' };
    if (emailChanged) {
      // Only a changed email is sent: the server asks for the current password whenever it changes.
      request.email = values.email.trim();
      request.currentPassword = values.currentPassword;
    }
    setSaving(true);
    try {
      const updated = await meApi.update(request);
      setUser(updated);
      // A new email waits for its link: the field shows the address still in force.
      form.setFieldsValue({ email: updated.email, currentPassword: undefined });
      if (request.email && updated.pendingEmail) {
        notification.success({
          title: 'Profile updated',
          description: `We sent a confirmation link to ${updated.pendingEmail}. Your email changes when you follow it.`,
        });
      } else {
        notification.success({ title: 'Profile updated' });
      }
    } catch (error) {
      notification.error({
        title: 'Error updating profile',
        description: getErrorMessage(error, 'Failed to update profile. Please try again.'),
      });
    } finally {
      setSaving(false);
    }
  };

  return (
    <Flex vertical gap="large">
      <Flex align="center" gap="large">
        <AvatarImage src={user.avatar} name={user.name} size={96} />
        <AvatarUploadButton
          successTitle="Profile image updated"
          upload={async (file) => setUser(await meApi.uploadAvatar(file))}
        />
      </Flex>
      <Form<ProfileValues>
        name="profile"
        form={form}
        layout="vertical"
        initialValues={{ name: user.name, email: user.email, bio: user.bio }}
        onFinish={(values) => void onFinish(values)}
      >
        <Form.Item
          label="Name"
          name="name"
          rules={[{ required: true, whitespace: true, message: 'Please enter your name' }]}
        >
          <Input autoComplete="name" />
        </Form.Item>
        <Form.Item
          label="Email"
          name="email"
          extra={
            user.pendingEmail
              ? `Waiting for confirmation: ${user.pendingEmail}. Follow the link sent there to make it your email.`
              : undefined
          }
          rules={[
            { required: true, whitespace: true, message: 'Please enter your email' },
            { type: 'email', message: 'Please enter a valid email' },
          ]}
        >
          <Input type="email" autoComplete="email" />
        </Form.Item>
        {emailChanged && (
          <Form.Item
            label="Current Password"
            name="currentPassword"
            extra="Required to change your email."
            rules={[{ required: true, message: 'Current password is required to change your email' }]}
          >
            <Input.Password autoComplete="current-password" />
          </Form.Item>
        )}
        <Form.Item label="Bio" name="bio">
          <Input.TextArea rows={4} placeholder="Tell us a little about yourself" />
        </Form.Item>
        <Button type="primary" htmlType="submit" disabled={saving}>
          {saving ? 'Saving...' : 'Save Changes'}
        </Button>
      </Form>
    </Flex>
  );
}
