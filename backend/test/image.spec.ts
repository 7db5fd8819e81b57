/**
 * The image runs exactly the dependency tree the tests ran (CONTRIBUTING.md#docker-image). npm hoists most
 * packages to the root node_modules, but a workspace that needs another major keeps its own copy
 * (backend/node_modules/ipaddr.js 2.x next to 1.x at the root): a runtime stage that copies only the root
 * node_modules would run other code, silently. This reads the Dockerfile's runtime stage and fails when a
 * node_modules directory the running code resolves from is not copied into it.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, posix } from 'node:path';

const ROOT = join(__dirname, '..', '..');

interface Copy {
  from: string | null;
  sources: string[];
  /** Absolute in the image; `intoDir` when the destination names a directory (`backend/`, `./`). */
  dest: string;
  intoDir: boolean;
}

interface Stage {
  name: string | null;
  workdir: string;
  copies: Copy[];
}

/** Instructions of a Dockerfile: comments dropped, continuation lines joined. */
function instructions(text: string): string[] {
  const lines = text.split('\n').filter((line) => !/^\s*#/.test(line));
  const out: string[] = [];
  let current = '';
  for (const line of lines) {
    if (/\\\s*$/.test(line)) {
      current += line.replace(/\\\s*$/, ' ');
      continue;
    }
    current += line;
    if (current.trim()) out.push(current.trim());
    current = '';
  }
  if (current.trim()) out.push(current.trim());
  return out;
}

function parseDockerfile(text: string): Stage[] {
  const stages: Stage[] = [];
  for (const instruction of instructions(text)) {
    const [keyword, ...rest] = instruction.split(/\s+/);
    const args = rest.join(' ');
    switch (keyword.toUpperCase()) {
      case 'FROM': {
        const as = /\s+AS\s+(\S+)\s*$/i.exec(args);
        stages.push({ name: as ? as[1] : null, workdir: '/', copies: [] });
        break;
      }
      case 'WORKDIR': {
        const stage = stages[stages.length - 1];
        stage.workdir = posix.resolve(stage.workdir, args.trim());
        break;
      }
      case 'COPY':
      case 'ADD': {
        const stage = stages[stages.length - 1];
        let from: string | null = null;
        const flags = /^((?:--\S+\s+)*)(.*)$/.exec(args) as RegExpExecArray;
        for (const flag of flags[1].trim().split(/\s+/).filter(Boolean)) {
          const m = /^--from=(.+)$/.exec(flag);
          if (m) from = m[1];
        }
        const body = flags[2].trim();
        const words = body.startsWith('[') ? (JSON.parse(body) as string[]) : body.split(/\s+/);
        const dest = words.pop() as string;
        stage.copies.push({
          from,
          sources: words,
          dest: posix.resolve(stage.workdir, dest),
          intoDir: dest.endsWith('/') || dest === '.',
        });
        break;
      }
      default:
        break;
    }
  }
  return stages;
}

/** Where, in the runtime image, each path of the build stage lands (directories copied whole). */
function copiedPaths(stages: Stage[]): Map<string, string> {
  const runtime = stages[stages.length - 1];
  const mapping = new Map<string, string>();
  for (const copy of runtime.copies) {
    if (!copy.from) continue;
    const source = stages.find((s) => s.name === copy.from);
    const base = source?.workdir ?? '/';
    for (const src of copy.sources) {
      const from = posix.resolve(base, src);
      // `COPY a/package.json backend/` puts the file inside the directory; `COPY dir dest` renames.
      const to =
        copy.sources.length > 1 || (copy.intoDir && /\.\w+$/.test(src))
          ? posix.join(copy.dest, posix.basename(from))
          : copy.dest;
      mapping.set(from, to);
    }
  }
  return mapping;
}

/** Where a build-stage path would be in the image, or null when nothing copies it. */
function inImage(mapping: Map<string, string>, path: string): string | null {
  for (const [from, to] of mapping) {
    if (path === from) return to;
    if (path.startsWith(`${from}/`)) return to + path.slice(from.length);
  }
  return null;
}

interface LockEntry {
  version?: string;
  dev?: boolean;
  link?: boolean;
}

const dockerfile = readFileSync(join(ROOT, 'Dockerfile'), 'utf8');
const stages = parseDockerfile(dockerfile);
const buildDir = stages[0]?.workdir ?? '/app';
const runtimeDir = stages[stages.length - 1]?.workdir ?? '/app';
const mapping = copiedPaths(stages);
const lock = JSON.parse(readFileSync(join(ROOT, 'package-lock.json'), 'utf8')) as {
  packages: Record<string, LockEntry>;
};
const workspaces = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { workspaces: string[] })
  .workspaces;

