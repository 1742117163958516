// Export and import of workflows as documents (`{"format": "sluice.workflow", "version": 1, …}`), to move a workflow
// between workspaces or servers, or keep it in version control.
//
// A document carries no secrets. References to environment variables (`{{NAME}}`) stay as written; a literal value in
// a field that holds a credential (an agent's apiKey, a webhook trigger's secret, an API block's or an agent tool's
// header or query parameter named like a credential, an OpenAPI operation's parameter named so, an MCP server's header named so) is replaced by a reference to a variable named after its block and field, so the
// importing workspace sets that variable instead of finding the secret in a file. Function code and URLs are exported
// as written. Pinned outputs (docs/workflows.md "Pinned data") are not exported.
//
// Stored credentials travel by name: a block's `credentialId` becomes `{"credential": "<name>"}` in the document (the
// credential's data is never in it) and the document lists the credentials it names with their types; an import maps
// each name to a credential of the target workspace, by the same name and type or as the import body's `credentials`
// says, and refuses (400 CREDENTIALS_UNMAPPED, naming them) when one cannot be mapped. Imported OpenAPI documents (an
// API block's `operation.connectorId`) travel by name the same way: `{"connector": "<name>"}`, listed in `connectors`,
// mapped on import to the workspace's connector of that name (400 CONNECTORS_UNMAPPED: import the document first).
import { and, eq, inArray } from 'drizzle-orm';
import { z } from 'zod';
import { credentialTypeSchema, type CredentialType } from '../connectors/credential-data.js';
import type { Db } from '../db/client.js';
import { connectors, credentials } from '../db/schema.js';
import { AppError, badRequest } from '../errors.js';
import { findReferences, withoutPins, type WorkflowState } from '../workflow/index.js';
import { ENV_NAME_PATTERN, listEnvVarNames } from './env-vars.js';
import { checkState, createWorkflow } from './workflows.js';

export const WORKFLOW_DOCUMENT_FORMAT = 'sluice.workflow';
export const WORKFLOW_DOCUMENT_VERSION = 1;

export interface WorkflowDocument {
  format: typeof WORKFLOW_DOCUMENT_FORMAT;
  version: typeof WORKFLOW_DOCUMENT_VERSION;
  name: string;
  description: string;
  state: WorkflowState;
  /** Every environment variable the state references, for whoever imports it to set. */
  environment: string[];
  /** The stored credentials the blocks name (`credentialId: {"credential": name}`), for whoever imports it to map. */
  credentials: DocumentCredential[];
  /** The imported OpenAPI documents the API blocks' operations name (`connectorId: {"connector": name}`). */
  connectors: { name: string }[];
}

export interface DocumentCredential {
  name: string;
  type: CredentialType;
}

/** A literal secret the export replaced by a variable reference. */
export interface ReplacedSecret {
  /** Where in the state, e.g. `blocks.fetch.config.headers[0].value`. */
  path: string;
  variable: string;
}

/** Header / query parameter names whose values are credentials. */
const CREDENTIAL_NAME = /auth|token|secret|passw|api[-_]?key|apikey|access[-_]?key|private[-_]?key|credential|cookie|session|signature/i;

export const workflowDocumentSchema = z.strictObject({
  format: z.literal(WORKFLOW_DOCUMENT_FORMAT, { error: `must be "${WORKFLOW_DOCUMENT_FORMAT}"` }),
  version: z.number().refine((v) => v === WORKFLOW_DOCUMENT_VERSION, {
    error: `must be ${WORKFLOW_DOCUMENT_VERSION}: this server reads version ${WORKFLOW_DOCUMENT_VERSION} documents`,
  }),
  name: z.string().trim().min(1, 'must not be empty').max(200),
  description: z.string().max(2000).default(''),
  state: z.unknown(),
  environment: z.array(z.string().regex(ENV_NAME_PATTERN, 'must be a variable name')).max(1000).optional(),
  credentials: z.array(z.strictObject({ name: z.string().min(1).max(200), type: credentialTypeSchema })).max(1000).optional(),
  connectors: z.array(z.strictObject({ name: z.string().min(1).max(200) })).max(1000).optional(),
});

/** How a document names a stored credential in place of its id. */
const credentialMarker = z.strictObject({ credential: z.string().min(1).max(200).nullable() });
type CredentialMarker = z.infer<typeof credentialMarker>;

