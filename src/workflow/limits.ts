// Bounds on a workflow document. They exist so a hostile or corrupted state cannot make validation or the
// editor spend unbounded memory or time; real workflows stay far below them.
export const MAX_ID_LENGTH = 128;
export const MAX_NAME_LENGTH = 200;
export const MAX_BLOCKS = 1000;
export const MAX_EDGES = 5000;
/** sourceHandle is `condition-<conditionId>`, so it may be a little longer than an id. */
export const MAX_HANDLE_LENGTH = MAX_ID_LENGTH + 16;
/** Deeper config values are refused: validation and reference resolution walk them and must not exhaust the stack. */
export const MAX_CONFIG_DEPTH = 64;
/** One string can hold any number of bad references; the answer to a 400 must stay small. */
export const MAX_PROBLEMS = 500;
/**
 * Deeper block outputs fail their block: outputs travel into logs, webhooks, answers and later blocks' configs, and
 * everything that serialises or walks them may then rely on this bound (request bodies are bounded at 64 levels).
 */
export const MAX_OUTPUT_DEPTH = 128;
/**
 * Default bounds on the size of what runs produce, measured as JSON text (size.ts); SLUICE_MAX_BLOCK_OUTPUT_BYTES and
 * SLUICE_MAX_RUN_OUTPUT_BYTES change them. A block's output (and its config with references filled in) may hold
 * a whole 30 MB request twice over — the API trigger lays declared fields out at the top and under `input`. A run's
 * total stays below the 256 MB PostgreSQL takes in one jsonb value, so its log fits (strings count their characters).
 */
export const DEFAULT_MAX_BLOCK_OUTPUT_BYTES = 64 * 1024 * 1024;
export const DEFAULT_MAX_RUN_OUTPUT_BYTES = 192 * 1024 * 1024;
/** Bounds of an approval block's time-out; the editor shows them beside the field. */
export const MIN_APPROVAL_TIMEOUT_MS = 1_000;
/** The longest an approval may wait for its default decision. */
export const MAX_APPROVAL_TIMEOUT_MS = 30 * 24 * 3_600_000;
