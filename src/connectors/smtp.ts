// SMTP for the email block, through nodemailer: a small pooled transport per credential version and process, TLS
// from the start when the credential says `secure` (port 465), otherwise STARTTLS whenever the server offers it.
// Attachments are bytes the block hands over; nodemailer is never let to read a local path or fetch a URL.
import type { Transporter as NodemailerTransporter } from 'nodemailer';
import type SMTPPool from 'nodemailer/lib/smtp-pool/index.js';
import { onFirstUse } from '../lazy-import.js';
import { untilAborted } from './abortable.js';
import type { ConnectionOpener } from './connection-cache.js';
import { tlsServername, type ConnectorRun } from './connector-run.js';
import type { CredentialData, ResolvedCredential } from './credential-data.js';
import { checkedConnectorAddress, type HostPolicy } from './host-policy.js';

/** Connections one credential's pooled transport holds open in one process. */
const SMTP_POOL_MAX = 2;
const CONNECT_TIMEOUT_MS = 10_000;
const SOCKET_TIMEOUT_MS = 60_000;

export interface MailAttachment {
  filename: string;
  contentType: string;
  content: Buffer;
}

export interface MailMessage {
  from: string;
  to: string[];
  cc: string[];
  bcc: string[];
  subject: string;
  text?: string;
  html?: string;
  attachments: MailAttachment[];
}

export interface MailReceipt {
  messageId: string;
  /** Recipients the server accepted, and those it refused (a partly refused message is still sent to the others). */
  accepted: string[];
  rejected: string[];
}

type Transporter = NodemailerTransporter<SMTPPool.SentMessageInfo>;

const nodemailer = onFirstUse(() => import('nodemailer'));

async function smtpOptions(data: CredentialData<'smtp'>, policy: HostPolicy): Promise<SMTPPool.Options> {
  const address = await checkedConnectorAddress(data.host, policy);
  const secure = data.secure ?? false;
  return {
    pool: true,
    maxConnections: SMTP_POOL_MAX,
    host: address,
    port: data.port ?? (secure ? 465 : 587),
    secure,
    ...(data.user ? { auth: { user: data.user, pass: data.password ?? '' } } : {}),
    tls: { servername: tlsServername(data.host) },
    name: 'sluice',
    connectionTimeout: CONNECT_TIMEOUT_MS,
    greetingTimeout: CONNECT_TIMEOUT_MS,
    socketTimeout: SOCKET_TIMEOUT_MS,
    disableFileAccess: true,
    disableUrlAccess: true,
    logger: false,
  };
}

function smtpTransport(credential: ResolvedCredential<'smtp'>, policy: HostPolicy): ConnectionOpener<Transporter> {
  return {
    kind: 'smtp',
    open: async () => {
      const transport = (await nodemailer()).createTransport(await smtpOptions(credential.data, policy));
      // A pooled connection's failure reaches the message it was sending; as an event it would crash the process.
      transport.on('error', () => {});
      return transport;
    },
    close: async (transport) => transport.close(),
  };
}

const addressText = (address: string | { address: string }) => (typeof address === 'string' ? address : address.address);

export function sendMail(credential: ResolvedCredential<'smtp'>, run: ConnectorRun, message: MailMessage): Promise<MailReceipt> {
  return run.connections.use(credential, smtpTransport(credential, run.policy), async (transport) => {
    const info = await untilAborted(
      transport.sendMail({
        from: message.from,
        to: message.to,
        cc: message.cc,
        bcc: message.bcc,
        subject: message.subject,
        ...(message.text !== undefined ? { text: message.text } : {}),
        ...(message.html !== undefined ? { html: message.html } : {}),
        attachments: message.attachments.map((a) => ({ filename: a.filename, contentType: a.contentType, content: a.content })),
      }),
      run.signal,
    );
    return { messageId: info.messageId, accepted: info.accepted.map(addressText), rejected: info.rejected.map(addressText) };
  });
}

/** Connects and logs in on a connection of its own (nodemailer's verify), without sending anything. */
export async function testSmtpCredential(credential: ResolvedCredential<'smtp'>, ctx: { policy: HostPolicy; signal: AbortSignal }): Promise<string> {
  const transport = (await nodemailer()).createTransport({ ...(await smtpOptions(credential.data, ctx.policy)), pool: false } as never) as Transporter;
  try {
    await untilAborted(transport.verify(), ctx.signal);
    return credential.data.user ? 'Connected and signed in' : 'Connected';
  } finally {
    transport.close();
  }
}
