import { App, Button, Form, Input, Modal } from 'antd';
import { useState } from 'react';
import { companiesApi } from '../../../api/companiesApi';
import { getErrorMessage } from '../../../api/errors';
import { useCompanyStore } from '../../../stores/companyStore';

interface CreateCompanyDialogProps {
  open: boolean;
  onClose: () => void;
}

export function CreateCompanyDialog({ open, onClose }: CreateCompanyDialogProps) {
  const { notification } = App.useApp();
  const [form] = Form.useForm<{ name: string }>();
  const [submitting, setSubmitting] = useState(false);

  const close = () => {
    form.resetFields();
    onClose();
  };

  const onFinish = async ({ name }: { name: string }) => {
    setSubmitting(true);
    try {
      const company = await companiesApi.create(name.trim());
      const store = useCompanyStore.getState();
      store.upsertCompany(company);
      store.setCurrentCompany(company.id);
      notification.success({
        title: 'Company created',
        description: 'You are now the owner of your new company.',
      });
      close();
    } catch (error) {
      notification.error({
        title: 'Failed to create company',
        description: getErrorMessage(error, 'Please try again later.'),
      });
    } finally {
      setSubmitting(false);
    }
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