/**
 * Workspaces whose code Node runs in the image: those whose package.json the runtime stage copies (the
 * backend). The frontend ships built static files only, which resolve no package at run time.
 */
const runningWorkspaces = workspaces.filter(
  (ws) => inImage(mapping, posix.join(buildDir, ws, 'package.json')) !== null,
);

/** A node_modules directory with packages in it, here or in the lockfile (production or not). */
function hasPackages(dir: string): boolean {
  const local =
    existsSync(join(ROOT, dir)) && readdirSync(join(ROOT, dir)).some((entry) => !entry.startsWith('.'));
  return local || Object.keys(lock.packages).some((key) => key.startsWith(`${dir}/`));
}

describe('the Docker image runs the tested dependency tree', () => {
  it('parses a runtime stage that copies from the build stage', () => {
    expect(stages.length).toBeGreaterThanOrEqual(2);
    expect(mapping.size).toBeGreaterThan(0);
    expect(runningWorkspaces).toContain('backend');
    expect(runningWorkspaces).not.toContain('e2e');
  });

  it('copies every node_modules directory the running code resolves from', () => {
    const needed = ['node_modules', ...runningWorkspaces.map((ws) => `${ws}/node_modules`)].filter(
      (dir) => dir === 'node_modules' || hasPackages(dir),
    );
    expect(needed).toEqual(expect.arrayContaining(['node_modules', 'backend/node_modules']));
    const missing = needed.filter((dir) => {
      const at = inImage(mapping, posix.join(buildDir, dir));
      return at !== posix.join(runtimeDir, dir);
    });
    expect({ missing }).toEqual({ missing: [] });
  });

  it('resolves each production dependency of a running workspace to the version the tests used', () => {
    const problems: string[] = [];
    for (const ws of runningWorkspaces) {
      const manifest = JSON.parse(readFileSync(join(ROOT, ws, 'package.json'), 'utf8')) as {
        dependencies?: Record<string, string>;
      };
      for (const name of Object.keys(manifest.dependencies ?? {})) {
        // Node's lookup from the workspace: its own node_modules, then the root's.
        const candidates = [`${ws}/node_modules/${name}`, `node_modules/${name}`];
        const tested = candidates.find((key) => lock.packages[key]);
        if (!tested) continue; // an optional platform package absent here
        const imaged = candidates.find(
          (key) => lock.packages[key] && inImage(mapping, posix.join(buildDir, key)) !== null,
        );
        if (imaged !== tested)
          problems.push(
            `${ws}: ${name} ${lock.packages[tested].version} tested, ${imaged ? lock.packages[imaged].version : 'missing'} in the image`,
          );
      }
    }
    expect(problems).toEqual([]);
  });

  it('would catch the drift it guards against: a runtime stage with the root node_modules only', () => {
    const rootOnly = dockerfile
      .split('\n')
      .filter((line) => !/^COPY --from=build \/app\/backend\/node_modules/.test(line))
      .join('\n');
    const drifted = copiedPaths(parseDockerfile(rootOnly));
    expect(inImage(drifted, `${buildDir}/backend/node_modules/ipaddr.js`)).toBeNull();
    expect(inImage(mapping, `${buildDir}/backend/node_modules/ipaddr.js`)).toBe(
      `${runtimeDir}/backend/node_modules/ipaddr.js`,
    );
  });
});
