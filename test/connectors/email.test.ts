// The email block against a real SMTP server started here with smtp-server (issue 26): the message as received —
// envelope, headers, text and HTML, an uploaded file attached — the recipients the server refused, a refused login
// and a file that is not this service's on the error edge, the credential test; the password nowhere to be seen.
import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCredential, deployBlock, execute, executeKeepingSecret, startConnectorApp, type ConnectorApp } from './support.js';

const PASSWORD = 'smtp-Secret-pw-93k';

interface Received {
  from: string;
  to: string[];
  raw: string;
}

let app: ConnectorApp;
let server: SMTPServer;
let port: number;
let credentialId: string;
const received: Received[] = [];

beforeAll(async () => {
  server = new SMTPServer({
    // Plain SMTP with a login, as a relay on a private network would take it (no certificate to trust here).
    disabledCommands: ['STARTTLS'],
    allowInsecureAuth: true,
    logger: false,
    onAuth(auth, _session, callback) {
      if (auth.username === 'bot' && auth.password === PASSWORD) callback(null, { user: 'bot' });
      else callback(Object.assign(new Error('Invalid username or password'), { responseCode: 535 }));
    },
    onRcptTo(address, _session, callback) {
      if (address.address.endsWith('@blocked.example')) callback(Object.assign(new Error('Mailbox unavailable'), { responseCode: 550 }));
      else callback();
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const mailFrom = session.envelope.mailFrom;
        received.push({
          from: mailFrom ? mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          raw: Buffer.concat(chunks).toString('utf8'),
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.server.address() as AddressInfo).port;
  app = await startConnectorApp();
  credentialId = await createCredential(app.t, 'smtp', { host: '127.0.0.1', port, secure: false, user: 'bot', password: PASSWORD });
});

afterAll(async () => {
  await app?.t.close();
  await new Promise<void>((resolve) => server?.close(() => resolve()));
});

const OUTPUTS = ['messageId', 'accepted', 'rejected'];
const dataUrl = (bytes: Buffer, mime: string) => `data:${mime};base64,${bytes.toString('base64')}`;

/** The header block of a raw message, unfolded, by lowercase name. */
function headersOf(raw: string): Record<string, string> {
  const head = raw.split('\r\n\r\n')[0]!.replace(/\r\n[ \t]+/g, ' ');
  return Object.fromEntries(head.split('\r\n').map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]));
}

describe('email block', () => {
  it('sends a message with text, HTML and an uploaded file attached, as the SMTP server receives it', async () => {
    const wf = await deployBlock(
      app.t,
      {
        type: 'email',
        config: {
          credentialId,
          from: 'Sluice <bot@example.com>',
          to: '<api.to>',
          cc: ['cc@example.com'],
          bcc: 'hidden@example.com',
          subject: 'Invoice for <api.name>',
          text: 'Hello <api.name>, your invoice is attached.',
          html: '<p>Hello <b><api.name></b></p>',
          attachments: '<api.docs>',
        },
      },
      OUTPUTS,
      [
        { name: 'to', type: 'string' },
        { name: 'name', type: 'string' },
        { name: 'docs', type: 'files' },
      ],
    );
    const content = randomBytes(3000);
    const before = received.length;
    const run = await executeKeepingSecret(
      app,
      wf,
      { to: 'ana@example.com', name: 'Ana', docs: [{ type: 'file', data: dataUrl(content, 'application/pdf'), name: 'invoice.pdf', mime: 'application/pdf' }] },
      PASSWORD,
    );
    expect(run.status, run.text).toBe(200);
    expect(run.body.accepted.sort()).toEqual(['ana@example.com', 'cc@example.com', 'hidden@example.com']);
    expect(run.body.rejected).toEqual([]);
    expect(run.body.messageId).toMatch(/^<.+@.+>$/);

    expect(received).toHaveLength(before + 1);
    const mail = received.at(-1)!;
    expect(mail.from).toBe('bot@example.com');
    expect(mail.to.sort()).toEqual(['ana@example.com', 'cc@example.com', 'hidden@example.com']);
    const headers = headersOf(mail.raw);
    expect(headers.subject).toBe('Invoice for Ana');
    expect(headers.from).toBe('Sluice <bot@example.com>');
    expect(headers.to).toBe('ana@example.com');
    expect(headers.cc).toBe('cc@example.com');
    expect(headers['message-id']).toBe(run.body.messageId);
    expect(headers.bcc).toBeUndefined();
    expect(mail.raw).toContain('Hello Ana, your invoice is attached.');
    expect(mail.raw).toContain('<p>Hello <b>Ana</b></p>');
    expect(mail.raw).toMatch(/Content-Type: application\/pdf; name=invoice\.pdf/);
    expect(mail.raw).toMatch(/Content-Disposition: attachment; filename=invoice\.pdf/);
    expect(mail.raw.replace(/\r\n/g, '')).toContain(content.toString('base64'));
  });

  it('lists the recipients the server refused and still delivers to the others', async () => {
    const wf = await deployBlock(
      app.t,
      { type: 'email', config: { credentialId, from: 'bot@example.com', to: ['ana@example.com', 'nobody@blocked.example'], subject: 'Hi', text: 'Hi' } },
      OUTPUTS,
    );
    const run = await execute(app.t, wf);
    expect(run.status, run.text).toBe(200);
    expect(run.body).toMatchObject({ accepted: ['ana@example.com'], rejected: ['nobody@blocked.example'] });
    expect(received.at(-1)!.to).toEqual(['ana@example.com']);
  });

  it('takes the error edge when the login is refused, without the password', async () => {
    const wrong = 'not-the-Smtp-pw-1';
    const refusedId = await createCredential(app.t, 'smtp', { host: '127.0.0.1', port, user: 'bot', password: wrong });
    const wf = await deployBlock(app.t, { type: 'email', config: { credentialId: refusedId, from: 'bot@example.com', to: 'ana@example.com', text: 'x' } }, OUTPUTS);
    const before = received.length;
    const run = await executeKeepingSecret(app, wf, {}, wrong);
    expect(run.status, run.text).toBe(422);
    expect(run.body.error).toMatch(/Invalid login: 535/);
    expect(received).toHaveLength(before);

    const tested = await app.t.request('POST', `/api/v1/credentials/${refusedId}/test`);
    expect(tested.body.data).toMatchObject({ ok: false, message: expect.stringMatching(/535/) });
    expect(tested.text).not.toContain(wrong);
  });

  it('refuses to attach a file that is not stored by this service', async () => {
    const wf = await deployBlock(
      app.t,
      { type: 'email', config: { credentialId, from: 'bot@example.com', to: 'ana@example.com', text: 'x', attachments: '<api.docs>' } },
      OUTPUTS,
      [{ name: 'docs', type: 'files' }],
    );
    const before = received.length;
    const run = await execute(app.t, wf, { docs: [{ type: 'url', data: 'http://127.0.0.1:9/secret.pdf', name: 'secret.pdf', mime: 'application/pdf' }] });
    expect(run.status, run.text).toBe(422);
    expect(run.body.error).toBe('Attachment "secret.pdf": "http://127.0.0.1:9/secret.pdf" is not a file stored by this service (only uploaded files can be read)');
    expect(received).toHaveLength(before);
  });

  it('answers the credential test once connected and signed in', async () => {
    const tested = await app.t.request('POST', `/api/v1/credentials/${credentialId}/test`);
    expect(tested.body.data, tested.text).toMatchObject({ ok: true, message: 'Connected and signed in' });
  });
});
