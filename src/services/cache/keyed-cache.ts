// A per-process cache of rows that rarely change (keys, deployments, members, environment variables, webhook
// subscriptions), kept correct by the database's change feed (db/change-feed.ts): each entry carries the topics
// (`<table>:<key>`) of the rows it was built from, and a change to any of them drops it.
//
// Correctness rules:
// - While the feed is not live (the PostgreSQL listener is reconnecting), nothing is served from or stored in the
//   cache: every call reads through, so a change is never missed silently.
// - A load that overlaps any change is used for its own caller but not stored: it may have read the old row
//   after the change was announced for it.
// - Concurrent misses on one key share one load (a burst after a deploy reads the deployment once), but only a load
//   that started after the latest change: a caller never joins a read that may predate a change it already saw.
// - Entries also expire after `ttlMs`, and the oldest go first past `maxEntries`, so memory stays bounded even
//   when callers ask for many keys that do not exist (negative answers are cached like any other).
import { ALL_TOPICS, type ChangeFeed } from '../../db/change-feed.js';

export interface Loaded<V> {
  value: V;
  /** Change topics that invalidate this value. */
  topics: string[];
}

export interface KeyedCache<V> {
  get(key: string, load: () => Promise<Loaded<V>>): Promise<V>;
  clear(): void;
  readonly size: number;
}

export interface KeyedCacheOptions {
  feed: ChangeFeed;
  maxEntries?: number;
  ttlMs?: number;
  now?: () => number;
}

interface Entry<V> {
  value: V;
  topics: string[];
  expiresAt: number;
}

export function createKeyedCache<V>(options: KeyedCacheOptions): KeyedCache<V> {
  const { feed } = options;
  const maxEntries = options.maxEntries ?? 10_000;
  const ttlMs = options.ttlMs ?? 5 * 60_000;
  const now = options.now ?? Date.now;
  const entries = new Map<string, Entry<V>>();
  const keysByTopic = new Map<string, Set<string>>();
  const loading = new Map<string, { promise: Promise<V>; generation: number }>();
  /** Bumped by every change; a load that sees it move was concurrent with a change. */
  let generation = 0;

  const forget = (key: string) => {
    const entry = entries.get(key);
    if (!entry) return;
    entries.delete(key);
    for (const topic of entry.topics) {
      const keys = keysByTopic.get(topic);
      keys?.delete(key);
      if (keys?.size === 0) keysByTopic.delete(topic);
    }
  };
  const clear = () => {
    entries.clear();
    keysByTopic.clear();
  };

  feed.subscribe((topic) => {
    generation++;
    if (topic === ALL_TOPICS) return clear();
    for (const key of [...(keysByTopic.get(topic) ?? [])]) forget(key);
  });

  const store = (key: string, loaded: Loaded<V>) => {
    forget(key);
    if (entries.size >= maxEntries) forget(entries.keys().next().value as string);
    entries.set(key, { value: loaded.value, topics: loaded.topics, expiresAt: now() + ttlMs });
    for (const topic of loaded.topics) {
      let keys = keysByTopic.get(topic);
      if (!keys) keysByTopic.set(topic, (keys = new Set()));
      keys.add(key);
    }
  };

  return {
    async get(key, load) {
      if (!feed.isLive()) return (await load()).value;
      const entry = entries.get(key);
      if (entry && entry.expiresAt > now()) return entry.value;
      const pending = loading.get(key);
      if (pending && pending.generation === generation) return pending.promise;
      const startedAt = generation;
      const promise = load()
        .then((loaded) => {
          if (generation === startedAt && feed.isLive()) store(key, loaded);
          return loaded.value;
        })
        .finally(() => {
          if (loading.get(key)?.promise === promise) loading.delete(key);
        });
      loading.set(key, { promise, generation: startedAt });
      return promise;
    },
    clear,
    get size() {
      return entries.size;
    },
  };
}
