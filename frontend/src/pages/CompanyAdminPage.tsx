import { PlaceholderPage } from '../components/PlaceholderPage';

export function CompanyAdminPage() {
  return <PlaceholderPage title="Company Admin" subTitle="Company administration will be available soon." />;
}
