import { PlaceholderPage } from '../components/PlaceholderPage';

export function PlatformAdminPage() {
  return (
    <PlaceholderPage title="Platform Admin" subTitle="Platform administration will be available soon." />
  );
}
