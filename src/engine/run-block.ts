// Runs one ordinary block: resolve its config, validate it, call its handler, and turn whatever happens into an
// output. A handler that throws, or an invalid config, becomes that block's error; it never crashes the run.
import type { BlockRunContext } from '../blocks/types.js';
import { resolveValue } from '../workflow/index.js';
import { abortMessage, errorMessage, raceAbort } from './abort.js';
import type { GraphNode } from './graph.js';
import type { NodeOutcome, RunContext } from './run-context.js';
import { createMaskingResolver, createResolver, newNotes } from './resolver.js';
import type { Scope } from './scope.js';
import { makeSpan } from './trace.js';
import type { BlockOutput, IterationStep, ResponseOutput } from './types.js';

export async function runBlock(
  run: RunContext,
  node: GraphNode,
  scope: Scope,
  signal: AbortSignal,
  path: IterationStep[],
): Promise<NodeOutcome> {
  const { block } = node;
  const startedAtMs = Date.now();
  const startedAt = new Date(startedAtMs).toISOString();
  run.emit({
    type: 'block_started',
    blockId: block.id,
    blockName: block.name,
    blockType: block.type,
    iterationPath: path,
    startedAt,
  });

  const notes = newNotes();
  const resolver = createResolver(run, scope, notes);
  let input: unknown = block.config;
  let output: BlockOutput;
  let sourceHandle: string | undefined;
  let continueOnError = false;
  try {
    const definition = run.registry[block.type];
    if (!definition) throw new Error(`Unknown block type "${block.type}"`);
    const resolved = definition.resolveReferences === false ? block.config : resolveValue(block.config, resolver);
    input = notes.usedEnv ? resolveValue(block.config, createMaskingResolver(run, scope)) : resolved;
    const parsed = definition.configSchema.safeParse(resolved);
    if (!parsed.success) {
      const issues = parsed.error.issues.map((issue) => {
        const where = issue.path.length > 0 ? `${issue.path.join('.')}: ` : '';
        return `${where}${issue.message}`;
      });
      throw new Error(`Invalid configuration: ${issues.join('; ')}`);
    }
    const ctx: BlockRunContext<Record<string, unknown>> = {
      executionId: run.executionId,
      workflowId: run.workflowId,
      blockId: block.id,
      blockName: block.name,
      config: parsed.data,
      signal,
      emitChunk(text) {
        if (run.finished || signal.aborted) return;
        run.emit({ type: 'chunk', blockId: block.id, chunk: text, iterationPath: path });
      },
      lookupReference: (ref) => resolver.block(ref),
      resolve: (value) => resolveValue(value, resolver),
      setVariable(name, value) {
        run.variables.set(name, value);
      },
      trigger: { type: run.trigger.type, input: run.trigger.input },
      services: run.services,
    };
    const result = await raceAbort(definition.run(ctx), signal);
    output = isOutputRecord(result?.output) ? result.output : { result: result?.output ?? null };
    sourceHandle = result?.sourceHandle;
    continueOnError = result?.continueOnError === true;
  } catch (error) {
    output = { error: signal.aborted ? abortMessage(signal) : errorMessage(error) };
  }

  const error = outputError(output);
  if (error === undefined && block.type === 'response') run.response = toResponse(output);
  const endedAtMs = Date.now();
  const span = makeSpan({
    blockId: block.id,
    name: block.name,
    type: block.type,
    status: error === undefined ? 'success' : 'error',
    startedAtMs,
    endedAtMs,
    input,
    output,
    error,
    unresolvedReferences: notes.unresolved,
  });
  run.emit({
    type: 'block_finished',
    blockId: block.id,
    blockName: block.name,
    blockType: block.type,
    iterationPath: path,
    output,
    ...(error === undefined ? {} : { error }),
    startedAt,
    endedAt: span.endTime,
    durationMs: span.duration,
  });
  return { output, error, sourceHandle, continueOnError, span };
}

function isOutputRecord(value: unknown): value is BlockOutput {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A block failed when its output carries a non-empty `error` (SPEC §3); the text is what logs show. */
export function outputError(output: BlockOutput): string | undefined {
  const error = output.error;
  if (error === undefined || error === null || error === false || error === '') return undefined;
  if (typeof error === 'object' && 'message' in error && typeof error.message === 'string') return error.message;
  return errorMessage(error);
}

function toResponse(output: BlockOutput): ResponseOutput {
  const headers: Record<string, string> = {};
  if (isOutputRecord(output.headers)) {
    for (const [key, value] of Object.entries(output.headers)) headers[key] = String(value);
  }
  return { status: typeof output.status === 'number' ? output.status : 200, headers, body: output.body ?? null };
}
