// The workflow block: runs another workflow of the same workspace as a step (its active deployment; its draft in a
// manual run) with an input mapping, and returns that run's output. The child run is an execution of its own, with
// its own log linked to this one (`parentExecutionId`); its agent tokens stream as this block's chunks. The host
// (runs/sub-workflows.ts) loads and runs it — this block only asks.
import { z } from 'zod';
import { workflowForm } from './forms.js';
import { defineBlock } from './define-block.js';

export const workflowConfigSchema = z.object({
  workflowId: z.string().regex(/^wf_[A-Za-z0-9]{1,64}$/, 'must be the id of a workflow (wf_…)'),
  /** The child's API trigger input: field name → value (references resolved). */
  input: z.record(z.string(), z.unknown()).default({}),
});
export type WorkflowBlockConfig = z.infer<typeof workflowConfigSchema>;

export const workflowBlock = defineBlock<WorkflowBlockConfig>(workflowForm, {
  configSchema: workflowConfigSchema,
  async run(ctx) {
    const runChild = ctx.services.runSubWorkflow;
    if (!runChild) return { output: { error: 'Sub-workflows cannot run here' } };
    const child = await runChild({
      workflowId: ctx.config.workflowId,
      input: ctx.config.input,
      signal: ctx.signal,
      onChunk: (text) => ctx.emitChunk(text),
    });
    const output: Record<string, unknown> = { result: child.output, executionId: child.executionId ?? null };
    if (child.error !== undefined) output.error = child.error;
    return { output, childSpans: child.spans };
  },
});
