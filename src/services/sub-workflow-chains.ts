// Deploy-time check of sub-workflow chains (the workflow block, README "Sub-workflows"; agents' workflow tools): a version whose workflow
// blocks would run a chain that comes back to itself, nests too deep or leaves its workspace is refused before it can
// run. The same limits hold at run time (runs/sub-workflows.ts), for what was not deployed yet when this ran.
import { and, eq } from 'drizzle-orm';
import type { Db } from '../db/client.js';
import { deployments, workflows } from '../db/schema.js';
import { badRequest, type ErrorDetail } from '../errors.js';
import type { WorkflowState } from '../workflow/index.js';

export const MAX_SUB_WORKFLOW_DEPTH = 10;

/** The workflows a state runs as children: its workflow blocks' and its agents' workflow tools, with where each is named. */
function childrenOf(state: WorkflowState): Array<{ field: string; workflowId: string }> {
  const children: Array<{ field: string; workflowId: string }> = [];
  for (const block of Object.values(state.blocks)) {
    if (block.enabled === false) continue;
    if (block.type === 'workflow' && typeof block.config.workflowId === 'string') {
      children.push({ field: `state.blocks.${block.id}.config.workflowId`, workflowId: block.config.workflowId });
    }
    if (block.type === 'agent' && Array.isArray(block.config.tools)) {
      block.config.tools.forEach((tool: unknown, index) => {
        const entry = tool as { type?: unknown; workflowId?: unknown } | null;
        if (entry?.type === 'workflow' && typeof entry.workflowId === 'string') {
          children.push({ field: `state.blocks.${block.id}.config.tools.${index}.workflowId`, workflowId: entry.workflowId });
        }
      });
    }
  }
  return children;
}

/**
 * Refuses, at deploy and activate, a version whose sub-workflows (followed through the active deployments of the
 * workflows they name) come back to this workflow, nest deeper than the limit, or name a workflow of another
 * workspace. Workflows not deployed yet are followed no further: the run-time checks cover what they become.
 */
export async function checkSubWorkflows(db: Db, workflow: { id: string; workspaceId: string }, state: WorkflowState): Promise<void> {
  const problems: ErrorDetail[] = [];
  const visit = async (current: WorkflowState, chain: string[], via: string): Promise<void> => {
    for (const child of childrenOf(current)) {
      const path = `${via}${via ? ' → ' : ''}${child.field}`;
      if (child.workflowId === workflow.id || chain.includes(child.workflowId)) {
        problems.push({ path, message: 'runs a workflow that is already in its chain of sub-workflows (a cycle)' });
        continue;
      }
      if (chain.length + 1 >= MAX_SUB_WORKFLOW_DEPTH) {
        problems.push({ path, message: `sub-workflows may nest at most ${MAX_SUB_WORKFLOW_DEPTH} levels deep` });
        continue;
      }
      const [row] = await db
        .select({ workspaceId: workflows.workspaceId, state: deployments.state })
        .from(workflows)
        .leftJoin(deployments, and(eq(deployments.workflowId, workflows.id), eq(deployments.version, workflows.activeVersion)))
        .where(eq(workflows.id, child.workflowId))
        .limit(1);
      if (!row || row.workspaceId !== workflow.workspaceId) {
        problems.push({ path, message: 'is not a workflow of this workspace' });
        continue;
      }
      if (row.state) await visit(row.state, [...chain, child.workflowId], chain.length === 0 ? path : via);
    }
  };
  await visit(state, [workflow.id], '');
  if (problems.length > 0) throw badRequest('The workflow blocks of this version cannot run', problems.slice(0, 50));
}
