/** True when web/dist is missing or older than any web source. */
export function webBuildIsStale(): boolean;
/** Builds web/dist with Vite when stale (or always with force); resolves to whether it built. */
export function buildWeb(options?: { force?: boolean; quiet?: boolean }): Promise<boolean>;
