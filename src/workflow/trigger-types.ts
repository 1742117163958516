// The trigger kinds, in a module of their own with no imports, so the web app can share them without bundling zod.
export const TRIGGER_TYPES = ['api', 'webhook', 'schedule', 'manual', 'chat', 'queue'] as const;
export type TriggerType = (typeof TRIGGER_TYPES)[number];
