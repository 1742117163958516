// Runs one ordinary block: resolve its config, validate it, call its handler under the block's policy (attempts.ts),
// and turn whatever happens into an output. A handler that throws, or an invalid config, becomes that block's error;
// it never crashes the run. The config is resolved and checked once: an invalid one fails the same way every time,
// so it is not retried.
import type { BlockRunContext } from '../blocks/types.js';
import { MAX_OUTPUT_DEPTH, nestsDeeperThan, type Block } from '../workflow/index.js';
import { abortMessage, errorMessage } from './abort.js';
import { compiledConfig } from './compiled-config.js';
import { runAttempts, type Attempt, type AttemptRecord, type AttemptResult, type AttemptsOutcome } from './attempts.js';
import { reportNodeStart } from './node-report.js';
import type { NodeRunner, RunContext } from './run-context.js';
import { createMaskingResolver, createResolver, newNotes, type ResolutionNotes } from './resolver.js';
import type { Scope } from './scope.js';
import { makeSpan, liftUsage, sumUsage } from './trace.js';
import type { BlockOutput, IterationStep, ResponseOutput, TraceSpan } from './types.js';

export const runBlock: NodeRunner = async (run, node, scope, signal, path) => {
  const { block } = node;
  const report = reportNodeStart(run, block, path);
  const notes = newNotes();
  let input: unknown = block.config;
  const recorded = run.replay?.(block.id, path);
  // A block that runs again on resume (a trigger, say) keeps the place in the trace its first run had.
  const rerun = run.registry[block.type]?.replay === 'rerun';
  const replayed = rerun ? undefined : recorded;
  if (replayed) {
    // Done before a pause: its outcome stands, nothing runs again (an API call, a model call, a wait).
    run.outputs.count(replayed.output);
    const error = outputError(replayed.output);
    if (error === undefined && block.type === 'response') run.response = toResponse(replayed.output);
    const { output, sourceHandle, continueOnError } = replayed;
    const span = report.finish({ input, output, error, sourceHandle, continueOnError, recorded: replayed });
    return { output, error, sourceHandle, continueOnError, span };
  }
  let ran: AttemptsOutcome;
  try {
    const prepared = prepare(run, block, scope, notes, path);
    input = prepared.input;
    ran = await runAttempts(block.policy, block.name, signal, prepared.attempt, outputError);
  } catch (error) {
    ran = { result: { output: { error: signal.aborted ? abortMessage(signal) : errorMessage(error) } }, attempts: [] };
  }

  const { output, sourceHandle } = ran.result;
  const error = outputError(output);
  if (error === undefined && block.type === 'response') run.response = toResponse(output);
  // With a retry policy the span lists every attempt and reports the model use of all of them (each was paid for).
  const attemptsShown = block.policy?.retry !== undefined && ran.attempts.length > 0;
  const continueOnError = ran.result.continueOnError === true || block.policy?.onError === 'continue';
  const span = report.finish({
    input,
    output,
    error,
    unresolvedReferences: notes.unresolved,
    sourceHandle,
    continueOnError,
    recorded: rerun ? recorded : undefined,
    children: attemptsShown ? attemptSpans(block, ran.attempts) : ran.result.childSpans,
    usage: attemptsShown ? sumUsage(ran.attempts.map((a) => liftUsage(a.result.output))) : undefined,
  });
  return { output, error, sourceHandle, continueOnError, span };
};

