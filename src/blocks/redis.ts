// The redis block: one command (get, set with a TTL, del, incr, hget, hset, lpush, rpop, publish) through a stored
// credential. Its reply is `result`; a refused connection or command is the block's `error` output.
import { z } from 'zod';
import { REDIS_OPERATIONS, runRedisCommand, type RedisOperation } from '../connectors/redis.js';
import { blockCredential, connectorFailure, connectorRun } from './connector-block.js';
import { defineBlock } from './define-block.js';
import { redisForm } from './forms.js';

/** A key, field or channel: a reference to a number is written out as text. */
const name = z.preprocess((value) => (typeof value === 'number' ? String(value) : value), z.string().max(65_536)).optional();

/** What each operation needs besides its key (publish needs no key). */
const NEEDS: Record<RedisOperation, readonly ('key' | 'value' | 'field' | 'channel' | 'message')[]> = {
  get: ['key'],
  set: ['key', 'value'],
  del: ['key'],
  incr: ['key'],
  hget: ['key', 'field'],
  hset: ['key', 'field', 'value'],
  lpush: ['key', 'value'],
  rpop: ['key'],
  publish: ['channel', 'message'],
};

export const redisConfigSchema = z
  .object({
    credentialId: z.string().min(1, 'choose a redis credential'),
    operation: z.enum(REDIS_OPERATIONS).default('get'),
    key: name,
    /** set, hset, lpush: strings as they are, other values as JSON. */
    value: z.unknown().optional(),
    /** set: seconds until the key expires. */
    ttl: z.coerce.number().int().min(1).max(2_147_483_647).optional(),
    field: name,
    channel: name,
    message: z.unknown().optional(),
  })
  .superRefine((config, ctx) => {
    for (const needed of NEEDS[config.operation]) {
      const value = config[needed];
      if (value === undefined || value === null || value === '') {
        ctx.addIssue({ code: 'custom', path: [needed], message: `is required for ${config.operation}` });
      }
    }
  });
export type RedisConfig = z.infer<typeof redisConfigSchema>;

export const redisBlock = defineBlock<RedisConfig>(redisForm, {
  configSchema: redisConfigSchema,
  async run(ctx) {
    const credential = await blockCredential(ctx, ['redis']);
    try {
      return { output: { result: await runRedisCommand(credential, connectorRun(ctx), ctx.config) } };
    } catch (error) {
      return connectorFailure(credential, { result: null }, error);
    }
  },
});
