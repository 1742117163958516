// The logs API service (docs/api.md 6): list, log detail, execution detail.
export { listLogs, logsPageQuery, type LogListItem, type LogPage } from './list.js';
export { keysetOrder, logFilters } from './filters.js';
export { modelWindowQuery, walksModelWindow, WINDOW_ROWS } from './model-window.js';
export { getExecutionDetail, getLogDetail, type ExecutionDetail, type LogDetail, type Located } from './detail.js';
export { logsQuerySchema, LOGS_QUERY_PARAMETERS, DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE, type LogsQuery } from './params.js';
export { encodeCursor, decodeCursor, type LogCursor, type LogOrder } from './cursor.js';
export { visibilityHorizon, SETTLE_MS, STALE_GRACE_MS } from './horizon.js';
