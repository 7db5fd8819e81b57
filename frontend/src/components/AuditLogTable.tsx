import { Alert, Button, Flex, Form, Input, Select, Table, Tag, Typography, type TableColumnType } from 'antd';
import dayjs from 'dayjs';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { AuditFilter } from '../api/auditApi';
import type { AuditAction, AuditEntryView, AuditPage } from '../api/contracts';
import { auditActionLabel, auditDetailsSummary } from '../lib/auditLabels';
import { useAuditLog } from '../hooks/useAuditLog';
import { useKeyboardScrollable } from '../hooks/useKeyboardScrollable';

export const AUDIT_TIME_FORMAT = 'MMM D, YYYY h:mm A';

export interface CompanyOption {
  value: string;
  label: string;
}

export interface AuditLogTableProps {
  /** Reads one page with these filters (read once per mount: another company's log is a new mount). */
  fetchPage: (filter: AuditFilter, before: string | null) => Promise<AuditPage>;
  /** The choices of the Action filter. */
  actions: readonly AuditAction[];
  /** The platform log: a Company column and a Company filter whose choices this finds by name. */
  searchCompanies?: (search: string) => Promise<CompanyOption[]>;
  /** The table's accessible name. */
  label: string;
  /** Shown when the log has no entries at all. */
  emptyText: string;
}

const SEARCH_DELAY_MS = 250;
const FAILED = new Set<AuditAction>(['auth.sign_in_failed']);

function ActorCell({ entry }: { entry: AuditEntryView }) {
  if (!entry.actor) return <Typography.Text type="secondary">Emailed link</Typography.Text>;
  return <Typography.Text ellipsis>{entry.actor.label ?? entry.actor.id ?? '—'}</Typography.Text>;
}

function ActionCell({ entry }: { entry: AuditEntryView }) {
  const summary = auditDetailsSummary(entry);
  return (
    <Flex vertical>
      {FAILED.has(entry.action) ? (
        <span>
          <Tag color="error">{auditActionLabel(entry.action)}</Tag>
        </span>
      ) : (
        <Typography.Text>{auditActionLabel(entry.action)}</Typography.Text>
      )}
      {summary && (
        <Typography.Text type="secondary" ellipsis>
          {summary}
        </Typography.Text>
      )}
    </Flex>
  );
}

/**
 * The audit log as Platform Admin → Security and Company Admin → Activity show it: filters (action,
 * actor, and on the platform log company), newest first, 'Load more' by cursor.
 */
