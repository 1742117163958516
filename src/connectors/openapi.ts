// OpenAPI documents as connectors (docs/api.md "Connectors (OpenAPI)"): an imported 3.0 / 3.1 document is parsed
// (JSON or YAML), validated against the OpenAPI schema, its internal `$ref`s resolved, and reduced to what the API
// block needs to call an operation: the servers and, per operation, its method, path, parameters and request body.
// External `$ref`s are refused: following them would make the server fetch files or URLs a user names.
import type { Validator } from '@seriousme/openapi-schema-validator';
import type { ConnectorOperation, OperationMethod, OperationParameter } from './openapi-operation.js';

export const MAX_DOCUMENT_BYTES = 2 * 1024 * 1024;
/** Methods the API block sends; operations under other methods (HEAD, OPTIONS, TRACE) are left out. */
const METHODS = ['get', 'post', 'put', 'delete', 'patch'] as const;
/** Resolving refs copies what they point at: past this many copied nodes, refs are left as `{ $ref }`. */
const EXPANSION_BUDGET = 100_000;

export interface ImportedDocument {
  document: Record<string, unknown>;
  /** The document's server URLs with their variables at their defaults, in order (the first one is used). */
  servers: string[];
  operations: ConnectorOperation[];
}

export interface DocumentProblem {
  path: string;
  message: string;
}

/** A document that cannot be imported; `problems` name where (as `document.…` paths). */
export class OpenApiDocumentError extends Error {
  constructor(
    message: string,
    readonly problems: DocumentProblem[] = [],
  ) {
    super(message);
    this.name = 'OpenApiDocumentError';
  }
}

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);

// One validator for the process: it compiles the OpenAPI schemas once per version. It and the YAML parser are loaded
// at the first import of a document, not at every start of a process (~0.3 s of CPU, which few processes ever need).
let validator: Promise<Validator> | undefined;
const openApiValidator = () =>
  (validator ??= import('@seriousme/openapi-schema-validator').then(({ Validator: OpenApiValidator }) => new OpenApiValidator()));

/** Parses, validates and reduces a document given as JSON or YAML text, or as an object. */
export async function importOpenApiDocument(input: unknown): Promise<ImportedDocument> {
  const document = await parseDocument(input);
  const version = typeof document.openapi === 'string' ? document.openapi : undefined;
  if (!version || !/^3\.[01]\.\d+$/.test(version)) {
    const found = typeof document.swagger === 'string' ? `Swagger ${document.swagger}` : version ? `OpenAPI ${version}` : 'no "openapi" version';
    throw new OpenApiDocumentError(`Only OpenAPI 3.0 and 3.1 documents can be imported (found ${found})`, [
      { path: 'document.openapi', message: 'must be 3.0.x or 3.1.x' },
    ]);
  }
  const external = externalRefs(document, 'document', []);
  if (external.length > 0) {
    throw new OpenApiDocumentError('External $refs are not followed: bundle the document into one file first', external.slice(0, 20));
  }
  const result = await (await openApiValidator()).validate(document);
  if (!result.valid) {
    const problems =
      typeof result.errors === 'string'
        ? [{ path: 'document', message: result.errors }]
        : (result.errors ?? []).slice(0, 20).map((error) => ({
            path: ['document', ...error.instancePath.split('/').slice(1).map(unescapePointer)].join('.'),
            message: error.message ?? 'is invalid',
          }));
    throw new OpenApiDocumentError('The document is not a valid OpenAPI document', problems);
  }
  const resolver = new RefResolver(document);
  return { document, servers: serverUrls(document.servers), operations: operationsOf(document, resolver) };
}

