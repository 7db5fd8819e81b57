import { PlatformAgents } from '../features/platform-admin/components/PlatformAgents';
import { PlatformColors } from '../features/platform-admin/components/PlatformColors';
import { PlatformCompanies } from '../features/platform-admin/components/PlatformCompanies';
import { PlatformSecurity } from '../features/platform-admin/components/PlatformSecurity';
import { PlatformSettings } from '../features/platform-admin/components/PlatformSettings';
import { PlatformUsers } from '../features/platform-admin/components/PlatformUsers';

// The child pages of /admin: one chunk, loaded with the layout's first page.
export const PlatformSettingsPage = PlatformSettings;
export const PlatformColorsPage = PlatformColors;
export const PlatformUsersPage = PlatformUsers;
export const PlatformCompaniesPage = PlatformCompanies;
export const PlatformAgentsPage = PlatformAgents;
export const PlatformSecurityPage = PlatformSecurity;
