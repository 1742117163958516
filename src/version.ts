// The version Sluice reports about itself (the API block's User-Agent). Kept equal to package.json's "version" by
// test/version.test.ts: the server runs from dist/, where package.json is not beside the modules.
export const SLUICE_VERSION = '0.1.0';
