// What the connector blocks (database, redis, email) share: the credential their config names, resolved in the run's
// workspace and checked for its type; the connector's view of the run; and a failure turned into the block's `error`
// output, which takes its `error` edge like the API block's (docs/workflows.md "Failures"), never naming a secret.
import type { ConnectorRun } from '../connectors/connector-run.js';
import { assertCredentialType, SECRET_FIELDS, type CredentialType, type ResolvedCredential } from '../connectors/credential-data.js';
import { connectorErrorMessage } from '../connectors/test-connection.js';
import type { BlockResult, BlockRunContext } from './types.js';

/** The credential named by the block's `credentialId`; throws (the block fails) when it is missing or of another type. */
export async function blockCredential<T extends CredentialType>(
  ctx: BlockRunContext<{ credentialId: string }>,
  accepted: readonly T[],
): Promise<ResolvedCredential<T>> {
  const load = ctx.services.credential;
  if (!load) throw new Error('Stored credentials cannot be used here');
  const credential = await load(ctx.config.credentialId);
  assertCredentialType(credential, accepted);
  return credential;
}

export function connectorRun(ctx: BlockRunContext<unknown>): ConnectorRun {
  const { connections, allowPrivateNetwork, allowedHosts } = ctx.services;
  return { connections, policy: { allowPrivateNetwork, allowedHosts }, signal: ctx.signal };
}

/**
 * The block's output when the server refused or failed: `empty` (its outputs' empty values) and `error`, one line of
 * the server's message with any of the credential's secret values masked (a server may echo what it was sent).
 */
export function connectorFailure(credential: ResolvedCredential, empty: Record<string, unknown>, error: unknown): BlockResult {
  let message = connectorErrorMessage(error);
  for (const [field, value] of Object.entries(credential.data as Record<string, unknown>)) {
    if (SECRET_FIELDS.has(field) && typeof value === 'string' && value.length >= 3) {
      message = message.split(value).join('***');
    }
  }
  return { output: { ...empty, error: message }, continueOnError: true };
}
