import { Empty, Modal, Tabs } from 'antd';
import { useState } from 'react';
import { findAgent, useAgentsStore } from '../../../stores/agentsStore';
import { AddAgentDialog } from '../../agents/components/AddAgentDialog';
import { AgentDetails } from '../../agents/components/AgentDetails';
import { AgentsTab } from '../../agents/components/AgentsTab';

interface SettingsDialogProps {
  open: boolean;
  onClose: () => void;
}

type SettingsTab = 'general' | 'agents' | 'details';

/** Spec: a 500px-high dialog: General, Agents, and Details (disabled until an agent is selected). */
export function SettingsDialog({ open, onClose }: SettingsDialogProps) {
  const [tab, setTab] = useState<SettingsTab>('general');
  const [agentId, setAgentId] = useState<string | null>(null);
  const [adding, setAdding] = useState(false);
  const agent = useAgentsStore((s) => findAgent(s.agents, agentId));

  const selectAgent = (id: string) => {
    setAgentId(id);
    setTab('details');
  };

  return (
    <>
      <Modal
        open={open}
        title="Settings"
        onCancel={onClose}
        afterClose={() => {
          setTab('general');
          setAgentId(null);
        }}
        footer={null}
        width={672}
        destroyOnHidden
      >
        <div style={{ height: 500, overflow: 'auto' }}>
          <Tabs
            activeKey={tab}
            onChange={(key) => setTab(key as SettingsTab)}
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
              {
                key: 'agents',
                label: 'Agents',
                children: (
                  <AgentsTab selectedId={agentId} onSelect={selectAgent} onAdd={() => setAdding(true)} />
                ),
              },
              {
                key: 'details',
                label: 'Details',
                disabled: !agent,
                children: agent ? (
                  <AgentDetails
                    key={agent.id}
                    agent={agent}
                    onDeleted={() => {
                      setAgentId(null);
                      setTab('agents');
                    }}
                  />
                ) : null,
              },
            ]}
          />
        </div>
      </Modal>
      <AddAgentDialog
        open={adding}
        onClose={() => setAdding(false)}
        onAdded={(added) => selectAgent(added.id)}
      />
    </>
  );
}
