// An API block that names a connector operation (`operation: {connectorId, operationId}` with `parameters`) is turned
// here into the plain request the block already sends: the URL from the document's first server (or the block's own
// `url`) and the operation's path with its path parameters substituted and URL-encoded, its query and header
// parameters, and `parameters.body` as the body. Everything after that — the guarded network path, retries,
// credentials, outputs — is the API block's as it is.
import { isGiven, missingParameters, type ConnectorOperation, type OperationParameter } from '../connectors/openapi-operation.js';
import type { BlockServices } from './types.js';

export interface KeyValue {
  key: string;
  value: unknown;
}

/** The part of the API block's config a connector operation fills in. */
export interface PlainRequest {
  url: string;
  method: ConnectorOperation['method'];
  queryParams: KeyValue[];
  headers: KeyValue[];
  body?: unknown;
}

export interface OperationCall {
  operation: ConnectorOperation;
  servers: readonly string[];
  parameters: Record<string, unknown>;
  /** The block's `url`: when set, it replaces the document's server (e.g. a staging host). */
  baseUrl: string;
  /** The block's own headers, sent after the operation's (so one of the same name wins). */
  headers: readonly KeyValue[];
}

const textOf = (value: unknown): string => (typeof value === 'string' ? value : typeof value === 'object' ? JSON.stringify(value) : String(value));

/** Path style "simple": arrays comma-joined, each item URL-encoded (a `/` in a value never adds a path segment). */
function pathValue(value: unknown): string {
  return Array.isArray(value) ? value.map((item) => encodeURIComponent(textOf(item))).join(',') : encodeURIComponent(textOf(value));
}

/** Query style "form": arrays repeat the name (or are comma-joined when explode is false), objects give one pair per property. */
function queryPairs(param: OperationParameter, value: unknown): KeyValue[] {
  const explode = param.explode ?? true;
  if (Array.isArray(value)) return explode ? value.map((item) => ({ key: param.name, value: item })) : [{ key: param.name, value: value.map(textOf).join(',') }];
  if (typeof value === 'object' && value !== null && explode) return Object.entries(value).map(([key, item]) => ({ key, value: item }));
  return [{ key: param.name, value }];
}

/** The request the operation makes with these parameters, or a message saying why it cannot be made. */
export function operationRequest(call: OperationCall): PlainRequest | string {
  const { operation, parameters } = call;
  const missing = missingParameters(operation, parameters);
  if (missing.length > 0) return `Operation ${operation.operationId} needs parameter${missing.length > 1 ? 's' : ''} ${missing.join(', ')}`;
  const base = call.baseUrl.trim() || call.servers[0] || '';
  if (!/^https?:\/\//i.test(base)) {
    return base === ''
      ? `Operation ${operation.operationId}: the document names no server; set the block's URL`
      : `Operation ${operation.operationId}: the document's server "${base}" is not an absolute http(s) URL; set the block's URL`;
  }
  let path = operation.path;
  const queryParams: KeyValue[] = [];
  const headers: KeyValue[] = [];
  for (const param of operation.parameters) {
    if (param.in === 'path') path = path.split(`{${param.name}}`).join(pathValue(parameters[param.name]));
    else if (!isGiven(parameters[param.name])) continue;
    else if (param.in === 'query') queryParams.push(...queryPairs(param, parameters[param.name]));
    else headers.push({ key: param.name, value: parameters[param.name] });
  }
  headers.push(...call.headers);
  const request: PlainRequest = { url: `${base.replace(/\/+$/, '')}${path}`, method: operation.method, queryParams, headers };
  if (operation.requestBody && parameters.body !== undefined && parameters.body !== null) {
    const { contentType } = operation.requestBody;
    const body = parameters.body;
    if (/x-www-form-urlencoded/i.test(contentType) && typeof body === 'object') {
      request.body = new URLSearchParams(Object.entries(body).map(([key, value]) => [key, textOf(value)])).toString();
    } else {
      request.body = body;
    }
    headers.unshift({ key: 'Content-Type', value: contentType });
  }
  return request;
}

interface OperationConfig {
  url?: string;
  headers: KeyValue[];
  operation?: { connectorId: string; operationId: string };
  parameters?: Record<string, unknown>;
}

/**
 * The block's config as a plain request: unchanged without an operation; with one, its URL, method, query, headers
 * and body come from the operation (looked up in the run's workspace). A message when it cannot be called.
 */
export async function withOperation<Config extends OperationConfig>(config: Config, services: BlockServices): Promise<Config | string> {
  if (!config.operation) return config;
  const { connectorId, operationId } = config.operation;
  if (!services.connectorOperation) return 'Connector operations are not available here';
  let found;
  try {
    found = await services.connectorOperation(connectorId, operationId);
  } catch (err) {
    return (err as Error).message;
  }
  const request = operationRequest({ ...found, parameters: config.parameters ?? {}, baseUrl: config.url ?? '', headers: config.headers });
  return typeof request === 'string' ? request : { ...config, ...request };
}
