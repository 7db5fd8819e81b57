import { Form, Input } from 'antd';
import { FormDialog } from '../../../components/FormDialog';
import { useActionToasts } from '../../../hooks/useActionToasts';
import { useUserActions } from './useUserActions';

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

interface InviteValues {
  name: string;
  email: string;
}

/**
 * User Management's Invite User dialog: Name and Email; Send Invitation stays disabled until both are
 * filled. The invitee gets an email with a link to choose their own password.
 */
export function InvitePlatformUserDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const [form] = Form.useForm<InviteValues>();
  const name = Form.useWatch('name', form) ?? '';
  const email = Form.useWatch('email', form) ?? '';
  const { invite } = useUserActions();
  const { refusal } = useActionToasts();
  // As the spec has it: enabled once both have something; blanks are refused on submit.
  const filled = name !== '' && email !== '';

  const submit = async (values: InviteValues) => {
    // Only spaces in a field: the spec's own refusal.
    if (!values.name?.trim() || !values.email?.trim()) {
      refusal('Missing information', 'Please provide both email and name.');
      return false;
    }
    return invite(values.name, values.email);
  };

  return (
    <FormDialog
      open={open}
      onClose={onClose}
      title="Invite User"
      form={form}
      name="invite-platform-user"
      onSubmit={submit}
      submitLabel="Send Invitation"
      busyLabel="Sending..."
      canSubmit={filled}
    >
      <Form.Item label="Name" name="name">
        <Input autoComplete="off" placeholder="Ada Lovelace" maxLength={300} autoFocus />
      </Form.Item>
      <Form.Item
        label="Email"
        name="email"
        rules={[
          {
            // Blank is the spec's 'Missing information' on submit, not a field error.
            validator: (_rule, value?: string) =>
              !value?.trim() || EMAIL.test(value.trim())
                ? Promise.resolve()
                : Promise.reject(new Error('Please enter a valid email address')),
          },
        ]}
      >
        <Input type="email" autoComplete="off" placeholder="ada@example.com" maxLength={320} />
      </Form.Item>
    </FormDialog>
  );
}
