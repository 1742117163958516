// What a stored credential holds, per type (docs/api.md "Credentials"). The shapes are the contract between the
// credentials API, which validates and encrypts them, and the connectors that open connections with them. Imports
// nothing of the project, so blocks, services and the web client's types can all read it.
import { z } from 'zod';

const host = z.string().trim().min(1, 'is required').max(255);
const port = z.number().int().min(1).max(65_535);
const secretText = z.string().max(4096);
const optionalText = z.string().max(1024).optional();

const sqlServer = z.strictObject({
  host,
  port: port.optional(),
  user: z.string().min(1, 'is required').max(255),
  password: secretText.optional(),
  database: z.string().min(1, 'is required').max(255),
  /** Encrypt the connection (TLS); the server's certificate is checked. */
  ssl: z.boolean().optional(),
});

const brokerServer = z.strictObject({ host, port: port.optional(), user: optionalText, password: secretText.optional() });

const oauth2 = z.strictObject({
  scheme: z.literal('oauth2'),
  tokenUrl: z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' }),
  clientId: z.string().min(1, 'is required').max(1024),
  clientSecret: secretText,
  scope: optionalText,
  audience: optionalText,
});

export const credentialDataSchemas = {
  postgres: sqlServer,
  mysql: sqlServer,
  redis: brokerServer.extend({ database: z.number().int().min(0).max(255).optional(), tls: z.boolean().optional() }),
  amqp: z.strictObject({
    host,
    port: port.optional(),
    user: optionalText,
    password: secretText.optional(),
    vhost: z.string().max(255).optional(),
    tls: z.boolean().optional(),
  }),
  mqtt: brokerServer.extend({ tls: z.boolean().optional() }),
  nats: brokerServer.extend({ token: secretText.optional(), tls: z.boolean().optional() }),
  smtp: z.strictObject({
    host,
    port: port.optional(),
    /** TLS from the start (port 465); otherwise STARTTLS when the server offers it. */
    secure: z.boolean().optional(),
    user: optionalText,
    password: secretText.optional(),
  }),
  http: z.discriminatedUnion('scheme', [
    z.strictObject({ scheme: z.literal('bearer'), token: secretText.min(1, 'is required') }),
    z.strictObject({ scheme: z.literal('basic'), user: z.string().max(1024), password: secretText }),
    z.strictObject({
      scheme: z.literal('header'),
      name: z.string().regex(/^[A-Za-z0-9!#$%&'*+.^_`|~-]+$/, 'must be a header name').max(256),
      value: secretText.min(1, 'is required'),
    }),
    z.strictObject({ scheme: z.literal('query'), name: z.string().min(1).max(256), value: secretText.min(1, 'is required') }),
    oauth2,
  ]),
} as const;

export type CredentialType = keyof typeof credentialDataSchemas;
export const CREDENTIAL_TYPES = Object.keys(credentialDataSchemas) as CredentialType[];
export const credentialTypeSchema = z.enum(CREDENTIAL_TYPES as [CredentialType, ...CredentialType[]]);

export type CredentialData<T extends CredentialType = CredentialType> = z.infer<(typeof credentialDataSchemas)[T]>;

/** A credential handed to a connector for one run: decrypted, with a version that changes when it is rotated. */
export interface ResolvedCredential<T extends CredentialType = CredentialType> {
  id: string;
  name: string;
  type: T;
  data: CredentialData<T>;
  /** Changes whenever the data does: connections opened with an older version are not reused. */
  version: string;
}

/** Fields that never leave the server once stored; reads say only whether they are set. */
export const SECRET_FIELDS = new Set(['password', 'token', 'clientSecret', 'value']);

/** What reads show of a credential's data: its non-secret fields, and which secret fields are set. */
export function describeCredentialData(data: Record<string, unknown>): { fields: Record<string, unknown>; secretsSet: string[] } {
  const fields: Record<string, unknown> = {};
  const secretsSet: string[] = [];
  for (const [key, value] of Object.entries(data)) {
    if (SECRET_FIELDS.has(key)) {
      if (value !== undefined && value !== '') secretsSet.push(key);
    } else fields[key] = value;
  }
  return { fields, secretsSet: secretsSet.sort() };
}

/** The credential type a block or trigger needs, or the several it accepts (publish follows the credential's type). */
export function assertCredentialType<T extends CredentialType>(
  credential: ResolvedCredential,
  accepted: readonly T[],
): asserts credential is ResolvedCredential<T> {
  if (!(accepted as readonly CredentialType[]).includes(credential.type)) {
    throw new Error(`Credential "${credential.name}" is of type ${credential.type}; this block needs ${accepted.join(' or ')}`);
  }
}
