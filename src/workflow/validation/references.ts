// Every `<name.path>` in a config must reach something that exists. Env references are left to run time,
// where the workspace's variables are known.
import { MAX_CONFIG_DEPTH } from '../limits.js';
import { indexBlockNames, isReservedReferenceName } from '../names.js';
import { findReferences, type PathSegment } from '../references.js';
import type { ContainerType } from '../state.js';
import type { BlockCatalog, BlockCatalogEntry, Model } from './model.js';
import { joinPath, type Report } from './problems.js';
import { enclosingContainerTypes } from './scope.js';
import { collectStrings } from './walk.js';

export function checkReferences(model: Model, report: Report, catalog: BlockCatalog = {}): void {
  const index = indexBlockNames([
    ...model.blocks.values(),
    // Malformed blocks still own their names; a reference to one is not the problem to report.
    ...[...model.malformedBlocks.values()].map((block) => ({ id: block.id, name: block.name ?? '', type: block.type ?? '' })),
  ]);
  const check = (value: unknown, path: PathSegment[], enclosing: ContainerType[], keeps?: BlockCatalogEntry['keepsReference']) => {
    for (const leaf of collectStrings(value, MAX_CONFIG_DEPTH)) {
      for (const ref of findReferences(leaf.text)) {
        if (ref.kind !== 'block') continue;
        if (keeps?.(ref, leaf.path)) continue;
        const where = joinPath(...path, ...leaf.path);
        if (ref.name === 'loop' || ref.name === 'parallel') {
          if (!enclosing.includes(ref.name)) report(where, `reference ${ref.raw} is only valid inside a ${ref.name}`);
        } else if (!isReservedReferenceName(ref.name) && !index.has(ref.name)) {
          report(where, `reference ${ref.raw} names no block`);
        }
      }
    }
  };

  for (const [key, block] of model.blocks) {
    const entry = Object.hasOwn(catalog, block.type) ? catalog[block.type] : undefined;
    check(block.config, ['blocks', key, 'config'], enclosingContainerTypes(model, key), entry?.keepsReference);
  }
  // A container's item source is evaluated where the container sits, not inside it.
  for (const [key, loop] of model.loops) check(loop.forEachItems, ['loops', key, 'forEachItems'], enclosingContainerTypes(model, key));
  for (const [key, parallel] of model.parallels) {
    check(parallel.distribution, ['parallels', key, 'distribution'], enclosingContainerTypes(model, key));
  }
}
