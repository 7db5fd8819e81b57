import { Button, Flex, Typography, theme } from 'antd';
import type { AgentView } from '../../../api/contracts';
import { AvatarImage } from '../../../components/AvatarImage';
import { MessageInput } from './MessageInput';

/** The four built-in prompts (the backend's CANNED_QUESTIONS), for agents without their own. */
export const BUILT_IN_QUESTIONS = [
  'I need someone to talk to',
  "I'm facing a challenge and could use some advice",
  'Help me set a goal and plan how to reach it',
  'I want to share a happy moment from my day',
];

interface WelcomeViewProps {
  agent: AgentView;
  onSend: (text: string) => Promise<boolean>;
}

/** Spec: shown while the chat has no messages: the agent, 'Start chatting with {agent}', example questions. */
export function WelcomeView({ agent, onSend }: WelcomeViewProps) {
  const { token } = theme.useToken();
  const questions = agent.defaultQuestions.length > 0 ? agent.defaultQuestions : BUILT_IN_QUESTIONS;
  return (
    <Flex
      vertical
      align="center"
      justify="center"
      gap="large"
      style={{ minHeight: '100%', maxWidth: 900, margin: '0 auto', padding: token.paddingLG }}
    >
      <AvatarImage src={agent.avatar} name={agent.name} size={72} />
      <Typography.Title level={3} style={{ margin: 0, textAlign: 'center' }}>
        Start chatting with {agent.name}
      </Typography.Title>
      <Flex
        wrap
        gap="small"
        justify="center"
        style={{ width: '100%' }}
        role="list"
        aria-label="Example questions"
      >
        {questions.map((question) => (
          <Button
            key={question}
            role="listitem"
            onClick={() => void onSend(question)}
            style={{
              height: 'auto',
              whiteSpace: 'normal',
              textAlign: 'left',
              maxWidth: '100%',
              padding: `${token.paddingXS}px ${token.padding}px`,
            }}
          >
            {question}
          </Button>
        ))}
      </Flex>
      <div style={{ width: '100%', maxWidth: 640 }}>
        <MessageInput onSend={onSend} autoFocus />
      </div>
    </Flex>
  );
}
