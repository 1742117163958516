// Validation problems from the server (400 details with paths such as `state.blocks.<id>.config.url` or
// `state.edges.3.target`) placed on the blocks and edges they name.
import type { ErrorDetail } from '../api.js';
import type { WorkflowState } from '../types.js';

export interface PlacedProblems {
  byNode: Record<string, string[]>;
  byEdge: Record<string, string[]>;
  general: string[];
}

export const NO_PROBLEMS: PlacedProblems = { byNode: {}, byEdge: {}, general: [] };

export function placeProblems(details: ErrorDetail[], state: WorkflowState): PlacedProblems {
  const placed: PlacedProblems = { byNode: {}, byEdge: {}, general: [] };
  const push = (record: Record<string, string[]>, key: string, message: string) => {
    (record[key] ??= []).push(message);
  };
  for (const { path, message } of details) {
    const parts = path.replace(/^state\.?/, '').split('.');
    const [section, key, ...rest] = parts;
    const where = rest.length > 0 ? `${rest.join('.')}: ` : '';
    if ((section === 'blocks' || section === 'loops' || section === 'parallels') && key && state.blocks[key]) {
      push(placed.byNode, key, `${where}${message}`);
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