async function parseDocument(input: unknown): Promise<Json> {
  let value: unknown = input;
  if (typeof input === 'string') {
    if (new TextEncoder().encode(input).byteLength > MAX_DOCUMENT_BYTES) throw tooLarge();
    const { parse: parseYaml } = await import('yaml');
    try {
      // YAML is a superset of JSON; aliases are capped by the parser (maxAliasCount) against expansion bombs.
      value = parseYaml(input, { maxAliasCount: 1000, uniqueKeys: false });
    } catch (err) {
      const line = (err as { linePos?: Array<{ line: number }> }).linePos?.[0]?.line;
      throw new OpenApiDocumentError(`The document is neither JSON nor YAML${line ? ` (line ${line})` : ''}`, [{ path: 'document', message: 'cannot be parsed' }]);
    }
  } else if (isObject(input) && new TextEncoder().encode(JSON.stringify(input)).byteLength > MAX_DOCUMENT_BYTES) {
    throw tooLarge();
  }
  if (!isObject(value)) throw new OpenApiDocumentError('The document must be an object (a JSON or YAML mapping)', [{ path: 'document', message: 'must be an object' }]);
  // Round-trip through JSON: YAML dates and other non-JSON values become what the document means as JSON.
  return JSON.parse(JSON.stringify(value)) as Json;
}

const tooLarge = () =>
  new OpenApiDocumentError(`The document is larger than ${MAX_DOCUMENT_BYTES / 1024 / 1024} MB`, [{ path: 'document', message: 'too large' }]);

function externalRefs(value: unknown, path: string, found: DocumentProblem[]): DocumentProblem[] {
  if (Array.isArray(value)) value.forEach((item, index) => externalRefs(item, `${path}.${index}`, found));
  else if (isObject(value)) {
    for (const [key, item] of Object.entries(value)) {
      if (key === '$ref' && typeof item === 'string' && !item.startsWith('#')) {
        found.push({ path: `${path}.$ref`, message: `external reference "${item.slice(0, 200)}" is not followed` });
      } else externalRefs(item, `${path}.${key}`, found);
    }
  }
  return found;
}

function unescapePointer(segment: string): string {
  return segment.replace(/~1/g, '/').replace(/~0/g, '~');
}

/** Resolves `#/…` refs by copying their targets in; a ref met again inside itself stays a `{ $ref }` (recursion). */
class RefResolver {
  private budget = EXPANSION_BUDGET;
  constructor(private readonly document: Json) {}

  target(ref: string): unknown {
    let value: unknown = this.document;
    for (const segment of ref.replace(/^#\/?/, '').split('/').filter((s) => s !== '')) {
      const key = unescapePointer(decodeURIComponent(segment));
      if (Array.isArray(value)) value = value[Number(key)];
      else if (isObject(value)) value = value[key];
      else return undefined;
    }
    return value;
  }

  /** The value with its refs resolved (objects only: a resolved ref that is not an object is kept as the ref). */
  resolve(value: unknown, stack: readonly string[] = []): unknown {
    if (--this.budget < 0) return value;
    if (Array.isArray(value)) return value.map((item) => this.resolve(item, stack));
    if (!isObject(value)) return value;
    if (typeof value.$ref === 'string') {
      const ref = value.$ref;
      const target = this.target(ref);
      if (stack.includes(ref) || !isObject(target)) return { $ref: ref };
      // 3.1 lets siblings stand beside a $ref (description, summary): they win over the target's.
      const { $ref: _ref, ...siblings } = value;
      return { ...(this.resolve(target, [...stack, ref]) as Json), ...(this.resolve(siblings, stack) as Json) };
    }
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, this.resolve(item, stack)]));
  }
}

function serverUrls(servers: unknown): string[] {
  if (!Array.isArray(servers)) return [];
  return servers.filter(isObject).map((server) => {
    const variables = isObject(server.variables) ? server.variables : {};
    return String(server.url ?? '').replace(/\{([^}]+)\}/g, (whole, name: string) => {
      const variable = variables[name];
      return isObject(variable) && variable.default !== undefined ? String(variable.default) : whole;
    });
  });
}

