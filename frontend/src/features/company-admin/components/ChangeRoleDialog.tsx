import { Button, Flex, Form, Modal, Select, Typography } from 'antd';
import { useState } from 'react';
import type { CompanyRole, MemberView } from '../../../api/contracts';
import { useMemberActions } from '../hooks/useMemberActions';

interface ChangeRoleDialogProps {
  member: MemberView | null;
  /** Only an owner makes or unmakes an owner. */
  viewerIsOwner: boolean;
  onClose: () => void;
}

export function ChangeRoleDialog({ member, viewerIsOwner, onClose }: ChangeRoleDialogProps) {
  const { changeRole } = useMemberActions();
  const [saving, setSaving] = useState(false);

  const submit = async ({ role }: { role: CompanyRole }) => {
    if (!member) return;
    setSaving(true);
    const saved = await changeRole(member, role);
    setSaving(false);
    if (saved) onClose();
  };

  const options = [
    ...(viewerIsOwner || member?.role === 'owner' ? [{ value: 'owner', label: 'Owner' }] : []),
    { value: 'admin', label: 'Admin' },
    { value: 'user', label: 'User' },
  ];

  return (
    <Modal open={!!member} title="Change Role" onCancel={onClose} footer={null} destroyOnHidden>
      {member && (
        <Form<{ role: CompanyRole }>
          name="change-role"
          layout="vertical"
          initialValues={{ role: member.role }}
          onFinish={(values) => void submit(values)}
        >
          <Typography.Paragraph>
            Choose the role of {member.name} ({member.email}) in this company.
          </Typography.Paragraph>
          <Form.Item label="Role" name="role">
            <Select options={options} autoFocus />
          </Form.Item>
          <Flex justify="end" gap="small">
            <Button onClick={onClose}>Cancel</Button>
            <Button type="primary" htmlType="submit" disabled={saving}>
              {saving ? 'Saving...' : 'Save Role'}
            </Button>
          </Flex>
        </Form>
      )}
    </Modal>
  );
}
