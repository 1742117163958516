// Undo/redo of the canvas. This hook owns the history: the past and future snapshots (at most HISTORY_LIMIT), the
// rule that quick edits of one field count as one step, and whether Undo/Redo can be pressed. The nodes and edges
// themselves stay in the editor: the hook reads them through refs when it records and sets them when it undoes/redoes.
import { useCallback, useRef, useState, type Dispatch, type MutableRefObject, type SetStateAction } from 'react';
import type { FlowEdge, FlowNode } from './model';

const HISTORY_LIMIT = 100;
/** Edits with the same coalesce key closer together than this are one undo step. */
const COALESCE_MS = 1500;

interface Snapshot {
  nodes: FlowNode[];
  edges: FlowEdge[];
}

interface History {
  past: Snapshot[];
  future: Snapshot[];
  lastKey?: string;
  lastAt: number;
}

interface CanvasAccess {
  nodesRef: MutableRefObject<FlowNode[]>;
  edgesRef: MutableRefObject<FlowEdge[]>;
  setNodes: Dispatch<SetStateAction<FlowNode[]>>;
  setEdges: Dispatch<SetStateAction<FlowEdge[]>>;
}

export function useHistory({ nodesRef, edgesRef, setNodes, setEdges }: CanvasAccess) {
  const history = useRef<History>({ past: [], future: [], lastAt: 0 });
  const [, setHistoryVersion] = useState(0);

  /** Remembers the state before a change. Edits of one field in quick succession count as one step. */
  const record = useCallback(
    (coalesceKey?: string) => {
      const h = history.current;
      const now = Date.now();
      if (coalesceKey && h.lastKey === coalesceKey && now - h.lastAt < COALESCE_MS) {
        h.lastAt = now;
        return;
      }
      h.past.push({ nodes: nodesRef.current, edges: edgesRef.current });
      if (h.past.length > HISTORY_LIMIT) h.past.shift();
      h.future = [];
      h.lastKey = coalesceKey;
      h.lastAt = now;
      setHistoryVersion((v) => v + 1);
    },
    [nodesRef, edgesRef],
  );

  /** Takes the newest snapshot off one stack (`past` to undo, `future` to redo) and keeps the current state on the other. */
  const step = useCallback(
    (from: 'past' | 'future') => {
      const h = history.current;
      const [source, target] = from === 'past' ? [h.past, h.future] : [h.future, h.past];
      const snapshot = source.pop();
      if (!snapshot) return;
      target.push({ nodes: nodesRef.current, edges: edgesRef.current });
      h.lastKey = undefined;
      setNodes(snapshot.nodes);
      setEdges(snapshot.edges);
      setHistoryVersion((v) => v + 1);
    },
    [nodesRef, edgesRef, setNodes, setEdges],
  );
  const undo = useCallback(() => step('past'), [step]);
  const redo = useCallback(() => step('future'), [step]);

  /** Forgets all steps (the canvas was replaced by another version, e.g. after an edit conflict). */
  const reset = useCallback(() => {
    history.current = { past: [], future: [], lastAt: 0 };
  }, []);

  return {
    record,
    undo,
    redo,
    reset,
    canUndo: history.current.past.length > 0,
    canRedo: history.current.future.length > 0,
  };
}
