import { Form, Input } from 'antd';
import { FormDialog } from '../../../components/FormDialog';
import type { CreateCompanyAgentRequest } from '../../../api/contracts';
import { useCompanyAdminActions } from '../hooks/useCompanyAdminActions';

/** Create Agent on the Company Agents page: name and description required. */
export function CreateCompanyAgentDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const [form] = Form.useForm<CreateCompanyAgentRequest>();
  const { createAgent } = useCompanyAdminActions();

  const submit = (values: CreateCompanyAgentRequest) =>
    createAgent({ name: values.name.trim(), description: values.description.trim() });

  return (
    <FormDialog
      open={open}
      onClose={onClose}
      title="Create Agent"
      form={form}
      name="create-company-agent"
      onSubmit={submit}
      submitLabel="Create Agent"
      busyLabel="Creating..."
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
    </FormDialog>
  );
}
