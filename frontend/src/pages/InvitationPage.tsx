import { InvitationFlow } from '../features/invitations/components/InvitationFlow';

export function InvitationPage() {
  return <InvitationFlow />;
}
