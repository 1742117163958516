// The canvas editor: palette, React Flow canvas, the selected block's form and manual runs. Undo/redo history
// (use-history.ts), keyboard shortcuts (use-shortcuts.ts) and autosave (useAutosave.ts) are hooks of their own.
import {
  applyEdgeChanges,
  applyNodeChanges,
  Background,
  Controls,
  MiniMap,
  ReactFlow,
  ReactFlowProvider,
  useNodesInitialized,
  useReactFlow,
  type Connection,
  type EdgeChange,
  type NodeChange,
  type OnBeforeDelete,
  type XYPosition,
} from '@xyflow/react';
import { useQuery } from '@tanstack/react-query';
import { useCallback, useEffect, useMemo, useRef, useState, type DragEvent, type MutableRefObject } from 'react';
import { answer, api, errorMessage } from '../api';
import { Boundary } from '../components/boundary';
import { Spinner } from '../components/ui';
import type { Workflow } from '../types';
import type { FlowControl } from '../../../src/workflow/flow-control.js';
import type { TraceDetail } from '../../../src/workflow/trace-detail.js';
import { Link, navigate, useLocation, useNavigationGuard } from '../router';
import { useColorMode } from '../theme';
import { VIEWER_HINT } from '../roles';
import { BLOCK_TYPES, newBlockId, normalizeName, specOf, uniqueName } from './catalog';
import { ConfigPanel } from './ConfigPanel';
import {
  DEFAULT_CONTAINER_SIZE,
  fromState,
  isContainer,
  makeEdge,
  outputsOf,
  renameNode,
  sortParentsFirst,
  startRename,
  toState,
  type BlockData,
  type Condition,
  type FlowEdge,
  type FlowNode,
  type RenameSession,
} from './model';
import { EditorStatusContext, nodeTypes } from './nodes';
import { SuggestionsContext, type Suggestion } from './suggestions';
import { RunPanel, useManualRun } from './RunPanel';
import { useAutosave, type AutosaveState } from './useAutosave';
import { arrange, followHandle, placeBeside } from './layout';
import { clearLocalDraft, draftToOffer, readLocalDraft, type LocalDraft } from './local-draft';
import { pastRunOf } from './past-run';
import { runFromHere } from './run-from-here';
import type { FieldProblem } from './problems';
import { useHistory } from './use-history';
import { useShortcuts } from './use-shortcuts';
import { ContextMenu, DraftBanner, PastRunBanner, ShortcutSheet } from './overlays';
import { copySelection, parseClipboard, pasteNodes, PASTE_OFFSET, type ClipboardDocument } from './clipboard';

const NO_FIELD_PROBLEMS: FieldProblem[] = [];
const PALETTE_MIME = 'application/x-sluice-block';
/** Fitting the view leaves room at the bottom right, where the minimap sits over the canvas. */
const FIT_VIEW = { maxZoom: 1, padding: { top: '40px', left: '40px', right: '60px', bottom: '130px' } } as const;

export interface EditorHandle {
  flush(): Promise<boolean>;
  /** The draft's flow control (docs/workflows.md "Flow control"), edited in the Deploy tab and saved with the draft. */
  flowControl(): FlowControl | undefined;
  /** Resolves once the editor shows it (a flush after it saves it). */
  setFlowControl(flowControl: FlowControl | undefined): Promise<void>;
  /** The draft's trace detail (docs/workflows.md "Trace detail"), also beside the canvas; undefined: full. */
  trace(): TraceDetail | undefined;
  setTrace(trace: TraceDetail | undefined): Promise<void>;
}

export interface EditorProps {
  workflow: Workflow;
  knownUpdatedAt: MutableRefObject<string>;
  handle: MutableRefObject<EditorHandle | null>;
  onSaved: (workflow: Workflow) => void;
  visible: boolean;
  /** A viewer's canvas: the blocks and their settings can be looked at, not changed, run or saved. */
  readOnly?: boolean;
}

export function Editor(props: EditorProps) {
  return (
    <ReactFlowProvider>
      <EditorCanvas {...props} />
    </ReactFlowProvider>
  );
}

const normalizeState = (state: Workflow['state']) => {
  const flow = fromState(state);
  return withSettings(toState(flow.nodes, flow.edges), state);
};

/** The draft's settings that live beside the canvas (the Deploy tab edits them); the canvas's state does not hold them. */
type DraftSettings = Pick<Workflow['state'], 'flowControl' | 'trace'>;

/** The canvas's state with the draft's settings. */
const withSettings = (state: Workflow['state'], { flowControl, trace }: DraftSettings): Workflow['state'] => ({
  ...state,
  ...(flowControl ? { flowControl } : {}),
  ...(trace ? { trace } : {}),
});

/** The middle of the canvas on screen (where a block goes when there is nothing to place it beside). */
function centreOf(element: HTMLElement | null): XYPosition {
  const box = element?.getBoundingClientRect();
  return box ? { x: box.left + box.width / 2 - 100, y: box.top + box.height / 2 - 40 } : { x: 400, y: 300 };
}

