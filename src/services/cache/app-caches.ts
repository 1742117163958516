// The caches on the execution path, one per kind of row, and the change topics their entries listen to. A topic is
// `<table>:<key>` as the triggers of drizzle/0005_change_notifications.sql announce it; keep the two in step.
import type { ChangeFeed } from '../../db/change-feed.js';
import { createKeyedCache, type KeyedCache } from './keyed-cache.js';

export const topics = {
  apiKey: (keyHash: string) => `api_keys:${keyHash}`,
  user: (userId: string) => `users:${userId}`,
  workspace: (workspaceId: string) => `workspaces:${workspaceId}`,
  workspaceMembers: (workspaceId: string) => `workspace_members:${workspaceId}`,
  workflow: (workflowId: string) => `workflows:${workflowId}`,
  deployments: (workflowId: string) => `deployments:${workflowId}`,
  envVars: (workspaceId: string) => `env_vars:${workspaceId}`,
  subscriptions: (workflowId: string) => `webhook_subscriptions:${workflowId}`,
  webhookPath: (path: string) => `webhook_trigger_paths:${path}`,
};

/** Cache of whatever one service reads; each service owns the shape of its values. */
export type AppCaches = Record<CacheName, KeyedCache<unknown>>;

export type CacheName = 'principals' | 'deployedWorkflows' | 'workspaceMembers' | 'envVars' | 'subscriptions' | 'webhookPaths';

const CACHE_NAMES: CacheName[] = ['principals', 'deployedWorkflows', 'workspaceMembers', 'envVars', 'subscriptions', 'webhookPaths'];

export function createAppCaches(feed: ChangeFeed): AppCaches {
  return Object.fromEntries(CACHE_NAMES.map((name) => [name, createKeyedCache<unknown>({ feed })])) as AppCaches;
}

/** Reads `key` from the named cache, loading it on a miss; the value's type is the loader's. */
export function cached<V>(
  caches: AppCaches,
  name: CacheName,
  key: string,
  load: () => Promise<{ value: V; topics: string[] }>,
): Promise<V> {
  return caches[name].get(key, load) as Promise<V>;
}
