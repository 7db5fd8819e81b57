import { Button, Flex, Form, Input, Modal } from 'antd';
import { useState } from 'react';
import type { CreateCompanyAgentRequest } from '../../../api/contracts';
import { useCompanyAdminActions } from '../hooks/useCompanyAdminActions';

/** Create Agent on the Company Agents page: name and description required. */
export function CreateCompanyAgentDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const [form] = Form.useForm<CreateCompanyAgentRequest>();
  const { createAgent } = useCompanyAdminActions();
  const [creating, setCreating] = useState(false);

  const submit = async (values: CreateCompanyAgentRequest) => {
    setCreating(true);
    const created = await createAgent({ name: values.name.trim(), description: values.description.trim() });
    setCreating(false);
    if (created) {
      form.resetFields();
      onClose();
    }
  };

  return (
    <Modal open={open} title="Create Agent" onCancel={onClose} footer={null} destroyOnHidden>
      <Form<CreateCompanyAgentRequest>
        form={form}
        name="create-company-agent"
        layout="vertical"
        onFinish={(values) => void submit(values)}
      >
        <Form.Item
          label="Name"
          name="name"
          rules={[{ required: true, whitespace: true, message: 'Please enter a name' }]}
        >
          <Input maxLength={100} autoFocus />
        </Form.Item>
        <Form.Item
          label="Description"
          name="description"
          rules={[{ required: true, whitespace: true, message: 'Please enter a description' }]}
        >
          <Input.TextArea rows={3} maxLength={500} />
        </Form.Item>
        <Flex justify="end" gap="small">
          <Button onClick={onClose}>Cancel</Button>
          <Button type="primary" htmlType="submit" disabled={creating}>
            {creating ? 'Creating...' : 'Create Agent'}
          </Button>
        </Flex>
      </Form>
    </Modal>
  );
}
