// The approval block: the run waits here until a person approves or rejects (POST /api/v1/executions/{id}/resume),
// or until its time-out applies the default decision. Downstream blocks read `<approval.approved>` and
// `<approval.data>`. The waiting itself belongs to the host (runs/approvals.ts): the run pauses durably
// and is resumed later, possibly by another process; this block only asks.
import { z } from 'zod';
import { MAX_APPROVAL_TIMEOUT_MS, MIN_APPROVAL_TIMEOUT_MS } from '../workflow/index.js';
import { approvalForm } from './forms.js';
import { defineBlock } from './define-block.js';


/** How long a decision may take before the default applies (also an agent tool's `approvalTimeoutMs`). */
export const approvalTimeoutSchema = z.coerce
  .number()
  .int()
  .min(MIN_APPROVAL_TIMEOUT_MS, `must be at least ${MIN_APPROVAL_TIMEOUT_MS} ms`)
  .max(MAX_APPROVAL_TIMEOUT_MS, `must be at most ${MAX_APPROVAL_TIMEOUT_MS} ms (30 days)`)
  .optional();
export const defaultDecisionSchema = z.enum(['approve', 'reject']).default('reject');

export const approvalConfigSchema = z.object({
  /** Shown to whoever decides (references resolved). */
  message: z.string().max(2_000, 'must be at most 2000 characters').optional(),
  /** With no decision after this long, `defaultDecision` applies; without it the run waits until someone decides. */
  timeoutMs: approvalTimeoutSchema,
  defaultDecision: defaultDecisionSchema,
});
export type ApprovalConfig = z.infer<typeof approvalConfigSchema>;

export const approvalBlock = defineBlock<ApprovalConfig>(approvalForm, {
  configSchema: approvalConfigSchema,
  async run(ctx) {
    const awaitApproval = ctx.services.awaitApproval;
    if (!awaitApproval) {
      return { output: { error: 'An approval cannot wait here (inside a sub-workflow): place it in the calling workflow' } };
    }
    const decision = await awaitApproval({
      blockId: ctx.blockId,
      ...(ctx.config.message === undefined ? {} : { message: ctx.config.message }),
      ...(ctx.config.timeoutMs === undefined ? {} : { timeoutMs: ctx.config.timeoutMs }),
      defaultDecision: ctx.config.defaultDecision,
    });
    return {
      output: { approved: decision.approved, data: decision.data, decidedBy: decision.decidedBy, decidedAt: decision.decidedAt },
    };
  },
});
