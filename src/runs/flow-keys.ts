// The key of a run under flow control (docs/workflows.md "Flow control"): `<workflowId>:<key value>`, the key value
// read from the run's input by the setting's key template. Shared by concurrency slots, throttle starts and debounce.
import { createHash } from 'node:crypto';
import { flowKeyValue } from '../workflow/index.js';

/** Key values longer than this are kept as their hash (they are primary keys and index entries). */
const MAX_KEY_VALUE_LENGTH = 200;

/** The run's key for a setting with key template `template` (undefined: one key for the whole workflow). */
export function flowKeyOf(workflowId: string, template: string | undefined, input: Record<string, unknown>): string {
  const value = template === undefined ? '' : flowKeyValue(template, input);
  const kept = value.length > MAX_KEY_VALUE_LENGTH ? `sha256:${createHash('sha256').update(value).digest('hex')}` : value;
  return `${workflowId}:${kept}`;
}
