import { PlatformAdminLayout } from '../features/platform-admin/components/PlatformAdminLayout';

/** /admin and its child pages (the Outlet). */
export function PlatformAdminPage() {
  return <PlatformAdminLayout />;
}
