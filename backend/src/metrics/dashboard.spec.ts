import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { registry } from './metrics';

const DASHBOARD = join(__dirname, '..', '..', '..', 'ops', 'grafana', 'switchboard.json');

interface Panel {
  title: string;
  targets?: Array<{ expr: string }>;
}

describe('the Grafana dashboard (ops/grafana/switchboard.json)', () => {
  const dashboard = JSON.parse(readFileSync(DASHBOARD, 'utf8')) as { uid: string; panels: Panel[] };

  it('queries only series this app exports', async () => {
    const metrics = await registry.getMetricsAsJSON();
    const exported = new Set<string>();
    for (const m of metrics) {
      exported.add(m.name);
      if (String(m.type) === 'histogram')
        for (const suffix of ['_bucket', '_count', '_sum']) exported.add(m.name + suffix);
    }
    const queried = new Set<string>();
    for (const panel of dashboard.panels)
      for (const target of panel.targets ?? [])
        for (const match of target.expr.matchAll(/\b(?:switchboard|process|nodejs)_[a-z0-9_]+\b/g))
          queried.add(match[0]);
    expect(queried.size).toBeGreaterThan(10);
    expect([...queried].filter((name) => !exported.has(name))).toEqual([]);
  });

  it('shows every switchboard series at least once', async () => {
    const text = readFileSync(DASHBOARD, 'utf8');
    const ours = (await registry.getMetricsAsJSON()).filter((m) => m.name.startsWith('switchboard_'));
    expect(ours.filter((m) => !text.includes(m.name)).map((m) => m.name)).toEqual([]);
  });
});
