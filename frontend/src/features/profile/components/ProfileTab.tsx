import { UploadOutlined } from '@ant-design/icons';
import { App, Button, Flex, Form, Input, Upload } from 'antd';
import { useState } from 'react';
import { getErrorMessageOr } from '../../../api/errors';
import { meApi, type UpdateProfileRequest } from '../../../api/meApi';
import type { User } from '../../../api/types';
import { AvatarImage } from '../../../components/AvatarImage';
import { useSessionStore } from '../../../stores/sessionStore';

export const MAX_AVATAR_BYTES = 5 * 1024 * 1024;

interface ProfileValues {
  name: string;
  email: string;
  bio?: string;
  currentPassword?: string;
}

/** Client-side avatar checks (spec section 5); returns the 'Title: description' pair to show, if any. */
export function checkAvatarFile(
  file: Pick<File, 'type' | 'size'>,
): { title: string; description: string } | null {
  if (!file.type.startsWith('image/')) {
    return { title: 'Invalid file type', description: 'Please upload an image file.' };
  }
  if (file.size > MAX_AVATAR_BYTES) {
    return { title: 'File too large', description: 'Please upload an image smaller than 5MB.' };
  }
  return null;
}

export function ProfileTab({ user }: { user: User }) {
  const { notification } = App.useApp();
  const setUser = useSessionStore((s) => s.setUser);
  const [form] = Form.useForm<ProfileValues>();
  const [saving, setSaving] = useState(false);
  const [uploading, setUploading] = useState(false);
  const email = Form.useWatch('email', form);
  const emailChanged = typeof email === 'string' && email.trim() !== '' && email.trim() !== user.email;

  const uploadAvatar = async (file: File) => {
    const problem = checkAvatarFile(file);
    if (problem) {
      notification.error(problem);
      return;
    }
    setUploading(true);
    try {
      setUser(await meApi.uploadAvatar(file));
      notification.success({ title: 'Profile image updated' });
    } catch (error) {
      notification.error({
        title: 'Error uploading image',
        description: getErrorMessageOr(error, 'Failed to upload image. Please try again.'),
      });
    } finally {
      setUploading(false);
    }
  };

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
      form.setFieldsValue({ currentPassword: undefined });
      notification.success({ title: 'Profile updated' });
    } catch (error) {
      notification.error({
        title: 'Error updating profile',
        description: getErrorMessageOr(error, 'Failed to update profile. Please try again.'),
      });
    } finally {
      setSaving(false);
    }
  };

  return (
    <Flex vertical gap="large">
      <Flex align="center" gap="large">
        <AvatarImage src={user.avatar} name={user.name} size={96} />
        <Upload
          accept="image/*"
          showUploadList={false}
          beforeUpload={(file) => {
            void uploadAvatar(file);
            // The upload goes through the http client (token, refresh), not antd's own request.
            return false;
          }}
          disabled={uploading}
        >
          <Button icon={<UploadOutlined />} disabled={uploading}>
            {uploading ? 'Uploading...' : 'Change Avatar'}
          </Button>
        </Upload>
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
