import { Alert, Button, Card, Form, Input } from 'antd';
import { useState } from 'react';
import { useCurrentCompany } from '../../../stores/companyStore';
import { useCompanyAdminActions } from '../hooks/useCompanyAdminActions';
import { AdminPageHeader } from '../../../components/AdminPageHeader';
import { SingleSignOnSettings } from './SingleSignOnSettings';
import { DeliveryRetentionSettings } from '../deliveries/DeliveryRetentionSettings';

/** Company Settings: the company's name (every member's screens follow the rename). */
export function CompanySettings() {
  const company = useCurrentCompany();
  const { renameCompany } = useCompanyAdminActions();
  const [saving, setSaving] = useState(false);

  if (!company) return <Alert type="info" title="No company selected" />;

  const save = async ({ name }: { name: string }) => {
    setSaving(true);
    await renameCompany(name.trim());
    setSaving(false);
  };

  return (
    <>
      <AdminPageHeader title="Company Settings" description="Settings of your company" />
      <Card style={{ maxWidth: 560 }}>
        <Form<{ name: string }>
          // A rename from elsewhere (an event) refills the form.
          key={`${company.id}:${company.name}`}
          name="company-settings"
          layout="vertical"
          initialValues={{ name: company.name }}
          onFinish={(values) => void save(values)}
        >
          <Form.Item
            label="Company Name"
            name="name"
            rules={[{ required: true, whitespace: true, message: 'Company name is required' }]}
          >
            <Input maxLength={100} placeholder="My Company" />
          </Form.Item>
          <Button type="primary" htmlType="submit" disabled={saving}>
            {saving ? 'Saving...' : 'Save Changes'}
          </Button>
        </Form>
      </Card>
      <DeliveryRetentionSettings key={`retention-${company.id}`} companyId={company.id} />
      {/* Single sign-on decides who may enter the company: owners only (the server refuses admins too). */}
      {company.role === 'owner' && <SingleSignOnSettings key={company.id} companyId={company.id} />}
    </>
  );
}
