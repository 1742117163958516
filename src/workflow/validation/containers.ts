// Rules tying loop/parallel container blocks to their settings under `loops` / `parallels` and to the blocks
// they hold. Membership is written twice (the container's `nodes`, each child's `parentId`), so both must agree.
import { findReferences } from '../references.js';
import type { ContainerType, Loop, Parallel } from '../state.js';
import { isContainerType } from './blocks.js';
import { blockExists, type Model } from './model.js';
import { joinPath, type Report } from './problems.js';

interface ContainerSection {
  type: ContainerType;
  section: 'loops' | 'parallels';
  entries: Map<string, Loop | Parallel>;
  malformed: Set<string>;
}

function sections(model: Model): ContainerSection[] {
  return [
    { type: 'loop', section: 'loops', entries: model.loops, malformed: model.malformedLoops },
    { type: 'parallel', section: 'parallels', entries: model.parallels, malformed: model.malformedParallels },
  ];
}

export function checkContainers(model: Model, report: Report): void {
  for (const section of sections(model)) checkSection(model, section, report);
  checkContainerBlocksHaveSettings(model, report);
  checkParents(model, report);
  for (const [key, loop] of model.loops) checkLoopSettings(key, loop, report);
  for (const [key, parallel] of model.parallels) checkParallelSettings(key, parallel, report);
}

function checkSection(model: Model, { type, section, entries }: ContainerSection, report: Report) {
  for (const [key, entry] of entries) {
    const path = joinPath(section, key);
    if (entry.id !== key) report(joinPath(path, 'id'), `${type} id "${entry.id}" does not match its key "${key}"`);
    const block = model.blocks.get(key);
    if (!block) {
      if (!model.malformedBlocks.has(key)) report(path, `${type} "${key}" has no block with that id`);
    } else if (block.type !== type) {
      report(path, `${type} settings "${key}" belong to a ${block.type} block, not a ${type} block`);
    }
    const listed = new Set<string>();
    entry.nodes.forEach((nodeId, index) => {
      const nodePath = joinPath(path, 'nodes', index);
      if (listed.has(nodeId)) {
        report(nodePath, `block "${nodeId}" is listed twice`);
        return;
      }
      listed.add(nodeId);
      if (!blockExists(model, nodeId)) {
        report(nodePath, `"${nodeId}" names no block`);
        return;
      }
      const node = model.blocks.get(nodeId);
      if (node && node.parentId !== key) {
        const actual = node.parentId === undefined ? 'it has no parentId' : `its parentId is "${node.parentId}"`;
        report(nodePath, `block "${nodeId}" is listed in ${type} "${key}" but ${actual}`);
      }
    });
  }
}

function checkContainerBlocksHaveSettings(model: Model, report: Report) {
  for (const { type, section, entries, malformed } of sections(model)) {
    for (const [key, block] of model.blocks) {
      if (block.type === type && !entries.has(key) && !malformed.has(key)) {
        report(joinPath('blocks', key), `${type} block "${block.name}" has no settings under ${section}.${key}`);
      }
    }
  }
}

function checkParents(model: Model, report: Report) {
  for (const [key, block] of model.blocks) {
    const parentId = block.parentId;
    if (parentId === undefined) continue;
    const path = joinPath('blocks', key, 'parentId');
    const parent = model.blocks.get(parentId);
    if (!parent) {
      if (!model.malformedBlocks.has(parentId)) report(path, `parent "${parentId}" names no block`);
      continue;
    }
    if (!isContainerType(parent.type)) {
      report(path, `parent "${parent.name}" is a ${parent.type} block, not a loop or parallel`);
      continue;
    }
    const entry = parent.type === 'loop' ? model.loops.get(parentId) : model.parallels.get(parentId);
    if (entry && !entry.nodes.includes(key)) {
      report(path, `block "${block.name}" is not listed in the nodes of ${parent.type} "${parent.name}"`);
    }
  }
}

function checkLoopSettings(key: string, loop: Loop, report: Report) {
  if (loop.loopType === 'for' && loop.iterations === undefined) {
    report(joinPath('loops', key, 'iterations'), 'a for loop needs iterations');
  }
  if (loop.loopType === 'forEach') {
    checkItemsSource(loop.forEachItems, joinPath('loops', key, 'forEachItems'), 'a forEach loop needs forEachItems', report);
  }
}

function checkParallelSettings(key: string, parallel: Parallel, report: Report) {
  if (parallel.parallelType === 'count' && parallel.count === undefined) {
    report(joinPath('parallels', key, 'count'), 'a count parallel needs count');
  }
  if (parallel.parallelType === 'collection') {
    checkItemsSource(
      parallel.distribution,
      joinPath('parallels', key, 'distribution'),
      'a collection parallel needs distribution',
      report,
    );
  }
}

/** Text without references is only known at save time to be a list if it is JSON; with references, at run time. */
function checkItemsSource(source: Loop['forEachItems'], path: string, missing: string, report: Report) {
  if (source === undefined || (typeof source === 'string' && source.trim() === '')) {
    report(path, missing);
    return;
  }
  if (typeof source !== 'string' || findReferences(source).length > 0) return;
  if (!parsesAsCollection(source)) {
    report(path, 'must be a reference such as <api.items>, a JSON array or a JSON object');
  }
}

function parsesAsCollection(text: string): boolean {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null;
  } catch {
    return false;
  }
}
