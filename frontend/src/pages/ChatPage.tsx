import { lazy, Suspense } from 'react';
import { ChatShell } from '../features/chat/components/ChatShell';
import { ChatView } from '../features/chat/components/ChatView';
import { useCompanyChatData } from '../features/chat/hooks/useCompanyChatData';
import { selectCurrentCompany, useCompanyStore } from '../stores/companyStore';

// Rare (a company that requires single sign-on from this session): its code loads only then.
const SsoRequiredView = lazy(() => import('../features/companies/components/SsoRequiredView'));

export function ChatPage() {
  const ssoRequired = useCompanyStore((s) => selectCurrentCompany(s)?.ssoRequired === true);
  if (ssoRequired)
    return (
      <Suspense fallback={null}>
        <SsoRequiredView />
      </Suspense>
    );
  return <ChatScreen />;
}

/** Mounted afresh when single sign-on stops being required: it loads the company's chat data then. */
function ChatScreen() {
  useCompanyChatData();
  return (
    <ChatShell>
      <ChatView />
    </ChatShell>
  );
}
