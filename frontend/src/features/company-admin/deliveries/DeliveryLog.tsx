import { ReloadOutlined, RedoOutlined } from '@ant-design/icons';
import type { DeliveryDetail, DeliveryOutcome, DeliveryView } from '@contracts/deliveries';
import { DELIVERY_OUTCOMES } from '@contracts/deliveries';
import {
  Alert,
  Button,
  DatePicker,
  Descriptions,
  Drawer,
  Flex,
  Form,
  Modal,
  Select,
  Spin,
  Table,
  Tag,
  Typography,
} from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useCallback, useEffect, useRef, useState } from 'react';
import type { CompanyAgentView } from '../../../api/contracts';
import { companyAdminApi } from '../../../api/companyAdminApi';
import { deliveriesApi } from '../../../api/deliveriesApi';
import { getErrorMessage } from '../../../api/errors';
import { AdminPageHeader } from '../../../components/AdminPageHeader';
import { App } from '../../../hooks/appApi';
import { useCompanyStore } from '../../../stores/companyStore';
import { formatMs } from '../insights/insightsFormat';
import { bulkReplaySummary, isFailed, OUTCOME_LABELS, outcomeColor, prettyBody } from './deliveryFormat';

type OutcomeFilter = DeliveryOutcome | 'failed' | '';

const OUTCOME_OPTIONS: Array<{ value: OutcomeFilter; label: string }> = [
  { value: '', label: 'All outcomes' },
  { value: 'failed', label: 'Failed (any kind)' },
  ...DELIVERY_OUTCOMES.map((outcome) => ({ value: outcome, label: OUTCOME_LABELS[outcome] })),
];

const formatTime = (iso: string) => dayjs(iso).format('YYYY-MM-DD HH:mm:ss');

function OutcomeTag({ outcome }: { outcome: DeliveryOutcome }) {
  return <Tag color={outcomeColor(outcome)}>{OUTCOME_LABELS[outcome]}</Tag>;
}

/** A kept body in a scrollable, focusable block (keyboard users can scroll it too). */
function Body({ label, text }: { label: string; text: string | null }) {
  return (
    <section aria-label={label}>
      <Typography.Title level={3} style={{ fontSize: 14 }}>
        {label}
      </Typography.Title>
      {text === null ? (
        <Typography.Text type="secondary">None</Typography.Text>
      ) : (
        <pre
          tabIndex={0}
          style={{ maxHeight: 320, overflow: 'auto', whiteSpace: 'pre-wrap', wordBreak: 'break-word' }}
          className="delivery-body"
        >
          {prettyBody(text)}
        </pre>
      )}
    </section>
  );
}

/** One delivery: its facts and its redacted bodies (or why they are not kept), with Replay when it failed. */
function DeliveryDrawer({
  companyId,
  deliveryId,
  onClose,
  onReplay,
}: {
  companyId: string;
  deliveryId: string | null;
  onClose: () => void;
  onReplay: (delivery: DeliveryView) => Promise<void>;
}) {
  const [detail, setDetail] = useState<DeliveryDetail | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    setDetail(null);
    setError(null);
    if (!deliveryId) return;
    let current = true;
    deliveriesApi.get(companyId, deliveryId).then(
      (found) => current && setDetail(found),
      (failure: unknown) => current && setError(getErrorMessage(failure, 'Could not load the delivery.')),
    );
    return () => {
      current = false;
    };
  }, [companyId, deliveryId]);

  return (
    <Drawer
      open={deliveryId !== null}
      onClose={onClose}
      title={detail ? `Delivery to ${detail.agentName ?? 'a deleted agent'}` : 'Delivery'}
      size={640}
      extra={
        detail && isFailed(detail.outcome) && !detail.replayedAt ? (
          <Button
            icon={<RedoOutlined />}
            onClick={() => void onReplay(detail).then(onClose)}
            aria-label={`Replay the delivery of ${formatTime(detail.startedAt)}`}
          >
            Replay
          </Button>
        ) : null
      }
    >
      {error && <Alert type="error" title={error} showIcon />}
      {!detail && !error && <Spin description="Loading..." />}
      {detail && (
        <>
          <Descriptions column={1} size="small" bordered>
            <Descriptions.Item label="Time">{formatTime(detail.startedAt)}</Descriptions.Item>
            <Descriptions.Item label="Outcome">
              <OutcomeTag outcome={detail.outcome} />
            </Descriptions.Item>
            <Descriptions.Item label="HTTP status">{detail.httpStatus ?? '—'}</Descriptions.Item>
            <Descriptions.Item label="Duration">{formatMs(detail.durationMs)}</Descriptions.Item>
            <Descriptions.Item label="Attempts">{detail.attempts}</Descriptions.Item>
            <Descriptions.Item label="Request id">
              <Typography.Text code copyable>
                {detail.requestId}
              </Typography.Text>
            </Descriptions.Item>
            {detail.error && <Descriptions.Item label="Error">{detail.error}</Descriptions.Item>}
            {detail.replayOf && <Descriptions.Item label="Replay of">{detail.replayOf}</Descriptions.Item>}
            {detail.replayedAt && (
              <Descriptions.Item label="Replayed">{formatTime(detail.replayedAt)}</Descriptions.Item>
            )}
          </Descriptions>
          <div style={{ marginTop: 16 }}>
            {detail.bodiesKept ? (
              <>
                {detail.requestHeaders && (
                  <Body label="Request headers" text={JSON.stringify(detail.requestHeaders)} />
                )}
                <Body label="Request body" text={detail.requestBody} />
                <Body label="Answer" text={detail.responseBody} />
              </>
            ) : (
              <Alert
                type="info"
                showIcon
                title="Bodies are not kept"
                description="This delivery is older than the company's retention, or keeping bodies is off (Company Admin → Settings)."
              />
            )}
          </div>
        </>
      )}
    </Drawer>
  );
}