/** The `credentialId` fields of the blocks (any block type: the connector blocks and the API block all use this key) and of an agent's tools. */
function credentialFields(state: { blocks?: unknown }): { config: Record<string, unknown>; at: string }[] {
  const blocks = state.blocks && typeof state.blocks === 'object' ? (state.blocks as Record<string, { config?: unknown }>) : {};
  const found: { config: Record<string, unknown>; at: string }[] = [];
  const holdsCredential = (value: unknown): value is Record<string, unknown> =>
    value !== null && typeof value === 'object' && !Array.isArray(value) && 'credentialId' in value;
  for (const [id, block] of Object.entries(blocks)) {
    const config = block?.config;
    if (holdsCredential(config)) found.push({ config, at: `blocks.${id}.config.credentialId` });
    const tools = config && typeof config === 'object' ? (config as { tools?: unknown }).tools : undefined;
    if (!Array.isArray(tools)) continue;
    tools.forEach((tool, index) => {
      if (holdsCredential(tool)) found.push({ config: tool, at: `blocks.${id}.config.tools[${index}].credentialId` });
    });
  }
  return found;
}

/** Replaces each credential id by the credential's name (null for one that is not in the workspace any more). */
async function namedCredentials(db: Db, workspaceId: string, state: WorkflowState): Promise<DocumentCredential[]> {
  const fields = credentialFields(state).filter(({ config }) => typeof config.credentialId === 'string' && config.credentialId !== '');
  if (fields.length === 0) return [];
  const ids = [...new Set(fields.map(({ config }) => config.credentialId as string))];
  const rows = await db
    .select({ id: credentials.id, name: credentials.name, type: credentials.type })
    .from(credentials)
    .where(and(eq(credentials.workspaceId, workspaceId), inArray(credentials.id, ids)));
  const byId = new Map(rows.map((row) => [row.id, row]));
  const named = new Map<string, DocumentCredential>();
  for (const { config } of fields) {
    const row = byId.get(config.credentialId as string);
    config.credentialId = { credential: row?.name ?? null } satisfies CredentialMarker;
    if (row) named.set(row.name, { name: row.name, type: row.type as CredentialType });
  }
  return [...named.values()].sort((a, b) => a.name.localeCompare(b.name));
}

/**
 * Puts credential ids of the target workspace in place of the document's names: the body's `credentials` map first
 * (name → id), else the workspace's credential of the same name and type. A name that maps to nothing is a 400 that
 * lists every such name, so the importer can send the map.
 */
async function mapCredentials(
  db: Db,
  workspaceId: string,
  state: { blocks?: unknown },
  listed: readonly DocumentCredential[],
  mapping: Record<string, string>,
): Promise<void> {
  const fields = credentialFields(state)
    .map((field) => ({ ...field, marker: credentialMarker.safeParse(field.config.credentialId) }))
    .filter((field) => field.marker.success);
  if (fields.length === 0) return;
  const rows = await db
    .select({ id: credentials.id, name: credentials.name, type: credentials.type })
    .from(credentials)
    .where(eq(credentials.workspaceId, workspaceId));
  const typeOf = new Map(listed.map((c) => [c.name, c.type]));
  const unmapped = new Map<string, string>();
  const resolve = (name: string): string | undefined => {
    const expected = typeOf.get(name);
    const wanted = mapping[name];
    if (wanted !== undefined) {
      const row = rows.find((r) => r.id === wanted);
      if (!row) unmapped.set(name, `mapped to ${JSON.stringify(wanted)}, which is not a credential of this workspace`);
      else if (expected && row.type !== expected) unmapped.set(name, `mapped to "${row.name}", a ${row.type} credential; the workflow needs ${expected}`);
      return row && (!expected || row.type === expected) ? row.id : undefined;
    }
    const same = rows.find((r) => r.name === name && (!expected || r.type === expected));
    if (!same) unmapped.set(name, `no ${expected ?? ''}${expected ? ' ' : ''}credential named "${name}" in this workspace: map it in "credentials"`);
    return same?.id;
  };
  for (const { config, marker } of fields) {
    const name = (marker.data as CredentialMarker).credential;
    config.credentialId = name === null ? '' : (resolve(name) ?? '');
  }
  if (unmapped.size > 0) {
    const names = [...unmapped.keys()];
    throw new AppError(
      'CREDENTIALS_UNMAPPED',
      400,
      `Map the workflow's credentials to credentials of this workspace: ${names.map((n) => JSON.stringify(n)).join(', ')} (send "credentials": {"<name>": "<credentialId>"})`,
      names.map((name) => ({ path: `credentials.${name}`, message: unmapped.get(name) as string })),
    );
  }
}

/** How a document names an imported OpenAPI document in place of its id. */
const connectorMarker = z.strictObject({ connector: z.string().min(1).max(200).nullable() });

