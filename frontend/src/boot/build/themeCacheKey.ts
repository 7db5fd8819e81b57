import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';

/**
 * What a theme kept in the browser (../themeCache.ts) was computed by: the theme mapping's sources and
 * antd's version. A change of any makes the kept themes stale (vite.config.ts defines it for the app).
 */
export function themeCacheKey(): string {
  const src = join(__dirname, '..', '..');
  const require = createRequire(join(src, 'main.tsx'));
  return createHash('sha256')
    .update(
      [join(src, 'boot', 'theme.ts'), join(src, 'lib', 'color.ts'), require.resolve('antd/package.json')]
        .map((file) => readFileSync(file, 'utf8'))
        .join('\0'),
    )
    .digest('hex')
    .slice(0, 16);
}
