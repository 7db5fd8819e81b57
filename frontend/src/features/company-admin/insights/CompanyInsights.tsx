import { DownloadOutlined, ReloadOutlined } from '@ant-design/icons';
import type {
  InsightFailureKind,
  InsightsAgentRow,
  InsightsCounters,
  InsightsReport,
} from '@contracts/insights';
import {
  Alert,
  Button,
  Card,
  Col,
  DatePicker,
  Flex,
  Row,
  Segmented,
  Select,
  Spin,
  Statistic,
  Table,
  Typography,
} from 'antd';
import type { Dayjs } from 'dayjs';
import { lazy, Suspense, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { getErrorMessage } from '../../../api/errors';
import { insightsApi } from '../../../api/insightsApi';
import { AdminPageHeader } from '../../../components/AdminPageHeader';
import { useCompanyStore } from '../../../stores/companyStore';
import { onInsightsTick } from '../../../sync/insightsTicks';
import {
  describeFailures,
  FAILURE_LABELS,
  formatMs,
  formatPeriod,
  formatThumbs,
  insightsCsv,
  PRESET_MS,
  type RangePreset,
  viewerTimeZone,
} from './insightsFormat';

// recharts is heavy: its own chunk, after the numbers (which the tables already show).
const InsightsChart = lazy(() => import('./InsightsCharts'));

const PRESETS: Array<{ value: RangePreset; label: string }> = [
  { value: '24h', label: '24 h' },
  { value: '7d', label: '7 d' },
  { value: '30d', label: '30 d' },
  { value: 'custom', label: 'Custom' },
];

/** The range to ask for: a preset ends now (asked afresh on every read), a custom one where it was set. */
/** The series table's first column: days are UTC days, hours the viewer's. */
function periodTitle(bucket: InsightsReport['bucket']): string {
  return bucket === 'day' ? 'Day (UTC)' : `Hour (${viewerTimeZone()})`;
}

function rangeOf(preset: RangePreset, custom: [Dayjs, Dayjs] | null): { from: string; to: string } | null {
  if (preset === 'custom') {
    if (!custom) return null;
    return { from: custom[0].startOf('day').toISOString(), to: custom[1].endOf('day').toISOString() };
  }
  const to = Date.now();
  return { from: new Date(to - PRESET_MS[preset]).toISOString(), to: new Date(to).toISOString() };
}

function CounterCards({ total }: { total: InsightsCounters }) {
  const cards: Array<{ title: string; value: string | number; testId: string }> = [
    { title: 'Messages', value: total.messages, testId: 'insights-messages' },
    { title: 'Replies', value: total.replies, testId: 'insights-replies' },
    { title: 'Active users', value: total.activeUsers, testId: 'insights-active-users' },
    { title: 'Chats', value: total.chats, testId: 'insights-chats' },
    { title: 'Failures', value: total.failed, testId: 'insights-failures' },
    { title: 'Retries', value: total.retries, testId: 'insights-retries' },
    { title: 'Latency p50', value: formatMs(total.latency.p50Ms), testId: 'insights-latency-p50' },
    { title: 'Latency p95', value: formatMs(total.latency.p95Ms), testId: 'insights-latency-p95' },
    { title: 'Thumbs up', value: formatThumbs(total), testId: 'insights-thumbs' },
  ];
  return (
    <Row gutter={[12, 12]} style={{ marginBottom: 16 }} role="list" aria-label="Totals">
      {cards.map((card) => (
        <Col key={card.title} xs={12} sm={8} lg={6} xl={4} role="listitem">
          <Card size="small">
            <Statistic title={card.title} value={card.value} data-testid={card.testId} />
          </Card>
        </Col>
      ))}
    </Row>
  );
}

const numberColumn = (title: string, key: keyof InsightsCounters) => ({
  title,
  key,
  align: 'right' as const,
  render: (_: unknown, row: InsightsAgentRow) => row[key] as number,
});

function AgentsTable({ report }: { report: InsightsReport }) {
  return (
    <Table<InsightsAgentRow>
      aria-label="Per agent"
      rowKey="agentId"
      size="small"
      pagination={false}
      scroll={{ x: true }}
      dataSource={report.agents}
      locale={{ emptyText: 'No messages in this range.' }}
      columns={[
        {
          title: 'Agent',
          key: 'agent',
          render: (_, row) =>
            row.agentName ?? <Typography.Text type="secondary">Deleted agent</Typography.Text>,
        },
        numberColumn('Messages', 'messages'),
        numberColumn('Replies', 'replies'),
        numberColumn('Active users', 'activeUsers'),
        numberColumn('Chats', 'chats'),
        {
          title: 'Failures',
          key: 'failures',
          render: (_, row) => (row.failed ? `${row.failed}: ${describeFailures(row.failures)}` : 0),
        },
        numberColumn('Retries', 'retries'),
        { title: 'Latency p50', key: 'p50', align: 'right', render: (_, row) => formatMs(row.latency.p50Ms) },
        { title: 'Latency p95', key: 'p95', align: 'right', render: (_, row) => formatMs(row.latency.p95Ms) },
        {
          title: 'First chunk p50',
          key: 'firstChunk',
          align: 'right',
          render: (_, row) => formatMs(row.firstChunk.p50Ms),
        },
        { title: 'Thumbs up', key: 'thumbs', render: (_, row) => formatThumbs(row) },
      ]}
      summary={() =>
        report.agents.length > 1 ? (
          <Table.Summary.Row>
            <Table.Summary.Cell index={0}>
              <strong>Total</strong>
            </Table.Summary.Cell>
            <Table.Summary.Cell index={1} align="right">
              {report.total.messages}
            </Table.Summary.Cell>
            <Table.Summary.Cell index={2} align="right">
              {report.total.replies}
            </Table.Summary.Cell>
            <Table.Summary.Cell index={3} align="right">
              {report.total.activeUsers}
            </Table.Summary.Cell>
            <Table.Summary.Cell index={4} align="right">
              {report.total.chats}
            </Table.Summary.Cell>
            <Table.Summary.Cell index={5}>
              {report.total.failed ? `${report.total.failed}: ${describeFailures(report.total.failures)}` : 0}
            </Table.Summary.Cell>
            <Table.Summary.Cell index={6} align="right">
              {report.total.retries}
            </Table.Summary.Cell>
            <Table.Summary.Cell index={7} align="right">
              {formatMs(report.total.latency.p50Ms)}
            </Table.Summary.Cell>
            <Table.Summary.Cell index={8} align="right">
              {formatMs(report.total.latency.p95Ms)}
            </Table.Summary.Cell>
            <Table.Summary.Cell index={9} align="right">
              {formatMs(report.total.firstChunk.p50Ms)}
            </Table.Summary.Cell>
            <Table.Summary.Cell index={10}>{formatThumbs(report.total)}</Table.Summary.Cell>
          </Table.Summary.Row>
        ) : null
      }
    />
  );
}

function FailuresTable({ total }: { total: InsightsCounters }) {
  const rows = (Object.keys(FAILURE_LABELS) as InsightFailureKind[]).map((kind) => ({
    kind,
    label: FAILURE_LABELS[kind],
    count: total.failures[kind],
  }));
  return (
    <Table
      aria-label="Failures by kind"
      rowKey="kind"
      size="small"
      pagination={false}
      dataSource={rows}
      columns={[
        { title: 'Kind', dataIndex: 'label', key: 'label' },
        { title: 'Failures', dataIndex: 'count', key: 'count', align: 'right' },
      ]}
    />
  );
}

/** A chart and, for screen readers and whoever prefers reading, the same numbers in a table. */
function ChartWithNumbers({
  title,
  report,
  which,
}: {
  title: string;
  report: InsightsReport;
  which: 'traffic' | 'latency';
}) {
  const rows = report.series.map((point) => ({ ...point, period: formatPeriod(point.at, report.bucket) }));
  return (
    <Card size="small" title={<h2 style={{ fontSize: 'inherit', margin: 0 }}>{title}</h2>}>
      <Suspense fallback={<Spin description="Loading chart…" />}>
        <InsightsChart series={report.series} bucket={report.bucket} which={which} />
      </Suspense>
      <details>
        <summary>The numbers of this chart</summary>
        {/* Scrolls as one table (a fixed header would split it in two for screen readers). */}
        <div
          style={{ maxHeight: 280, overflow: 'auto' }}
          tabIndex={0}
          role="region"
          aria-label={`${title}: numbers`}
        >
          <Table
            aria-label={title}
            rowKey="at"
            size="small"
            pagination={false}
            dataSource={rows}
            columns={
              which === 'traffic'
                ? [
                    { title: periodTitle(report.bucket), dataIndex: 'period', key: 'period' },
                    { title: 'Messages', dataIndex: 'messages', key: 'messages', align: 'right' },
                    { title: 'Replies', dataIndex: 'replies', key: 'replies', align: 'right' },
                    { title: 'Failures', dataIndex: 'failed', key: 'failed', align: 'right' },
                  ]
                : [
                    { title: periodTitle(report.bucket), dataIndex: 'period', key: 'period' },
                    {
                      title: 'p50',
                      key: 'p50',
                      align: 'right',
                      render: (_, row) => formatMs(row.latencyP50Ms),
                    },
                    {
                      title: 'p95',
                      key: 'p95',
                      align: 'right',
                      render: (_, row) => formatMs(row.latencyP95Ms),
                    },
                  ]
            }
          />
        </div>
      </details>
    </Card>
  );
}

function downloadCsv(report: InsightsReport): void {
  const rows = [
    ...report.agents.map((agent) => ({ name: agent.agentName ?? 'Deleted agent', counters: agent })),
    { name: 'Total', counters: report.total },
  ];
  const blob = new Blob([insightsCsv(rows, report)], { type: 'text/csv;charset=utf-8' });
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = `insights-${report.from.slice(0, 10)}-${report.to.slice(0, 10)}.csv`;
  link.click();
  URL.revokeObjectURL(url);
}

/**
 * Company Admin → Insights: the company's agents' messages, replies, users, failures, latency and
 * ratings over a range, per agent and in total. A preset range (it ends now) reads its numbers again
 * when the server says they moved (`insights.tick`), without polling.
 */
export function CompanyInsights() {
  const companyId = useCompanyStore((s) => s.currentCompanyId);
  const [preset, setPreset] = useState<RangePreset>('24h');
  const [custom, setCustom] = useState<[Dayjs, Dayjs] | null>(null);
  const [agentId, setAgentId] = useState<string | null>(null);
  const [report, setReport] = useState<InsightsReport | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [loading, setLoading] = useState(false);
  /** Only the latest read's answer is shown. */
  const asked = useRef(0);
  // Another company: its own agents (the filter starts over) and no numbers of the one before.
  const [shownCompany, setShownCompany] = useState(companyId);
  if (shownCompany !== companyId) {
    setShownCompany(companyId);
    setAgentId(null);
    setReport(null);
  }

  const load = useCallback(async () => {
    const range = rangeOf(preset, custom);
    if (!companyId || !range) return;
    const id = ++asked.current;
    setLoading(true);
    try {
      const answer = await insightsApi.report(companyId, { ...range, agentId: agentId ?? undefined });
      if (id !== asked.current) return;
      setReport(answer);
      setError(null);
    } catch (failure) {
      if (id === asked.current) setError(getErrorMessage(failure, 'Could not load the numbers.'));
    } finally {
      if (id === asked.current) setLoading(false);
    }
  }, [companyId, preset, custom, agentId]);

  useEffect(() => {
    void load();
  }, [load]);

  // Live: a preset range ends now, so moved counters are in it; a custom one is left as read.
  useEffect(
    () =>
      onInsightsTick((tickCompany) => {
        if (preset === 'custom') return;
        if (tickCompany === null || tickCompany === companyId) void load();
      }),
    [load, preset, companyId],
  );

  // The agents of the filter: those the last all-agents answer counted (and the one chosen).
  const [knownAgents, setKnownAgents] = useState<Array<{ value: string; label: string }>>([]);
  useEffect(() => {
    if (!report || agentId) return;
    setKnownAgents(report.agents.map((a) => ({ value: a.agentId, label: a.agentName ?? 'Deleted agent' })));
  }, [report, agentId]);
  const agentOptions = useMemo(() => [{ value: '', label: 'All agents' }, ...knownAgents], [knownAgents]);

  if (!companyId) return <Alert type="info" title="No company selected" />;

  return (
    <>
      <AdminPageHeader
        title="Insights"
        description="How your agents do: messages, replies, failures, speed and ratings"
        extra={
          <>
            <Button
              icon={<ReloadOutlined />}
              aria-label="Refresh the numbers"
              onClick={() => void load()}
              loading={loading}
            />
            <Button
              icon={<DownloadOutlined />}
              disabled={!report}
              onClick={() => report && downloadCsv(report)}
            >
              Export CSV
            </Button>
          </>
        }
      />
      <Flex gap="middle" wrap align="center" style={{ marginBottom: 16 }}>
        <Segmented<RangePreset>
          aria-label="Range"
          options={PRESETS}
          value={preset}
          onChange={(value) => setPreset(value)}
        />
        {preset === 'custom' && (
          <DatePicker.RangePicker
            aria-label="Custom range"
            value={custom}
            onChange={(dates) => setCustom(dates && dates[0] && dates[1] ? [dates[0], dates[1]] : null)}
            allowClear={false}
          />
        )}
        <Select
          aria-label="Agent"
          style={{ minWidth: 200 }}
          value={agentId ?? ''}
          options={agentOptions}
          onChange={(value: string) => setAgentId(value || null)}
        />
      </Flex>
      {error && <Alert type="error" title={error} style={{ marginBottom: 16 }} showIcon />}
      {preset === 'custom' && !custom && <Alert type="info" title="Choose the days to count." />}
      {!report && !error && (preset !== 'custom' || custom) && <Spin description="Loading..." />}
      {report && (
        <div aria-busy={loading} data-testid="insights-report">
          <CounterCards total={report.total} />
          <Row gutter={[16, 16]} style={{ marginBottom: 16 }}>
            <Col xs={24} xl={12}>
              <ChartWithNumbers title="Messages and failures" report={report} which="traffic" />
            </Col>
            <Col xs={24} xl={12}>
              <ChartWithNumbers title="Reply latency" report={report} which="latency" />
            </Col>
          </Row>
          <Typography.Title level={2} style={{ fontSize: 16 }}>
            Per agent
          </Typography.Title>
          <AgentsTable report={report} />
          <Typography.Title level={2} style={{ fontSize: 16, marginTop: 16 }}>
            Failures by kind
          </Typography.Title>
          <FailuresTable total={report.total} />
          <Typography.Paragraph type="secondary" style={{ marginTop: 12 }}>
            Counted in whole hours, shown in your time zone ({viewerTimeZone()}); active users and chats in
            whole days. Days are UTC. Latency runs from the message stored to the reply stored; first chunk,
            for streamed replies, to the first piece of text.
          </Typography.Paragraph>
        </div>
      )}
    </>
  );
}
