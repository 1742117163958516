// The observability variables are checked at start-up like every other: a bad value stops the process with a message
// naming the variable.
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.js';

const refusal = (env: Record<string, string>) => {
  try {
    loadConfig(env);
  } catch (err) {
    return err instanceof ConfigError ? err.message : `not a ConfigError: ${String(err)}`;
  }
  return 'accepted';
};

describe('observability configuration', () => {
  it('defaults: metrics on and open, tracing off, service name sluice', () => {
    expect(loadConfig({}).observability).toEqual({ metricsEnabled: true, metricsToken: undefined, otlpEndpoint: undefined, serviceName: 'sluice' });
  });

  it('takes the token, the switch, the endpoint and the service name', () => {
    const config = loadConfig({
      SLUICE_METRICS_ENABLED: 'false',
      SLUICE_METRICS_TOKEN: 'a-long-enough-token',
      OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318',
      OTEL_SERVICE_NAME: 'sluice-eu',
    });
    expect(config.observability).toEqual({
      metricsEnabled: false,
      metricsToken: 'a-long-enough-token',
      otlpEndpoint: 'http://collector:4318',
      serviceName: 'sluice-eu',
    });
  });

  it('refuses a short or spaced token, a non-boolean switch and an endpoint that is not an http(s) URL', () => {
    expect(refusal({ SLUICE_METRICS_TOKEN: 'short' })).toMatch(/^Invalid configuration: SLUICE_METRICS_TOKEN must be 16–256 printable/);
    expect(refusal({ SLUICE_METRICS_TOKEN: 'has a space in the middle' })).toMatch(/SLUICE_METRICS_TOKEN/);
    expect(refusal({ SLUICE_METRICS_ENABLED: 'maybe' })).toMatch(/SLUICE_METRICS_ENABLED/);
    expect(refusal({ OTEL_EXPORTER_OTLP_ENDPOINT: 'collector:4318' })).toMatch(/OTEL_EXPORTER_OTLP_ENDPOINT/);
    expect(refusal({ OTEL_EXPORTER_OTLP_ENDPOINT: 'grpc://collector:4317' })).toMatch(/OTEL_EXPORTER_OTLP_ENDPOINT/);
  });
});
