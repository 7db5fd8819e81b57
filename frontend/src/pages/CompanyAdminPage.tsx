import { CompanyAdminLayout } from '../features/company-admin/components/CompanyAdminLayout';

/** /company/admin and its child pages (the Outlet). */
export function CompanyAdminPage() {
  return <CompanyAdminLayout />;
}