/** "Replay failed since …": an agent and a time, then one request; the count comes back as a toast. */
function BulkReplayDialog({
  open,
  agents,
  onClose,
  onReplay,
}: {
  open: boolean;
  agents: Array<{ value: string; label: string }>;
  onClose: () => void;
  onReplay: (agentId: string, since: Dayjs) => Promise<void>;
}) {
  const [form] = Form.useForm<{ agentId: string; since: Dayjs }>();
  const [busy, setBusy] = useState(false);
  return (
    <Modal
      open={open}
      title="Replay failed deliveries"
      okText="Replay"
      onCancel={onClose}
      confirmLoading={busy}
      onOk={() => form.submit()}
      destroyOnHidden
    >
      <Typography.Paragraph>
        Every failed delivery of the agent since the time you choose is sent again to the agent&apos;s current
        webhook, unless it was replayed already or the user has written since.
      </Typography.Paragraph>
      <Form
        form={form}
        layout="vertical"
        name="bulk-replay"
        initialValues={{ since: dayjs().subtract(1, 'hour') }}
        onFinish={(values) => {
          setBusy(true);
          void onReplay(values.agentId, values.since).finally(() => setBusy(false));
        }}
      >
        <Form.Item label="Agent" name="agentId" rules={[{ required: true, message: 'Choose an agent' }]}>
          <Select options={agents} placeholder="Choose an agent" />
        </Form.Item>
        <Form.Item
          label="Failed since"
          name="since"
          rules={[{ required: true, message: 'Choose a date and time' }]}
        >
          <DatePicker showTime style={{ width: '100%' }} disabledDate={(d) => d.isAfter(dayjs())} />
        </Form.Item>
      </Form>
    </Modal>
  );
}

/**
 * Company Admin → Delivery log: every webhook call made for the company's chats, newest first, filtered
 * by agent and outcome, a page at a time; a row opens its bodies; failed ones can be replayed (one, or
 * every one of an agent since a time).
 */
