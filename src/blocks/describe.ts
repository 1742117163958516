// The block catalogue as data for API clients (`GET /api/v1/block-types`): what the editor's palette and forms show
// (./forms.ts) and, per type, the JSON Schema of its config — so a workflow written by a program, not in the editor,
// can be checked before it is saved. Containers (loop, parallel) are described by their settings in the state.
import { z } from 'zod';
import { LoopSchema, ParallelSchema, type TriggerType } from '../workflow/index.js';
import { BLOCK_FORMS, type BlockForm, type FieldKind } from './forms.js';
import { blockRegistry } from './registry.js';

export interface BlockTypeView {
  type: string;
  label: string;
  group: BlockForm['group'];
  description: string;
  /** The trigger kind that starts runs at this block; null for the others. */
  trigger: TriggerType | null;
  /** Fields of `<block.field>` references to this block's output (those always present). */
  outputs: string[];
  fields: {
    key: string;
    label: string;
    kind: FieldKind;
    options?: string[];
    placeholder?: string;
    help?: string;
    /** A `credential` field's accepted credential types. */
    credentialTypes?: string[];
    /** Shown by the editor only when the block's chosen credential is of one of these types (a broker's own fields). */
    forCredentialTypes?: string[];
    /** Shown by the editor only for some values of the other fields (the API block's body for POST, PUT, PATCH). */
    conditional: boolean;
  }[];
  /** What the editor puts in a new block of this type. */
  defaultConfig: Record<string, unknown>;
  /** JSON Schema (2020-12) of the config once references are resolved; a field may hold a `<block.field>` reference. */
  configSchema: Record<string, unknown>;
}

/** Container settings as the state keeps them under `loops` / `parallels`, less what the editor fills in itself. */
const containerSchemas: Record<string, z.ZodType> = {
  loop: LoopSchema.omit({ id: true, nodes: true }),
  parallel: ParallelSchema.omit({ id: true, nodes: true }),
};

function configSchemaOf(type: string): z.ZodType {
  const schema = blockRegistry[type]?.configSchema ?? containerSchemas[type];
  if (!schema) throw new Error(`Block type ${type} has a form but no config schema`);
  return schema;
}

function describe(form: BlockForm): BlockTypeView {
  return {
    type: form.type,
    label: form.label,
    group: form.group,
    description: form.description,
    trigger: blockRegistry[form.type]?.trigger ?? null,
    outputs: [...form.outputs],
    fields: form.fields.map(({ when, options, credentialTypes, forCredentialTypes, ...field }) => ({
      ...field,
      ...(options ? { options: [...options] } : {}),
      ...(credentialTypes ? { credentialTypes: [...credentialTypes] } : {}),
      ...(forCredentialTypes ? { forCredentialTypes: [...forCredentialTypes] } : {}),
      conditional: when !== undefined,
    })),
    defaultConfig: form.defaultConfig(),
    // `unrepresentable: 'any'`: a check JSON Schema cannot say (a cron expression's validity) is left to the server.
    configSchema: z.toJSONSchema(configSchemaOf(form.type), { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>,
  };
}

let described: BlockTypeView[] | undefined;

/** Every block type, in palette order; built once (the catalogue is fixed for the life of the process). */
export function describeBlockTypes(): BlockTypeView[] {
  described ??= BLOCK_FORMS.map(describe);
  return described;
}
