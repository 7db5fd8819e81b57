/**
 * The Kubernetes manifests (ops/k8s, kustomize) against the app they deploy: each file parses, the kinds are
 * all there, the probes hit the app's real health routes and ports, the entry points are the image's, the
 * grace period covers the bounded shutdown, selectors and references meet, and every variable they set is
 * one of README's configuration table (the names are fixed). With kubectl installed, `kubectl kustomize`
 * must render them too.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadAll } from 'js-yaml';
import { SHUTDOWN_LIMIT_MS } from '../src/common/graceful-shutdown';

const ROOT = join(__dirname, '..', '..');
const K8S = join(ROOT, 'ops', 'k8s');

interface Probe {
  httpGet?: { path?: string; port?: string | number };
}
interface Container {
  name: string;
  image?: string;
  command?: string[];
  env?: { name: string; value?: string }[];
  envFrom?: { configMapRef?: { name: string }; secretRef?: { name: string } }[];
  ports?: { name?: string; containerPort: number }[];
  readinessProbe?: Probe;
  livenessProbe?: Probe;
  startupProbe?: Probe;
}
interface PodSpec {
  containers: Container[];
  terminationGracePeriodSeconds?: number;
  restartPolicy?: string;
}
interface Doc {
  apiVersion: string;
  kind: string;
  metadata: { name: string; labels?: Record<string, string> };
  data?: Record<string, string>;
  stringData?: Record<string, string>;
  spec?: {
    selector?: { matchLabels?: Record<string, string> } & Record<string, string>;
    template?: { metadata?: { labels?: Record<string, string> }; spec: PodSpec };
    scaleTargetRef?: { kind: string; name: string };
    minReplicas?: number;
    maxReplicas?: number;
    ports?: { port: number; targetPort: string | number }[];
    maxUnavailable?: number | string;
    minAvailable?: number | string;
  };
}

const kustomization = loadAll(readFileSync(join(K8S, 'kustomization.yaml'), 'utf8'))[0] as {
  resources: string[];
  images?: { name: string }[];
};
const docs: Doc[] = kustomization.resources.flatMap(
  (file) => loadAll(readFileSync(join(K8S, file), 'utf8')) as Doc[],
);
const one = (kind: string, name?: string): Doc => {
  const found = docs.filter((d) => d.kind === kind && (!name || d.metadata.name === name));
  expect(found).toHaveLength(1);
  return found[0];
};
const deployment = (component: string): Doc => {
  const found = docs.filter(
    (d) =>
      d.kind === 'Deployment' &&
      d.spec?.template?.metadata?.labels?.['app.kubernetes.io/component'] === component,
  );
  expect(found).toHaveLength(1);
  return found[0];
};
const container = (doc: Doc): Container => {
  expect(doc.spec?.template?.spec.containers).toHaveLength(1);
  return doc.spec!.template!.spec.containers[0];
};
/** A probe's port as a number (a named port is looked up in the container). */
const probePort = (c: Container, probe: Probe | undefined): number | undefined => {
  const port = probe?.httpGet?.port;
  return typeof port === 'number' ? port : c.ports?.find((p) => p.name === port)?.containerPort;
};
const envValue = (c: Container, name: string) => c.env?.find((e) => e.name === name)?.value;

/** The variable names of README's configuration table (backticked in its first column). */
function readmeVariables(): Set<string> {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const start = readme.indexOf('\n## Configuration\n');
  expect(start).toBeGreaterThan(-1);
  const end = readme.indexOf('\n#', start + 1);
  const section = readme.slice(start, end === -1 ? undefined : end);
  const names = new Set<string>();
  for (const line of section.split('\n')) {
    if (!line.startsWith('| `')) continue;
    const firstCell = line.split('|')[1];
    for (const match of firstCell.matchAll(/`([A-Z][A-Z0-9_]*)`/g)) names.add(match[1]);
  }
  return names;
}

