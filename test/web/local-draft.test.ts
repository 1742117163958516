// The draft the editor keeps in the browser (web/src/editor/local-draft.ts): read back only when it is one, and offered
// back only when it differs from what the server holds.
import { describe, expect, it } from 'vitest';
import { draftToOffer, parseLocalDraft } from '../../web/src/editor/local-draft.js';
import type { WorkflowState } from '../../src/workflow/index.js';

const state = (name: string): WorkflowState => ({
  blocks: { a: { id: 'a', type: 'api_trigger', name, position: { x: 0, y: 0 }, enabled: true, config: {} } },
  edges: [],
  loops: {},
  parallels: {},
});
const same = (s: WorkflowState) => s;

describe('local draft', () => {
  it('reads back what was kept, and nothing from text that is not a draft', () => {
    expect(parseLocalDraft(JSON.stringify({ state: state('A'), keptAt: 5 }))).toEqual({ state: state('A'), keptAt: 5 });
    for (const text of [null, '', 'not json', '{}', '{"state":{"blocks":{}}}', '{"state":"x"}', 'null']) {
      expect(parseLocalDraft(text), String(text)).toBeNull();
    }
  });

  it('is offered back only when it differs from the server copy', () => {
    const server = JSON.stringify(state('A'));
    expect(draftToOffer({ state: state('A'), keptAt: 1 }, server, same)).toBeNull();
    expect(draftToOffer({ state: state('B'), keptAt: 1 }, server, same)).toEqual({ state: state('B'), keptAt: 1 });
    expect(draftToOffer(null, server, same)).toBeNull();
  });
});