/** The API blocks' `operation` objects (which name a connector by id, or by marker in a document). */
function operationFields(state: { blocks?: unknown }): Record<string, unknown>[] {
  const blocks = state.blocks && typeof state.blocks === 'object' ? (state.blocks as Record<string, { type?: unknown; config?: unknown }>) : {};
  return Object.values(blocks)
    .map((block) => (block?.type === 'api' && block.config && typeof block.config === 'object' ? (block.config as { operation?: unknown }).operation : undefined))
    .filter((operation): operation is Record<string, unknown> => operation !== null && typeof operation === 'object' && !Array.isArray(operation));
}

/** Replaces each operation's connector id by the connector's name (null for one that is not in the workspace any more). */
async function namedConnectors(db: Db, workspaceId: string, state: WorkflowState): Promise<{ name: string }[]> {
  const operations = operationFields(state).filter((operation) => typeof operation.connectorId === 'string');
  if (operations.length === 0) return [];
  const rows = await db
    .select({ id: connectors.id, name: connectors.name })
    .from(connectors)
    .where(and(eq(connectors.workspaceId, workspaceId), inArray(connectors.id, [...new Set(operations.map((o) => o.connectorId as string))])));
  const nameOf = new Map(rows.map((row) => [row.id, row.name]));
  for (const operation of operations) operation.connectorId = { connector: nameOf.get(operation.connectorId as string) ?? null };
  return [...new Set(rows.map((row) => row.name))].sort().map((name) => ({ name }));
}

/** Puts the workspace's connector of each named document in place of the name; 400 listing the names it does not have. */
async function mapConnectors(db: Db, workspaceId: string, state: { blocks?: unknown }): Promise<void> {
  const operations = operationFields(state)
    .map((operation) => ({ operation, marker: connectorMarker.safeParse(operation.connectorId) }))
    .filter((field) => field.marker.success);
  if (operations.length === 0) return;
  const rows = await db.select({ id: connectors.id, name: connectors.name }).from(connectors).where(eq(connectors.workspaceId, workspaceId));
  const idOf = new Map(rows.map((row) => [row.name, row.id]));
  const missing = new Set<string>();
  for (const { operation, marker } of operations) {
    const name = marker.data!.connector;
    const found = name === null ? undefined : idOf.get(name);
    if (name !== null && found === undefined) missing.add(name);
    // A document whose connector was already gone when it was exported imports with no operation to run.
    operation.connectorId = found ?? '';
  }
  if (missing.size > 0) {
    const names = [...missing];
    throw new AppError(
      'CONNECTORS_UNMAPPED',
      400,
      `Import the OpenAPI documents the workflow's operations use into this workspace first, under the same names: ${names.map((n) => JSON.stringify(n)).join(', ')}`,
      names.map((name) => ({ path: `connectors.${name}`, message: `no connector named "${name}" in this workspace` })),
    );
  }
}

/** Environment variable names referenced anywhere in a value (strings inside objects and arrays). */
function referencedVariables(value: unknown, into = new Set<string>()): Set<string> {
  // Iterative: state documents are bounded by validation, but a walk never needs the call stack to be deep.
  const pending: unknown[] = [value];
  while (pending.length > 0) {
    const item = pending.pop();
    if (typeof item === 'string') {
      for (const ref of findReferences(item)) if (ref.kind === 'env') into.add(ref.name);
    } else if (Array.isArray(item)) pending.push(...item);
    else if (item && typeof item === 'object') pending.push(...Object.values(item));
  }
  return into;
}

const isLiteralSecret = (value: unknown) =>
  (typeof value === 'string' && value.trim() !== '' && findReferences(value).length === 0) || typeof value === 'number';

/** `Fetch orders` + `apiKey` → `FETCH_ORDERS_API_KEY`. */
function variableName(blockName: string, field: string): string {
  const words = `${blockName} ${field.replace(/([a-z0-9])([A-Z])/g, '$1_$2')}`;
  const name = words.toUpperCase().replace(/[^A-Z0-9]+/g, '_').replace(/^_+|_+$/g, '').slice(0, 120);
  return /^[A-Z_]/.test(name) ? name : `_${name}`;
}

