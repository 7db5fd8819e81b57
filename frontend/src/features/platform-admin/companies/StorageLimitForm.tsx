import type { CompanyQuotaUsage } from '@contracts/company-quotas';
import { Button, InputNumber, Space } from 'antd';
import { useId, useState } from 'react';
import { useActionToasts } from '../../../hooks/useActionToasts';
import { companiesApi } from './companiesApi';

const MB = 1024 * 1024;

/**
 * The company's file storage limit, in MB (empty: no limit). Saved by the platform admin; the server
 * checks and audits it.
 */
export function StorageLimitForm({
  companyId,
  quotas,
  onSaved,
}: {
  companyId: string;
  quotas: CompanyQuotaUsage;
  onSaved: (quotas: CompanyQuotaUsage) => void;
}) {
  const inputId = useId();
  const { success, failure } = useActionToasts();
  const [limitMb, setLimitMb] = useState<number | null>(
    quotas.storedBytesLimit === null ? null : Math.round((quotas.storedBytesLimit / MB) * 10) / 10,
  );
  const [saving, setSaving] = useState(false);

  const save = async () => {
    setSaving(true);
    try {
      const storedBytesLimit = limitMb === null ? null : Math.max(1, Math.round(limitMb * MB));
      const saved = await companiesApi.setQuotas(companyId, { storedBytesLimit });
      onSaved(saved);
      success('Storage limit saved', limitMb === null ? 'The company has no storage limit.' : undefined);
    } catch (error) {
      failure('Failed to save the storage limit', error, 'Please try again later.');
    } finally {
      setSaving(false);
    }
  };

  return (
    <Space orientation="vertical" size={4}>
      <label htmlFor={inputId}>Storage limit (MB, empty for no limit)</label>
      <Space>
        <InputNumber
          id={inputId}
          min={0.1}
          max={1024 * 1024 * 1024}
          step={100}
          value={limitMb}
          placeholder="No limit"
          onChange={(value) => setLimitMb(typeof value === 'number' ? value : null)}
          onPressEnter={() => void save()}
        />
        <Button type="primary" loading={saving} onClick={() => void save()}>
          Save limit
        </Button>
      </Space>
    </Space>
  );
}
