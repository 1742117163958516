// What a deployed block's config costs only once. A deployed state is one frozen object shared by every run of that
// deployment (runs/deployed-workflow.ts), so the references in its config texts are found once instead of per run,
// and a config with no reference at all — it resolves to itself — is measured and checked against the block's
// schema once: every run would get the same answer. A config whose references all sit in the block's data fields
// (BlockDefinition.dataFields: values the schema passes on as they are) is checked once too, those fields aside: only
// they change from run to run, and no run could make them fail. Drafts (not frozen) may change between runs and are
// compiled every time, as before.
import type { BlockDefinition } from '../blocks/types.js';
import { deepFreeze } from '../deep-freeze.js';
import { isPlainObject, jsonSize, scanValue, type Block, type ScannedValue } from '../workflow/index.js';

type ConfigCheck = ReturnType<BlockDefinition['configSchema']['safeParse']>;

export interface CompiledConfig {
  definition: BlockDefinition;
  scanned: ScannedValue;
  /** Set when the config resolves to itself: its size and its schema check (the parsed value frozen: runs share it). */
  constant?: { size: number; parsed: ConfigCheck };
  /** The schema check of the config as a run resolved it: made once where it can be (see above), else per run. */
  check(resolved: unknown): ConfigCheck;
}

const compiledBlocks = new WeakMap<Block, CompiledConfig>();

/** undefined for a block that may still change (not frozen). */
export function compiledConfig(block: Block, definition: BlockDefinition): CompiledConfig | undefined {
  if (!Object.isFrozen(block)) return undefined;
  const known = compiledBlocks.get(block);
  // A test may run one state against another registry: the check belongs to the definition it was made with.
  if (known?.definition === definition) return known;
  const scanned = scanValue(block.config);
  const compiled: CompiledConfig = { definition, scanned, check: (resolved) => definition.configSchema.safeParse(resolved) };
  if (!scanned.hasReferences || definition.resolveReferences === false) {
    const parsed = definition.configSchema.safeParse(block.config);
    if (parsed.success) deepFreeze(parsed.data);
    compiled.constant = { size: jsonSize(block.config, Infinity), parsed };
  } else {
    const dataCheck = checkOutsideDataFields(block.config, definition);
    if (dataCheck) compiled.check = dataCheck;
  }
  compiledBlocks.set(block, compiled);
  return compiled;
}

/**
 * The check of a config whose references all sit in data fields: the schema's check of the config with those fields
 * null, made now, and per run those fields as resolved put in its place (what the schema would give: it passes them
 * on untouched). undefined when that does not hold — a reference elsewhere, a field the schema does check, or a
 * config that fails its check (a failure is worked out per run, from the values the run has, to name them).
 */
function checkOutsideDataFields(config: unknown, definition: BlockDefinition): CompiledConfig['check'] | undefined {
  const dataFields = definition.dataFields;
  if (!dataFields || !isPlainObject(config)) return undefined;
  const varying = Object.keys(config).filter((key) => scanValue(config[key]).hasReferences);
  if (!varying.every((key) => dataFields.includes(key) && passesValueOn(definition.configSchema, key))) return undefined;
  const parsed = definition.configSchema.safeParse({ ...config, ...Object.fromEntries(varying.map((key) => [key, null])) });
  if (!parsed.success || !isPlainObject(parsed.data)) return undefined;
  const fixed = deepFreeze(parsed.data);
  return (resolved) => {
    if (!isPlainObject(resolved)) return definition.configSchema.safeParse(resolved);
    const data: Record<string, unknown> = { ...fixed };
    for (const key of varying) data[key] = resolved[key];
    return { success: true, data };
  };
}

/** Whether the object schema's field `key` takes any value and gives it back as it is (unknown or any, optional or not). */
function passesValueOn(schema: BlockDefinition['configSchema'], key: string): boolean {
  const def = (schema as unknown as { _zod?: { def?: { type?: string; shape?: Record<string, unknown> } } })._zod?.def;
  if (def?.type !== 'object' || !def.shape) return false;
  let field = (def.shape[key] as { _zod?: { def?: { type?: string; innerType?: unknown } } } | undefined)?._zod?.def;
  while (field && (field.type === 'optional' || field.type === 'nullable')) {
    field = (field.innerType as { _zod?: { def?: { type?: string; innerType?: unknown } } } | undefined)?._zod?.def;
  }
  return field?.type === 'unknown' || field?.type === 'any';
}