/** A copy of the state with literal secrets replaced by variable references, and the list of what was replaced. */
export function withoutSecrets(state: WorkflowState): { state: WorkflowState; replaced: ReplacedSecret[] } {
  const copy = structuredClone(state);
  const taken = referencedVariables(copy);
  const replaced: ReplacedSecret[] = [];
  const replace = (path: string, blockName: string, field: string): string => {
    const base = variableName(blockName, field);
    let variable = base;
    for (let n = 2; taken.has(variable); n++) variable = `${base}_${n}`;
    taken.add(variable);
    replaced.push({ path, variable });
    return `{{${variable}}}`;
  };
  /** Header or query values named like a credential, in a `{ name: value }` map. */
  const replaceInMap = (map: unknown, at: string, blockName: string) => {
    if (!map || typeof map !== 'object' || Array.isArray(map)) return;
    const values = map as Record<string, unknown>;
    for (const [name, value] of Object.entries(values)) {
      if (CREDENTIAL_NAME.test(name) && isLiteralSecret(value)) values[name] = replace(`${at}.${name}`, blockName, name);
    }
  };
  for (const [id, block] of Object.entries(copy.blocks)) {
    const config = block.config;
    const at = `blocks.${id}.config`;
    if (block.type === 'agent' && isLiteralSecret(config.apiKey)) config.apiKey = replace(`${at}.apiKey`, block.name, 'apiKey');
    if (block.type === 'agent' && Array.isArray(config.tools)) {
      // An agent's HTTP tools and MCP servers carry their own credentials (README "Agents").
      config.tools.forEach((tool: unknown, index) => {
        if (!tool || typeof tool !== 'object') return;
        const entry = tool as { type?: unknown; headers?: unknown; request?: { headers?: unknown; query?: unknown } };
        const toolAt = `${at}.tools[${index}]`;
        if (entry.type === 'mcp') replaceInMap(entry.headers, `${toolAt}.headers`, block.name);
        if (entry.type === 'http' && entry.request && typeof entry.request === 'object') {
          replaceInMap(entry.request.headers, `${toolAt}.request.headers`, block.name);
          replaceInMap(entry.request.query, `${toolAt}.request.query`, block.name);
        }
      });
    }
    if (block.type === 'webhook_trigger' && isLiteralSecret(config.secret)) config.secret = replace(`${at}.secret`, block.name, 'secret');
    if (block.type === 'api') {
      // An OpenAPI operation's header and query parameters (an API key the document declares) by name.
      replaceInMap(config.parameters, `${at}.parameters`, block.name);
      for (const list of ['headers', 'queryParams'] as const) {
        const entries = config[list];
        if (!Array.isArray(entries)) continue;
        entries.forEach((entry: unknown, index) => {
          if (!entry || typeof entry !== 'object') return;
          const pair = entry as { key?: unknown; value?: unknown };
          if (typeof pair.key === 'string' && CREDENTIAL_NAME.test(pair.key) && isLiteralSecret(pair.value)) {
            pair.value = replace(`${at}.${list}[${index}].value`, block.name, pair.key);
          }
        });
      }
    }
  }
  return { state: copy, replaced };
}

export async function exportWorkflow(
  db: Db,
  row: { workspaceId: string; name: string; description: string; state: WorkflowState },
): Promise<{
  document: WorkflowDocument;
  replacedSecrets: ReplacedSecret[];
}> {
  // Pinned outputs stay behind: they are recorded data (an upstream's answer may hold anything), not the workflow.
  const { state, replaced } = withoutSecrets(withoutPins(row.state));
  const named = await namedCredentials(db, row.workspaceId, state);
  const namedDocuments = await namedConnectors(db, row.workspaceId, state);
  return {
    document: {
      format: WORKFLOW_DOCUMENT_FORMAT,
      version: WORKFLOW_DOCUMENT_VERSION,
      name: row.name,
      description: row.description,
      state,
      environment: [...referencedVariables(state)].sort(),
      credentials: named,
      connectors: namedDocuments,
    },
    replacedSecrets: replaced,
  };
}

/**
 * Creates a draft workflow from a document (validated like any saved state). Also says which referenced variables the
 * workspace does not have yet, so the importer knows what to set before deploying.
 */
export async function importWorkflow(
  db: Db,
  input: { workspaceId: string; document: unknown; folderId?: string | null; name?: string; credentials?: Record<string, string> },
) {
  const parsed = workflowDocumentSchema.safeParse(input.document);
  if (!parsed.success) {
    throw badRequest(
      'The document is not a Sluice workflow document',
      parsed.error.issues.map((issue) => ({ path: ['document', ...issue.path.map(String)].join('.'), message: issue.message })),
    );
  }
  const document = parsed.data;
  if (document.state && typeof document.state === 'object') {
    const copy = structuredClone(document.state) as { blocks?: unknown };
    await mapCredentials(db, input.workspaceId, copy, document.credentials ?? [], input.credentials ?? {});
    await mapConnectors(db, input.workspaceId, copy);
    document.state = copy;
  }
  const state = checkState(document.state, 'document.state');
  const row = await createWorkflow(db, {
    workspaceId: input.workspaceId,
    name: input.name ?? document.name,
    description: document.description,
    folderId: input.folderId,
    state,
  });
  const existing = new Set((await listEnvVarNames(db, input.workspaceId)).map((v) => v.name));
  const missingEnvironment = [...referencedVariables(state)].filter((name) => !existing.has(name)).sort();
  return { row, missingEnvironment };
}
