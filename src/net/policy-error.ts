// One error type for every refusal by the outbound network policy, so callers (API block, webhook management,
// delivery worker) can tell "we would not send this" apart from "the network failed" and never retry it.

const ALLOW_HINT = 'set SLUICE_ALLOW_PRIVATE_NETWORK=true to allow private network targets';

export class NetworkPolicyError extends Error {
  override readonly name = 'NetworkPolicyError';

  /** The host, address or URL fragment that was refused. */
  readonly target: string;

  constructor(message: string, target: string) {
    super(message);
    this.target = target;
  }
}

/** `host` is what the user asked for; `address` is what it resolved to (equal for IP literals). */
export function forbiddenAddressError(host: string, address: string, reason: string): NetworkPolicyError {
  const what = host === address ? address : `${host} (resolves to ${address})`;
  return new NetworkPolicyError(`Refused to connect to ${what} (${reason}); ${ALLOW_HINT}`, host);
}

export function invalidUrlError(input: string, why: string): NetworkPolicyError {
  // Cut long inputs: a URL built from references can be huge, and the message ends up in logs.
  const shown = input.length > 120 ? `${input.slice(0, 120)}…` : input;
  return new NetworkPolicyError(`Invalid URL "${shown}": ${why}`, shown);
}

/** Finds a policy refusal in an error or its `cause` chain (undici may wrap connector errors). */
export function findPolicyError(error: unknown): NetworkPolicyError | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current instanceof Error; depth++) {
    if (current instanceof NetworkPolicyError) return current;
    current = current.cause;
  }
  return undefined;
}
