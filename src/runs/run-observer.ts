// What one run tells the metrics and the traces, built from the engine's events (the engine itself knows neither):
// a count and duration per block and per run, and — with tracing on — one span for the run, a child of the request
// that started it, with a child span per block (blocks inside loops and parallels under their container's span).
import type { EngineEvent, ExecutionResult, IterationStep } from '../engine/index.js';
import type { ExecutionOutcomeLabel } from '../observability/metrics.js';
import type { SpanHandle, TraceParent } from '../observability/tracing.js';
import { blockRegistry } from '../blocks/registry.js';
import type { AppContext } from '../services/app-context.js';

/** Where a run came from: the HTTP request's id and its span (both absent for schedules). */
export interface RunOrigin {
  requestId?: string;
  trace?: TraceParent;
}

export interface RunDescription {
  workflowId: string;
  executionId: string;
  trigger: string;
  deploymentVersion: number | null;
  origin?: RunOrigin;
}

export interface RunObserver {
  onEvent(event: EngineEvent): void;
  finish(result: ExecutionResult): void;
}

export function outcomeOf(result: ExecutionResult): ExecutionOutcomeLabel {
  if (result.success) return 'success';
  return result.stopReason ?? 'error';
}

/** `block` + the iterations around it: one key per run of a block (a block in a loop runs once per iteration). */
const instanceKey = (blockId: string, path: IterationStep[]) =>
  path.length === 0 ? blockId : `${path.map((step) => `${step.containerId}#${step.index}`).join('/')}/${blockId}`;

export function observeRun(app: AppContext, run: RunDescription): RunObserver {
  const { metrics, tracing } = app;
  const runSpan = tracing.enabled
    ? tracing.startSpan(`execution ${run.trigger}`, {
        parent: run.origin?.trace,
        attributes: {
          'sluice.workflow.id': run.workflowId,
          'sluice.execution.id': run.executionId,
          'sluice.trigger': run.trigger,
          ...(run.deploymentVersion === null ? {} : { 'sluice.deployment.version': run.deploymentVersion }),
          ...(run.origin?.requestId ? { 'sluice.request.id': run.origin.requestId } : {}),
        },
      })
    : undefined;
  const open = new Map<string, SpanHandle>();

  function blockStarted(event: Extract<EngineEvent, { type: 'block_started' }>, span: SpanHandle): void {
    const last = event.iterationPath.at(-1);
    const parent = last ? open.get(instanceKey(last.containerId, event.iterationPath.slice(0, -1))) : undefined;
    open.set(
      instanceKey(event.blockId, event.iterationPath),
      tracing.startSpan(`block ${event.blockType}`, {
        parent: (parent ?? span).context,
        attributes: {
          'sluice.block.id': event.blockId,
          'sluice.block.type': event.blockType,
          'sluice.block.name': event.blockName,
          ...(last ? { 'sluice.block.iteration': last.index } : {}),
        },
      }),
    );
  }

  function blockFinished(event: Extract<EngineEvent, { type: 'block_finished' }>): void {
    const key = instanceKey(event.blockId, event.iterationPath);
    const span = open.get(key);
    if (!span) return;
    open.delete(key);
    const attempts = event.output.attempts;
    span.setAttributes({
      'sluice.block.status': event.error === undefined ? 'success' : 'error',
      'sluice.block.duration_ms': event.durationMs,
      ...(typeof attempts === 'number' ? { 'sluice.block.attempts': attempts } : {}),
    });
    span.end(event.error === undefined ? undefined : { error: event.error });
  }

  return {
    onEvent(event) {
      if (event.type === 'block_finished') {
        // Block types come from the registry (states are validated), so the label stays bounded all the same.
        const type = Object.hasOwn(blockRegistry, event.blockType) ? event.blockType : 'unknown';
        metrics.block(type, event.error === undefined ? 'success' : 'error');
        if (runSpan) blockFinished(event);
      } else if (event.type === 'block_started' && runSpan) {
        blockStarted(event, runSpan);
      }
    },
    finish(result) {
      const outcome = outcomeOf(result);
      metrics.execution(run.trigger, outcome, result.durationMs / 1000);
      if (!runSpan) return;
      // A block cut off without its finished event (an engine fault) still closes its span.
      for (const span of open.values()) span.end({ error: 'The run ended before the block finished' });
      open.clear();
      runSpan.setAttributes({ 'sluice.outcome': outcome });
      runSpan.end(result.success ? undefined : { error: result.error ?? outcome });
    },
  };
}
