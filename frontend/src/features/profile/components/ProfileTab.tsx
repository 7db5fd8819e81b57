import { Button, Flex, Form, Input } from 'antd';
import { useState } from 'react';
import type { UpdateProfileRequest, User } from '../../../api/contracts';
import { AvatarImage } from '../../../components/AvatarImage';
import { AvatarUploadButton } from '../../../components/AvatarUploadButton';
import { useProfileActions } from '../hooks/useProfileActions';

interface ProfileValues {
  name: string;
  email: string;
  bio?: string;
  currentPassword?: string;
}

export function ProfileTab({ user }: { user: User }) {
  const { updateProfile, uploadAvatar } = useProfileActions();
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
    const updated = await updateProfile(request);
    setSaving(false);
    // A new email waits for its link: the field shows the address still in force.
    if (updated) form.setFieldsValue({ email: updated.email, currentPassword: undefined });
  };

  return (
    <Flex vertical gap="large">
      <Flex align="center" gap="large">
        <AvatarImage src={user.avatar} name={user.name} size={96} />
        <AvatarUploadButton successTitle="Profile image updated" upload={uploadAvatar} />
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
          <Input autoComplete="name" autoFocus />
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
