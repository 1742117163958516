// Function tools: JavaScript in the sandbox pool (like the function block), with the model's arguments as `args`.
// References in the code reach it as data, never spliced into the source.
import type { AgentTool } from '../../llm/tools.js';
import { runUserCode } from '../../sandbox/index.js';
import { referencesAsInputs } from '../references-as-data.js';
import type { BlockRunContext, BlockServices } from '../types.js';
import { toolApproval, type FunctionToolConfig } from './config.js';

export function functionTool(
  config: FunctionToolConfig,
  services: BlockServices,
  ctx: Pick<BlockRunContext<unknown>, 'lookupReference' | 'resolve'>,
): AgentTool {
  return {
    name: config.name,
    description: config.description,
    parameters: config.parameters,
    ...toolApproval(config),
    async call(args, { signal }) {
      const { code, inputs } = referencesAsInputs(config.code, ctx);
      const outcome = await runUserCode({
        code,
        inputs: { ...inputs, args },
        limits: services.sandbox,
        signal,
        tenant: services.tenant,
      });
      if (!outcome.ok) throw new Error(outcome.error ?? 'The function failed');
      return outcome.result ?? null;
    },
  };
}
