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
