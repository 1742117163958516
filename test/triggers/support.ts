// Shared by the trigger tests: reading a run's log through the logs API, and signing inbound webhook calls.
import { signatureHeader } from '../../src/services/webhook-signature.js';
import type { TestApp } from '../support/app.js';
import { eventually } from '../support/workflows.js';

export interface LogView {
  id: string;
  executionId: string;
  trigger: string;
  level: string;
  executionData?: { finalOutput?: any };
}

/** The log of one execution as the logs API shows it, with its final output; waits until it is complete. */
export function logOf(t: TestApp, executionId: string): Promise<LogView> {
  return eventually(async () => {
    const res = await t.request('GET', `/api/v1/logs?workspaceId=${t.workspaceId}&executionId=${executionId}&includeFinalOutput=true`);
    return res.body.data?.[0] as LogView | undefined;
  });
}

/** `X-Sluice-Signature` for an inbound webhook call, in the scheme Sluice signs its own deliveries with. */
export function signWebhook(secret: string, body: string, timestampMs = Date.now()): string {
  return signatureHeader(secret, timestampMs, body);
}

/** POSTs a raw body to an inbound webhook path. */
export async function callWebhook(t: TestApp, path: string, body: string, headers: Record<string, string> = {}) {
  return t.request('POST', `/api/webhooks/trigger/${path}`, { rawBody: body, headers, apiKey: null });
}
