// Renaming a block without breaking the workflow (docs/workflows.md 3): every `<name.path>` that reached the block by
// its old name is rewritten to the new one — in every config string of every block (bodies, headers, code,
// conditions, prompts, response), in loop and parallel item sources. References that reach it another way (its id,
// a trigger alias such as `<api.x>`) still reach it and are left as written.
import { isPlainObject } from './plain.js';
import { indexBlockNames, normalizeBlockName } from './names.js';
import { findReferences } from './references.js';
import type { Block, WorkflowState } from './state.js';

type NamedBlock = Pick<Block, 'id' | 'name' | 'type'>;

/** The name as references write it; only names of this form can be referenced at all. */
const REFERENCEABLE = /^[A-Za-z_][A-Za-z0-9_-]*$/;

/** Whether `<name.field>` can reach a block of this name (a name starting with a digit or holding `.` cannot). */
export function isReferenceableName(name: string): boolean {
  return REFERENCEABLE.test(normalizeBlockName(name));
}

/** Rewrites every string inside a JSON-like value; other values (and unchanged strings) are kept as they are. */
function mapStrings(value: unknown, rewrite: (text: string) => string): unknown {
  if (typeof value === 'string') return rewrite(value);
  if (Array.isArray(value)) {
    const items = value.map((item) => mapStrings(item, rewrite));
    return items.every((item, i) => item === value[i]) ? value : items;
  }
  if (isPlainObject(value)) {
    let changed = false;
    const entries = Object.entries(value).map(([key, child]) => {
      const next = mapStrings(child, rewrite);
      changed ||= next !== child;
      return [key, next] as const;
    });
    return changed ? Object.fromEntries(entries) : value;
  }
  return value;
}

/**
 * `value` with every block reference written with name `from` rewritten to name `to` (both compared as references
 * compare them). Unchanged when `to` cannot be referenced. The caller makes sure `from` names the block meant.
 */
export function renameReferences<T>(value: T, from: string, to: string): T {
  return renameReferencesAll(value, new Map([[from, to]]));
}

/**
 * `value` with the references to several blocks renamed at once (old name → new name), so that a new name that is
 * also another block's old name is not renamed a second time (pasting blocks whose names are taken).
 */
export function renameReferencesAll<T>(value: T, renames: ReadonlyMap<string, string>): T {
  const mapping = new Map<string, string>();
  for (const [from, to] of renames) {
    const oldName = normalizeBlockName(from);
    const replacement = normalizeBlockName(to);
    if (oldName !== '' && oldName !== replacement && REFERENCEABLE.test(replacement)) mapping.set(oldName, replacement);
  }
  if (mapping.size === 0) return value;
  const rewrite = (text: string): string => {
    let out = '';
    let from = 0;
    for (const ref of findReferences(text)) {
      const replacement = ref.kind === 'block' ? mapping.get(ref.name) : undefined;
      if (replacement === undefined) continue;
      // The path starts at the first `.` or `[`: a name can hold neither.
      const pathStart = ref.raw.search(/[.[]/);
      out += `${text.slice(from, ref.start)}<${replacement}${ref.raw.slice(pathStart)}`;
      from = ref.end;
    }
    return from === 0 ? text : out + text.slice(from);
  };
  return mapStrings(value, rewrite) as T;
}

/**
 * A function that rewrites, inside any config value, the references that reach block `blockId` by its current name so
 * that they name `newName` instead. It changes nothing when the block is not reached by its name (another block of
 * the same name comes first), when another block already has the new name, or when the new name cannot be referenced
 * (references then keep the old name, and validation points at them until the name is fixed).
 */
export function referenceRenamer(blocks: Iterable<NamedBlock>, blockId: string, newName: string): <T>(value: T) => T {
  const list = [...blocks];
  const block = list.find((b) => b.id === blockId);
  const unchanged = <T>(value: T) => value;
  if (!block) return unchanged;
  const index = indexBlockNames(list);
  const oldName = normalizeBlockName(block.name);
  const taken = list.some((b) => b.id !== blockId && normalizeBlockName(b.name) === normalizeBlockName(newName));
  if (taken || index.get(oldName) !== blockId) return unchanged;
  return <T>(value: T) => renameReferences(value, oldName, newName);
}

/** The state with block `blockId` named `newName` and every reference to it by name following it. */
export function renameBlock(state: WorkflowState, blockId: string, newName: string): WorkflowState {
  const target = state.blocks[blockId];
  if (!target) return state;
  const renamer = referenceRenamer(Object.values(state.blocks), blockId, newName);
  const blocks = Object.fromEntries(
    Object.entries(state.blocks).map(([id, block]) => {
      const config = renamer(block.config);
      const name = id === blockId ? newName : block.name;
      return [id, config === block.config && name === block.name ? block : { ...block, name, config }];
    }),
  );
  const loops = Object.fromEntries(
    Object.entries(state.loops ?? {}).map(([id, loop]) => {
      const forEachItems = renamer(loop.forEachItems);
      return [id, forEachItems === loop.forEachItems ? loop : { ...loop, forEachItems }];
    }),
  );
  const parallels = Object.fromEntries(
    Object.entries(state.parallels ?? {}).map(([id, parallel]) => {
      const distribution = renamer(parallel.distribution);
      return [id, distribution === parallel.distribution ? parallel : { ...parallel, distribution }];
    }),
  );
  return { ...state, blocks, loops, parallels };
}
