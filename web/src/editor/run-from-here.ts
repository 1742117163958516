// "Run from here" on a block: the workflow's last manual run again from that block, on the draft as it is now
// (POST /api/v1/executions/{id}/rerun with deployment "draft", docs/api.md "Re-runs"). The blocks before it are
// replayed from that run's log — no call is made again — so an edited block can be tried on the data it last saw.
import { answer, api, toApiError } from '../api';

/** Answers the new execution's id; throws with a message a user can act on. */
export async function runFromHere(workspaceId: string, workflowId: string, blockId: string): Promise<string> {
  const query = { workspaceId, workflowIds: workflowId, triggers: 'manual', limit: '1' };
  const [last] = (await answer(api.GET('/api/v1/logs', { params: { query } }))).data;
  if (!last) throw new Error('There is no manual run to start from yet: press Run once, then run from a block.');
  const { response, error } = await api.POST('/api/v1/executions/{executionId}/rerun', {
    params: { path: { executionId: last.executionId } },
    body: { fromBlock: blockId, deployment: 'draft' },
  });
  // A run that fails still made an execution (500 with its id): the canvas shows where it failed.
  const executionId = response.headers.get('X-Execution-Id');
  if (!executionId) throw toApiError(response, error);
  return executionId;
}
