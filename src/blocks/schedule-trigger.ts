// The schedule trigger: a cron schedule of the active deployment, fired by a worker. Cron and time zone are
// checked here, with croner (the scheduler's own parser), so a bad schedule is refused when the state is saved.
import { Cron } from 'croner';
import { z } from 'zod';
import { scheduleTriggerForm } from './forms.js';
import { triggerBlock } from './define-block.js';

function isValidTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

function isValidCron(pattern: string): boolean {
  // 5 fields, or 6 with seconds first (README "Other triggers"). croner accepts more forms; the count keeps us to
  // the documented ones.
  const fields = pattern.trim().split(/\s+/);
  if (fields.length !== 5 && fields.length !== 6) return false;
  try {
    new Cron(pattern, { paused: true });
    return true;
  } catch {
    return false;
  }
}

export const scheduleTriggerConfigSchema = z.object({
  cron: z.string().refine(isValidCron, 'must be a cron expression of 5 fields, or 6 with seconds first'),
  timezone: z.string().default('UTC').refine(isValidTimeZone, 'must be an IANA time zone such as Europe/Paris'),
});
export type ScheduleTriggerConfig = z.infer<typeof scheduleTriggerConfigSchema>;

export const scheduleTriggerBlock = triggerBlock<ScheduleTriggerConfig>('schedule', scheduleTriggerForm, scheduleTriggerConfigSchema, async (ctx) => {
  const firedAt = ctx.trigger.input.firedAt;
  // A manual run of a scheduled workflow has no tick time; "now" is what the tick would have said.
  return { output: { firedAt: typeof firedAt === 'string' ? firedAt : new Date().toISOString() } };
});
