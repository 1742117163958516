// Turns the server's OpenAPI document into TypeScript types (openapi-typescript), for src/generated/openapi.ts.
import openapiTS, { astToString, type OpenAPI3 } from 'openapi-typescript';

const HEADER = `// Generated from the Sluice server's OpenAPI document (GET /api/openapi.json) by openapi-typescript.
// Do not edit: run \`npm run client:generate\` (repository root) after changing a route's schemas.
`;

export async function generateTypes(document: unknown): Promise<string> {
  const ast = await openapiTS(document as OpenAPI3, { silent: true });
  return `${HEADER}\n${astToString(ast)}`;
}
