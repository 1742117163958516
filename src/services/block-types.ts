// The block catalogue as the API serves it (`GET /api/v1/block-types`, blocks/describe.ts): the HTTP layer reaches
// blocks through this module only, so it depends on what the catalogue says, not on where blocks keep it.
export { describeBlockTypes as listBlockTypes, type BlockTypeView } from '../blocks/describe.js';
export { FIELD_KINDS } from '../blocks/forms.js';
