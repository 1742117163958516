// The email block: one message over SMTP through a stored credential (type smtp), with files the run was handed
// (UserFile references, docs/api.md 4.2) attached. The outputs are what the server said: the message id and the
// recipients it accepted and refused. A refused connection, login or message is the block's `error` output.
import { z } from 'zod';
import { sendMail, type MailAttachment } from '../connectors/smtp.js';
import { blockCredential, connectorFailure, connectorRun } from './connector-block.js';
import { defineBlock } from './define-block.js';
import { emailForm } from './forms.js';
import type { BlockServices } from './types.js';

/** All attachments of one message together; most mail servers refuse bigger messages. */
export const MAX_ATTACHMENT_BYTES = 25 * 1024 * 1024;

/** One address list: `"a@example.com, Bo <b@example.com>"` or a list of them. */
const recipients = z
  .union([z.string().max(10_000), z.array(z.string().max(998)).max(100)])
  .default([])
  .transform((value) => (typeof value === 'string' ? [value] : value).map((address) => address.trim()).filter(Boolean));

const userFile = z.looseObject({ url: z.string().min(1), name: z.string().optional(), type: z.string().optional() });

export const emailConfigSchema = z
  .object({
    credentialId: z.string().min(1, 'choose an smtp credential'),
    from: z.string().trim().min(1, 'is required').max(998),
    to: recipients,
    cc: recipients,
    bcc: recipients,
    subject: z.string().max(998).default(''),
    text: z.string().optional(),
    html: z.string().optional(),
    /** A UserFile (`<api.report>`) or a list of them (`<api.docs>`); only files stored by this service. */
    attachments: z
      .union([userFile, z.array(userFile).max(50)])
      .nullish()
      .transform((value) => (value ? (Array.isArray(value) ? value : [value]) : [])),
  })
  .superRefine((config, ctx) => {
    if (config.to.length + config.cc.length + config.bcc.length === 0) {
      ctx.addIssue({ code: 'custom', path: ['to'], message: 'name at least one recipient (to, cc or bcc)' });
    }
  });
export type EmailConfig = z.infer<typeof emailConfigSchema>;

async function readAttachments(services: BlockServices, files: EmailConfig['attachments']): Promise<MailAttachment[]> {
  if (files.length === 0) return [];
  if (!services.readFile) throw new Error('Files cannot be attached here');
  const attachments: MailAttachment[] = [];
  let left = MAX_ATTACHMENT_BYTES;
  for (const file of files) {
    const read = await services.readFile(file.url, left).catch((error: unknown) => {
      const why = error instanceof Error ? error.message : String(error);
      throw new Error(`Attachment ${JSON.stringify(file.name ?? file.url)}: ${why}`, { cause: error });
    });
    left -= read.content.length;
    const content = Buffer.from(read.content.buffer, read.content.byteOffset, read.content.byteLength);
    attachments.push({ filename: file.name ?? read.name, contentType: read.type, content });
  }
  return attachments;
}

export const emailBlock = defineBlock<EmailConfig>(emailForm, {
  configSchema: emailConfigSchema,
  async run(ctx) {
    const credential = await blockCredential(ctx, ['smtp']);
    const { from, to, cc, bcc, subject, text, html } = ctx.config;
    try {
      const attachments = await readAttachments(ctx.services, ctx.config.attachments);
      const receipt = await sendMail(credential, connectorRun(ctx), { from, to, cc, bcc, subject, text, html, attachments });
      return { output: { ...receipt } };
    } catch (error) {
      return connectorFailure(credential, { messageId: null, accepted: [], rejected: [] }, error);
    }
  },
});
