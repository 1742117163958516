// What an operation of an imported OpenAPI document is to the API block and the editor (connectors/openapi.ts makes
// these from a document): no Node API here, so the web app's type check can follow the block types to it.

export type OperationMethod = 'GET' | 'POST' | 'PUT' | 'DELETE' | 'PATCH';

export interface OperationParameter {
  name: string;
  in: 'path' | 'query' | 'header';
  required: boolean;
  description?: string;
  /** JSON Schema of the value, refs resolved (a recursive one keeps its `$ref` where it recurses). */
  schema?: Record<string, unknown>;
  /** Query arrays and objects: repeated / one pair per property (true, the default) or comma-joined (false). */
  explode?: boolean;
}

export interface ConnectorOperation {
  operationId: string;
  /** True when the document gave none and it was derived from the method and path. */
  derivedId?: boolean;
  method: OperationMethod;
  path: string;
  summary?: string;
  description?: string;
  parameters: OperationParameter[];
  requestBody?: { required: boolean; contentType: string; schema?: Record<string, unknown>; description?: string };
}

/** A parameter value the block gives: absent, null and empty text count as not given. */
export function isGiven(value: unknown): boolean {
  return value !== undefined && value !== null && value !== '';
}

/** The required parameters (and the body, as `body`) an operation needs that `parameters` does not give. */
export function missingParameters(operation: ConnectorOperation, parameters: Record<string, unknown>): string[] {
  const missing = operation.parameters.filter((p) => p.required && !isGiven(parameters[p.name])).map((p) => p.name);
  if (operation.requestBody?.required && !isGiven(parameters.body)) missing.push('body');
  return missing;
}