function operationsOf(document: Json, resolver: RefResolver): ConnectorOperation[] {
  const operations: ConnectorOperation[] = [];
  const paths = isObject(document.paths) ? document.paths : {};
  for (const [path, rawItem] of Object.entries(paths)) {
    // Only what a request is built from is resolved: parameters and request bodies (responses are not needed).
    const item = isObject(rawItem) && typeof rawItem.$ref === 'string' ? resolver.target(rawItem.$ref) : rawItem;
    if (!isObject(item)) continue;
    const sharedParameters = resolver.resolve(item.parameters);
    const shared = Array.isArray(sharedParameters) ? sharedParameters : [];
    for (const method of METHODS) {
      const op = item[method];
      if (!isObject(op)) continue;
      const ownParameters = resolver.resolve(op.parameters);
      const own = Array.isArray(ownParameters) ? ownParameters : [];
      operations.push({
        operationId: typeof op.operationId === 'string' && op.operationId !== '' ? op.operationId : '',
        method: method.toUpperCase() as OperationMethod,
        path,
        ...(typeof op.summary === 'string' && { summary: op.summary }),
        ...(typeof op.description === 'string' && { description: op.description.slice(0, 2000) }),
        parameters: mergeParameters(shared, own),
        ...requestBodyOf(resolver.resolve(op.requestBody)),
      });
    }
  }
  assignOperationIds(operations);
  return operations;
}

/** Path-level parameters apply unless the operation redefines the same name and location. */
function mergeParameters(shared: unknown[], own: unknown[]): OperationParameter[] {
  const byKey = new Map<string, OperationParameter>();
  for (const raw of [...shared, ...own]) {
    if (!isObject(raw) || typeof raw.name !== 'string') continue;
    if (raw.in !== 'path' && raw.in !== 'query' && raw.in !== 'header') continue; // cookies are not sent by the block
    const schema = isObject(raw.schema) ? raw.schema : firstMediaSchema(raw.content);
    byKey.set(`${raw.in}:${raw.name}`, {
      name: raw.name,
      in: raw.in,
      required: raw.in === 'path' || raw.required === true,
      ...(typeof raw.description === 'string' && { description: raw.description.slice(0, 1000) }),
      ...(schema && { schema }),
      ...(typeof raw.explode === 'boolean' && { explode: raw.explode }),
    });
  }
  return [...byKey.values()];
}

function firstMediaSchema(content: unknown): Json | undefined {
  if (!isObject(content)) return undefined;
  const media = Object.values(content).find(isObject);
  return media && isObject(media.schema) ? media.schema : undefined;
}

function requestBodyOf(raw: unknown): Pick<ConnectorOperation, 'requestBody'> {
  if (!isObject(raw) || !isObject(raw.content)) return {};
  const types = Object.keys(raw.content);
  const contentType = types.find((type) => /^application\/(.+\+)?json\b/i.test(type)) ?? types.find((type) => /x-www-form-urlencoded/i.test(type)) ?? types[0];
  if (contentType === undefined) return {};
  const media = raw.content[contentType];
  return {
    requestBody: {
      required: raw.required === true,
      contentType,
      ...(isObject(media) && isObject(media.schema) && { schema: media.schema }),
      ...(typeof raw.description === 'string' && { description: raw.description.slice(0, 1000) }),
    },
  };
}

/**
 * Operations without an operationId get one from the method and path (`get_pets_petId` for GET /pets/{petId}),
 * made unique against the document's own ids by a numeric suffix. Ids the document repeats are refused.
 */
function assignOperationIds(operations: ConnectorOperation[]): void {
  const taken = new Set<string>();
  const repeated: DocumentProblem[] = [];
  for (const op of operations) {
    if (op.operationId === '') continue;
    if (taken.has(op.operationId)) repeated.push({ path: `document.paths.${op.path}.${op.method.toLowerCase()}.operationId`, message: `"${op.operationId}" is used twice` });
    taken.add(op.operationId);
  }
  if (repeated.length > 0) throw new OpenApiDocumentError('Every operationId must be unique in the document', repeated);
  for (const op of operations) {
    if (op.operationId !== '') continue;
    const base = `${op.method.toLowerCase()}_${op.path.replace(/[^A-Za-z0-9]+/g, '_').replace(/^_+|_+$/g, '')}`.replace(/_$/, '');
    let id = base;
    for (let n = 2; taken.has(id); n++) id = `${base}_${n}`;
    taken.add(id);
    op.operationId = id;
    op.derivedId = true;
  }
}
