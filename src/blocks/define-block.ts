// A block definition takes its type from its form (./forms.ts): the palette, the registry and stored states all
// name a block type by that one string.
import type { z } from 'zod';
import type { TriggerType } from '../workflow/index.js';
import type { BlockForm } from './forms.js';
import type { BlockDefinition } from './types.js';

export function defineBlock<Config>(
  form: BlockForm<keyof Config & string>,
  definition: Omit<BlockDefinition<Config>, 'type' | 'form'>,
): BlockDefinition<Config> {
  return { type: form.type, form, ...definition };
}

/**
 * A trigger block starts runs of one trigger kind and has no effect outside the run (it only hands the run its
 * trigger's input), so after a pause it runs again rather than being replayed.
 */
export function triggerBlock<Config>(
  trigger: TriggerType,
  form: BlockForm<keyof Config & string>,
  configSchema: z.ZodType<Config>,
  run: BlockDefinition<Config>['run'],
): BlockDefinition<Config> {
  return defineBlock(form, { trigger, configSchema, replay: 'rerun', run });
}
