import { MAX_MESSAGE_QUOTA, type CompanyQuotaUsage } from '@contracts/company-quotas';
import { Button, InputNumber, Space } from 'antd';
import { useId, useState } from 'react';
import { useActionToasts } from '../../../hooks/useActionToasts';
import { companiesApi } from './companiesApi';

const MB = 1024 * 1024;

/** A whole message limit of at least 1, or the field's problem ('' empty: no limit). */
export function messageLimitProblem(value: number | null, name: string): string | null {
  if (value === null) return null;
  if (!Number.isInteger(value)) return `${name} must be a whole number.`;
  if (value < 1) return `${name} must be at least 1 (leave it empty for no limit).`;
  if (value > MAX_MESSAGE_QUOTA) return `${name} can be at most ${MAX_MESSAGE_QUOTA}.`;
  return null;
}

function LimitField({
  label,
  value,
  onChange,
  onEnter,
  min,
  max,
  step,
  precision,
}: {
  label: string;
  value: number | null;
  onChange: (value: number | null) => void;
  onEnter: () => void;
  min: number;
  max: number;
  step: number;
  precision?: number;
}) {
  const id = useId();
  return (
    <Space orientation="vertical" size={2}>
      <label htmlFor={id}>{label}</label>
      <InputNumber
        id={id}
        min={min}
        max={max}
        step={step}
        precision={precision}
        value={value}
        placeholder="No limit"
        style={{ width: 200 }}
        onChange={(next) => onChange(typeof next === 'number' ? next : null)}
        onPressEnter={onEnter}
      />
    </Space>
  );
}

/**
 * The company's quotas, each empty for no limit: file storage in MB, messages per user per UTC day,
 * messages per company per calendar month (UTC). Saved by the platform admin; the server checks and
 * audits them.
 */
export function QuotasForm({
  companyId,
  quotas,
  onSaved,
}: {
  companyId: string;
  quotas: CompanyQuotaUsage;
  onSaved: (quotas: CompanyQuotaUsage) => void;
}) {
  const { success, failure, refusal } = useActionToasts();
  const [limitMb, setLimitMb] = useState<number | null>(
    quotas.storedBytesLimit === null ? null : Math.round((quotas.storedBytesLimit / MB) * 10) / 10,
  );
  const [perUserPerDay, setPerUserPerDay] = useState<number | null>(quotas.messagesPerUserPerDay);
  const [perMonth, setPerMonth] = useState<number | null>(quotas.messagesPerCompanyPerMonth);
  const [saving, setSaving] = useState(false);

  const save = async () => {
    const problem =
      messageLimitProblem(perUserPerDay, 'Messages per user per day') ??
      messageLimitProblem(perMonth, 'Messages per company per month');
    if (problem) {
      refusal('Failed to save the limits', problem);
      return;
    }
    setSaving(true);
    try {
      const storedBytesLimit = limitMb === null ? null : Math.max(1, Math.round(limitMb * MB));
      const saved = await companiesApi.setQuotas(companyId, {
        storedBytesLimit,
        messagesPerUserPerDay: perUserPerDay,
        messagesPerCompanyPerMonth: perMonth,
      });
      onSaved(saved);
      success('Limits saved');
    } catch (error) {
      failure('Failed to save the limits', error, 'Please try again later.');
    } finally {
      setSaving(false);
    }
  };
  const enter = () => void save();

  return (
    <Space orientation="vertical" size={8}>
      <LimitField
        label="Storage limit (MB, empty for no limit)"
        value={limitMb}
        onChange={setLimitMb}
        onEnter={enter}
        min={0.1}
        max={1024 * 1024 * 1024}
        step={100}
      />
      <LimitField
        label="Messages per user per day (UTC, empty for no limit)"
        value={perUserPerDay}
        onChange={setPerUserPerDay}
        onEnter={enter}
        min={1}
        max={MAX_MESSAGE_QUOTA}
        step={10}
        precision={0}
      />
      <LimitField
        label="Messages per company per month (UTC, empty for no limit)"
        value={perMonth}
        onChange={setPerMonth}
        onEnter={enter}
        min={1}
        max={MAX_MESSAGE_QUOTA}
        step={100}
        precision={0}
      />
      <Button type="primary" loading={saving} onClick={enter}>
        Save limits
      </Button>
    </Space>
  );
}
