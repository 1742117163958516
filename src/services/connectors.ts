// OpenAPI connectors (docs/api.md "Connectors (OpenAPI)"): documents imported into a workspace, whose operations the
// API block calls by id. Import validates and reduces the document (connectors/openapi.ts); a workflow that names an
// operation is checked against the workspace's connectors when saved and deployed; a run looks the operation up in
// its own workspace only.
import { and, asc, eq, inArray } from 'drizzle-orm';
import { importOpenApiDocument, OpenApiDocumentError } from '../connectors/openapi.js';
import { missingParameters, type ConnectorOperation } from '../connectors/openapi-operation.js';
import type { Db } from '../db/client.js';
import { connectors } from '../db/schema.js';
import { badRequest, conflict, type ErrorDetail } from '../errors.js';
import { newId } from '../ids.js';
import type { WorkflowState } from '../workflow/index.js';

type ConnectorRow = typeof connectors.$inferSelect;

export interface ConnectorSummary {
  id: string;
  workspaceId: string;
  name: string;
  /** The document's info.title and info.version. */
  title: string;
  version: string;
  servers: string[];
  operationCount: number;
  createdAt: string;
}

export interface ConnectorView extends ConnectorSummary {
  operations: ConnectorOperation[];
}

function info(row: ConnectorRow): { title: string; version: string } {
  const docInfo = (row.document.info ?? {}) as { title?: unknown; version?: unknown };
  return { title: String(docInfo.title ?? ''), version: String(docInfo.version ?? '') };
}

export function toConnectorSummary(row: ConnectorRow): ConnectorSummary {
  return {
    id: row.id,
    workspaceId: row.workspaceId,
    name: row.name,
    ...info(row),
    servers: row.servers,
    operationCount: row.operations.length,
    createdAt: row.createdAt.toISOString(),
  };
}

export function toConnectorView(row: ConnectorRow): ConnectorView {
  return { ...toConnectorSummary(row), operations: row.operations as ConnectorOperation[] };
}

export async function createConnector(
  db: Db,
  input: { workspaceId: string; name: string; document: unknown; createdBy: string | null },
): Promise<ConnectorView> {
  let imported;
  try {
    imported = await importOpenApiDocument(input.document);
  } catch (err) {
    if (err instanceof OpenApiDocumentError) throw badRequest(err.message, err.problems);
    throw err;
  }
  const [row] = await db
    .insert(connectors)
    .values({ id: newId('conn'), workspaceId: input.workspaceId, name: input.name, createdBy: input.createdBy, ...imported })
    .onConflictDoNothing({ target: [connectors.workspaceId, connectors.name] })
    .returning();
  if (!row) throw conflict('CONNECTOR_NAME_TAKEN', `A connector named "${input.name}" already exists in this workspace`);
  return toConnectorView(row);
}

export async function listConnectors(db: Db, workspaceId: string): Promise<ConnectorSummary[]> {
  const rows = await db.select().from(connectors).where(eq(connectors.workspaceId, workspaceId)).orderBy(asc(connectors.name));
  return rows.map(toConnectorSummary);
}

export async function findConnector(db: Db, connectorId: string): Promise<ConnectorRow | undefined> {
  const [row] = await db.select().from(connectors).where(eq(connectors.id, connectorId)).limit(1);
  return row;
}

export async function deleteConnector(db: Db, row: ConnectorRow): Promise<void> {
  await db.delete(connectors).where(eq(connectors.id, row.id));
}

/** What a run needs to call one operation: the document's servers and the operation. */
export interface OperationForRun {
  servers: string[];
  operation: ConnectorOperation;
}

/** The operation a run's API block names, if its connector belongs to the run's workspace; else a message naming it. */
export async function loadOperationForRun(db: Db, workspaceId: string, connectorId: string, operationId: string): Promise<OperationForRun> {
  const row = typeof connectorId === 'string' && connectorId !== '' ? await findConnector(db, connectorId) : undefined;
  if (!row || row.workspaceId !== workspaceId) throw new Error(`Connector ${JSON.stringify(String(connectorId))} not found in this workspace`);
  const operation = (row.operations as ConnectorOperation[]).find((op) => op.operationId === operationId);
  if (!operation) throw new Error(`Connector "${row.name}" has no operation ${JSON.stringify(String(operationId))}`);
  return { servers: row.servers, operation };
}

/**
 * Save- and deploy-time check of the API blocks that call a connector operation: the connector must be one of the
 * workspace's, the operation one of its operations, and every required parameter given (a reference counts).
 */
export async function checkConnectorOperations(db: Db, workspaceId: string, state: WorkflowState, pathPrefix = 'state'): Promise<void> {
  const uses = Object.values(state.blocks)
    .filter((block) => block.enabled !== false && block.type === 'api' && typeof block.config.operation === 'object' && block.config.operation !== null)
    .map((block) => ({ blockId: block.id, config: block.config as { operation: { connectorId?: unknown; operationId?: unknown }; parameters?: unknown } }));
  if (uses.length === 0) return;
  const ids = [...new Set(uses.map((use) => use.config.operation.connectorId).filter((id): id is string => typeof id === 'string'))];
  const rows = ids.length === 0 ? [] : await db.select().from(connectors).where(and(eq(connectors.workspaceId, workspaceId), inArray(connectors.id, ids)));
  const byId = new Map(rows.map((row) => [row.id, row]));
  const problems: ErrorDetail[] = [];
  for (const { blockId, config } of uses) {
    const at = `${pathPrefix}.blocks.${blockId}.config`;
    const { connectorId, operationId } = config.operation;
    const row = typeof connectorId === 'string' ? byId.get(connectorId) : undefined;
    if (!row) {
      problems.push({ path: `${at}.operation.connectorId`, message: `unknown connector ${JSON.stringify(connectorId ?? null)} (not one of this workspace's)` });
      continue;
    }
    const operation = (row.operations as ConnectorOperation[]).find((op) => op.operationId === operationId);
    if (!operation) {
      problems.push({ path: `${at}.operation.operationId`, message: `connector "${row.name}" has no operation ${JSON.stringify(operationId ?? null)}` });
      continue;
    }
    const given = typeof config.parameters === 'object' && config.parameters !== null ? (config.parameters as Record<string, unknown>) : {};
    for (const name of missingParameters(operation, given)) {
      problems.push({ path: `${at}.parameters.${name}`, message: `required by operation ${operation.operationId} but not given` });
    }
  }
  if (problems.length > 0) throw badRequest('The workflow calls connector operations it cannot', problems);
}
