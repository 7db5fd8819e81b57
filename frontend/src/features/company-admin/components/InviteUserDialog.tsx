import { Form, Input, Select } from 'antd';
import { FormDialog } from '../../../components/FormDialog';
import type { InvitationRole } from '../../../api/contracts';
import { useInvitationActions, type InviteFrom } from '../../invitations/hooks/useInvitationActions';

interface InviteValues {
  email: string;
  role: InvitationRole;
}

interface InviteUserDialogProps {
  open: boolean;
  onClose: () => void;
  /** Users says 'User invited'; Invitations says 'Invitation created' and copies the link. */
  from: InviteFrom;
}

/** The spec's Invite User dialog (also New Invitation): Email, Role (User or Admin), Send Invitation. */
export function InviteUserDialog({ open, onClose, from }: InviteUserDialogProps) {
  const [form] = Form.useForm<InviteValues>();
  const { invite } = useInvitationActions();

  const submit = ({ email, role }: InviteValues) => invite(email.trim(), role, from);

  return (
    <FormDialog
      open={open}
      onClose={onClose}
      title={from === 'users' ? 'Invite User' : 'New Invitation'}
      form={form}
      name={`invite-${from}`}
      initialValues={{ role: 'user' }}
      onSubmit={submit}
      submitLabel="Send Invitation"
      busyLabel="Sending..."
    >
      <Form.Item
        label="Email"
        name="email"
        rules={[
          { required: true, whitespace: true, message: 'Please enter an email address' },
          { type: 'email', message: 'Please enter a valid email address' },
        ]}
      >
        <Input type="email" autoComplete="off" placeholder="colleague@example.com" autoFocus />
      </Form.Item>
      <Form.Item label="Role" name="role">
        <Select
          options={[
            { value: 'user', label: 'User' },
            { value: 'admin', label: 'Admin' },
          ]}
        />
      </Form.Item>
    </FormDialog>
  );
}
