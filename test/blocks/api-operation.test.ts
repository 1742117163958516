// How an OpenAPI operation becomes the API block's request (src/blocks/api-operation.ts): the serialisation rules the
// HTTP test (test/http/connectors.test.ts) does not reach.
import { describe, expect, it } from 'vitest';
import { operationRequest } from '../../src/blocks/api-operation.js';
import type { ConnectorOperation } from '../../src/connectors/openapi-operation.js';

const operation: ConnectorOperation = {
  operationId: 'search',
  method: 'POST',
  path: '/orgs/{org}/search',
  parameters: [
    { name: 'org', in: 'path', required: true },
    { name: 'ids', in: 'query', required: false, explode: false },
    { name: 'filter', in: 'query', required: false },
    { name: 'X-Mode', in: 'header', required: false },
  ],
  requestBody: { required: false, contentType: 'application/x-www-form-urlencoded' },
};
const call = (parameters: Record<string, unknown>, baseUrl = '') =>
  operationRequest({ operation, servers: ['https://api.example.com/v2/'], parameters, baseUrl, headers: [{ key: 'X-Mode', value: 'block' }] });

describe('an operation as a request', () => {
  it('joins unexploded arrays, spreads exploded objects, form-encodes a form body, and lets the block’s headers win', () => {
    expect(call({ org: ['a b', 'c'], ids: [1, 2], filter: { state: 'open', q: 'x y' }, 'X-Mode': 'doc', body: { a: 1, b: 'two words' } })).toEqual({
      url: 'https://api.example.com/v2/orgs/a%20b,c/search',
      method: 'POST',
      queryParams: [
        { key: 'ids', value: '1,2' },
        { key: 'state', value: 'open' },
        { key: 'q', value: 'x y' },
      ],
      headers: [
        { key: 'Content-Type', value: 'application/x-www-form-urlencoded' },
        { key: 'X-Mode', value: 'doc' },
        { key: 'X-Mode', value: 'block' },
      ],
      body: 'a=1&b=two+words',
    });
  });

  it('names what is missing, and asks for a URL when the document has no absolute server', () => {
    expect(call({})).toBe('Operation search needs parameter org');
    expect(operationRequest({ operation, servers: ['/relative'], parameters: { org: 'o' }, baseUrl: '', headers: [] })).toContain("set the block's URL");
    expect(operationRequest({ operation, servers: [], parameters: { org: 'o' }, baseUrl: 'http://127.0.0.1:8080', headers: [] })).toMatchObject({
      url: 'http://127.0.0.1:8080/orgs/o/search',
    });
  });
});
