import { Typography, theme } from 'antd';
import { useCallback } from 'react';
import { auditApi, type AuditFilter } from '../../../api/auditApi';
import { AuditLogTable, type CompanyOption } from '../../../components/AuditLogTable';
import { PLATFORM_AUDIT_ACTIONS } from '../../../lib/auditLabels';

/** Platform Admin → Security: the whole audit log (sign-ins, account and company changes). */
export function PlatformSecurity() {
  const { token } = theme.useToken();
  const fetchPage = useCallback(
    (filter: AuditFilter, before: string | null) => auditApi.platform(filter, before),
    [],
  );
  const searchCompanies = useCallback(
    async (search: string): Promise<CompanyOption[]> =>
      (await auditApi.companies(search)).companies.map((c) => ({ value: c.id, label: c.name })),
    [],
  );
  return (
    <>
      <Typography.Title level={1} style={{ marginTop: 0, marginBottom: 0, fontSize: token.fontSizeHeading2 }}>
        Security
      </Typography.Title>
      <Typography.Paragraph type="secondary">Audit log</Typography.Paragraph>
      <AuditLogTable
        label="Audit log"
        fetchPage={fetchPage}
        actions={PLATFORM_AUDIT_ACTIONS}
        searchCompanies={searchCompanies}
        emptyText="No audit entries yet."
      />
    </>
  );
}