export function DeliveryLog() {
  const companyId = useCompanyStore((s) => s.currentCompanyId);
  const { message } = App.useApp();
  const [agentId, setAgentId] = useState('');
  const [outcome, setOutcome] = useState<OutcomeFilter>('');
  const [rows, setRows] = useState<DeliveryView[]>([]);
  const [cursor, setCursor] = useState<string | null>(null);
  const [loading, setLoading] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [agents, setAgents] = useState<CompanyAgentView[]>([]);
  const [openId, setOpenId] = useState<string | null>(null);
  const [bulkOpen, setBulkOpen] = useState(false);
  const asked = useRef(0);

  const load = useCallback(
    async (before?: string) => {
      if (!companyId) return;
      const id = ++asked.current;
      setLoading(true);
      try {
        const page = await deliveriesApi.list(companyId, {
          agentId: agentId || undefined,
          outcome: outcome || undefined,
          before,
        });
        if (id !== asked.current) return;
        setRows((shown) => (before ? [...shown, ...page.deliveries] : page.deliveries));
        setCursor(page.nextCursor);
        setError(null);
      } catch (failure) {
        if (id === asked.current) setError(getErrorMessage(failure, 'Could not load the delivery log.'));
      } finally {
        if (id === asked.current) setLoading(false);
      }
    },
    [companyId, agentId, outcome],
  );

  useEffect(() => {
    void load();
  }, [load]);

  useEffect(() => {
    if (!companyId) return;
    companyAdminApi.agents(companyId).then(setAgents, () => setAgents([]));
  }, [companyId]);

  const replay = useCallback(
    async (delivery: DeliveryView) => {
      if (!companyId) return;
      try {
        await deliveriesApi.replay(companyId, delivery.id);
        void message.success('Replay queued: the reply goes to the user’s chat.');
        await load();
      } catch (failure) {
        void message.error(getErrorMessage(failure, 'Could not replay the delivery.'));
      }
    },
    [companyId, load, message],
  );

  const replaySince = useCallback(
    async (agent: string, since: Dayjs) => {
      if (!companyId) return;
      try {
        const result = await deliveriesApi.replayFailedSince(companyId, {
          agentId: agent,
          since: since.toISOString(),
        });
        void message.success(bulkReplaySummary(result));
        setBulkOpen(false);
        await load();
      } catch (failure) {
        void message.error(getErrorMessage(failure, 'Could not replay the deliveries.'));
      }
    },
    [companyId, load, message],
  );

  if (!companyId) return <Alert type="info" title="No company selected" />;
  const agentOptions = agents.map((a) => ({ value: a.id, label: a.name }));

  return (
    <>
      <AdminPageHeader
        title="Delivery log"
        description="Every call to your agents' webhooks, with what was sent and answered"
        extra={
          <>
            <Button
              icon={<ReloadOutlined />}
              aria-label="Refresh the delivery log"
              onClick={() => void load()}
              loading={loading}
            />
            <Button icon={<RedoOutlined />} onClick={() => setBulkOpen(true)}>
              Replay failed since…
            </Button>
          </>
        }
      />
      <Flex gap="middle" wrap align="center" style={{ marginBottom: 16 }}>
        <Select
          aria-label="Agent"
          style={{ minWidth: 200 }}
          value={agentId}
          options={[{ value: '', label: 'All agents' }, ...agentOptions]}
          onChange={(value: string) => setAgentId(value)}
        />
        <Select<OutcomeFilter>
          aria-label="Outcome"
          style={{ minWidth: 200 }}
          value={outcome}
          options={OUTCOME_OPTIONS}
          onChange={(value) => setOutcome(value)}
        />
      </Flex>
      {error && <Alert type="error" title={error} style={{ marginBottom: 16 }} showIcon />}
      <Table<DeliveryView>
        aria-label="Deliveries"
        rowKey="id"
        size="small"
        pagination={false}
        scroll={{ x: true }}
        loading={loading && !rows.length}
        dataSource={rows}
        locale={{ emptyText: 'No deliveries.' }}
        columns={[
          {
            title: 'Time',
            key: 'time',
            render: (_, row) => (
              <Button
                type="link"
                style={{ padding: 0 }}
                onClick={() => setOpenId(row.id)}
                aria-label={`Open the delivery of ${formatTime(row.startedAt)} to ${row.agentName ?? 'a deleted agent'}`}
              >
                {formatTime(row.startedAt)}
              </Button>
            ),
          },
          {
            title: 'Agent',
            key: 'agent',
            render: (_, row) =>
              row.agentName ?? <Typography.Text type="secondary">Deleted agent</Typography.Text>,
          },
          {
            title: 'Outcome',
            key: 'outcome',
            render: (_, row) => (
              <>
                <OutcomeTag outcome={row.outcome} />
                {row.replayOf && <Tag>Replay</Tag>}
                {row.replayedAt && <Tag>Replayed</Tag>}
              </>
            ),
          },
          { title: 'Status', key: 'status', align: 'right', render: (_, row) => row.httpStatus ?? '—' },
          {
            title: 'Duration',
            key: 'duration',
            align: 'right',
            render: (_, row) => formatMs(row.durationMs),
          },
          { title: 'Attempts', dataIndex: 'attempts', key: 'attempts', align: 'right' },
          {
            title: 'Request id',
            key: 'requestId',
            render: (_, row) => <Typography.Text code>{row.requestId}</Typography.Text>,
          },
          {
            title: 'Actions',
            key: 'actions',
            render: (_, row) =>
              isFailed(row.outcome) && !row.replayedAt ? (
                <Button
                  size="small"
                  icon={<RedoOutlined />}
                  onClick={() => void replay(row)}
                  aria-label={`Replay the delivery of ${formatTime(row.startedAt)} to ${row.agentName ?? 'a deleted agent'}`}
                >
                  Replay
                </Button>
              ) : null,
          },
        ]}
      />
      {cursor && (
        <Flex justify="center" style={{ marginTop: 16 }}>
          <Button onClick={() => void load(cursor)} loading={loading}>
            Load more
          </Button>
        </Flex>
      )}
      <DeliveryDrawer
        companyId={companyId}
        deliveryId={openId}
        onClose={() => setOpenId(null)}
        onReplay={replay}
      />
      <BulkReplayDialog
        open={bulkOpen}
        agents={agentOptions}
        onClose={() => setBulkOpen(false)}
        onReplay={replaySince}
      />
    </>
  );
}