/** Resolves and validates the config, and returns the call of the handler that each attempt makes. */
function prepare(
  run: RunContext,
  block: Block,
  scope: Scope,
  notes: ResolutionNotes,
  path: IterationStep[],
): { input: unknown; attempt: Attempt } {
  const definition = run.registry[block.type];
  if (!definition) throw new Error(`Unknown block type "${block.type}"`);
  const keep = definition.keepsReference;
  const resolver = createResolver(run, scope, notes);
  if (keep) resolver.keep = keep;
  const compiled = compiledConfig(block, definition);
  let input: unknown;
  let parsed: ReturnType<typeof definition.configSchema.safeParse>;
  if (compiled?.constant) {
    run.outputs.admitSize(block.name, 'configuration', compiled.constant.size);
    input = block.config;
    parsed = compiled.constant.parsed;
  } else {
    const scanned = compiled?.scanned;
    const resolved =
      definition.resolveReferences === false ? block.config : run.outputs.resolve(block.name, block.config, resolver, scanned);
    run.outputs.admit(block.name, 'configuration', resolved);
    if (notes.usedEnv) {
      const masking = createMaskingResolver(run, scope);
      if (keep) masking.keep = keep;
      input = run.outputs.resolve(block.name, block.config, masking, scanned);
    } else {
      input = resolved;
    }
    parsed = compiled ? compiled.check(resolved) : definition.configSchema.safeParse(resolved);
  }
  if (!parsed.success) {
    const issues = parsed.error.issues.map((issue) => {
      const where = issue.path.length > 0 ? `${issue.path.join('.')}: ` : '';
      return `${where}${issue.message}`;
    });
    throw new Error(`Invalid configuration: ${issues.join('; ')}`);
  }
  const attempt: Attempt = async (signal) => {
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
      emitProgress(progress) {
        if (run.finished || signal.aborted) return;
        run.emit({ type: 'block_progress', blockId: block.id, iterationPath: path, progress });
      },
      lookupReference: (ref) => resolver.block(ref),
      resolve: (value) => run.outputs.resolve(block.name, value, resolver),
      setVariable(name, value) {
        run.variables.set(name, value);
      },
      trigger: { type: run.trigger.type, input: run.trigger.input },
      services: run.services,
    };
    if (run.rerunOf !== undefined) ctx.idempotencyKey = rerunIdempotencyKey(run.rerunOf, block.id, path);
    const result = await definition.run(ctx);
    const output = isOutputRecord(result?.output) ? result.output : { result: result?.output ?? null };
    if (nestsDeeperThan(output, MAX_OUTPUT_DEPTH)) {
      throw new Error(`The block's output nests arrays/objects deeper than ${MAX_OUTPUT_DEPTH} levels; return something flatter`);
    }
    run.outputs.admit(block.name, 'output', output);
    const childSpans = result?.childSpans && result.childSpans.length > 0 ? (result.childSpans as TraceSpan[]) : undefined;
    if (childSpans) run.outputs.admit(block.name, 'sub-workflow trace', childSpans);
    const ran: AttemptResult = { output, sourceHandle: result?.sourceHandle, continueOnError: result?.continueOnError === true };
    if (childSpans) ran.childSpans = childSpans;
    return ran;
  };
  return { input, attempt };
}

/**
 * `<original execution id>:<block id>:<iteration>` (docs/api.md "Re-runs"): the iteration indexes outermost first,
 * joined by `.`, or `0` outside loops and parallels — the same key in every re-run of that execution.
 */
export function rerunIdempotencyKey(rerunOf: string, blockId: string, path: IterationStep[]): string {
  const iteration = path.length === 0 ? '0' : path.map((step) => step.index).join('.');
  return `${rerunOf}:${blockId}:${iteration}`;
}

/** One child span per attempt: its status, error and duration, and what it output. */
function attemptSpans(block: Block, attempts: AttemptRecord[]): TraceSpan[] {
  return attempts.map((attempt) =>
    makeSpan({
      blockId: block.id,
      name: `${block.name} attempt ${attempt.number}`,
      type: 'attempt',
      status: attempt.error === undefined ? 'success' : 'error',
      startedAtMs: attempt.startedAtMs,
      endedAtMs: attempt.endedAtMs,
      input: { attempt: attempt.number, ...(attempt.failure ? { failure: attempt.failure } : {}) },
      output: attempt.result.output,
      error: attempt.error,
      // The block's own span carries the sum; counting here too would bill each attempt twice.
      usage: {},
    }),
  );
}

function isOutputRecord(value: unknown): value is BlockOutput {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A block failed when its output carries a non-empty `error` (docs/workflows.md 4); the text is what logs show. */
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
