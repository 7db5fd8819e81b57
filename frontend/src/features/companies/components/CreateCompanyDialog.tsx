import { Button, Form, Input, Modal } from 'antd';
import { useState } from 'react';
import { useCompanyActions } from '../hooks/useCompanyActions';

interface CreateCompanyDialogProps {
  open: boolean;
  onClose: () => void;
}

export function CreateCompanyDialog({ open, onClose }: CreateCompanyDialogProps) {
  const { createCompany } = useCompanyActions();
  const [form] = Form.useForm<{ name: string }>();
  const [submitting, setSubmitting] = useState(false);

  const close = () => {
    form.resetFields();
    onClose();
  };

  const onFinish = async ({ name }: { name: string }) => {
    setSubmitting(true);
    const created = await createCompany(name.trim());
    setSubmitting(false);
    if (created) close();
  };

  return (
    <Modal
      open={open}
      title="Create New Company"
      onCancel={close}
      destroyOnHidden
      footer={[
        <Button key="cancel" onClick={close} disabled={submitting}>
          Cancel
        </Button>,
        <Button key="create" type="primary" onClick={() => form.submit()} disabled={submitting}>
          {submitting ? 'Creating...' : 'Create Company'}
        </Button>,
      ]}
    >
      <Form name="createCompany" form={form} layout="vertical" onFinish={(values) => void onFinish(values)}>
        <Form.Item
          label="Company Name"
          name="name"
          rules={[{ required: true, whitespace: true, message: 'Company name is required' }]}
        >
          <Input placeholder="My Company" autoFocus />
        </Form.Item>
      </Form>
    </Modal>
  );
}
