// The decisions autosave takes, kept apart from React and the network so they can be tested: whether a change is to
// be saved, whether a save has anything to send, whether someone else changed the workflow meanwhile (a conflict),
// and what the save indicator shows afterwards. useAutosave.ts runs them with its timers, refs and requests.
import { ApiError, errorMessage } from '../api.js';
import type { Workflow, WorkflowState } from '../types.js';
import { NO_PROBLEMS, placeProblems, type PlacedProblems } from './problems.js';

export type SaveStatus = 'saved' | 'dirty' | 'saving' | 'invalid' | 'conflict' | 'error';

export interface AutosaveState {
  status: SaveStatus;
  problems: PlacedProblems;
  error?: string;
  conflict?: Workflow;
}

/** What autosave remembers between saves. States are compared as JSON text. */
export interface SaveMemory {
  /** What the server holds, as far as this editor knows (normalized). */
  serverJson: string;
  /** The last text the server refused (400), so it is not sent again until it changes. */
  refusedJson: string | null;
  status: SaveStatus;
}

/**
 * After the editor's state changed: `schedule` a save (after the debounce), show `clean` ("saved": the state is back
 * to what the server holds, after an undo say), or do nothing (`idle`): stopped by a conflict, dragging (`paused`),
 * already clean, or the very state the server just refused.
 */
export function onStateChange(json: string, memory: SaveMemory, paused: boolean): 'idle' | 'clean' | 'schedule' {
  if (memory.status === 'conflict') return 'idle';
  if (json === memory.serverJson) return memory.status !== 'saved' && memory.status !== 'saving' ? 'clean' : 'idle';
  if (paused || json === memory.refusedJson) return 'idle';
  return 'schedule';
}

/**
 * When a save starts: `up-to-date` (the server holds exactly this; a success), `blocked` (refused before and
 * unchanged, or waiting for the user to settle a conflict; a failure) or `send`.
 */
export function beforeSave(body: string, memory: SaveMemory): 'up-to-date' | 'blocked' | 'send' {
  if (body === memory.serverJson) return 'up-to-date';
  if (body === memory.refusedJson || memory.status === 'conflict') return 'blocked';
  return 'send';
}

/**
 * The server's current copy against what this editor last saw: `ours` (nobody saved since), `moved-on` (someone
 * saved but the state is the one we know, e.g. a rename: adopt their updatedAt and save) or `conflict` (their state
 * differs: ask the user rather than overwrite it).
 */
export function checkRemote(
  remote: Pick<Workflow, 'updatedAt' | 'state'>,
  knownUpdatedAt: string,
  serverJson: string,
  normalize: (state: WorkflowState) => WorkflowState,
): 'ours' | 'moved-on' | 'conflict' {
  if (remote.updatedAt === knownUpdatedAt) return 'ours';
  return JSON.stringify(normalize(remote.state)) === serverJson ? 'moved-on' : 'conflict';
}

/** The indicator after a successful save of `sent`: edits made while it was on the way are still unsaved. */
export function statusAfterSave(sent: string, current: string): SaveStatus {
  return sent === current ? 'saved' : 'dirty';
}

/**
 * The indicator after a failed save of `sent`: a refused state (400 with details) shows its problems; anything else
 * an error.
 */
export function failedSave(error: unknown, sent: WorkflowState): AutosaveState {
  if (error instanceof ApiError && error.status === 400 && error.details.length > 0) {
    return { status: 'invalid', problems: placeProblems(error.details, sent) };
  }
  return { status: 'error', problems: NO_PROBLEMS, error: errorMessage(error) };
}
