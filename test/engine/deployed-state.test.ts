// A deployed state is frozen and shared by every run of its deployment (runs/deployed-workflow.ts), so what its
// configs cost is worked out once (engine/compiled-config.ts): the references in its texts, and for a config with
// none, its size and its schema check (for one whose references sit only in data fields, the check of the rest). These runs check that a frozen state answers run after run exactly as the same
// state unfrozen (a draft) does: references still resolve per run, and the checks still fail the block every time.
import { describe, expect, it } from 'vitest';
import { deepFreeze } from '../../src/deep-freeze.js';
import type { EngineLimits } from '../../src/engine/index.js';
import { apiTrigger, block, chain, run, state } from './helpers.js';

/** The same state twice: as a draft (a fresh object) and deployed (frozen). */
function draftAndDeployed(make: () => ReturnType<typeof state>) {
  return { draft: make(), deployed: deepFreeze(make()) };
}

/** Two runs of the deployed state, each failing with the draft's message. */
async function expectFailingEveryRun(deployed: ReturnType<typeof state>, limits: Partial<EngineLimits>, expected: string | undefined) {
  for (let i = 0; i < 2; i++) {
    const { result } = await run(deployed, {}, { limits });
    expect(result.success).toBe(false);
    expect(result.error).toBe(expected);
  }
}

describe('a deployed (frozen) state', () => {
  it('resolves references per run and keeps a reference-free config as written, run after run', async () => {
    const { draft, deployed } = draftAndDeployed(() =>
      state({
        blocks: [
          apiTrigger([{ name: 'name' }]),
          block('greet', 'echo', { text: 'hello <start.name>', same: { list: [1, 'two'] } }),
          block('fixed', 'echo', { label: 'constant', nested: { n: 3 } }),
        ],
        edges: chain('start', 'greet', 'fixed'),
      }),
    );
    for (const name of ['ada', 'grace', 'ada']) {
      const fromDraft = await run(draft, { name });
      const fromDeployed = await run(deployed, { name });
      expect(fromDeployed.result.success).toBe(true);
      expect(fromDeployed.result.blockOutputs.greet).toEqual({ text: `hello ${name}`, same: { list: [1, 'two'] } });
      expect(fromDeployed.result.blockOutputs.fixed).toEqual({ label: 'constant', nested: { n: 3 } });
      expect(fromDeployed.result.blockOutputs).toEqual(fromDraft.result.blockOutputs);
      const inputs = (spans: typeof fromDraft.result.traceSpans) => spans.map((span) => [span.blockId, span.input]);
      expect(inputs(fromDeployed.result.traceSpans)).toEqual(inputs(fromDraft.result.traceSpans));
    }
  });

  it('fails a block whose reference-free config is over the block limit on every run, with the same message as a draft', async () => {
    const { draft, deployed } = draftAndDeployed(() =>
      state({ blocks: [apiTrigger(), block('big', 'echo', { text: 'x'.repeat(500) })], edges: chain('start', 'big') }),
    );
    const limits = { maxBlockOutputBytes: 200 };
    const expected = (await run(draft, {}, { limits })).result.error;
    expect(expected).toContain('Block "big"');
    await expectFailingEveryRun(deployed, limits, expected);
  });

  it("counts a reference-free config against the run's output limit on every run", async () => {
    const { draft, deployed } = draftAndDeployed(() =>
      state({
        blocks: [apiTrigger(), block('a', 'echo', { text: 'a'.repeat(150) }), block('b', 'echo', { text: 'b'.repeat(150) })],
        edges: chain('start', 'a', 'b'),
      }),
    );
    const limits = { maxBlockOutputBytes: 1000, maxRunOutputBytes: 500 };
    const expected = (await run(draft, {}, { limits })).result.error;
    expect(expected).toContain("the limit on one run's output");
    await expectFailingEveryRun(deployed, limits, expected);
  });

  it('answers with the data fields each run resolved, checking the rest of the config as a draft does', async () => {
    const { draft, deployed } = draftAndDeployed(() =>
      state({
        blocks: [apiTrigger([{ name: 'name' }]), block('out', 'response', { status: 201, body: { greeting: 'hi <start.name>', raw: '<start.name>' } })],
        edges: chain('start', 'out'),
      }),
    );
    for (const name of ['ada', 'grace']) {
      const fromDraft = await run(draft, { name });
      const fromDeployed = await run(deployed, { name });
      expect(fromDeployed.result.response).toEqual({ status: 201, headers: {}, body: { greeting: `hi ${name}`, raw: name } });
      expect(fromDeployed.result.response).toEqual(fromDraft.result.response);
    }
  });

  it('still checks a reference outside the data fields on every run, failing as a draft does', async () => {
    const { draft, deployed } = draftAndDeployed(() =>
      state({
        blocks: [apiTrigger([{ name: 'code' }]), block('out', 'response', { status: '<start.code>', body: '<start.code>' })],
        edges: chain('start', 'out'),
      }),
    );
    const expected = (await run(draft, { code: 'ada' })).result.error;
    expect(expected).toContain('Invalid configuration: status:');
    for (let i = 0; i < 2; i++) {
      const { result } = await run(deployed, { code: 'ada' });
      expect(result.success).toBe(false);
      expect(result.error).toBe(expected);
    }
    expect((await run(deployed, { code: '202' })).result.response).toEqual({ status: 202, headers: {}, body: '202' });
  });
});
