import type { Principal } from '../services/api-keys.js';
import type { AppContext } from '../services/app-context.js';

/** Hono environment shared by every route: the process context and, after auth, the caller. */
export interface AppEnv {
  Variables: {
    app: AppContext;
    principal: Principal;
  };
}