function EditorCanvas({ workflow, knownUpdatedAt, handle, onSaved, visible, readOnly = false }: EditorProps) {
  // Built once per workflow: afterwards the canvas is the source of truth and the server only hears from it.
  const initial = useMemo(() => fromState(workflow.state), [workflow.id]);
  const [nodes, setNodes] = useState<FlowNode[]>(initial.nodes);
  const [edges, setEdges] = useState<FlowEdge[]>(initial.edges);
  const nodesRef = useRef(nodes);
  const edgesRef = useRef(edges);
  nodesRef.current = nodes;
  edgesRef.current = edges;
  const flow = useReactFlow<FlowNode, FlowEdge>();
  const colorMode = useColorMode();
  const wrapper = useRef<HTMLDivElement>(null);
  const [panel, setPanel] = useState<'block' | 'run'>('block');

  // ---- undo / redo and keyboard shortcuts --------------------------------------------------------------------
  const history = useHistory({ nodesRef, edgesRef, setNodes, setEdges });
  const { record, undo, redo } = history;

  // Fit the whole workflow in view once its blocks have been measured and the canvas is shown (opened on another tab
  // first — a deep link to /api, say — the canvas had no size to fit into until then).
  const nodesInitialized = useNodesInitialized();
  const fitted = useRef(false);
  useEffect(() => {
    if (!visible || !nodesInitialized || fitted.current) return;
    fitted.current = true;
    requestAnimationFrame(() => void flow.fitView(FIT_VIEW));
  }, [visible, nodesInitialized, flow]);

  // ---- autosave ----------------------------------------------------------------------------------------------
  const dragging = nodes.some((n) => n.dragging);
  const [settings, setSettings] = useState<DraftSettings>({ flowControl: workflow.state.flowControl, trace: workflow.state.trace });
  const settingsRef = useRef(settings);
  settingsRef.current = settings;
  const settingsShown = useRef<Array<() => void>>([]);
  useEffect(() => {
    for (const resolve of settingsShown.current.splice(0)) resolve();
  }, [settings]);
  /** Resolves once the editor shows the changed setting (a flush after it saves it). */
  const changeSetting = <K extends keyof DraftSettings>(key: K, next: DraftSettings[K]) => {
    if (JSON.stringify(next) === JSON.stringify(settingsRef.current[key])) return Promise.resolve();
    return new Promise<void>((resolve) => {
      settingsShown.current.push(resolve);
      setSettings((current) => ({ ...current, [key]: next }));
    });
  };
  const state = useMemo(() => withSettings(toState(nodes, edges), settings), [nodes, edges, settings]);
  const autosave = useAutosave({ workflowId: workflow.id, state, knownUpdatedAt, onSaved, paused: dragging || readOnly, normalize: normalizeState });
  const run = useManualRun(workflow.id, autosave.flush);
  handle.current = {
    flush: autosave.flush,
    flowControl: () => settingsRef.current.flowControl,
    setFlowControl: (next) => changeSetting('flowControl', next),
    trace: () => settingsRef.current.trace,
    setTrace: (next) => changeSetting('trace', next),
  };

  // ---- a past run on the canvas (?execution=…, "Open in editor" on a log or the Executions tab) -------------------
  const { search: query } = useLocation();
  const shownExecution = query.get('execution');
  const pastRun = useQuery({
    queryKey: ['past-run', workflow.workspaceId, shownExecution],
    enabled: !!shownExecution,
    queryFn: async () => {
      const query = { workspaceId: workflow.workspaceId, executionId: shownExecution! };
      const [entry] = (await answer(api.GET('/api/v1/logs', { params: { query } }))).data;
      if (!entry) throw new Error(`No log of run ${shownExecution} (yet): it may still be running.`);
      return (await answer(api.GET('/api/v1/logs/{logId}', { params: { path: { logId: entry.id } } }))).data;
    },
    staleTime: Infinity,
  });
  useEffect(() => {
    if (!pastRun.data) return;
    run.show(pastRunOf(pastRun.data));
    setPanel('run');
  }, [pastRun.data, run.show]);
  const closePastRun = () => {
    run.show(null);
    navigate(`/workflows/${workflow.id}`, { replace: true });
  };

  // ---- never lose work: leaving asks while a change is not saved; a draft kept in this browser is offered back ---
  useNavigationGuard(async (to) => {
    if (to.startsWith(`/workflows/${workflow.id}`) || (await autosave.flush())) return true;
    return window.confirm(
      'This workflow has changes that are not saved (see the problems shown in the editor). Leave anyway? ' +
        'They stay in this browser and are offered back when you open the workflow again.',
    );
  });
  const [offeredDraft, setOfferedDraft] = useState<LocalDraft | null>(() =>
    draftToOffer(readLocalDraft(workflow.id), JSON.stringify(normalizeState(workflow.state)), normalizeState),
  );
  const restoreDraft = () => {
    if (!offeredDraft) return;
    record();
    const next = fromState(offeredDraft.state);
    setNodes(next.nodes);
    setEdges(next.edges);
    setOfferedDraft(null);
    setTimeout(() => void flow.fitView(FIT_VIEW), 50);
  };
  const discardDraft = () => {
    clearLocalDraft(workflow.id);
    setOfferedDraft(null);
  };

  // ---- React Flow callbacks ----------------------------------------------------------------------------------
  const onNodesChange = useCallback((changes: NodeChange<FlowNode>[]) => {
    setNodes((current) => {
      const next = applyNodeChanges(changes, current);
      if (!changes.some((c) => c.type === 'remove')) return next;
      // Children of a deleted container go with it.
      const ids = new Set(next.map((n) => n.id));
      let kept = next;
      for (let guard = 0; guard < 10; guard++) {
        const filtered = kept.filter((n) => !n.parentId || ids.has(n.parentId));
        if (filtered.length === kept.length) break;
        kept = filtered;
        ids.clear();
        kept.forEach((n) => ids.add(n.id));
      }
      if (kept.length !== next.length) setEdges((es) => es.filter((e) => ids.has(e.source) && ids.has(e.target)));
      return kept;
    });
  }, []);
  const onEdgesChange = useCallback((changes: EdgeChange<FlowEdge>[]) => setEdges((current) => applyEdgeChanges(changes, current)), []);
  const onBeforeDelete: OnBeforeDelete<FlowNode, FlowEdge> = useCallback(async () => {
    record();
    return true;
  }, [record]);
  const onConnect = useCallback(
    (connection: Connection) => {
      if (connection.source === connection.target) return;
      const handleId = connection.sourceHandle ?? 'source';
      const exists = edgesRef.current.some(
        (e) => e.source === connection.source && e.target === connection.target && (e.sourceHandle ?? 'source') === handleId,
      );
      if (exists) return;
      record();
      const edge = makeEdge(connection.source, connection.target, handleId);
      setEdges((es) => [...es, edge]);
    },
    [record],
  );

  /** The container whose box holds this point (flow coordinates), innermost first. */
  const containerAt = useCallback(
    (point: XYPosition, exclude?: string) => {
      let best: { id: string; x: number; y: number; area: number } | undefined;
      for (const node of nodesRef.current) {
        if (node.type !== 'container' || node.id === exclude) continue;
        const internal = flow.getInternalNode(node.id);
        if (!internal) continue;
        const { x, y } = internal.internals.positionAbsolute;
        const width = internal.measured.width ?? node.width ?? DEFAULT_CONTAINER_SIZE.width;
        const height = internal.measured.height ?? node.height ?? DEFAULT_CONTAINER_SIZE.height;
        if (point.x >= x && point.x <= x + width && point.y >= y && point.y <= y + height) {
          const area = width * height;
          if (!best || area < best.area) best = { id: node.id, x, y, area };
        }
      }
      return best;
    },
    [flow],
  );

  /** Pans (zooming out only if it must) so these blocks are on screen; a block added off to the right stays in sight. */
  const keepInView = useCallback(
    (ids: string[]) => {
      const box = wrapper.current?.getBoundingClientRect();
      if (!box) return;
      const outside = ids.some((nodeId) => {
        const internal = flow.getInternalNode(nodeId);
        if (!internal) return false;
        const { x, y } = internal.internals.positionAbsolute;
        const topLeft = flow.flowToScreenPosition({ x, y });
        const bottomRight = flow.flowToScreenPosition({ x: x + (internal.measured.width ?? 200), y: y + (internal.measured.height ?? 80) });
        return topLeft.x < box.left || topLeft.y < box.top || bottomRight.x > box.right || bottomRight.y > box.bottom;
      });
      if (outside) void flow.fitView({ ...FIT_VIEW, nodes: ids.map((nodeId) => ({ id: nodeId })), maxZoom: flow.getZoom(), duration: 150 });
    },
    [flow],
  );

  /**
   * Adds a block: where it was dropped, or — from a palette click — beside the selected block (else the last one
   * added), connected from it, never on top of another block.
   */
  const addBlock = useCallback(
    (type: string, at?: XYPosition) => {
      const spec = specOf(type);
      const current = nodesRef.current;
      const selected = current.filter((n) => n.selected);
      const anchor = at ? undefined : selected.length === 1 ? selected[0] : current.at(-1);
      let position: XYPosition;
      let parentId: string | undefined;
      if (anchor) {
        position = placeBeside(anchor, current);
        parentId = anchor.parentId;
      } else {
        position = at ?? flow.screenToFlowPosition(centreOf(wrapper.current));
        const parent = spec.container ? undefined : containerAt(position);
        if (parent) {
          position = { x: position.x - parent.x, y: position.y - parent.y };
          parentId = parent.id;
        }
      }
      record();
      const id = newBlockId();
      const node: FlowNode = {
        id,
        type: spec.container ? 'container' : 'block',
        position,
        ...(parentId ? { parentId } : {}),
        ...(spec.container
          ? { style: { ...DEFAULT_CONTAINER_SIZE }, width: DEFAULT_CONTAINER_SIZE.width, height: DEFAULT_CONTAINER_SIZE.height, zIndex: -1 }
          : {}),
        selected: true,
        data: {
          type,
          name: uniqueName(spec.baseName, current.map((n) => n.data.name)),
          enabled: true,
          config: spec.defaultConfig(),
        },
      };
      const from = anchor && !spec.trigger ? followHandle(anchor, edgesRef.current) : undefined;
      setNodes((nodes) => sortParentsFirst([...nodes.map((n) => (n.selected ? { ...n, selected: false } : n)), node]));
      setEdges((edges) => [
        ...edges.map((e) => (e.selected ? { ...e, selected: false } : e)),
        ...(anchor && from ? [makeEdge(anchor.id, id, from)] : []),
      ]);
      setPanel('block');
      setJustAdded(id);
      if (anchor) setTimeout(() => keepInView([anchor.id, id]), 50);
    },
    [containerAt, flow, keepInView, record],
  );

  const arrangeAll = useCallback(() => {
    record();
    setNodes(arrange(nodesRef.current, edgesRef.current));
    requestAnimationFrame(() => void flow.fitView({ ...FIT_VIEW, duration: 200 }));
  }, [flow, record]);

  const onDrop = useCallback(
    (event: DragEvent) => {
      event.preventDefault();
      const type = event.dataTransfer.getData(PALETTE_MIME);
      if (!type) return;
      addBlock(type, flow.screenToFlowPosition({ x: event.clientX, y: event.clientY }));
    },
    [addBlock, flow],
  );

  /** Dropping a block inside a container puts it in; dragging it out takes it out. */
  const onNodeDragStart = useCallback(() => record(), [record]);
  const onNodeDragStop = useCallback(
    (_event: unknown, _node: FlowNode, dragged: FlowNode[]) => {
      const moves = new Map<string, { parentId?: string; position: XYPosition }>();
      for (const node of dragged) {
        if (node.type === 'container') continue;
        const internal = flow.getInternalNode(node.id);
        if (!internal) continue;
        const abs = internal.internals.positionAbsolute;
        const center = { x: abs.x + (internal.measured.width ?? 0) / 2, y: abs.y + (internal.measured.height ?? 0) / 2 };
        const target = containerAt(center, node.id);
        if ((target?.id ?? undefined) === node.parentId) continue;
        moves.set(node.id, target ? { parentId: target.id, position: { x: abs.x - target.x, y: abs.y - target.y } } : { position: abs });
      }
      if (moves.size === 0) return;
      setNodes((current) =>
        sortParentsFirst(
          current.map((n) => {
            const move = moves.get(n.id);
            if (!move) return n;
            const { parentId: _old, ...rest } = n;
            return move.parentId ? { ...rest, parentId: move.parentId, position: move.position } : { ...rest, position: move.position };
          }),
        ),
      );
    },
    [containerAt, flow],
  );

  // ---- selected element and its form -------------------------------------------------------------------------
  const selectedNodes = nodes.filter((n) => n.selected);
  const selectedNode = selectedNodes.length === 1 ? selectedNodes[0] : undefined;
  const selectedEdge = !selectedNode ? edges.find((e) => e.selected) : undefined;

  const updateNode = useCallback(
    (id: string, patch: Partial<BlockData>, key: string) => {
      record(`${id}:${key}`);
      setNodes((current) => current.map((n) => (n.id === id ? { ...n, data: { ...n.data, ...patch } } : n)));
    },
    [record],
  );
  // A rename typed letter by letter is one undo step, and the block's references follow it (model.ts renameNode).
  const renaming = useRef<RenameSession | null>(null);
  const renameBlock = useCallback(
    (id: string, name: string) => {
      const current = nodesRef.current.find((n) => n.id === id);
      if (!current) return;
      let session = renaming.current;
      if (!session || session.id !== id || session.typed !== current.data.name) {
        record();
        session = startRename(nodesRef.current, id);
      }
      const started = session;
      renaming.current = renameNode(nodesRef.current, started, name).session;
      setNodes((nodes) => renameNode(nodes, started, name).nodes);
    },
    [record],
  );
  const endRename = useCallback(() => {
    renaming.current = null;
  }, []);
  const updateConditions = useCallback(
    (id: string, conditions: Condition[]) => {
      record(`${id}:conditions`);
      setNodes((current) => current.map((n) => (n.id === id ? { ...n, data: { ...n.data, config: { ...n.data.config, conditions } } } : n)));
      const handles = new Set(conditions.map((c) => `condition-${c.id}`));
      setEdges((current) => current.filter((e) => e.source !== id || !e.sourceHandle?.startsWith('condition-') || handles.has(e.sourceHandle)));
    },
    [record],
  );
  const deleteSelected = useCallback(
    (nodeIds: string[], edgeIds: string[]) => {
      void flow.deleteElements({ nodes: nodeIds.map((id) => ({ id })), edges: edgeIds.map((id) => ({ id })) });
    },
    [flow],
  );

  // ---- copy, paste, duplicate, select all, palette search, context menu, shortcut list ----------------------------
  const [notice, setNotice] = useState<string | null>(null);
  /** The block a "Run from here" runs from, while it runs. */
  const [fromHere, setFromHere] = useState<string | null>(null);
  const startFromHere = useCallback(
    async (blockId: string) => {
      setFromHere(blockId);
      try {
        if (!(await autosave.flush())) throw new Error('The draft could not be saved; fix the problems shown on the canvas, then run again.');
        const executionId = await runFromHere(workflow.workspaceId, workflow.id, blockId);
        navigate(`/workflows/${workflow.id}?execution=${executionId}`);
      } catch (error) {
        setNotice(`Run from here: ${errorMessage(error)}`);
      } finally {
        setFromHere(null);
      }
    },
    [autosave.flush, workflow.id, workflow.workspaceId],
  );
  const [help, setHelp] = useState(false);
  const [menu, setMenu] = useState<{ x: number; y: number; nodeId?: string } | null>(null);
  const [search, setSearch] = useState('');
  const searchRef = useRef<HTMLInputElement>(null);
  /** The block just added from the palette search: its form takes the keyboard. */
  const [justAdded, setJustAdded] = useState<string | null>(null);
  /** Pasting the same blocks again moves each copy further, so none lands on another. */
  const pastes = useRef<{ text: string; count: number }>({ text: '', count: 0 });
  /** The last blocks copied here, for the menu's Paste when the browser does not let the page read the clipboard. */
  const lastCopied = useRef<string | null>(null);

  const pasteDocument = useCallback(
    (doc: ClipboardDocument, text: string) => {
      const count = pastes.current.text === text ? pastes.current.count + 1 : 1;
      pastes.current = { text, count };
      record();
      const added = pasteNodes(doc, nodesRef.current, { x: PASTE_OFFSET.x * count, y: PASTE_OFFSET.y * count });
      if (added.nodes.length === 0) return setNotice('Nothing to paste: a workflow has at most one API trigger.');
      setNodes((current) => sortParentsFirst([...current.map((n) => (n.selected ? { ...n, selected: false } : n)), ...added.nodes]));
      setEdges((current) => [...current.map((e) => (e.selected ? { ...e, selected: false } : e)), ...added.edges]);
      setPanel('block');
      // Once React Flow has measured the new blocks.
      setTimeout(() => keepInView(added.nodes.filter((n) => !n.parentId).map((n) => n.id)), 50);
    },
    [keepInView, record],
  );
  const copyText = useCallback(() => {
    const doc = copySelection(nodesRef.current, edgesRef.current);
    if (!doc) return null;
    const text = JSON.stringify(doc);
    lastCopied.current = text;
    pastes.current = { text, count: 0 };
    return text;
  }, []);
  const pasteText = useCallback(
    (text: string) => {
      const doc = parseClipboard(text);
      if (doc) pasteDocument(doc, text);
      else setNotice('The clipboard holds no Sluice blocks (copy blocks with Ctrl+C first).');
    },
    [pasteDocument],
  );
  const duplicate = useCallback(() => {
    const doc = copySelection(nodesRef.current, edgesRef.current);
    if (doc) pasteDocument(doc, JSON.stringify(doc));
  }, [pasteDocument]);
  const selectAll = useCallback(() => {
    setNodes((current) => current.map((n) => (n.selected ? n : { ...n, selected: true })));
  }, []);
  useShortcuts(visible && !readOnly, {
    undo,
    redo,
    selectAll,
    duplicate,
    copy: copyText,
    paste: pasteText,
    focusSearch: () => searchRef.current?.focus(),
    toggleHelp: () => setHelp((open) => !open),
    dismiss: () => {
      setHelp(false);
      setMenu(null);
    },
  });
  const matches = useMemo(() => {
    const query = search.trim().toLowerCase();
    const words = query.split(/\s+/).filter(Boolean);
    // Names that start with what was typed first, then names that contain it, then descriptions.
    const rank = (t: (typeof BLOCK_TYPES)[number]) => {
      const label = t.label.toLowerCase();
      if (label.startsWith(query) || t.type.startsWith(query)) return 0;
      return words.every((w) => label.includes(w)) ? 1 : 2;
    };
    return BLOCK_TYPES.filter((t) => words.every((w) => `${t.label} ${t.type} ${t.description}`.toLowerCase().includes(w)))
      .map((t, order) => ({ t, order, rank: rank(t) }))
      .sort((a, b) => a.rank - b.rank || a.order - b.order)
      .map(({ t }) => t);
  }, [search]);
  const addFirstMatch = () => {
    const first = matches.find((t) => !(t.type === 'api_trigger' && nodesRef.current.some((n) => n.data.type === 'api_trigger')));
    if (!first) return setNotice(`No block matches "${search}".`);
    setSearch('');
    addBlock(first.type);
  };
  const copyFromMenu = () => {
    const text = copyText();
    if (text) void navigator.clipboard?.writeText(text).catch(() => undefined);
  };
  const pasteFromMenu = async () => {
    const text = await navigator.clipboard?.readText().catch(() => null);
    pasteText(text && parseClipboard(text) ? text : (lastCopied.current ?? text ?? ''));
  };

  // ---- references for autocomplete ---------------------------------------------------------------------------
  const env = useQuery({
    queryKey: ['env', workflow.workspaceId],
    queryFn: () => answer(api.GET('/api/v1/workspaces/{workspaceId}/env', { params: { path: { workspaceId: workflow.workspaceId } } })).then((r) => r.data),
    staleTime: 60_000,
  });
  const suggestions = useMemo<Suggestion[]>(() => {
    const list: Suggestion[] = [];
    for (const node of nodes) {
      if (node.id === selectedNode?.id) continue;
      const name = normalizeName(node.data.name);
      for (const output of outputsOf(node.data)) list.push({ value: `<${name}.${output}>`, detail: specOf(node.data.type).label });
    }
    let parent = selectedNode?.parentId ? nodes.find((n) => n.id === selectedNode.parentId) : undefined;
    while (parent) {
      const kind = parent.data.type;
      list.unshift({ value: `<${kind}.index>`, detail: `current ${kind} iteration` }, { value: `<${kind}.currentItem>`, detail: `current ${kind} item` });
      const grand = parent.parentId;
      parent = grand ? nodes.find((n) => n.id === grand) : undefined;
    }
    for (const node of nodes) {
      if (node.data.type !== 'variables' || !Array.isArray(node.data.config.assignments)) continue;
      for (const a of node.data.config.assignments as { name?: string }[]) {
        if (a.name) list.push({ value: `<variable.${a.name}>`, detail: 'workflow variable' });
      }
    }
    for (const v of env.data ?? []) list.push({ value: `{{${v.name}}}`, detail: 'environment variable' });
    return list;
  }, [nodes, selectedNode?.id, selectedNode?.parentId, env.data]);

  // ---- rendering ---------------------------------------------------------------------------------------------
  const problems = autosave.save.problems;
  const renderedEdges = useMemo(
    () =>
      edges.map((e) =>
        problems.byEdge[e.id]
          ? { ...e, className: 'edge-problem', label: '⚠', style: { ...e.style, stroke: '#d93025', strokeDasharray: '6 4' } }
          : e,
      ),
    [edges, problems.byEdge],
  );
  const status = useMemo(() => ({ problems: problems.byNode, run: run.blocks }), [problems.byNode, run.blocks]);
  const hasApiTrigger = nodes.some((n) => n.data.type === 'api_trigger');

  const resolveConflict = (choice: 'theirs' | 'mine') => {
    const theirs = autosave.save.conflict;
    if (!theirs) return;
    autosave.resolveConflict(choice, theirs);
    if (choice === 'theirs') {
      const next = fromState(theirs.state);
      setNodes(next.nodes);
      setEdges(next.edges);
      history.reset();
      onSaved(theirs);
    }
  };

  return (
    <EditorStatusContext.Provider value={status}>
      <SuggestionsContext.Provider value={suggestions}>
        <div className="editor">
          <div className="editor-toolbar">
            <button
              className="btn primary"
              onClick={() => { setPanel('run'); void run.start(); }}
              disabled={run.running || readOnly}
              title={readOnly ? VIEWER_HINT : undefined}
              data-testid="run-button"
            >
              {run.running ? 'Running…' : '▶ Run'}
            </button>
            {fromHere !== null && <Spinner label={`Running from ${nodes.find((n) => n.id === fromHere)?.data.name ?? fromHere}…`} />}
            {run.running && (
              <button className="btn small" onClick={run.cancel}>
                Stop
              </button>
            )}
            <SaveIndicator save={autosave.save} onRetry={() => void autosave.flush()} />
            <span className="grow" />
            {!readOnly && (
              <>
                <button className="btn ghost small" onClick={arrangeAll} title="Lay the blocks out left to right along their connections">
                  ⇶ Arrange
                </button>
                <button className="btn ghost small" onClick={undo} disabled={!history.canUndo} title="Undo (Ctrl+Z)">
                  ↶ Undo
                </button>
                <button className="btn ghost small" onClick={redo} disabled={!history.canRedo} title="Redo (Ctrl+Shift+Z)">
                  ↷ Redo
                </button>
              </>
            )}
          </div>
          {readOnly && (
            <div className="banner info" role="note" data-testid="view-only">
              View only. {VIEWER_HINT}
            </div>
          )}
          {shownExecution && (
            <PastRunBanner executionId={shownExecution} query={pastRun} onClose={closePastRun} />
          )}
          {offeredDraft && <DraftBanner draft={offeredDraft} onRestore={restoreDraft} onDiscard={discardDraft} />}
          {autosave.save.status === 'conflict' && (
            <div className="banner warn" role="alert">
              Someone else saved this workflow while you were editing.
              <button className="btn small" onClick={() => resolveConflict('theirs')}>
                Load their version
              </button>
              <button className="btn small danger" onClick={() => resolveConflict('mine')}>
                Overwrite with mine
              </button>
            </div>
          )}
          {notice && (
            <div className="banner warn" role="status">
              {notice}
              <button className="btn small" onClick={() => setNotice(null)}>
                OK
              </button>
            </div>
          )}
          {menu && (
            <ContextMenu
              at={menu}
              onClose={() => setMenu(null)}
              items={
                menu.nodeId
                  ? [
                      ...(isContainer(nodes.find((n) => n.id === menu.nodeId)?.data.type ?? '')
                        ? []
                        : [{ label: 'Run from here', run: () => void startFromHere(menu.nodeId!) }]),
                      { label: 'Duplicate', keys: 'Ctrl+D', run: duplicate },
                      { label: 'Copy', keys: 'Ctrl+C', run: copyFromMenu },
                      {
                        label: nodes.find((n) => n.id === menu.nodeId)?.data.enabled === false ? 'Enable' : 'Disable',
                        run: () => {
                          const node = nodesRef.current.find((n) => n.id === menu.nodeId);
                          if (node) updateNode(node.id, { enabled: !node.data.enabled }, 'enabled');
                        },
                      },
                      {
                        label: 'Delete',
                        keys: 'Del',
                        danger: true,
                        run: () => deleteSelected(nodesRef.current.filter((n) => n.selected).map((n) => n.id), []),
                      },
                    ]
                  : [
                      { label: 'Paste', keys: 'Ctrl+V', run: () => void pasteFromMenu() },
                      { label: 'Select all', keys: 'Ctrl+A', run: selectAll },
                      { label: 'Arrange', run: arrangeAll },
                    ]
              }
            />
          )}
          {help && <ShortcutSheet onClose={() => setHelp(false)} />}
          <div className="editor-body">
            {!readOnly && (
              <aside className="palette" aria-label="Blocks">
                <input
                  ref={searchRef}
                  className="palette-search"
                  type="search"
                  aria-label="Search blocks"
                  placeholder="Search blocks  ( / )"
                  value={search}
                  onChange={(e) => setSearch(e.target.value)}
                  onKeyDown={(e) => {
                    if (e.key === 'Enter') {
                      e.preventDefault();
                      addFirstMatch();
                    }
                  }}
                />
                {(['Triggers', 'Blocks', 'Containers'] as const).map((group) => (
                  <div key={group}>
                    <h4>{group}</h4>
                    {matches.filter((t) => t.group === group).map((t) => {
                      const disabled = t.type === 'api_trigger' && hasApiTrigger;
                      return (
                        <div
                          key={t.type}
                          className={`palette-item ${disabled ? 'disabled' : ''}`}
                          draggable={!disabled}
                          data-testid={`palette-${t.type}`}
                          title={disabled ? 'A workflow has at most one API trigger' : `${t.description} — drag onto the canvas or click`}
                          onDragStart={(e) => {
                            e.dataTransfer.setData(PALETTE_MIME, t.type);
                            e.dataTransfer.effectAllowed = 'move';
                          }}
                          onClick={() => !disabled && addBlock(t.type)}
                        >
                          <span className="block-icon" style={{ background: t.color }}>
                            {t.icon}
                          </span>
                          {t.label}
                        </div>
                      );
                    })}
                  </div>
                ))}
                <p className="muted tiny hint">
                  Click or drag a block in. Drag from a block's right edge to connect. Press <kbd>?</kbd> for shortcuts.
                </p>
              </aside>
            )}
            <div className="canvas" ref={wrapper} onDragOver={(e) => { e.preventDefault(); e.dataTransfer.dropEffect = 'move'; }} onDrop={onDrop}>
              <ReactFlow<FlowNode, FlowEdge>
                colorMode={colorMode}
                nodes={nodes}
                edges={renderedEdges}
                nodeTypes={nodeTypes}
                onNodesChange={onNodesChange}
                onEdgesChange={onEdgesChange}
                onConnect={onConnect}
                onBeforeDelete={onBeforeDelete}
                onNodeDragStart={onNodeDragStart}
                onNodeDragStop={onNodeDragStop}
                onNodeClick={() => setPanel('block')}
                nodesDraggable={!readOnly}
                nodesConnectable={!readOnly}
                onNodeContextMenu={(event, node) => {
                  event.preventDefault();
                  if (readOnly) return;
                  if (!node.selected) setNodes((current) => current.map((n) => ({ ...n, selected: n.id === node.id })));
                  setMenu({ x: event.clientX, y: event.clientY, nodeId: node.id });
                }}
                onPaneContextMenu={(event) => {
                  event.preventDefault();
                  if (readOnly) return;
                  setMenu({ x: event.clientX, y: event.clientY });
                }}
                onPaneClick={() => setMenu(null)}
                onEdgeClick={() => setPanel('block')}
                deleteKeyCode={readOnly ? null : ['Delete', 'Backspace']}
                isValidConnection={(c) => c.source !== c.target}
                fitView
                fitViewOptions={FIT_VIEW}
                minZoom={0.2}
                snapToGrid
                snapGrid={[8, 8]}
                proOptions={{ hideAttribution: true }}
              >
                <Background gap={16} />
                <Controls showInteractive={false} />
                <MiniMap pannable zoomable style={{ width: 140, height: 90 }} />
              </ReactFlow>
              {problems.general.length > 0 && (
                <div className="canvas-problems">
                  {problems.general.map((p, i) => (
                    <div key={i}>⚠ {p}</div>
                  ))}
                </div>
              )}
            </div>
            <aside className="inspector">
              <div className="tabs small">
                <button className={panel === 'block' ? 'active' : ''} onClick={() => setPanel('block')}>
                  Block
                </button>
                <button className={panel === 'run' ? 'active' : ''} onClick={() => setPanel('run')} data-testid="run-tab">
                  Run {run.status === 'running' ? '…' : ''}
                </button>
              </div>
              <Boundary what="This panel" resetKeys={[panel, selectedNode?.id, selectedEdge?.id]}>
                <fieldset className="bare" disabled={readOnly}>
                {panel === 'run' ? (
                  <RunPanel run={run} nodes={nodes} onPin={readOnly ? undefined : (id, output) => updateNode(id, { pinned: output }, 'pinned')} />
                ) : selectedNode ? (
                  <ConfigPanel
                    key={selectedNode.id}
                    node={selectedNode}
                    workflowId={workflow.id}
                    problems={problems.byNode[selectedNode.id] ?? []}
                    fieldProblems={problems.byField[selectedNode.id] ?? NO_FIELD_PROBLEMS}
                    onChange={(patch, key) => updateNode(selectedNode.id, patch, key)}
                    onRename={(name) => renameBlock(selectedNode.id, name)}
                    focusName={justAdded === selectedNode.id}
                    onRenameEnd={endRename}
                    onConditionsChange={(conditions) => updateConditions(selectedNode.id, conditions)}
                    onDelete={() => deleteSelected([selectedNode.id], [])}
                    onRunFromHere={run.running || fromHere !== null ? undefined : () => void startFromHere(selectedNode.id)}
                  />
                ) : selectedEdge ? (
                  <div className="config-panel">
                    <h3>Connection</h3>
                    <p>
                      {nodes.find((n) => n.id === selectedEdge.source)?.data.name} → {nodes.find((n) => n.id === selectedEdge.target)?.data.name}
                    </p>
                    <p className="muted small">Handle: {selectedEdge.sourceHandle ?? 'source'}</p>
                    {problems.byEdge[selectedEdge.id]?.map((p, i) => (
                      <div className="error-box small" key={i}>
                        ⚠ {p}
                      </div>
                    ))}
                    <button className="btn danger small" onClick={() => deleteSelected([], [selectedEdge.id])}>
                      Delete connection
                    </button>
                  </div>
                ) : (
                  <div className="config-panel muted">
                    <p>Select a block to configure it.</p>
                    <p className="small">
                      {nodes.length} block{nodes.length === 1 ? '' : 's'}, {edges.length} connection{edges.length === 1 ? '' : 's'}.
                    </p>
                    {isContainerHint(nodes)}
                  </div>
                )}
                </fieldset>
              </Boundary>
            </aside>
          </div>
        </div>
      </SuggestionsContext.Provider>
    </EditorStatusContext.Provider>
  );
}

