// Builds the web app into web/dist, which the Sluice server serves at `/` (src/http/static.ts).
// `npx vite --config web/vite.config.ts` runs a dev server that proxies the API to a local Sluice on :3000.
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

const root = fileURLToPath(new URL('.', import.meta.url));

export default defineConfig({
  root,
  base: '/',
  plugins: [react()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    sourcemap: false,
    // .vite/manifest.json: which chunks each page loads, read by the first-load size check (test/web/journey.test.ts).
    manifest: true,
  },
  server: {
    proxy: { '/api': 'http://127.0.0.1:3000', '/health': 'http://127.0.0.1:3000' },
  },
});
