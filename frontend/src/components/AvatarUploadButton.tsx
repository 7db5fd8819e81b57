import { UploadOutlined } from '@ant-design/icons';
import { Button, Upload } from 'antd';
import { App } from '../hooks/appApi';
import { useState } from 'react';
import { getErrorMessage } from '../api/errors';

export const MAX_AVATAR_BYTES = 5 * 1024 * 1024;

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

/**
 * 'Change Avatar' for a profile or an agent: checks the file, shows 'Uploading...' while `upload` runs,
 * then the success or the spec's error toast. The server checks the content again and re-encodes it.
 */
export function AvatarUploadButton({
  upload,
  successTitle,
}: {
  upload: (file: File) => Promise<void>;
  successTitle: string;
}) {
  const { notification } = App.useApp();
  const [uploading, setUploading] = useState(false);

  const onFile = async (file: File) => {
    const problem = checkAvatarFile(file);
    if (problem) {
      notification.error(problem);
      return;
    }
    setUploading(true);
    try {
      await upload(file);
      notification.success({ title: successTitle });
    } catch (error) {
      notification.error({
        title: 'Error uploading image',
        description: getErrorMessage(error, 'Failed to upload image. Please try again.'),
      });
    } finally {
      setUploading(false);
    }
  };

  return (
    <Upload
      accept="image/*"
      showUploadList={false}
      disabled={uploading}
      beforeUpload={(file) => {
        void onFile(file);
        // The upload goes through the http client (token, refresh), not antd's own request.
        return false;
      }}
    >
      <Button icon={<UploadOutlined />} disabled={uploading} loading={uploading}>
        {uploading ? 'Uploading...' : 'Change Avatar'}
      </Button>
    </Upload>
  );
}
