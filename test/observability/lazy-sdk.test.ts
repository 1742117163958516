// Tracing off costs nothing: without OTEL_EXPORTER_OTLP_ENDPOINT the OpenTelemetry SDK (tracer provider, exporter) is
// not even loaded. Checked in a child process that records every module it resolves; with an endpoint, the same
// process loads the SDK (so the recording would see it). The API package (@opentelemetry/api, a no-op facade) is loaded
// either way: the Anthropic SDK imports it.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

function resolvedModules(env: Record<string, string>): { stdout: string; modules: string[] } {
  const dir = mkdtempSync(join(tmpdir(), 'sluice-imports-'));
  const file = join(dir, 'imports.txt');
  try {
    const child = spawnSync(
      process.execPath,
      ['--import', resolve('test/observability/fixtures/record-imports.mjs'), '--import', 'tsx', resolve('test/observability/fixtures/load-app.ts')],
      { env: { ...process.env, ...env, RECORD_IMPORTS_FILE: file }, encoding: 'utf8', timeout: 60_000 },
    );
    expect(child.status, child.stderr).toBe(0);
    return { stdout: child.stdout, modules: readFileSync(file, 'utf8').split('\n') };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('tracing off', () => {
  it('loads no OpenTelemetry SDK module unless an endpoint is configured', () => {
    const off = resolvedModules({});
    expect(off.stdout).toContain('ready tracing=false');
    expect(off.modules.some((m) => m.includes('prom-client'))).toBe(true); // the recording works
    const sdk = (m: string) => (m.includes('@opentelemetry/') && !m.startsWith('@opentelemetry/api')) || m.includes('otel-tracing');
    expect(off.modules.filter(sdk)).toEqual([]);

    const on = resolvedModules({ OTLP_ENDPOINT: 'http://127.0.0.1:9' });
    expect(on.stdout).toContain('ready tracing=true');
    expect(on.modules.some((m) => m.includes('@opentelemetry/sdk-trace'))).toBe(true);
    expect(on.modules.some((m) => m.includes('@opentelemetry/exporter-trace-otlp-http'))).toBe(true);
  });
});
