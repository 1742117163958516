// Autosave of the draft: a change is saved ~0.8 s after the last edit. Before each save the workflow's `updatedAt` is
// compared with the one this editor last saw; if someone else saved meanwhile the editor stops and asks (conflict)
// instead of overwriting their work. A state the server refuses (400) stays local and its problems are shown.
// The decisions themselves are in autosave-plan.ts; this hook owns the timers, refs and requests.
import { useCallback, useEffect, useRef, useState, type MutableRefObject } from 'react';
import { answer, api } from '../api';
import { readWorkflow } from '../queries';
import { asWorkflow, type Workflow, type WorkflowState } from '../types';
import {
  beforeSave,
  checkRemote,
  failedSave,
  onStateChange,
  statusAfterSave,
  type AutosaveState,
  type SaveMemory,
  type SaveStatus,
} from './autosave-plan';
import { clearLocalDraft, keepLocalDraft } from './local-draft';
import { NO_PROBLEMS } from './problems';

export type { AutosaveState, SaveStatus };

const DEBOUNCE_MS = 800;

export function useAutosave(options: {
  workflowId: string;
  state: WorkflowState;
  /** The updatedAt this client last saw; shared with other writers of the same page (renames). */
  knownUpdatedAt: MutableRefObject<string>;
  onSaved: (workflow: Workflow) => void;
  paused: boolean;
  /** The state as this editor would write it, to tell a real conflict from a rename elsewhere. */
  normalize: (state: WorkflowState) => WorkflowState;
}) {
  const { workflowId, knownUpdatedAt, onSaved, paused, normalize } = options;
  const json = JSON.stringify(options.state);
  /** The state the editor shows now, with its JSON (what a save sends, and compares with what the server holds). */
  const latest = useRef({ state: options.state, json });
  latest.current = { state: options.state, json };
  /** What the server holds, as far as this editor knows (normalized JSON). */
  const serverJson = useRef(json);
  /** The last text the server refused (400), so it is not sent again until it changes. */
  const refusedJson = useRef<string | null>(null);
  const [save, setSave] = useState<AutosaveState>({ status: 'saved', problems: NO_PROBLEMS });
  const chain = useRef<Promise<boolean>>(Promise.resolve(true));
  const statusRef = useRef<SaveStatus>('saved');
  statusRef.current = save.status;
  const memory = (): SaveMemory => ({ serverJson: serverJson.current, refusedJson: refusedJson.current, status: statusRef.current });

  const saveNow = useCallback((): Promise<boolean> => {
    const run = async (): Promise<boolean> => {
      const { state, json: body } = latest.current;
      const start = beforeSave(body, memory());
      if (start === 'up-to-date') return true;
      if (start === 'blocked') return false;
      setSave((s) => ({ ...s, status: 'saving' }));
      try {
        const remote = await readWorkflow(workflowId);
        // Someone saved since we last did? Only a different state is a conflict (a rename or move is not).
        const check = checkRemote(remote, knownUpdatedAt.current, serverJson.current, normalize);
        if (check === 'conflict') {
          setSave({ status: 'conflict', problems: NO_PROBLEMS, conflict: remote });
          return false;
        }
        if (check === 'moved-on') knownUpdatedAt.current = remote.updatedAt;
        const saved = await answer(api.PATCH('/api/v1/workflows/{workflowId}', { params: { path: { workflowId } }, body: { state } }));
        knownUpdatedAt.current = saved.data.updatedAt;
        serverJson.current = body;
        refusedJson.current = null;
        const after = statusAfterSave(body, latest.current.json);
        if (after === 'saved') clearLocalDraft(workflowId);
        setSave({ status: after, problems: NO_PROBLEMS });
        onSaved(asWorkflow(saved.data));
        return true;
      } catch (error) {
        const failed = failedSave(error, state);
        if (failed.status === 'invalid') refusedJson.current = body;
        setSave(failed);
        return false;
      }
    };
    chain.current = chain.current.then(run, run);
    return chain.current;
  }, [workflowId, knownUpdatedAt, onSaved, normalize]);

  // What the server does not hold yet is kept in this browser too (local-draft.ts): a crash or a closed tab loses nothing.
  useEffect(() => {
    if (json !== serverJson.current) keepLocalDraft(workflowId, latest.current.state);
  }, [json, workflowId]);

  useEffect(() => {
    const step = onStateChange(json, memory(), paused);
    // Back to what the server holds (an undo, say): nothing to save, nothing wrong.
    if (step === 'clean') {
      clearLocalDraft(workflowId);
      setSave({ status: 'saved', problems: NO_PROBLEMS });
    }
    if (step !== 'schedule') return;
    setSave((s) => (s.status === 'dirty' ? s : { ...s, status: 'dirty' }));
    const timer = setTimeout(() => void saveNow(), DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [json, paused, saveNow, workflowId]);

  // Leaving the page with edits not yet saved: ask the browser to warn.
  useEffect(() => {
    const warn = (event: BeforeUnloadEvent) => {
      if (latest.current.json !== serverJson.current) event.preventDefault();
    };
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, []);

  /** Saves now if needed; true when the server holds exactly what the editor shows. */
  const flush = useCallback(() => saveNow(), [saveNow]);

  /** After a conflict: either take the other version (the editor resets to it) or overwrite it with ours. */
  const resolveConflict = useCallback(
    (choice: 'theirs' | 'mine', theirs: Workflow) => {
      knownUpdatedAt.current = theirs.updatedAt;
      serverJson.current = JSON.stringify(normalize(theirs.state));
      refusedJson.current = null;
      statusRef.current = choice === 'theirs' ? 'saved' : 'dirty';
      if (choice === 'theirs') clearLocalDraft(workflowId);
      setSave({ status: statusRef.current, problems: NO_PROBLEMS });
      if (choice === 'mine') void saveNow();
    },
    [knownUpdatedAt, normalize, saveNow, workflowId],
  );

  /** Whether the server holds exactly what the editor shows. */
  const isSaved = useCallback(() => latest.current.json === serverJson.current, []);

  return { save, flush, resolveConflict, isSaved, serverJson };
}
