import { Button, theme } from 'antd';
import { Flex, Text } from '../../../components/Plain';
import { AvatarImage } from '../../../components/AvatarImage';
import { useAgentsStore } from '../../../stores/agentsStore';
import { useChatStore } from '../../../stores/chatStore';

/** The sidebar's AGENTS, a list of buttons: clicking one selects it and clears the current chat. */
export function AgentList({ onNavigate }: { onNavigate?: () => void }) {
  const { token } = theme.useToken();
  const agents = useAgentsStore((s) => s.agents);
  const selectedAgentId = useAgentsStore((s) => s.selectedAgentId);
  const hasActiveChat = useChatStore((s) => s.activeChatId !== null);

  return (
    <Flex component="ul" vertical gap={2} role="list" aria-label="Agents" className="sb-plain-list">
      {agents.map((agent) => {
        const selected = agent.id === selectedAgentId && !hasActiveChat;
        const current = agent.id === selectedAgentId;
        return (
          <li key={agent.id}>
            <Button
              type="text"
              block
              aria-current={current ? 'true' : undefined}
              onClick={() => {
                useAgentsStore.getState().selectAgent(agent.id);
                useChatStore.getState().setActiveChat(null);
                onNavigate?.();
              }}
              style={{
                justifyContent: 'flex-start',
                height: 'auto',
                padding: `${token.paddingXXS}px ${token.paddingXS}px`,
                background: selected
                  ? token.controlItemBgActive
                  : current
                    ? token.colorFillQuaternary
                    : undefined,
              }}
            >
              <AvatarImage src={agent.avatar} name={agent.name} size="small" />
              <Text ellipsis style={{ minWidth: 0 }}>
                {agent.name}
              </Text>
            </Button>
          </li>
        );
      })}
    </Flex>
  );
}
