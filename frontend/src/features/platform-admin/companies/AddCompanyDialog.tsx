import { Form, Input } from 'antd';
import { FormDialog } from '../../../components/FormDialog';
import { useCompanyActions } from './useCompanyActions';

interface AddCompanyValues {
  name: string;
  ownerEmail: string;
}

/** Add Company: a name and the email of an existing account, which becomes its owner. */
export function AddCompanyDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const [form] = Form.useForm<AddCompanyValues>();
  const { create } = useCompanyActions();

  const submit = ({ name, ownerEmail }: AddCompanyValues) => create(name, ownerEmail);

  return (
    <FormDialog
      open={open}
      onClose={onClose}
      title="Add Company"
      form={form}
      name="add-company"
      onSubmit={submit}
      submitLabel="Add Company"
      busyLabel="Creating..."
      spinWhileBusy
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
    </FormDialog>
  );
}
