// Trigger blocks lay out what started the run the way references expect it (docs/api.md 4.1, docs/workflows.md 3).
import { describe, expect, it } from 'vitest';
import { apiTriggerBlock, apiTriggerConfigSchema } from '../../src/blocks/api-trigger.js';
import { chatTriggerBlock } from '../../src/blocks/chat-trigger.js';
import { scheduleTriggerBlock, scheduleTriggerConfigSchema } from '../../src/blocks/schedule-trigger.js';
import { webhookTriggerBlock, webhookTriggerConfigSchema } from '../../src/blocks/webhook-trigger.js';
import type { TriggerType } from '../../src/workflow/index.js';
import { fakeContext } from './context.js';

describe('api_trigger', () => {
  const fields = [
    { name: 'city', type: 'string', value: 'Paris' },
    { name: 'days', type: 'number' },
  ];
  it.each([
    {
      name: 'no Input Format: the raw body only at input',
      inputFormat: [],
      trigger: 'api' as TriggerType,
      body: { a: 1, b: [2] },
      output: { input: { a: 1, b: [2] } },
    },
    {
      name: 'declared fields at the top level and under input, extra keys kept under input',
      inputFormat: fields,
      trigger: 'api' as TriggerType,
      body: { city: 'Oslo', days: 3, extra: true },
      output: { city: 'Oslo', days: 3, input: { city: 'Oslo', days: 3, extra: true } },
    },
    {
      name: 'an absent declared field is null',
      inputFormat: fields,
      trigger: 'api' as TriggerType,
      body: { city: 'Oslo' },
      output: { city: 'Oslo', days: null, input: { city: 'Oslo', days: null } },
    },
    {
      name: 'a manual run uses the value column',
      inputFormat: fields,
      trigger: 'manual' as TriggerType,
      body: {},
      output: { city: 'Paris', days: null, input: { city: 'Paris', days: null } },
    },
  ])('$name', async ({ inputFormat, trigger, body, output }) => {
    const { ctx } = fakeContext(apiTriggerBlock, { inputFormat }, { trigger: { type: trigger, input: body } });
    expect(await apiTriggerBlock.run(ctx)).toEqual({ output });
  });

  it.each([
    { inputFormat: [{ name: 'a' }, { name: 'a' }], message: 'field names must be unique' },
    { inputFormat: [{ name: 'first name' }], message: 'must start with a letter' },
    { inputFormat: [{ name: 'input' }], message: 'is reserved for the whole request body' },
    { inputFormat: [{ name: 'x', type: 'date' }], message: 'Invalid option' },
  ])('rejects $inputFormat', ({ inputFormat, message }) => {
    const parsed = apiTriggerConfigSchema.safeParse({ inputFormat });
    expect(parsed.success).toBe(false);
    expect(JSON.stringify(parsed.error?.issues)).toContain(message);
  });
});

describe('webhook_trigger', () => {
  it('exposes body, headers and query', async () => {
    const input = { body: { event: 'push' }, headers: { 'x-a': '1' }, query: { q: 'x' } };
    const { ctx } = fakeContext(webhookTriggerBlock, { path: 'github/push' }, { trigger: { type: 'webhook', input } });
    expect((await webhookTriggerBlock.run(ctx)).output).toEqual(input);
  });

  it('fills missing parts with empty values', async () => {
    const { ctx } = fakeContext(webhookTriggerBlock, { path: 'x' }, { trigger: { type: 'manual', input: {} } });
    expect((await webhookTriggerBlock.run(ctx)).output).toEqual({ body: null, headers: {}, query: {} });
  });

  it.each(['', '/leading', 'a//b', 'sp ace', 'a?b'])('rejects path %j', (path) => {
    expect(webhookTriggerConfigSchema.safeParse({ path }).success).toBe(false);
  });
});

describe('schedule_trigger', () => {
  it.each([
    { cron: '*/5 * * * *', timezone: undefined, ok: true },
    { cron: '0 0 9 * * 1-5', timezone: 'Europe/Paris', ok: true },
    { cron: '61 * * * *', timezone: undefined, ok: false },
    { cron: '* * * *', timezone: undefined, ok: false },
    { cron: '* * * * * * *', timezone: undefined, ok: false },
    { cron: '* * * * *', timezone: 'Mars/Olympus', ok: false },
  ])('cron $cron in $timezone valid: $ok', ({ cron, timezone, ok }) => {
    expect(scheduleTriggerConfigSchema.safeParse({ cron, timezone }).success).toBe(ok);
  });

  it('defaults the time zone to UTC and reports the tick time', async () => {
    const { ctx } = fakeContext(scheduleTriggerBlock, { cron: '* * * * *' }, { trigger: { type: 'schedule', input: { firedAt: '2030-01-01T00:00:00.000Z' } } });
    expect(ctx.config.timezone).toBe('UTC');
    expect((await scheduleTriggerBlock.run(ctx)).output).toEqual({ firedAt: '2030-01-01T00:00:00.000Z' });
  });
});

describe('chat_trigger', () => {
  it('exposes message and conversationId', async () => {
    const { ctx } = fakeContext(chatTriggerBlock, {}, { trigger: { type: 'chat', input: { message: 'hi', conversationId: 'c1' } } });
    expect((await chatTriggerBlock.run(ctx)).output).toEqual({ message: 'hi', conversationId: 'c1' });
  });
});
