import { Alert } from 'antd';
import { useCallback } from 'react';
import { auditApi, type AuditFilter } from '../../../api/auditApi';
import { AuditLogTable } from '../../../components/AuditLogTable';
import { useCompanyStore } from '../../../stores/companyStore';
import { COMPANY_AUDIT_ACTIONS } from '../../../lib/auditLabels';
import { AdminPageHeader } from '../../../components/AdminPageHeader';

/** Company Admin → Activity: the audit log of the current company (owners and admins). */
export function CompanyActivity() {
  const companyId = useCompanyStore((s) => s.currentCompanyId);
  const fetchPage = useCallback(
    (filter: AuditFilter, before: string | null) => auditApi.company(companyId ?? '', filter, before),
    [companyId],
  );
  if (!companyId) return <Alert type="info" title="No company selected" />;
  return (
    <>
      <AdminPageHeader title="Activity" description="Who changed what in your company, newest first" />
      {/* A new company starts afresh: no filter or page carries over. */}
      <AuditLogTable
        key={companyId}
        label="Company activity"
        fetchPage={fetchPage}
        actions={COMPANY_AUDIT_ACTIONS}
        emptyText="No activity yet."
      />
    </>
  );
}
