import { Empty, Modal, Tabs } from 'antd';

interface SettingsDialogProps {
  open: boolean;
  onClose: () => void;
}

/** Spec: a 500px-high dialog with General and Agents tabs; agents arrive with the agents feature. */
export function SettingsDialog({ open, onClose }: SettingsDialogProps) {
  return (
    <Modal open={open} title="Settings" onCancel={onClose} footer={null} width={672} destroyOnHidden>
      <div style={{ height: 500, overflow: 'auto' }}>
        <Tabs
          items={[
            {
              key: 'general',
              label: 'General',
              children: (
                <Empty
                  image={Empty.PRESENTED_IMAGE_SIMPLE}
                  description="General settings will be available soon"
                />
              ),
            },
          ]}
        />
      </div>
    </Modal>
  );
}
