// The API trigger's Input Format as a request contract (docs/api.md 4.1): declared
// types are checked before a run starts; absent optional fields become null.
import type { ApiTriggerConfig, InputField } from '../blocks/api-trigger.js';
import { apiTriggerConfigSchema } from '../blocks/api-trigger.js';
import type { ErrorDetail } from '../errors.js';
import type { Block, WorkflowState } from '../workflow/index.js';

export function findApiTrigger(state: WorkflowState): Block | undefined {
  return Object.values(state.blocks).find((b) => b.type === 'api_trigger' && b.enabled !== false);
}

/**
 * A deployed trigger block is frozen and shared by every run of its deployment (deployed-workflow.ts): its Input
 * Format is read from its config once, not per call. A draft's block (not frozen) is read every time.
 */
const inputFormats = new WeakMap<Block, readonly InputField[]>();

export function inputFormatOf(block: Block | undefined): readonly InputField[] {
  if (!block) return [];
  const known = inputFormats.get(block);
  if (known) return known;
  const parsed = apiTriggerConfigSchema.safeParse(block.config);
  const fields = parsed.success ? (parsed.data as ApiTriggerConfig).inputFormat : [];
  if (Object.isFrozen(block)) inputFormats.set(block, Object.freeze(fields.map((field) => Object.freeze(field))));
  return fields;
}

const describe = (value: unknown) => (value === null ? 'null' : Array.isArray(value) ? 'an array' : `a ${typeof value}`);

function typeProblem(field: InputField, value: unknown): string | undefined {
  switch (field.type) {
    case 'string':
      return typeof value === 'string' ? undefined : `must be a string, got ${describe(value)}`;
    case 'number':
      return typeof value === 'number' && Number.isFinite(value) ? undefined : `must be a number, got ${describe(value)}`;
    case 'boolean':
      return typeof value === 'boolean' ? undefined : `must be a boolean, got ${describe(value)}`;
    case 'files':
      return Array.isArray(value) ? undefined : `must be an array of file objects, got ${describe(value)}`;
    default:
      return undefined;
  }
}

/** Every problem with the body against the declared fields (empty when it is acceptable). */
export function checkApiInput(fields: readonly InputField[], body: Record<string, unknown>): ErrorDetail[] {
  const problems: ErrorDetail[] = [];
  for (const field of fields) {
    const value = body[field.name];
    if (value === undefined || value === null) {
      if (field.required) problems.push({ path: field.name, message: 'is required' });
      continue;
    }
    const problem = typeProblem(field, value);
    if (problem) problems.push({ path: field.name, message: problem });
  }
  return problems;
}

/** The run's input: the body as sent, with every declared but absent field present as null. */
export function withDeclaredFields(fields: readonly InputField[], body: Record<string, unknown>): Record<string, unknown> {
  const input = { ...body };
  for (const field of fields) if (input[field.name] === undefined) input[field.name] = null;
  return input;
}
