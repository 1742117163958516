// The fields of each credential type's data (src/connectors/credential-data.ts, docs/api.md "Credentials"), as the
// Credentials page's form shows them. Secret fields are write-only: the form never fills them in, and leaves a stored
// one as it is unless something is typed.
import type { Credential } from './types';

export type CredentialType = Credential['type'];
export const CREDENTIAL_TYPES: readonly CredentialType[] = ['postgres', 'mysql', 'redis', 'amqp', 'mqtt', 'nats', 'smtp', 'http'];
export const HTTP_SCHEMES = ['bearer', 'basic', 'header', 'query', 'oauth2'] as const;
export type HttpScheme = (typeof HTTP_SCHEMES)[number];

export interface CredentialField {
  key: string;
  label: string;
  kind: 'text' | 'number' | 'secret' | 'checkbox';
  required?: boolean;
  placeholder?: string;
}

const host: CredentialField = { key: 'host', label: 'Host', kind: 'text', required: true, placeholder: 'db.example.com' };
const port = (placeholder: string): CredentialField => ({ key: 'port', label: 'Port', kind: 'number', placeholder });
const user = (required = false): CredentialField => ({ key: 'user', label: 'User', kind: 'text', required });
const password: CredentialField = { key: 'password', label: 'Password', kind: 'secret' };
const tls: CredentialField = { key: 'tls', label: 'TLS', kind: 'checkbox' };

const sql = (defaultPort: string): CredentialField[] => [
  host,
  port(defaultPort),
  user(true),
  password,
  { key: 'database', label: 'Database', kind: 'text', required: true },
  { key: 'ssl', label: 'TLS (certificate checked)', kind: 'checkbox' },
];

const byType: Record<Exclude<CredentialType, 'http'>, CredentialField[]> = {
  postgres: sql('5432'),
  mysql: sql('3306'),
  redis: [host, port('6379'), user(), password, { key: 'database', label: 'Database number', kind: 'number', placeholder: '0' }, tls],
  amqp: [host, port('5672'), user(), password, { key: 'vhost', label: 'Virtual host', kind: 'text', placeholder: '/' }, tls],
  mqtt: [host, port('1883'), user(), password, tls],
  nats: [host, port('4222'), user(), password, { key: 'token', label: 'Token', kind: 'secret' }, tls],
  smtp: [host, port('587'), { key: 'secure', label: 'TLS from the start (port 465)', kind: 'checkbox' }, user(), password],
};

const byScheme: Record<HttpScheme, CredentialField[]> = {
  bearer: [{ key: 'token', label: 'Token', kind: 'secret', required: true }],
  basic: [{ key: 'user', label: 'User', kind: 'text' }, password],
  header: [
    { key: 'name', label: 'Header name', kind: 'text', required: true, placeholder: 'X-API-Key' },
    { key: 'value', label: 'Header value', kind: 'secret', required: true },
  ],
  query: [
    { key: 'name', label: 'Query parameter', kind: 'text', required: true, placeholder: 'api_key' },
    { key: 'value', label: 'Value', kind: 'secret', required: true },
  ],
  oauth2: [
    { key: 'tokenUrl', label: 'Token URL', kind: 'text', required: true, placeholder: 'https://auth.example.com/oauth/token' },
    { key: 'clientId', label: 'Client ID', kind: 'text', required: true },
    { key: 'clientSecret', label: 'Client secret', kind: 'secret', required: true },
    { key: 'scope', label: 'Scope', kind: 'text' },
    { key: 'audience', label: 'Audience', kind: 'text' },
  ],
};

/** The form's fields for a type (and, for `http`, its scheme). */
export function credentialFields(type: CredentialType, scheme: HttpScheme): CredentialField[] {
  return type === 'http' ? byScheme[scheme] : byType[type];
}

/** The form's values as the API takes them: numbers as numbers, empty optional fields left out. */
export function dataFromForm(fields: readonly CredentialField[], values: Record<string, string | boolean>): Record<string, unknown> {
  const data: Record<string, unknown> = {};
  for (const field of fields) {
    const value = values[field.key];
    if (field.kind === 'checkbox') {
      if (value === true) data[field.key] = true;
    } else if (typeof value === 'string' && value.trim() !== '') {
      data[field.key] = field.kind === 'number' ? Number(value) : field.kind === 'secret' ? value : value.trim();
    }
  }
  return data;
}
