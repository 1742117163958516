// `POST /credentials/{id}/test`: opens a connection with a credential and says what the server answered. Each
// connector module adds its tester here; the answer is the server's greeting or version, or its error.
import { testAmqp } from './amqp.js';
import type { ConnectorRun } from './connector-run.js';
import type { CredentialType, ResolvedCredential } from './credential-data.js';
import { testHttpCredential } from './http-auth.js';
import { testRedisCredential } from './redis.js';
import { testSmtpCredential } from './smtp.js';
import { testSqlCredential } from './sql.js';
import { testMqtt } from './mqtt.js';
import { testNats } from './nats.js';

/** Opens a connection (not from the cache: a test must prove the stored data works now) and answers what it saw. */
export type ConnectionTester = (credential: ResolvedCredential, ctx: ConnectorRun) => Promise<string>;

const testers: Partial<Record<CredentialType, ConnectionTester>> = {
  http: (credential, ctx) =>
    testHttpCredential(credential as ResolvedCredential<'http'>, { allowPrivateNetwork: ctx.policy.allowPrivateNetwork, signal: ctx.signal }),
  postgres: (credential, ctx) => testSqlCredential(credential as ResolvedCredential<'postgres'>, ctx),
  mysql: (credential, ctx) => testSqlCredential(credential as ResolvedCredential<'mysql'>, ctx),
  redis: (credential, ctx) => testRedisCredential(credential as ResolvedCredential<'redis'>, ctx),
  smtp: (credential, ctx) => testSmtpCredential(credential as ResolvedCredential<'smtp'>, ctx),
  amqp: (credential, ctx) => testAmqp(credential, ctx.policy),
  mqtt: (credential, ctx) => testMqtt(credential, ctx.policy),
  nats: (credential, ctx) => testNats(credential, ctx.policy),
};

export const TEST_TIMEOUT_MS = 10_000;

export async function testConnection(
  credential: ResolvedCredential,
  ctx: Omit<ConnectorRun, 'signal'>,
): Promise<{ ok: boolean; message: string; durationMs: number }> {
  const started = performance.now();
  const tester = testers[credential.type];
  const elapsed = () => Math.round(performance.now() - started);
  if (!tester) return { ok: false, message: `Testing a ${credential.type} credential is not supported`, durationMs: 0 };
  const signal = AbortSignal.timeout(TEST_TIMEOUT_MS);
  try {
    const message = await Promise.race([
      tester(credential, { ...ctx, signal }),
      new Promise<never>((_, reject) =>
        signal.addEventListener('abort', () => reject(new Error(`No answer within ${TEST_TIMEOUT_MS / 1000} s`)), { once: true }),
      ),
    ]);
    return { ok: true, message, durationMs: elapsed() };
  } catch (error) {
    return { ok: false, message: connectorErrorMessage(error), durationMs: elapsed() };
  }
}

/** A connector's error as one line for a user: the server's message, never a stack. */
export function connectorErrorMessage(error: unknown): string {
  if (error instanceof AggregateError && error.errors.length > 0) return connectorErrorMessage(error.errors[0]);
  const message = error instanceof Error ? error.message : String(error);
  const code = (error as { code?: unknown } | null)?.code;
  const text = message || (typeof code === 'string' ? code : 'Connection failed');
  return text.length > 500 ? `${text.slice(0, 500)}…` : text;
}
