// Agent conversation memory (README "Agents", docs/workflows.md "Agent memory"): per workflow and key, the user,
// assistant and tool messages of the runs that used the key, in order. An agent block loads the last N at its start
// and appends its run's messages once it has its answer. Appends take their sequence numbers from an upsert of the
// memory's row, whose row lock orders concurrent appends to one key: each run's messages stay together and none is
// lost (no read-modify-write of a blob). Log retention prunes memories by their last message (services/logs/retention.ts).
import { and, asc, desc, eq, gt, lt, sql } from 'drizzle-orm';
import { MAX_MEMORY_KEY_LENGTH } from '../blocks/agent-tools/memory.js';
import type { AgentMemory, MemoryMessage } from '../blocks/types.js';
import type { Db } from '../db/client.js';
import { agentMemories, agentMemoryMessages } from '../db/schema.js';
import { isStorableText, storableText } from '../db/storable.js';
import { badRequest, notFound } from '../errors.js';
import { newId } from '../ids.js';
import type { Logger } from '../logger.js';

export { MAX_MEMORY_KEY_LENGTH };


type MessageRow = typeof agentMemoryMessages.$inferSelect;

function toMessage(row: MessageRow): MemoryMessage {
  if (row.role === 'tool') {
    return { role: 'tool', content: row.content, toolCallId: row.toolCallId ?? '', toolName: row.toolName ?? '', isError: row.isError === true };
  }
  if (row.role === 'assistant') {
    return { role: 'assistant', content: row.content, ...(row.toolCalls && row.toolCalls.length > 0 ? { toolCalls: row.toolCalls } : {}) };
  }
  return { role: 'user', content: row.content };
}

/**
 * The window a model is given: the last `lastMessages` messages, starting at a user message. A window cut inside a
 * run's tool exchange would begin with tool results whose calls it no longer holds, which both providers refuse.
 */
export function memoryWindow(messages: MemoryMessage[]): MemoryMessage[] {
  const start = messages.findIndex((message) => message.role === 'user');
  return start < 0 ? [] : messages.slice(start);
}

export async function loadMemory(db: Db, workflowId: string, key: string, lastMessages: number): Promise<MemoryMessage[]> {
  const rows = await db
    .select({ message: agentMemoryMessages })
    .from(agentMemoryMessages)
    .innerJoin(agentMemories, eq(agentMemories.id, agentMemoryMessages.memoryId))
    .where(and(eq(agentMemories.workflowId, workflowId), eq(agentMemories.key, key)))
    .orderBy(desc(agentMemoryMessages.seq))
    .limit(lastMessages);
  return memoryWindow(rows.reverse().map((row) => toMessage(row.message)));
}

export async function appendMemory(
  db: Db,
  memory: { workflowId: string; key: string; executionId: string },
  messages: MemoryMessage[],
): Promise<void> {
  if (messages.length === 0) return;
  await db.transaction(async (tx) => {
    // Inserted, or its count raised under the row's lock: a concurrent append to the key waits here for this one.
    const [row] = await tx
      .insert(agentMemories)
      .values({ id: newId('mem'), workflowId: memory.workflowId, key: memory.key, messageCount: messages.length, updatedAt: sql`now()` })
      .onConflictDoUpdate({
        target: [agentMemories.workflowId, agentMemories.key],
        set: { messageCount: sql`${agentMemories.messageCount} + excluded.message_count`, updatedAt: sql`now()` },
      })
      .returning({ id: agentMemories.id, messageCount: agentMemories.messageCount });
    const first = row.messageCount - messages.length + 1;
    await tx.insert(agentMemoryMessages).values(
      messages.map((message, index) => ({
        memoryId: row.id,
        seq: first + index,
        role: message.role,
        content: storableText(message.content),
        toolCalls: message.role === 'assistant' && message.toolCalls && message.toolCalls.length > 0 ? message.toolCalls : null,
        toolCallId: message.role === 'tool' ? storableText(message.toolCallId) : null,
        toolName: message.role === 'tool' ? storableText(message.toolName) : null,
        isError: message.role === 'tool' ? message.isError : null,
        executionId: memory.executionId,
      })),
    );
  });
}

/**
 * What a run's agent blocks are lent (BlockServices.memory): the memories of the run's workflow. A database fault is
 * logged here and reaches the block as a plain message (its output and the log show no internals).
 */
export function memoryForRun(db: Db, logger: Logger, run: { workflowId: string; executionId: string }): AgentMemory {
  const failed = (what: string) => (err: unknown) => {
    logger.error({ err, executionId: run.executionId }, `agent memory: could not ${what}`);
    throw new Error(`The conversation memory could not be ${what === 'load' ? 'loaded' : 'saved'}`);
  };
  return {
    load: (key, lastMessages) => loadMemory(db, run.workflowId, key, lastMessages).catch(failed('load')),
    append: (key, messages) => appendMemory(db, { ...run, key }, messages).catch(failed('save')),
  };
}

// ---- The API (docs/api.md "Agent memories") ----

type MemoryRow = typeof agentMemories.$inferSelect;

export interface MemorySummary {
  key: string;
  messageCount: number;
  createdAt: string;
  /** When its last message was added; retention counts from here. */
  updatedAt: string;
}

