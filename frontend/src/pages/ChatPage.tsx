import { ChatShell } from '../features/chat/components/ChatShell';
import { ChatView } from '../features/chat/components/ChatView';
import { useCompanyChatData } from '../features/chat/hooks/useCompanyChatData';

export function ChatPage() {
  useCompanyChatData();
  return (
    <ChatShell>
      <ChatView />
    </ChatShell>
  );
}