describe('Kubernetes manifests (ops/k8s)', () => {
  it('lists every manifest of the directory, each parsing to objects with a kind and a name', () => {
    const files = readdirSync(K8S).filter((f) => /\.ya?ml$/.test(f) && f !== 'kustomization.yaml');
    expect([...kustomization.resources].sort()).toEqual(files.sort());
    for (const doc of docs) {
      expect(typeof doc.apiVersion).toBe('string');
      expect(typeof doc.kind).toBe('string');
      expect(typeof doc.metadata?.name).toBe('string');
    }
    expect(docs.map((d) => d.kind).sort()).toEqual(
      [
        'ConfigMap',
        'Deployment',
        'Deployment',
        'HorizontalPodAutoscaler',
        'Job',
        'PodDisruptionBudget',
        'Secret',
        'Service',
      ].sort(),
    );
  });

  it('probes the api on its real health routes: ready for traffic, live for restarts', () => {
    const controller = readFileSync(join(ROOT, 'backend', 'src', 'health', 'health.controller.ts'), 'utf8');
    expect(controller).toContain("@Controller('health')");
    expect(controller).toContain("@Get('ready')");
    expect(controller).toContain("@Get('live')");
    expect(readFileSync(join(ROOT, 'backend', 'src', 'bootstrap.ts'), 'utf8')).toContain(
      "app.setGlobalPrefix('api')",
    );
    const api = deployment('api');
    const c = container(api);
    expect(c.command).toEqual(['node', 'backend/dist/main.js']);
    expect(envValue(c, 'PROCESS_ROLE')).toBe('api');
    const port = Number(envValue(c, 'PORT') ?? 3000);
    expect(c.readinessProbe?.httpGet?.path).toBe('/api/health/ready');
    expect(probePort(c, c.readinessProbe)).toBe(port);
    expect(c.livenessProbe?.httpGet?.path).toBe('/api/health/live');
    expect(probePort(c, c.livenessProbe)).toBe(port);
    if (c.startupProbe) expect(c.startupProbe.httpGet?.path).toBe('/api/health/live');
  });

  it('runs the worker and the migrate Job with the image entry points of docker-compose.yml', () => {
    const compose = readFileSync(join(ROOT, 'docker-compose.yml'), 'utf8');
    const worker = container(deployment('worker'));
    expect(worker.command).toEqual(['node', 'backend/dist/worker.js']);
    expect(compose).toContain("command: ['node', 'backend/dist/worker.js']");
    expect(envValue(worker, 'PROCESS_ROLE')).toBe('worker');
    // No HTTP but metrics: alive when the metrics port answers (METRICS_PORT of the ConfigMap).
    const config = one('ConfigMap');
    expect(worker.livenessProbe?.httpGet?.path).toBe('/metrics');
    expect(probePort(worker, worker.livenessProbe)).toBe(Number(config.data?.METRICS_PORT));
    expect(worker.readinessProbe).toBeUndefined();

    const job = one('Job');
    const migrate = container(job);
    expect(migrate.command).toEqual(['node', 'backend/dist/cli.js', 'migrate']);
    expect(compose).toContain("command: ['node', 'backend/dist/cli.js', 'migrate']");
    expect(['OnFailure', 'Never']).toContain(job.spec?.template?.spec.restartPolicy);
    // The entry points exist (the Dockerfile copies backend/dist, built from these).
    for (const entry of ['main.ts', 'worker.ts', 'cli.ts'])
      expect(existsSync(join(ROOT, 'backend', 'src', entry))).toBe(true);
    expect(readFileSync(join(ROOT, 'Dockerfile'), 'utf8')).toContain('backend/dist backend/dist');
    const images = new Set((kustomization.images ?? []).map((i) => i.name));
    for (const c of [worker, migrate, container(deployment('api'))]) expect(images.has(c.image!)).toBe(true);
  });

  it('gives api and worker pods more time to stop than the bounded shutdown takes', () => {
    for (const component of ['api', 'worker']) {
      const grace = deployment(component).spec?.template?.spec.terminationGracePeriodSeconds;
      expect(grace).toBe(30);
      expect(grace! * 1000).toBeGreaterThan(SHUTDOWN_LIMIT_MS);
    }
  });

  it('points the Service, the PodDisruptionBudget and the autoscaler at the right pods', () => {
    const api = deployment('api');
    const worker = deployment('worker');
    const apiLabels = api.spec!.template!.metadata!.labels!;
    const matches = (selector: Record<string, string> | undefined) =>
      !!selector &&
      Object.keys(selector).length > 0 &&
      Object.entries(selector).every(([k, v]) => apiLabels[k] === v);
    expect(matches(api.spec?.selector?.matchLabels)).toBe(true);

    const service = one('Service');
    const { selector } = service.spec as { selector: Record<string, string> };
    expect(matches(selector)).toBe(true);
    const httpPorts = container(api).ports!;
    for (const p of service.spec!.ports!)
      expect(httpPorts.some((c) => c.name === p.targetPort || c.containerPort === p.targetPort)).toBe(true);

    const pdb = one('PodDisruptionBudget');
    expect(matches(pdb.spec?.selector?.matchLabels)).toBe(true);
    expect(pdb.spec?.maxUnavailable ?? pdb.spec?.minAvailable).toBeDefined();

    const hpa = one('HorizontalPodAutoscaler');
    expect(hpa.spec?.scaleTargetRef).toMatchObject({ kind: 'Deployment', name: worker.metadata.name });
    expect(hpa.spec!.maxReplicas).toBeGreaterThan(hpa.spec!.minReplicas ?? 1);
  });

  it('configures through the ConfigMap and Secret, with names of README’s configuration table only', () => {
    const known = readmeVariables();
    expect(known.has('DATABASE_URL')).toBe(true); // the table was found
    const config = one('ConfigMap');
    const secret = one('Secret');
    const used = new Set([...Object.keys(config.data ?? {}), ...Object.keys(secret.stringData ?? {})]);
    for (const doc of docs.filter((d) => d.spec?.template)) {
      const c = container(doc);
      for (const e of c.env ?? []) used.add(e.name);
      const refs = (c.envFrom ?? []).map((e) => e.configMapRef?.name ?? e.secretRef?.name);
      expect(refs.sort()).toEqual([config.metadata.name, secret.metadata.name].sort());
    }
    for (const name of ['DATABASE_URL', 'REDIS_URL', 'JWT_SECRET'])
      expect(secret.stringData?.[name]).toBeDefined();
    expect([...used].filter((name) => !known.has(name))).toEqual([]);
  });

  const kubectl = spawnSync('kubectl', ['version', '--client'], { stdio: 'ignore' }).status === 0;
  (kubectl ? it : it.skip)(
    kubectl
      ? 'renders with kubectl kustomize, the same objects, labelled'
      : 'renders with kubectl kustomize (skipped: kubectl is not installed)',
    () => {
      const out = execFileSync('kubectl', ['kustomize', K8S], { encoding: 'utf8', timeout: 20_000 });
      const rendered = loadAll(out) as Doc[];
      const key = (d: Doc) => `${d.kind}/${d.metadata.name}`;
      expect(rendered.map(key).sort()).toEqual(docs.map(key).sort());
      for (const doc of rendered)
        expect(doc.metadata.labels?.['app.kubernetes.io/part-of']).toBe('switchboard');
    },
  );
});
