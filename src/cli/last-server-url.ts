// Where `sluice serve` last answered, kept in the data directory so offline commands run after it stopped (admin
// set-password) can name the address people actually use, not the default port.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { defaultBaseUrl, type Config } from '../config.js';

const FILE = 'server-url';

/** The address to show people: SLUICE_BASE_URL when set, else where the server really listens (PORT=0 included). */
export function publicBaseUrl(config: Config, listeningUrl: string): string {
  return config.baseUrl === defaultBaseUrl(config.host, config.port) ? listeningUrl : config.baseUrl;
}

export function recordServerUrl(dataDir: string, url: string): void {
  try {
    mkdirSync(dataDir, { recursive: true });
    writeFileSync(join(dataDir, FILE), `${url}\n`);
  } catch {
    // Only a convenience for later messages; never a reason to stop serving.
  }
}

/** The last recorded address, or the configured one when the server never ran with this data directory. */
export function lastServerUrl(config: Config): string {
  if (config.baseUrl !== defaultBaseUrl(config.host, config.port)) return config.baseUrl;
  try {
    const url = readFileSync(join(config.dataDir, FILE), 'utf8').trim();
    return /^https?:\/\/\S+$/.test(url) ? url : config.baseUrl;
  } catch {
    return config.baseUrl;
  }
}
