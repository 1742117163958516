import type { SpanHandle } from '../observability/tracing.js';
import type { Principal } from '../services/api-keys.js';
import type { AppContext } from '../services/app-context.js';

/** Hono environment shared by every route: the process context and, after auth, the caller. */
export interface AppEnv {
  Variables: {
    app: AppContext;
    principal: Principal;
    /** X-Request-Id of this request (observe.ts): the caller's, or one of ours. */
    requestId: string;
    /** The request's server span, when tracing is on. */
    span?: SpanHandle;
  };
}
