// Serves the built web app (web/dist) at `/`, with the single-page-app fallback: any GET that is not an API path
// and not a file answers index.html, so deep links like /workflows/wf_x work on reload. API paths (/api, /health,
// /ready, /metrics) and the API reference (/docs) are never shadowed: they fall through to their routes or the JSON 404.
import { readFile, stat } from 'node:fs/promises';
import { extname, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createMiddleware } from 'hono/factory';
import type { AppEnv } from './env.js';

export const DEFAULT_WEB_DIST = fileURLToPath(new URL('../../web/dist', import.meta.url));

const RESERVED_PREFIXES = ['/api', '/health', '/ready', '/metrics', '/docs'];

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.txt': 'text/plain; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
};

/**
 * The pages Sluice serves load nothing from elsewhere and run no inline script. Styles may be inline: React Flow
 * positions nodes with style attributes, and Scalar (/docs) injects its stylesheet at run time.
 */
export function contentSecurityPolicy(extra: string[] = []): string {
  return [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self' data:",
    "connect-src 'self'",
    ...extra,
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/** Headers of an HTML page Sluice serves: revalidated, not sniffed, never framed, under its content policy. */
export function htmlPageHeaders(policy: string): Record<string, string> {
  return {
    'Content-Type': 'text/html; charset=utf-8',
    'Cache-Control': 'no-cache',
    'X-Content-Type-Options': 'nosniff',
    'X-Frame-Options': 'DENY',
    'Referrer-Policy': 'same-origin',
    'Content-Security-Policy': policy,
  };
}

const APP_PAGE_HEADERS = htmlPageHeaders(contentSecurityPolicy());

const NOT_BUILT_PAGE = `<!doctype html><meta charset="utf-8"><title>Sluice</title>
<body style="font-family:system-ui;max-width:40rem;margin:4rem auto">
<h1>Sluice</h1><p>The API is running, but the web app has not been built yet.</p>
<p>Run <code>npm run build:web</code> (or restart with <code>npm start</code>, which builds it when missing).</p>`;

function isReserved(path: string): boolean {
  return RESERVED_PREFIXES.some((prefix) => path === prefix || path.startsWith(`${prefix}/`));
}

async function readIfFile(path: string): Promise<Buffer | null> {
  try {
    const info = await stat(path);
    return info.isFile() ? await readFile(path) : null;
  } catch {
    return null;
  }
}

export function serveWebApp(distDir: string = DEFAULT_WEB_DIST) {
  const root = resolve(distDir);
  return createMiddleware<AppEnv>(async (c, next) => {
    const method = c.req.method;
    const path = c.req.path;
    if ((method !== 'GET' && method !== 'HEAD') || isReserved(path)) return next();

    let decoded: string;
    try {
      decoded = decodeURIComponent(path);
    } catch {
      return next();
    }
    const candidate = resolve(root, `.${decoded}`);
    // Never outside the build directory, whatever `..` or encoded separators the path holds.
    const inside = candidate === root || candidate.startsWith(root + sep);
    if (inside && candidate !== root && !decoded.endsWith('/')) {
      const file = await readIfFile(candidate);
      if (file) {
        const type = CONTENT_TYPES[extname(candidate).toLowerCase()] ?? 'application/octet-stream';
        c.header('Content-Type', type);
        c.header('X-Content-Type-Options', 'nosniff');
        // Vite fingerprints everything under assets/; the rest may change with any build.
        c.header('Cache-Control', decoded.startsWith('/assets/') ? 'public, max-age=31536000, immutable' : 'no-cache');
        return method === 'HEAD' ? c.body(null) : c.body(new Uint8Array(file));
      }
      // A missing asset is a 404, not the app: a stale bundle asking for an old chunk must fail visibly.
      if (extname(decoded) !== '') return next();
    }

    const index = await readIfFile(resolve(root, 'index.html'));
    if (!index) return method === 'HEAD' ? c.body(null, 503, APP_PAGE_HEADERS) : c.body(NOT_BUILT_PAGE, 503, APP_PAGE_HEADERS);
    return method === 'HEAD' ? c.body(null, 200, APP_PAGE_HEADERS) : c.body(new Uint8Array(index), 200, APP_PAGE_HEADERS);
  });
}
