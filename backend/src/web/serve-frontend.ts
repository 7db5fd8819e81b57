import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { NestExpressApplication } from '@nestjs/platform-express';
import compression from 'compression';
import type { NextFunction, Request, Response } from 'express';
import expressStaticGzip from 'express-static-gzip';

const OPERATOR_PATHS = /^\/(metrics|healthz|readyz|livez|health|status|\.well-known)(\/|$)/;

/**
 * The built SPA at /, with client-side routes falling back to index.html. Assets are sent as the
 * brotli or gzip copy the build made next to them (by Accept-Encoding), never compressed per request.
 */
export function serveFrontend(app: NestExpressApplication, dist: string): void {
  const index = join(dist, 'index.html');
  if (!existsSync(index)) return;
  const assets = join(dist, 'assets');
  const staticFiles = expressStaticGzip(dist, {
    enableBrotli: true,
    orderPreference: ['br', 'gzip'],
    index: false,
    serveStatic: {
      index: false,
      setHeaders: (res, path) => {
        if (path.startsWith(assets)) res.setHeader('Cache-Control', 'public, max-age=31536000, immutable');
      },
    },
  });
  // Registered before the API's routes: without this check every API GET would first look for a file
  // of its path on disk (a stat per request).
  app.use((req: Request, res: Response, next: NextFunction) =>
    isApiPath(req.path) ? next() : staticFiles(req, res, next),
  );
  app.use((req: Request, res: Response, next: NextFunction) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return next();
    if (isApiPath(req.path)) return next();
    // Operator paths that are not the app's: a probe or scraper must get a 404, never a 200 HTML page.
    if (OPERATOR_PATHS.test(req.path)) return next();
    res.setHeader('Cache-Control', 'no-cache');
    res.sendFile(index);
  });
}

function isApiPath(path: string): boolean {
  return path === '/api' || path.startsWith('/api/') || path.startsWith('/socket.io');
}

const compressLargeAnswers = compression({
  threshold: 2048,
  filter: (req, res) => {
    if (!req.url?.startsWith('/api/')) return false;
    const type = res.getHeader('Content-Type');
    if (typeof type === 'string' && type.startsWith('text/event-stream')) return false;
    return compression.filter(req, res);
  },
});

/**
 * Compresses the API's larger answers (lists, histories) on the fly. Small ones (a sent message, a
 * token) are not worth the CPU; streams and Socket.IO's polling transport are left alone.
 */
export function compressApiResponses(req: Request, res: Response, next: NextFunction): void {
  // Only GETs answer with lists and histories (compression leaves a HEAD alone anyway). A write answers
  // with the one thing it made (a message, a token, a 202), under the threshold, so it need not pay for
  // compression's wrapping of the response (on-headers, a patched write and end) on every send.
  if (req.method !== 'GET' || !req.url.startsWith('/api/')) return next();
  compressLargeAnswers(req, res, next);
}
