import { Modal, Tabs } from 'antd';
import { useSessionStore } from '../../../stores/sessionStore';
import { PasswordTab } from './PasswordTab';
import { ProfileTab } from './ProfileTab';

interface ProfileSettingsDialogProps {
  open: boolean;
  onClose: () => void;
}

/** Spec: max width 2xl (42rem = 672px). */
export function ProfileSettingsDialog({ open, onClose }: ProfileSettingsDialogProps) {
  const user = useSessionStore((s) => s.user);
  return (
    <Modal open={open} title="Profile Settings" onCancel={onClose} footer={null} width={672} destroyOnHidden>
      {user && (
        <Tabs
          // Only the visible tab is mounted, so each label (e.g. 'Current Password') names one field.
          destroyOnHidden
          items={[
            { key: 'profile', label: 'Profile', children: <ProfileTab user={user} /> },
            { key: 'password', label: 'Password', children: <PasswordTab /> },
          ]}
        />
      )}
    </Modal>
  );
}
