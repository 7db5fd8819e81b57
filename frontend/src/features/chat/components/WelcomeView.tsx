import { Button, theme } from 'antd';
import { Flex, Title } from '../../../components/Plain';
import type { AgentView } from '../../../api/contracts';
import { AvatarImage } from '../../../components/AvatarImage';
import { VoiceCallButton } from '../../voice/components/VoiceCallButton';
import { VoiceCallStatus } from '../../voice/components/VoiceCallStatus';
import { MessageInput } from './MessageInput';
import type { AttachmentUploads } from '../attachments/useAttachmentUploads';

/** The four built-in prompts (the backend's CANNED_QUESTIONS), for agents without their own. */
export const BUILT_IN_QUESTIONS = [
  'I need someone to talk to',
  "I'm facing a challenge and could use some advice",
  'Help me set a goal and plan how to reach it',
  'I want to share a happy moment from my day',
];

interface WelcomeViewProps {
  agent: AgentView;
  /** The empty chat on screen, or null before the first message (a call then creates one). */
  chatId: string | null;
  onSend: (text: string, attachmentIds?: string[]) => Promise<boolean>;
  onTyping?: () => void;
  /** Files for the first message: of the empty chat on screen, or of the chat it will create. */
  attachments?: AttachmentUploads;
}

/** Spec: shown while the chat has no messages: the agent, 'Start chatting with {agent}', example questions. */
export function WelcomeView({ agent, chatId, onSend, onTyping, attachments }: WelcomeViewProps) {
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
      <Title level={2} style={{ margin: 0, textAlign: 'center', fontSize: token.fontSizeHeading3 }}>
        Start chatting with {agent.name}
      </Title>
      <Flex
        component="ul"
        wrap
        gap="small"
        justify="center"
        style={{ width: '100%' }}
        role="list"
        className="sb-plain-list"
        aria-label="Example questions"
      >
        {questions.map((question) => (
          <li key={question} style={{ maxWidth: '100%' }}>
            <Button
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
          </li>
        ))}
      </Flex>
      <div style={{ width: '100%', maxWidth: 640 }}>
        <VoiceCallStatus chatId={chatId} />
        <MessageInput
          onSend={onSend}
          onTyping={onTyping}
          attachments={attachments}
          autoFocus
          addon={<VoiceCallButton agent={agent} chatId={chatId} />}
        />
      </div>
    </Flex>
  );
}
