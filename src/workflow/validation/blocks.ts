// Rules about blocks on their own: ids, types, configs, policies, names, and the single API trigger.
import { MAX_CONFIG_DEPTH } from '../limits.js';
import { isReservedReferenceName, normalizeBlockName } from '../names.js';
import { CONTAINER_TYPES } from '../state.js';
import type { BlockCatalog, Model } from './model.js';
import { joinPath, reportZodIssues, type Report } from './problems.js';
import { findTooDeep } from './walk.js';

export function isContainerType(type: string): boolean {
  return (CONTAINER_TYPES as readonly string[]).includes(type);
}

export function checkBlocks(model: Model, catalog: BlockCatalog, report: Report): void {
  for (const [key, block] of model.blocks) {
    if (block.id !== key) report(joinPath('blocks', key, 'id'), `block id "${block.id}" does not match its key "${key}"`);
    checkTypeAndConfig(key, block.type, block.config, catalog, report);
    if (block.policy?.retry && isContainerType(block.type)) {
      // Re-running a whole body would repeat the side effects of the iterations that had succeeded.
      report(
        joinPath('blocks', key, 'policy', 'retry'),
        `a ${block.type} cannot be retried as a whole: give the blocks inside it a retry policy instead (timeoutMs and onError do apply to it)`,
      );
    }
  }
  checkNames(model, report);
  checkSingleApiTrigger(model, report);
}

function checkTypeAndConfig(key: string, type: string, config: Record<string, unknown>, catalog: BlockCatalog, report: Report) {
  const configPath = joinPath('blocks', key, 'config');
  const tooDeep = findTooDeep(config, MAX_CONFIG_DEPTH);
  if (tooDeep) {
    // A schema walking this could overflow the stack, so it is not run.
    report(joinPath(configPath, ...tooDeep), `config is nested deeper than ${MAX_CONFIG_DEPTH} levels`);
    return;
  }
  // hasOwn: a type named "constructor" must not find Object.prototype.constructor.
  const entry = Object.hasOwn(catalog, type) ? catalog[type] : undefined;
  if (!entry) {
    if (!isContainerType(type)) report(joinPath('blocks', key, 'type'), `unknown block type "${type}"`);
    return;
  }
  if (!entry.configSchema) return;
  const parsed = entry.configSchema.safeParse(config);
  if (!parsed.success) reportZodIssues(report, parsed.error.issues, configPath);
}

function checkNames(model: Model, report: Report) {
  const owners = new Map<string, string>();
  for (const [key, block] of model.blocks) {
    const normalized = normalizeBlockName(block.name);
    const path = joinPath('blocks', key, 'name');
    if (isReservedReferenceName(normalized)) {
      report(path, `block name "${block.name}" is reserved for <${normalized}.…> references`);
      continue;
    }
    const owner = owners.get(normalized);
    if (owner === undefined) {
      owners.set(normalized, key);
    } else {
      report(
        path,
        `block name "${block.name}" is already used by block "${owner}" (names are compared lowercased with spaces removed)`,
      );
    }
  }
}

function checkSingleApiTrigger(model: Model, report: Report) {
  let seen = false;
  for (const [key, block] of model.blocks) {
    if (block.type !== 'api_trigger') continue;
    if (seen) report(joinPath('blocks', key, 'type'), 'A workflow contains at most one API trigger');
    seen = true;
  }
}
