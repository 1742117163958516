// Autosave's decisions (web/src/editor/autosave-plan.ts, run by useAutosave): an edit is saved, going back to the
// saved state needs no save, a state the server refused is not sent again until it changes, someone else's save is
// never silently overwritten, and a failed save says why.
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../web/src/api.js';
import { beforeSave, checkRemote, failedSave, onStateChange, statusAfterSave, type SaveMemory } from '../../web/src/editor/autosave-plan.js';
import { toState, fromState } from '../../web/src/editor/model.js';
import type { WorkflowState } from '../../src/workflow/index.js';

const state = (name: string): WorkflowState => ({
  blocks: { a: { id: 'a', type: 'api_trigger', name, position: { x: 0, y: 0 }, enabled: true, config: { inputFormat: [] } } },
  edges: [],
  loops: {},
  parallels: {},
});
const normalize = (s: WorkflowState) => {
  const flow = fromState(s);
  return toState(flow.nodes, flow.edges);
};
const SAVED = JSON.stringify(normalize(state('Start')));
const edited = normalize(state('Begin'));
const EDITED = JSON.stringify(edited);
const memory = (over: Partial<SaveMemory> = {}): SaveMemory => ({ serverJson: SAVED, refusedJson: null, status: 'saved', ...over });

describe('autosave: after an edit', () => {
  it('schedules a save of a changed workflow', () => {
    expect(onStateChange(EDITED, memory(), false)).toBe('schedule');
    expect(onStateChange(EDITED, memory({ status: 'dirty' }), false)).toBe('schedule');
    expect(onStateChange(EDITED, memory({ status: 'error' }), false)).toBe('schedule');
  });

  it('does nothing while nothing changed, and shows "saved" again when an undo goes back to the saved state', () => {
    expect(onStateChange(SAVED, memory(), false)).toBe('idle');
    expect(onStateChange(SAVED, memory({ status: 'dirty' }), false)).toBe('clean');
    expect(onStateChange(SAVED, memory({ status: 'invalid', refusedJson: EDITED }), false)).toBe('clean');
    // A save on its way is left to finish.
    expect(onStateChange(SAVED, memory({ status: 'saving' }), false)).toBe('idle');
  });

  it('waits while a block is being dragged', () => {
    expect(onStateChange(EDITED, memory(), true)).toBe('idle');
  });

  it('does not send again a state the server refused, but does once it is edited', () => {
    const refused = memory({ status: 'invalid', refusedJson: EDITED });
    expect(onStateChange(EDITED, refused, false)).toBe('idle');
    const fixed = JSON.stringify(normalize(state('Fixed')));
    expect(onStateChange(fixed, refused, false)).toBe('schedule');
  });

  it('stops after an edit conflict until the user chooses', () => {
    expect(onStateChange(EDITED, memory({ status: 'conflict' }), false)).toBe('idle');
    expect(onStateChange(SAVED, memory({ status: 'conflict' }), false)).toBe('idle');
  });
});

describe('autosave: a save', () => {
  it('sends a changed state; a state the server holds already counts as saved without a request', () => {
    expect(beforeSave(EDITED, memory({ status: 'dirty' }))).toBe('send');
    expect(beforeSave(SAVED, memory({ status: 'dirty' }))).toBe('up-to-date');
  });

  it('is blocked for a refused state and during a conflict (Run and Deploy then do not go ahead)', () => {
    expect(beforeSave(EDITED, memory({ status: 'invalid', refusedJson: EDITED }))).toBe('blocked');
    expect(beforeSave(EDITED, memory({ status: 'conflict' }))).toBe('blocked');
  });

  it('overwrites nobody: a different state saved by someone else is a conflict, a rename elsewhere is not', () => {
    const known = '2030-01-01T00:00:00.000Z';
    const later = '2030-01-01T00:05:00.000Z';
    expect(checkRemote({ updatedAt: known, state: state('Start') }, known, SAVED, normalize)).toBe('ours');
    expect(checkRemote({ updatedAt: later, state: state('Start') }, known, SAVED, normalize)).toBe('moved-on');
    expect(checkRemote({ updatedAt: later, state: state('Theirs') }, known, SAVED, normalize)).toBe('conflict');
  });

  it('a rename elsewhere is not a conflict even when the server keeps the state in another form', () => {
    const known = '2030-01-01T00:00:00.000Z';
    // As stored by the server or an older editor: no sourceHandle, no empty loops.
    const stored = { ...state('Start'), loops: {}, parallels: {} } as WorkflowState;
    delete (stored.blocks.a as { enabled?: boolean }).enabled;
    expect(checkRemote({ updatedAt: 'later', state: stored }, known, SAVED, normalize)).toBe('moved-on');
  });

  it('shows "saved" after a save, or "unsaved" when the user edited while it was on the way', () => {
    expect(statusAfterSave(EDITED, EDITED)).toBe('saved');
    expect(statusAfterSave(EDITED, JSON.stringify(normalize(state('Again'))))).toBe('dirty');
  });

  it("shows a refused state's problems on its blocks, and other failures as an error", () => {
    const refused = new ApiError(400, 'VALIDATION', 'The workflow state is invalid', [
      { path: 'state.blocks.a.name', message: 'must contain a non-space character' },
    ]);
    expect(failedSave(refused, edited)).toEqual({
      status: 'invalid',
      problems: { byNode: { a: ['name: must contain a non-space character'] }, byField: {}, byEdge: {}, general: [] },
    });
    expect(failedSave(new ApiError(400, 'BAD_REQUEST', 'Malformed JSON'), edited)).toMatchObject({ status: 'error', error: 'Malformed JSON' });
    expect(failedSave(new ApiError(503, 'UNAVAILABLE', 'Service unavailable'), edited)).toMatchObject({
      status: 'error',
      error: 'Service unavailable',
    });
    expect(failedSave(new TypeError('Failed to fetch'), edited)).toMatchObject({ status: 'error', error: 'Failed to fetch' });
  });
});
