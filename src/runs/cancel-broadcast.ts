// Cancelling a run wherever it runs (README "Cancelling a run"). A cancel request is broadcast on the database's
// change feed (the same NOTIFY channel as cache changes, topic `cancel:<json>`), so it reaches every process — and on
// PostgreSQL the process that sends it hears it too. Each process keeps the runs it has in flight; the one running the
// execution checks that the requester may reach its workspace and aborts it. The run then ends like any other: logged
// (status `cancelled`, level `error`), with its completion webhooks, its caller told.
import type { ChangeFeed } from '../db/change-feed.js';

const CANCEL_TOPIC = 'cancel:';
/**
 * A request for a run this process does not have is kept this long: the run may be about to start here (a queued job
 * just claimed, a paused run just resumed), and a request heard a moment before it started must still stop it.
 */
const EARLY_REQUEST_MS = 10_000;
/** Bounds the memory of early requests; the oldest is forgotten first. */
const MAX_EARLY_REQUESTS = 1_000;

/** Who asks: enough to check, in the process that runs it, that they may reach the run's workspace. */
export interface CancelRequest {
  executionId: string;
  userId: string;
  keyWorkspaceId: string | null;
}

export interface Cancellations {
  /** Makes a run in flight cancellable; returns the function that forgets it once it ends. */
  track(run: { executionId: string; workspaceId: string }, cancel: () => void): () => void;
  /** The topic that, sent on the change feed, asks every process to cancel the run. */
  topicFor(request: CancelRequest): string;
}

export function createCancellations(
  feed: ChangeFeed,
  mayCancel: (request: CancelRequest, workspaceId: string) => Promise<boolean>,
): Cancellations {
  const inFlight = new Map<string, { workspaceId: string; cancel: () => void }>();
  const early = new Map<string, { request: CancelRequest; heardAt: number }>();
  const cancelIfAllowed = (request: CancelRequest, workspaceId: string) =>
    void mayCancel(request, workspaceId).then(
      (allowed) => {
        if (allowed) inFlight.get(request.executionId)?.cancel();
      },
      () => undefined,
    );
  feed.subscribe((topic) => {
    if (!topic.startsWith(CANCEL_TOPIC)) return;
    let request: CancelRequest;
    try {
      request = JSON.parse(topic.slice(CANCEL_TOPIC.length)) as CancelRequest;
    } catch {
      return;
    }
    const run = inFlight.get(request.executionId);
    if (run) return cancelIfAllowed(request, run.workspaceId);
    early.delete(request.executionId);
    early.set(request.executionId, { request, heardAt: Date.now() });
    if (early.size > MAX_EARLY_REQUESTS) early.delete(early.keys().next().value!);
  });
  return {
    track(run, cancel) {
      inFlight.set(run.executionId, { workspaceId: run.workspaceId, cancel });
      const asked = early.get(run.executionId);
      if (asked) {
        early.delete(run.executionId);
        if (Date.now() - asked.heardAt <= EARLY_REQUEST_MS) cancelIfAllowed(asked.request, run.workspaceId);
      }
      return () => {
        if (inFlight.get(run.executionId)?.cancel === cancel) inFlight.delete(run.executionId);
      };
    },
    topicFor: (request) => `${CANCEL_TOPIC}${JSON.stringify(request)}`,
  };
}
