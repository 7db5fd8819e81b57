import { CompanyActivity } from '../features/company-admin/components/CompanyActivity';
import { CompanyAgents } from '../features/company-admin/components/CompanyAgents';
import { CompanyDetailsView } from '../features/company-admin/components/CompanyDetailsView';
import { CompanyInvitations } from '../features/company-admin/components/CompanyInvitations';
import { CompanySettings } from '../features/company-admin/components/CompanySettings';
import { CompanyInsights } from '../features/company-admin/insights/CompanyInsights';
import { CompanyUsers } from '../features/company-admin/components/CompanyUsers';

// The child pages of /company/admin: one chunk, loaded with the layout's first page.
export const CompanyUsersPage = CompanyUsers;
export const CompanyInvitationsPage = CompanyInvitations;
export const CompanyAgentsPage = CompanyAgents;
export const CompanySettingsPage = CompanySettings;
export const CompanyDetailsPage = CompanyDetailsView;
export const CompanyActivityPage = CompanyActivity;
export const CompanyInsightsPage = CompanyInsights;
