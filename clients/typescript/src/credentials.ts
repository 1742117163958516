// Stored credentials: connection secrets blocks name by id. Their secret values are write-only: reads show the type,
// the name, the non-secret fields and which secrets are set.
import type { Api, RequestOptions } from './api.js';
import type { Credential, CredentialCreate, CredentialTest, CredentialUpdate } from './types.js';

export function credentialCalls({ api, answer }: Api) {
  const at = (credentialId: string) => ({ path: { credentialId } });
  return {
    list: (workspaceId: string, opts: RequestOptions = {}): Promise<Credential[]> =>
      answer(api.GET('/api/v1/credentials', { params: { query: { workspaceId } }, signal: opts.signal })).then((r) => r.data),
    get: (credentialId: string, opts: RequestOptions = {}): Promise<Credential> =>
      answer(api.GET('/api/v1/credentials/{credentialId}', { params: at(credentialId), signal: opts.signal })).then((r) => r.data),
    create: (body: CredentialCreate, opts: RequestOptions = {}): Promise<Credential> =>
      answer(api.POST('/api/v1/credentials', { body, signal: opts.signal })).then((r) => r.data),
    /** Renames, or rotates: `data` is merged over the stored data (send only what changes; null removes a field). */
    update: (credentialId: string, body: CredentialUpdate, opts: RequestOptions = {}): Promise<Credential> =>
      answer(api.PATCH('/api/v1/credentials/{credentialId}', { params: at(credentialId), body, signal: opts.signal })).then((r) => r.data),
    delete: (credentialId: string, opts: RequestOptions = {}): Promise<void> =>
      answer(api.DELETE('/api/v1/credentials/{credentialId}', { params: at(credentialId), signal: opts.signal })).then(() => undefined),
    /** Opens a connection with the stored data: `ok` and what the server said. */
    test: (credentialId: string, opts: RequestOptions = {}): Promise<CredentialTest> =>
      answer(api.POST('/api/v1/credentials/{credentialId}/test', { params: at(credentialId), signal: opts.signal })).then((r) => r.data),
  };
}
