import { Button, Flex, Form, Input, Modal } from 'antd';
import { useState } from 'react';
import { useCompanyActions } from './useCompanyActions';

interface AddCompanyValues {
  name: string;
  ownerEmail: string;
}

/** Add Company: a name and the email of an existing account, which becomes its owner. */
export function AddCompanyDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const [form] = Form.useForm<AddCompanyValues>();
  const { create } = useCompanyActions();
  const [saving, setSaving] = useState(false);

  const submit = async ({ name, ownerEmail }: AddCompanyValues) => {
    setSaving(true);
    const created = await create(name, ownerEmail);
    setSaving(false);
    if (created) {
      form.resetFields();
      onClose();
    }
  };

  return (
    <Modal open={open} title="Add Company" onCancel={onClose} footer={null} destroyOnHidden>
      <Form<AddCompanyValues>
        form={form}
        name="add-company"
        layout="vertical"
        onFinish={(v) => void submit(v)}
      >
        <Form.Item
          label="Company Name"
          name="name"
          rules={[
            { required: true, whitespace: true, message: 'Company name is required' },
            { max: 200, message: 'Company name must be at most 200 characters' },
          ]}
        >
          <Input autoComplete="off" placeholder="Acme Inc." autoFocus />
        </Form.Item>
        <Form.Item
          label="Owner Email"
          name="ownerEmail"
          extra="The owner must already have an account."
          rules={[
            { required: true, whitespace: true, message: 'Owner email is required' },
            { type: 'email', message: 'Please enter a valid email address' },
          ]}
        >
          <Input type="email" autoComplete="off" placeholder="owner@example.com" />
        </Form.Item>
        <Flex justify="end" gap="small">
          <Button onClick={onClose}>Cancel</Button>
          <Button type="primary" htmlType="submit" loading={saving}>
            {saving ? 'Creating...' : 'Add Company'}
          </Button>
        </Flex>
      </Form>
    </Modal>
  );
}
