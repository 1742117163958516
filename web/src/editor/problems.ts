// Validation problems from the server (400 details with paths such as `state.blocks.<id>.config.url` or
// `state.edges.3.target`) placed on the blocks and edges they name, and on the field of the block's form they are in.
import type { ErrorDetail } from '../api.js';
import type { WorkflowState } from '../types.js';

/** A problem inside one setting of a block: `path` starts at the form's field key (`['code']`, `['conditions', '0', 'expression']`). */
export interface FieldProblem {
  path: string[];
  message: string;
}

export interface PlacedProblems {
  byNode: Record<string, string[]>;
  /** The same problems of a block that lie in one of its settings (also in byNode), by block id. */
  byField: Record<string, FieldProblem[]>;
  byEdge: Record<string, string[]>;
  general: string[];
}

export const NO_PROBLEMS: PlacedProblems = { byNode: {}, byField: {}, byEdge: {}, general: [] };

export function placeProblems(details: ErrorDetail[], state: WorkflowState): PlacedProblems {
  const placed: PlacedProblems = { byNode: {}, byField: {}, byEdge: {}, general: [] };
  const push = (record: Record<string, string[]>, key: string, message: string) => {
    (record[key] ??= []).push(message);
  };
  for (const { path, message } of details) {
    const parts = path.replace(/^state\.?/, '').split('.');
    const [section, key, ...rest] = parts;
    const where = rest.length > 0 ? `${rest.join('.')}: ` : '';
    if ((section === 'blocks' || section === 'loops' || section === 'parallels') && key && state.blocks[key]) {
      push(placed.byNode, key, `${where}${message}`);
      // A container's settings (state.loops.<id>.forEachItems) are fields of its form as a block's config is.
      const field = section === 'blocks' ? (rest[0] === 'config' ? rest.slice(1) : []) : rest;
      if (field.length > 0) (placed.byField[key] ??= []).push({ path: field, message });
    } else if (section === 'edges' && key !== undefined && state.edges[Number(key)]) {
      const edge = state.edges[Number(key)];
      push(placed.byEdge, edge.id, `${where}${message}`);
      // The edge's source block is where the user will look.
      if (state.blocks[edge.source]) push(placed.byNode, edge.source, `edge → ${state.blocks[edge.target]?.name ?? edge.target}: ${message}`);
    } else {
      placed.general.push(path ? `${path}: ${message}` : message);
    }
  }
  return placed;
}
