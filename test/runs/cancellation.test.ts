// A cancel request reaches every process; the one running the execution stops it. A request heard just before the
// run starts in this process (a queued job claimed, a paused run resumed a moment after the request was sent) must
// still stop it — before, such a cancel answered `cancelling` and the run went on to finish.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createChangeHub } from '../../src/db/change-feed.js';
import { createCancellations, type CancelRequest } from '../../src/runs/cancel-broadcast.js';
import { eventually } from '../support/workflows.js';

const request: CancelRequest = { executionId: 'exec_1', userId: 'usr_1', keyWorkspaceId: null };

function setUp(allowed = true) {
  const feed = createChangeHub();
  const cancellations = createCancellations(feed, async () => allowed);
  let cancelled = 0;
  const start = () => cancellations.track({ executionId: request.executionId, workspaceId: 'ws_1' }, () => cancelled++);
  return { send: () => feed.emit(cancellations.topicFor(request)), start, cancelled: () => cancelled };
}

afterEach(() => vi.useRealTimers());

describe('cancel requests', () => {
  it('stop a run already in flight', async () => {
    const run = setUp();
    run.start();
    run.send();
    await eventually(() => run.cancelled() === 1, 2_000, 'the run to be cancelled');
  });

  it('stop a run that starts here just after the request was heard', async () => {
    const run = setUp();
    run.send();
    run.start();
    await eventually(() => run.cancelled() === 1, 2_000, 'the run to be cancelled');
  });

  it('do not stop a run the requester may not reach', async () => {
    const run = setUp(false);
    run.send();
    run.start();
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(run.cancelled()).toBe(0);
  });

  it('are forgotten once old: a run starting long after is not stopped', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const run = setUp();
    run.send();
    vi.setSystemTime(Date.now() + 11_000);
    run.start();
    vi.useRealTimers();
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(run.cancelled()).toBe(0);
  });
});
