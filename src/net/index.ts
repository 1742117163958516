// Guarded outbound HTTP: the only way the service talks to the network.
export { isForbiddenAddress } from './address-policy.js';
export { NetworkPolicyError } from './policy-error.js';
export { getGuardedDispatcher } from './guarded-dispatcher.js';
export { assertUrlAllowed } from './url-policy.js';
export { sendHttpRequest } from './send-http-request.js';
export type { OutboundRequest, OutboundResponse } from './types.js';
