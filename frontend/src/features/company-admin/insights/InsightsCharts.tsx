import type { InsightsBucket, InsightsPoint } from '@contracts/insights';
import { theme } from 'antd';
import {
  Bar,
  BarChart,
  CartesianGrid,
  Legend,
  Line,
  LineChart,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
} from 'recharts';
import { formatMs, formatPeriod } from './insightsFormat';

/**
 * The Insights charts (recharts: its own chunk, loaded with this page only). Each is a picture of the
 * numbers in the table beside it: hidden from screen readers, which read the table.
 */
export default function InsightsChart({
  series,
  bucket,
  which,
}: {
  series: InsightsPoint[];
  bucket: InsightsBucket;
  /** Messages and failures per period, or the reply latency's p50 and p95. */
  which: 'traffic' | 'latency';
}) {
  const { token } = theme.useToken();
  const data = series.map((point) => ({ ...point, label: formatPeriod(point.at, bucket) }));
  if (which === 'traffic')
    return (
      <div aria-hidden="true" style={{ width: '100%', height: 260 }}>
        <ResponsiveContainer>
          <BarChart accessibilityLayer={false} data={data} margin={{ top: 8, right: 16, bottom: 8, left: 0 }}>
            <CartesianGrid strokeDasharray="3 3" />
            <XAxis dataKey="label" minTickGap={24} />
            <YAxis allowDecimals={false} />
            <Tooltip />
            <Legend />
            <Bar dataKey="messages" name="Messages" fill={token.colorPrimary} isAnimationActive={false} />
            <Bar dataKey="failed" name="Failures" fill={token.colorError} isAnimationActive={false} />
          </BarChart>
        </ResponsiveContainer>
      </div>
    );
  // A lone hour with replies would draw no line at all: points are marked while there are few of them.
  const measured = data.filter((point) => point.latencyP50Ms !== null && point.latencyP50Ms !== undefined);
  const dot = measured.length <= 48 ? { r: 3 } : false;
  return (
    <div aria-hidden="true" style={{ width: '100%', height: 260 }}>
      <ResponsiveContainer>
        <LineChart accessibilityLayer={false} data={data} margin={{ top: 8, right: 16, bottom: 8, left: 8 }}>
          <CartesianGrid strokeDasharray="3 3" />
          <XAxis dataKey="label" minTickGap={24} />
          <YAxis tickFormatter={(ms: number) => formatMs(ms)} width={72} />
          <Tooltip formatter={(ms) => formatMs(typeof ms === 'number' ? ms : null)} />
          <Legend />
          <Line
            dataKey="latencyP50Ms"
            name="p50"
            stroke={token.colorPrimary}
            connectNulls
            dot={dot}
            isAnimationActive={false}
          />
          <Line
            dataKey="latencyP95Ms"
            name="p95"
            stroke={token.colorWarning}
            connectNulls
            dot={dot}
            isAnimationActive={false}
          />
        </LineChart>
      </ResponsiveContainer>
    </div>
  );
}
