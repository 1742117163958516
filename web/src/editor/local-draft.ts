// The editor's copy of a draft the server does not hold yet (not saved, refused, or in conflict), kept in this
// browser's localStorage per workflow, so a crash, a closed tab or leaving anyway loses nothing: the editor offers it
// back when the workflow is opened again. Cleared once the server holds what the editor shows.
import type { WorkflowState } from '../types.js';

export interface LocalDraft {
  state: WorkflowState;
  /** When it was kept (ms since the epoch). */
  keptAt: number;
}

const key = (workflowId: string) => `sluice:draft:${workflowId}`;

export function keepLocalDraft(workflowId: string, state: WorkflowState): void {
  try {
    localStorage.setItem(key(workflowId), JSON.stringify({ state, keptAt: Date.now() } satisfies LocalDraft));
  } catch {
    // Storage full or disabled (private windows): the draft is only not kept; saving to the server goes on.
  }
}

export function clearLocalDraft(workflowId: string): void {
  try {
    localStorage.removeItem(key(workflowId));
  } catch {
    // As above.
  }
}

export function readLocalDraft(workflowId: string): LocalDraft | null {
  try {
    return parseLocalDraft(localStorage.getItem(key(workflowId)));
  } catch {
    return null;
  }
}

/** A kept draft, or null when there is none or it is not one (written by another version, edited by hand). */
export function parseLocalDraft(text: string | null): LocalDraft | null {
  if (!text) return null;
  try {
    const value = JSON.parse(text) as Partial<LocalDraft>;
    const state = value?.state as Partial<WorkflowState> | undefined;
    if (!state || typeof state !== 'object' || typeof state.blocks !== 'object' || !Array.isArray(state.edges)) return null;
    return { state: value.state as WorkflowState, keptAt: Number(value.keptAt) || 0 };
  } catch {
    return null;
  }
}

/** The draft to offer back when the editor opens: only one that differs from what the server holds. */
export function draftToOffer(draft: LocalDraft | null, serverJson: string, normalize: (state: WorkflowState) => WorkflowState): LocalDraft | null {
  if (!draft) return null;
  try {
    return JSON.stringify(normalize(draft.state)) === serverJson ? null : draft;
  } catch {
    return null;
  }
}
