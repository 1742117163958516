// Which field a queue trigger needs follows its credential's type: RabbitMQ consumes a `queue`, MQTT a `topic`, NATS
// a `subject`. Checked on save (when the credential is one of the workspace's) and on deploy (where it must be), so
// a trigger whose broker cannot consume its config is a 400 naming the field, not a consumer failing in a worker.
// The other brokers' fields are ignored by the consumer (src/triggers/queue-consumers.ts) and allowed here.
import { and, eq, inArray } from 'drizzle-orm';
import { queueTriggerConfigSchema } from '../blocks/queue-trigger.js';
import type { Db } from '../db/client.js';
import { credentials } from '../db/schema.js';
import { badRequest, type ErrorDetail } from '../errors.js';
import type { WorkflowState } from '../workflow/index.js';

const FIELD_OF = { amqp: 'queue', mqtt: 'topic', nats: 'subject' } as const;
const BROKER_OF = { queue: 'RabbitMQ (amqp)', topic: 'MQTT', subject: 'NATS' } as const;
type Field = (typeof FIELD_OF)[keyof typeof FIELD_OF];

export async function checkQueueTriggerFields(
  db: Db,
  workspaceId: string,
  state: WorkflowState,
  options: { credentialRequired: boolean; pathPrefix?: string },
): Promise<void> {
  const triggers = Object.values(state.blocks).filter((block) => block.type === 'queue_trigger' && block.enabled !== false);
  if (triggers.length === 0) return;
  const ids = [...new Set(triggers.map((block) => block.config.credentialId).filter((id): id is string => typeof id === 'string' && id.trim() !== ''))];
  const rows =
    ids.length === 0
      ? []
      : await db.select({ id: credentials.id, type: credentials.type }).from(credentials).where(and(eq(credentials.workspaceId, workspaceId), inArray(credentials.id, ids)));
  const typeOf = new Map(rows.map((row) => [row.id, row.type]));
  const problems: ErrorDetail[] = [];
  for (const block of triggers) {
    const at = `${options.pathPrefix ?? 'state'}.blocks.${block.id}.config`;
    const parsed = queueTriggerConfigSchema.safeParse(block.config);
    if (!parsed.success) continue; // the block's own schema reports it
    const config = parsed.data;
    const type = typeOf.get(config.credentialId.trim());
    if (type === undefined) {
      if (options.credentialRequired) {
        problems.push({ path: `${at}.credentialId`, message: 'must be an amqp, mqtt or nats credential of this workspace' });
      }
      continue;
    }
    if (!(type in FIELD_OF)) {
      problems.push({ path: `${at}.credentialId`, message: `is a ${type} credential: a queue trigger consumes with an amqp, mqtt or nats one` });
      continue;
    }
    const wanted: Field = FIELD_OF[type as keyof typeof FIELD_OF];
    if (config[wanted]) continue;
    problems.push({ path: `${at}.${wanted}`, message: `is required: the ${type} credential consumes a ${BROKER_OF[wanted]} ${wanted}` });
    // Another broker's field set instead is likely the value meant here. Otherwise such fields are left alone: the
    // editor hides them and keeps their values, so switching the credential back finds them as they were.
    for (const other of Object.values(FIELD_OF)) {
      if (other !== wanted && config[other]) {
        problems.push({ path: `${at}.${other}`, message: `is for ${BROKER_OF[other]} credentials; this trigger's credential is ${type} (give a ${wanted})` });
      }
    }
  }
  if (problems.length > 0) throw badRequest("A queue trigger's config does not fit its credential", problems);
}