export function AuditLogTable({ fetchPage, actions, searchCompanies, label, emptyText }: AuditLogTableProps) {
  const [action, setAction] = useState<AuditAction | null>(null);
  const [actorText, setActorText] = useState('');
  const [actor, setActor] = useState('');
  const [company, setCompany] = useState<CompanyOption | null>(null);
  const [companyOptions, setCompanyOptions] = useState<CompanyOption[]>([]);
  const searchTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const tableWrapper = useKeyboardScrollable<HTMLDivElement>(label);

  const companyId = company?.value ?? null;
  const log = useAuditLog(fetchPage, { action, actor, companyId });
  const filtered = !!(action || actor || companyId);

  const findCompanies = useCallback(
    (search: string) => {
      if (!searchCompanies) return;
      clearTimeout(searchTimer.current);
      searchTimer.current = setTimeout(() => {
        searchCompanies(search.trim())
          .then(setCompanyOptions)
          // The filter still works from a row's company link; a failed lookup only leaves no suggestions.
          .catch(() => setCompanyOptions([]));
      }, SEARCH_DELAY_MS);
    },
    [searchCompanies],
  );
  useEffect(() => {
    findCompanies('');
    return () => clearTimeout(searchTimer.current);
  }, [findCompanies]);

  const pickCompany = useCallback((option: CompanyOption | null) => {
    setCompany(option);
    if (option)
      setCompanyOptions((current) =>
        current.some((o) => o.value === option.value) ? current : [option, ...current],
      );
  }, []);

  const columns = useMemo<TableColumnType<AuditEntryView>[]>(() => {
    const all: Array<TableColumnType<AuditEntryView> | false> = [
      {
        key: 'time',
        title: 'Time',
        width: 190,
        render: (_, e) => <time dateTime={e.createdAt}>{dayjs(e.createdAt).format(AUDIT_TIME_FORMAT)}</time>,
      },
      { key: 'actor', title: 'Actor', width: 240, render: (_, e) => <ActorCell entry={e} /> },
      { key: 'action', title: 'Action', width: 220, render: (_, e) => <ActionCell entry={e} /> },
      {
        key: 'target',
        title: 'Target',
        width: 240,
        render: (_, e) =>
          e.target ? (
            <Typography.Text ellipsis>{e.target.label ?? e.target.id ?? e.target.type}</Typography.Text>
          ) : (
            <Typography.Text type="secondary">—</Typography.Text>
          ),
      },
      !!searchCompanies && {
        key: 'company',
        title: 'Company',
        width: 200,
        render: (_, e) =>
          e.company ? (
            <Button
              type="link"
              size="small"
              style={{ padding: 0, height: 'auto' }}
              aria-label={`Show only ${e.company.name ?? 'this company'}`}
              onClick={() => pickCompany({ value: e.company!.id, label: e.company!.name ?? e.company!.id })}
            >
              {e.company.name ?? e.company.id}
            </Button>
          ) : (
            <Typography.Text type="secondary">—</Typography.Text>
          ),
      },
      {
        key: 'ip',
        title: 'IP',
        width: 150,
        render: (_, e) => e.ip ?? <Typography.Text type="secondary">—</Typography.Text>,
      },
    ];
    return all.filter((c): c is TableColumnType<AuditEntryView> => !!c);
  }, [searchCompanies, pickCompany]);

  return (
    <Flex vertical gap="middle">
      <Form layout="inline" component="div" style={{ rowGap: 8 }}>
        <Form.Item label="Action" htmlFor="audit-filter-action">
          <Select<AuditAction>
            id="audit-filter-action"
            allowClear
            placeholder="All actions"
            style={{ width: 220 }}
            value={action ?? undefined}
            onChange={(value) => setAction(value ?? null)}
            options={actions.map((a) => ({ value: a, label: auditActionLabel(a) }))}
          />
        </Form.Item>
        <Form.Item label="Actor" htmlFor="audit-filter-actor">
          <Input.Search
            id="audit-filter-actor"
            allowClear
            placeholder="Email or user id"
            style={{ width: 260 }}
            value={actorText}
            onChange={(e) => setActorText(e.target.value)}
            onSearch={(value) => setActor(value.trim())}
            enterButton="Search"
          />
        </Form.Item>
        {searchCompanies && (
          <Form.Item label="Company" htmlFor="audit-filter-company">
            <Select<string>
              id="audit-filter-company"
              allowClear
              showSearch={{ filterOption: false, onSearch: findCompanies }}
              placeholder="All companies"
              style={{ width: 240 }}
              value={company?.value}
              onChange={(value) =>
                pickCompany(value ? (companyOptions.find((o) => o.value === value) ?? null) : null)
              }
              options={companyOptions}
              notFoundContent="No companies found"
            />
          </Form.Item>
        )}
      </Form>
      {log.error && (
        <Alert
          type="error"
          showIcon
          title={`Failed to load the audit log: ${log.error}`}
          action={
            <Button size="small" onClick={() => void log.reload()}>
              Try again
            </Button>
          }
        />
      )}
      <div ref={tableWrapper}>
        <Table<AuditEntryView>
          aria-label={label}
          columns={columns}
          dataSource={log.entries}
          rowKey={(e) => e.id}
          loading={log.loading}
          pagination={false}
          tableLayout="fixed"
          scroll={{ x: 'max-content' }}
          locale={{
            emptyText:
              log.loading || log.error ? ' ' : filtered ? 'No entries match these filters.' : emptyText,
          }}
        />
      </div>
      {log.hasMore && !log.loading && (
        <Flex justify="center">
          <Button onClick={() => void log.loadMore()} loading={log.loadingMore}>
            Load more
          </Button>
        </Flex>
      )}
    </Flex>
  );
}
