// Copy and paste of blocks: what is copied is plain JSON text (a fragment of a workflow state), so it travels through
// the system clipboard — into another workflow, another browser tab, or a text editor and back. Pasting gives every
// block a new id and a name not yet taken, and the references between pasted blocks follow their new names.
import { renameReferencesAll } from '../../../src/workflow/rename.js';
import type { WorkflowState } from '../types.js';
import { normalizeName, uniqueName } from './catalog.js';
import { fromState, toState, type FlowEdge, type FlowNode } from './model.js';

export const CLIPBOARD_FORMAT = 'sluice/blocks@1';

export interface ClipboardDocument {
  format: typeof CLIPBOARD_FORMAT;
  state: WorkflowState;
}

/** Offset of a paste from the copied blocks (flow units), so the copy does not cover the original. */
export const PASTE_OFFSET = { x: 40, y: 40 };

/** The selected blocks (a selected container brings its children) and the connections among them; null if none. */
export function copySelection(nodes: FlowNode[], edges: FlowEdge[]): ClipboardDocument | null {
  const ids = new Set(nodes.filter((n) => n.selected).map((n) => n.id));
  if (ids.size === 0) return null;
  for (let grew = true; grew; ) {
    grew = false;
    for (const n of nodes) {
      if (n.parentId && ids.has(n.parentId) && !ids.has(n.id)) {
        ids.add(n.id);
        grew = true;
      }
    }
  }
  // A child copied without its container is pasted at the top level, where it was on screen.
  const picked = nodes
    .filter((n) => ids.has(n.id))
    .map((n) => {
      if (!n.parentId || ids.has(n.parentId)) return n;
      const parent = nodes.find((p) => p.id === n.parentId);
      const { parentId: _dropped, ...rest } = n;
      return { ...rest, position: { x: n.position.x + (parent?.position.x ?? 0), y: n.position.y + (parent?.position.y ?? 0) } };
    });
  const inside = edges.filter((e) => ids.has(e.source) && ids.has(e.target));
  return { format: CLIPBOARD_FORMAT, state: toState(picked, inside) };
}

/** The clipboard text read back, or null when it is not copied blocks (any other text on the clipboard). */
export function parseClipboard(text: string): ClipboardDocument | null {
  try {
    const value = JSON.parse(text) as Partial<ClipboardDocument>;
    const state = value?.state as Partial<WorkflowState> | undefined;
    if (value?.format !== CLIPBOARD_FORMAT || !state || typeof state.blocks !== 'object' || state.blocks === null) return null;
    if (!Array.isArray(state.edges)) return null;
    return value as ClipboardDocument;
  } catch {
    return null;
  }
}

let pasteCounter = 0;
const freshId = (prefix: string) => `${prefix}${Date.now().toString(36)}${(pasteCounter++).toString(36)}${Math.random().toString(36).slice(2, 6)}`;

/**
 * The nodes and edges to add for a paste into a workflow that has `existing` blocks: new ids and free names, references
 * between the pasted blocks renamed along, positions moved by `offset`, all selected. A second API trigger is left
 * out (a workflow has at most one), with the connections to it.
 */
export function pasteNodes(doc: ClipboardDocument, existing: FlowNode[], offset = PASTE_OFFSET): { nodes: FlowNode[]; edges: FlowEdge[] } {
  const hasApiTrigger = existing.some((n) => n.data.type === 'api_trigger');
  const blocks = Object.values(doc.state.blocks).filter((b) => !(hasApiTrigger && b.type === 'api_trigger'));
  const newIds = new Map(blocks.map((b) => [b.id, freshId('b_')]));
  const taken = existing.map((n) => n.data.name);
  const renames = new Map<string, string>();
  for (const block of blocks) {
    const free = !taken.some((t) => normalizeName(t) === normalizeName(block.name));
    const name = free ? block.name : uniqueName(block.name.replace(/ \d+$/, '') || block.type, taken);
    taken.push(name);
    if (name !== block.name) renames.set(block.name, name);
  }
  const state: WorkflowState = {
    blocks: Object.fromEntries(
      blocks.map((b) => {
        const id = newIds.get(b.id)!;
        const parentId = b.parentId && newIds.get(b.parentId);
        const { parentId: _old, ...rest } = b;
        return [
          id,
          {
            ...rest,
            id,
            name: renames.get(b.name) ?? b.name,
            config: renameReferencesAll(b.config ?? {}, renames),
            ...(parentId ? { parentId } : {}),
            position: parentId ? b.position : { x: (b.position?.x ?? 0) + offset.x, y: (b.position?.y ?? 0) + offset.y },
          },
        ];
      }),
    ),
    edges: doc.state.edges
      .filter((e) => newIds.has(e.source) && newIds.has(e.target))
      .map((e) => ({ ...e, id: freshId('e_'), source: newIds.get(e.source)!, target: newIds.get(e.target)! })),
    loops: Object.fromEntries(
      Object.values(doc.state.loops ?? {})
        .filter((l) => newIds.has(l.id))
        .map((l) => [newIds.get(l.id)!, { ...renameReferencesAll(l, renames), id: newIds.get(l.id)!, nodes: l.nodes.map((n) => newIds.get(n) ?? n) }]),
    ),
    parallels: Object.fromEntries(
      Object.values(doc.state.parallels ?? {})
        .filter((p) => newIds.has(p.id))
        .map((p) => [newIds.get(p.id)!, { ...renameReferencesAll(p, renames), id: newIds.get(p.id)!, nodes: p.nodes.map((n) => newIds.get(n) ?? n) }]),
    ),
  };
  const flow = fromState(state);
  return { nodes: flow.nodes.map((n) => ({ ...n, selected: true })), edges: flow.edges };
}