function isContainerHint(nodes: FlowNode[]) {
  if (!nodes.some((n) => isContainer(n.data.type))) return null;
  return <p className="small">Drop blocks inside a loop or parallel to repeat them; connect its “start” to the first one.</p>;
}

function SaveIndicator({ save, onRetry }: { save: AutosaveState; onRetry: () => void }) {
  const problemCount =
    Object.values(save.problems.byNode).reduce((n, list) => n + list.length, 0) + save.problems.general.length;
  switch (save.status) {
    case 'saved':
      return <span className="save-state ok" data-testid="save-state" data-status="saved">All changes saved</span>;
    case 'dirty':
      return <span className="save-state" data-testid="save-state" data-status="dirty">Unsaved changes…</span>;
    case 'saving':
      return <span className="save-state" data-testid="save-state" data-status="saving">Saving…</span>;
    case 'invalid':
      return (
        <span className="save-state bad" data-testid="save-state" data-status="invalid">
          Not saved: {problemCount} problem{problemCount === 1 ? '' : 's'} to fix
        </span>
      );
    case 'conflict':
      return <span className="save-state bad" data-testid="save-state" data-status="conflict">Not saved: edit conflict</span>;
    case 'error':
      return (
        <span className="save-state bad" data-testid="save-state" data-status="error">
          Save failed: {save.error}{' '}
          <button className="btn small" onClick={onRetry}>
            Retry
          </button>
        </span>
      );
  }
}

