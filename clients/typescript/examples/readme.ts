// The README's "TypeScript client" example, type-checked with the rest (npx tsc --noEmit), so it cannot drift from
// the client. Not run: it needs a server and a workflow; the tests in ../test run the same calls.
import { createSluiceClient, SluiceError, verifyWebhook } from '../src/index.js';

declare const workflowId: string;
declare const workspaceId: string;
declare let savedCursor: string | null;
declare function handle(logs: unknown[]): void;

export async function readmeExample() {
  const sluice = createSluiceClient({ baseUrl: 'http://127.0.0.1:3000', apiKey: process.env.SLUICE_API_KEY! });

  // Synchronous: the default answer in `result`, or a response block's answer in `status` / `body`.
  const run = await sluice.executeWorkflow(workflowId, { q: 'hello' }, { idempotencyKey: 'order-42' });
  console.log(run.executionId, run.result?.output ?? run.body);

  // Streaming: chunks as the model produces them, then the final record.
  const stream = sluice.streamWorkflow(workflowId, { q: 'hello' }, { selectedOutputs: ['Writer.content'] });
  for await (const { blockId, chunk } of stream) process.stdout.write(chunk);
  const done = await stream.done; // {event: 'done', success, output, metadata}

  // Async: queued on a worker.
  const { taskId } = await sluice.executeWorkflowAsync(workflowId, { q: 'later' });
  const job = await sluice.waitForJob(taskId, { timeoutMs: 60_000 }); // status 'completed', with output

  // Logs: one page, every page, detail, and polling that resumes from a saved cursor.
  const page = await sluice.listLogs({ workspaceId, level: 'error', limit: 50 });
  for await (const p of sluice.listLogs({ workspaceId, workflowIds: [workflowId] })) console.log(p.data.length);
  const log = await sluice.getLog(page.data[0].id);
  const execution = await sluice.getExecution(log.executionId);
  for await (const { logs, cursor } of sluice.pollLogs({ workspaceId }, { cursor: savedCursor })) {
    handle(logs);
    savedCursor = cursor; // persist it to resume after a restart
  }

  // Workflows and webhook subscriptions.
  const { data: document } = await sluice.workflows.export(workflowId);
  const copy = await sluice.workflows.import({ workspaceId, document, name: 'Copy' });
  await sluice.workflows.deploy(copy.data.id);
  await sluice.webhooks.create(workflowId, { url: 'https://example.com/hooks', secret: process.env.HOOK_SECRET });

  // Errors: status, code and details of the server's error body.
  try {
    await sluice.executeWorkflow(workflowId, { q: 42 });
  } catch (err) {
    if (err instanceof SluiceError) console.error(err.status, err.code, err.details, err.executionId);
  }
  void verifyWebhook;
}
