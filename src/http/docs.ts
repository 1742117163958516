// GET /docs — the interactive API reference (Scalar) for the OpenAPI document at /api/openapi.json. No key, and no
// network beyond this server: the page, Scalar's standalone browser bundle (from node_modules) and the small script
// that starts it are all served here, Scalar's web fonts are switched off, and the Content-Security-Policy keeps the
// page to this origin (so neither the fonts CDN, Scalar's proxy nor its agent can be reached). Paths are relative, so
// the page also works behind a reverse proxy that mounts Sluice under a prefix.
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createRequire } from 'node:module';
import { Hono } from 'hono';
import { AppError } from '../errors.js';
import type { AppEnv } from './env.js';
import { contentSecurityPolicy, DEFAULT_WEB_DIST, htmlPageHeaders } from './static.js';

const require = createRequire(import.meta.url);

/**
 * Scalar's standalone bundle: one self-contained script that defines `Scalar.createApiReference`. Scalar is a
 * development dependency (its own dependencies would add ~200 MB to a production install for this one file): the web
 * build copies the bundle into web/dist (web/build-if-stale.mjs), which production images ship; a development
 * checkout without a build reads it from node_modules.
 */
function scalarBundlePath(): string | undefined {
  const built = join(DEFAULT_WEB_DIST, 'docs', 'scalar.js');
  if (existsSync(built)) return built;
  try {
    return require.resolve('@scalar/api-reference/browser/standalone.js');
  } catch {
    return undefined;
  }
}


const PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Sluice API reference</title>
<link rel="icon" href="data:,">
</head>
<body>
<div id="api-reference"><noscript>The API reference needs JavaScript; the document itself is at <a href="api/openapi.json">/api/openapi.json</a>.</noscript></div>
<script src="docs/scalar.js"></script>
<script src="docs/init.js"></script>
</body>
</html>
`;

/** Starts Scalar on the document; everything that would reach beyond this server is off. */
const INIT = `Scalar.createApiReference('#api-reference', ${JSON.stringify({
  url: 'api/openapi.json',
  withDefaultFonts: false,
  telemetry: false,
  agent: { disabled: true },
  hideClientButton: true,
  showDeveloperTools: 'never',
  persistAuth: false,
})});
`;

let bundle: Promise<Buffer> | undefined;

// worker-src: Scalar can start web workers from blob: URLs.
const pageHeaders = htmlPageHeaders(contentSecurityPolicy(["worker-src 'self' blob:"]));

const scriptHeaders = {
  'Content-Type': 'text/javascript; charset=utf-8',
  // Not fingerprinted: revalidate rather than keep a stale bundle after an upgrade.
  'Cache-Control': 'no-cache',
  'X-Content-Type-Options': 'nosniff',
};

export const docsRoutes = new Hono<AppEnv>()
  .get('/', (c) => c.body(PAGE, 200, pageHeaders))
  .get('/init.js', (c) => c.body(INIT, 200, scriptHeaders))
  .get('/scalar.js', async (c) => {
    const path = scalarBundlePath();
    if (!path) throw new AppError('NOT_FOUND', 404, 'The API reference bundle is not installed: build the web app (npm run build:web)');
    bundle ??= readFile(path).catch((err: unknown) => {
      bundle = undefined;
      throw err;
    });
    return c.body(new Uint8Array(await bundle), 200, scriptHeaders);
  });
