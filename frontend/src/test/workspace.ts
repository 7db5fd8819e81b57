import { useAgentsStore } from '../stores/agentsStore';
import { useChatStore } from '../stores/chatStore';
import { useStreamingStore } from '../stores/streamingStore';
import { useCompanyStore } from '../stores/companyStore';

/**
 * The workspace most store tests start from: a member (owner) of one company, 'c1', which is current,
 * with no chat or agent loaded and no reply streaming.
 */
export function enterCompany(): void {
  useCompanyStore
    .getState()
    .setCompanies([{ id: 'c1', name: 'First', role: 'owner', createdAt: '2024-01-01T00:00:00Z' }]);
  useCompanyStore.getState().setCurrentCompany('c1');
  useChatStore.getState().reset('c1');
  useAgentsStore.getState().reset('c1');
  useStreamingStore.getState().reset();
}

/** Leaves it: no company membership (the stores of company data reset with the next `enterCompany`). */
export function leaveCompany(): void {
  useCompanyStore.getState().reset();
}
