// The secret a webhook trigger verifies calls with. It may be written as `{{ENV_NAME}}` so it lives encrypted among
// the workspace's environment variables rather than in the workflow state.
import { AppError } from '../errors.js';
import { findReferences, resolveValue } from '../workflow/index.js';
import type { AppContext } from '../services/app-context.js';
import { loadEnvForRun } from '../services/env-vars.js';

/** undefined when the trigger has no secret (calls are not verified). */
export async function webhookSecret(app: AppContext, workspaceId: string, configured: unknown): Promise<string | undefined> {
  if (typeof configured !== 'string' || configured.trim() === '') return undefined;
  if (!findReferences(configured).some((ref) => ref.kind === 'env')) return configured;
  const env = await loadEnvForRun(app, workspaceId);
  const resolved = resolveValue(configured, {
    block: () => undefined,
    env: (name) => {
      if (!Object.hasOwn(env, name)) {
        // Refusing every call is safer than verifying against an empty secret.
        throw new AppError('INTERNAL_ERROR', 500, `The webhook secret uses the environment variable ${name}, which is not set`);
      }
      return env[name]!;
    },
  });
  return String(resolved);
}
