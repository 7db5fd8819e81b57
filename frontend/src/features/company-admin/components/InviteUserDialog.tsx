import { Button, Flex, Form, Input, Modal, Select } from 'antd';
import { useState } from 'react';
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
  const [sending, setSending] = useState(false);

  const submit = async ({ email, role }: InviteValues) => {
    setSending(true);
    const created = await invite(email.trim(), role, from);
    setSending(false);
    if (created) {
      form.resetFields();
      onClose();
    }
  };

  return (
    <Modal
      open={open}
      title={from === 'users' ? 'Invite User' : 'New Invitation'}
      onCancel={onClose}
      footer={null}
      destroyOnHidden
    >
      <Form<InviteValues>
        form={form}
        name={`invite-${from}`}
        layout="vertical"
        initialValues={{ role: 'user' }}
        onFinish={(values) => void submit(values)}
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
        <Flex justify="end" gap="small">
          <Button onClick={onClose}>Cancel</Button>
          <Button type="primary" htmlType="submit" disabled={sending}>
            {sending ? 'Sending...' : 'Send Invitation'}
          </Button>
        </Flex>
      </Form>
    </Modal>
  );
}