const toSummary = (row: MemoryRow): MemorySummary => ({
  key: row.key,
  messageCount: row.messageCount,
  createdAt: row.createdAt.toISOString(),
  updatedAt: row.updatedAt.toISOString(),
});

const encodeCursor = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');

function decodeCursor<T>(cursor: string, check: (value: Record<string, unknown>) => T | undefined): T {
  try {
    const parsed: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (typeof parsed === 'object' && parsed !== null) {
      const value = check(parsed as Record<string, unknown>);
      if (value !== undefined) return value;
    }
  } catch {
    // fall through
  }
  throw badRequest('Invalid cursor', [{ path: 'cursor', message: 'not a cursor from a previous page' }]);
}

/** Most recently updated first; the cursor holds the last one shown (its time and key), the next page starts after it. */
export async function listMemories(
  db: Db,
  workflowId: string,
  page: { limit: number; cursor?: string },
): Promise<{ data: MemorySummary[]; nextCursor: string | null }> {
  const conditions = [eq(agentMemories.workflowId, workflowId)];
  if (page.cursor) {
    const after = decodeCursor(page.cursor, ({ u, k }) =>
      typeof u === 'number' && Number.isSafeInteger(u) && u >= 0 && typeof k === 'string' && k.length <= MAX_MEMORY_KEY_LENGTH && isStorableText(k)
        ? { updatedAt: new Date(u), key: k }
        : undefined,
    );
    conditions.push(sql`(${agentMemories.updatedAt}, ${agentMemories.key}) < (${after.updatedAt}, ${after.key})`);
  }
  const rows = await db
    .select()
    .from(agentMemories)
    .where(and(...conditions))
    .orderBy(desc(agentMemories.updatedAt), desc(agentMemories.key))
    .limit(page.limit + 1);
  const shown = rows.slice(0, page.limit);
  const last = shown[shown.length - 1];
  return {
    data: shown.map(toSummary),
    nextCursor: rows.length > page.limit ? encodeCursor({ u: last.updatedAt.getTime(), k: last.key }) : null,
  };
}

export interface MemoryMessageView {
  seq: number;
  role: string;
  content: string;
  toolCalls?: Array<{ id: string; name: string; arguments: string }>;
  toolCallId?: string;
  toolName?: string;
  isError?: boolean;
  executionId: string;
  createdAt: string;
}

function toMessageView(row: MessageRow): MemoryMessageView {
  return {
    seq: row.seq,
    role: row.role,
    content: row.content,
    ...(row.toolCalls && row.toolCalls.length > 0 ? { toolCalls: row.toolCalls } : {}),
    ...(row.role === 'tool' ? { toolCallId: row.toolCallId ?? '', toolName: row.toolName ?? '', isError: row.isError === true } : {}),
    executionId: row.executionId,
    createdAt: row.createdAt.toISOString(),
  };
}

async function findMemory(db: Db, workflowId: string, key: string): Promise<MemoryRow> {
  const [row] = await db
    .select()
    .from(agentMemories)
    .where(and(eq(agentMemories.workflowId, workflowId), eq(agentMemories.key, key)))
    .limit(1);
  if (!row) throw notFound('Memory');
  return row;
}

/** A memory and its messages, oldest first; the cursor holds the last sequence number shown. */
export async function getMemory(
  db: Db,
  workflowId: string,
  key: string,
  page: { limit: number; cursor?: string },
): Promise<{ data: MemorySummary & { messages: MemoryMessageView[] }; nextCursor: string | null }> {
  const memory = await findMemory(db, workflowId, key);
  const after = page.cursor ? decodeCursor(page.cursor, ({ s }) => (typeof s === 'number' && Number.isSafeInteger(s) && s >= 0 ? s : undefined)) : 0;
  const rows = await db
    .select()
    .from(agentMemoryMessages)
    .where(and(eq(agentMemoryMessages.memoryId, memory.id), gt(agentMemoryMessages.seq, after)))
    .orderBy(asc(agentMemoryMessages.seq))
    .limit(page.limit + 1);
  const shown = rows.slice(0, page.limit);
  return {
    data: { ...toSummary(memory), messages: shown.map(toMessageView) },
    nextCursor: rows.length > page.limit ? encodeCursor({ s: shown[shown.length - 1].seq }) : null,
  };
}

export async function deleteMemory(db: Db, workflowId: string, key: string): Promise<void> {
  const gone = await db
    .delete(agentMemories)
    .where(and(eq(agentMemories.workflowId, workflowId), eq(agentMemories.key, key)))
    .returning({ id: agentMemories.id });
  if (gone.length === 0) throw notFound('Memory');
}

/**
 * One batch of memories whose last message is older than `cutoff`, deleted with their messages. The time is checked
 * again on the row itself, so a memory appended to while the batch was chosen stays.
 */
export async function deleteOldMemoryBatch(db: Db, cutoff: Date, batch: number): Promise<number> {
  const gone = await db
    .delete(agentMemories)
    .where(
      and(
        lt(agentMemories.updatedAt, cutoff),
        sql`${agentMemories.id} in (select id from agent_memories where updated_at < ${cutoff} limit ${batch})`,
      ),
    )
    .returning({ id: agentMemories.id });
  return gone.length;
}
