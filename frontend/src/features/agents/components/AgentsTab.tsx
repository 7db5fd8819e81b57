import { PlusOutlined } from '@ant-design/icons';
import { Button, Empty, Flex, Typography, theme } from 'antd';
import { AvatarImage } from '../../../components/AvatarImage';
import { useAgentsStore } from '../../../stores/agentsStore';

interface AgentsTabProps {
  selectedId: string | null;
  onSelect: (agentId: string) => void;
  onAdd: () => void;
}

/** Spec: the agents with avatar, name and description (or 'No description'); clicking one opens Details. */
export function AgentsTab({ selectedId, onSelect, onAdd }: AgentsTabProps) {
  const { token } = theme.useToken();
  const agents = useAgentsStore((s) => s.agents);
  return (
    <Flex vertical gap="small">
      <Flex justify="flex-end">
        <Button type="primary" icon={<PlusOutlined />} onClick={onAdd}>
          Add Agent
        </Button>
      </Flex>
      {agents.length === 0 ? (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="No agents" />
      ) : (
        <Flex component="ul" vertical gap={4} role="list" aria-label="Agents" className="sb-plain-list">
          {agents.map((agent) => (
            <li key={agent.id}>
              <Button
                type="text"
                block
                onClick={() => onSelect(agent.id)}
                aria-current={agent.id === selectedId ? 'true' : undefined}
                style={{
                  height: 'auto',
                  justifyContent: 'flex-start',
                  padding: token.paddingXS,
                  border: `1px solid ${token.colorBorderSecondary}`,
                  background: agent.id === selectedId ? token.controlItemBgActive : undefined,
                }}
              >
                <AvatarImage src={agent.avatar} name={agent.name} />
                <Flex vertical align="flex-start" style={{ minWidth: 0, textAlign: 'left' }}>
                  <Typography.Text strong ellipsis style={{ maxWidth: '100%' }}>
                    {agent.name}
                  </Typography.Text>
                  <Typography.Text type="secondary" ellipsis style={{ maxWidth: '100%' }}>
                    {agent.description?.trim() ? agent.description : 'No description'}
                  </Typography.Text>
                </Flex>
              </Button>
            </li>
          ))}
        </Flex>
      )}
    </Flex>
  );
}
