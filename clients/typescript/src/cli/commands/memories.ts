// `sluice memories list|show|delete`: the conversation memories of a workflow's agents (docs/api.md 12).
import type { Command } from 'commander';
import type { MemoryMessage } from '../../types.js';
import { action, common, jsonLine, note, out, table } from '../io.js';
import { openSession, resolveWorkflow, type CommonOptions } from '../session.js';

/** One line a message: its place, who said it, and what (a tool call or result named). */
function messageLine(message: MemoryMessage): string {
  const calls = message.toolCalls?.map((call) => `${call.name}(${call.arguments})`).join(', ');
  const text = message.role === 'tool' ? `${message.toolName}${message.isError ? ' (error)' : ''} → ${message.content}` : message.content;
  return `${String(message.seq).padStart(4)}  ${message.role.padEnd(9)}  ${[text, calls && `calls ${calls}`].filter(Boolean).join('  ')}`;
}

export function registerMemories(program: Command): void {
  const memories = program.command('memories').description('list, show and delete the conversation memories of a workflow\'s agents');

  common(memories.command('list'))
    .description('the memories of a workflow, most recently updated first')
    .argument('<workflow>', 'id or name')
    .action(
      action(async (nameOrId: string, options: CommonOptions) => {
        const session = openSession(options);
        const workflow = await resolveWorkflow(session, nameOrId);
        const all = [];
        let cursor: string | undefined;
        do {
          const page = await session.client.memories.list(workflow.id, { limit: 100, ...(cursor ? { cursor } : {}) });
          all.push(...page.data);
          cursor = page.nextCursor ?? undefined;
        } while (cursor);
        if (options.json) return void all.forEach((memory) => jsonLine(memory));
        if (all.length === 0) return void note(`${workflow.name} has no memories yet.`);
        out(table([['KEY', 'MESSAGES', 'UPDATED'], ...all.map((m) => [m.key, String(m.messageCount), m.updatedAt])]));
      }),
    );

  common(memories.command('show'))
    .description('the messages of a memory, oldest first')
    .argument('<workflow>', 'id or name')
    .argument('<key>', 'the memory\'s key (a conversation or session id)')
    .action(
      action(async (nameOrId: string, key: string, options: CommonOptions) => {
        const session = openSession(options);
        const workflow = await resolveWorkflow(session, nameOrId);
        let cursor: string | undefined;
        do {
          const page = await session.client.memories.get(workflow.id, key, { limit: 500, ...(cursor ? { cursor } : {}) });
          for (const message of page.data.messages) {
            if (options.json) jsonLine(message);
            else out(messageLine(message));
          }
          cursor = page.nextCursor ?? undefined;
        } while (cursor);
      }),
    );

  common(memories.command('delete'))
    .description('forget a conversation: the next run under the key starts afresh')
    .argument('<workflow>', 'id or name')
    .argument('<key>', 'the memory\'s key')
    .action(
      action(async (nameOrId: string, key: string, options: CommonOptions) => {
        const session = openSession(options);
        const workflow = await resolveWorkflow(session, nameOrId);
        await session.client.memories.delete(workflow.id, key);
        if (options.json) jsonLine({ workflowId: workflow.id, key, deleted: true });
        else out(`Deleted the memory "${key}" of ${workflow.name}.`);
      }),
    );
}
