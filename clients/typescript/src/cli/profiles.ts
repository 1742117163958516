// Saved logins ("profiles"): where a server is and which key to use. The URL and workspace live in config.json; keys
// live apart in credentials.json, readable by the user only (mode 0600), so the first can be shown or shared safely.
// The directory is $XDG_CONFIG_HOME/sluice, else ~/.config/sluice.
import { chmodSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';

export interface Profile {
  url: string;
  workspaceId?: string;
  email?: string;
}

interface ConfigFile {
  current?: string;
  profiles: Record<string, Profile>;
}

export const DEFAULT_PROFILE = 'default';

export function configDir(env: NodeJS.ProcessEnv = process.env): string {
  const base = env.XDG_CONFIG_HOME && env.XDG_CONFIG_HOME.trim() !== '' ? env.XDG_CONFIG_HOME : join(homedir(), '.config');
  return join(base, 'sluice');
}

export const configFile = (env?: NodeJS.ProcessEnv) => join(configDir(env), 'config.json');
export const credentialsFile = (env?: NodeJS.ProcessEnv) => join(configDir(env), 'credentials.json');

function readJson<T>(file: string, fallback: T): T {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return fallback;
    throw err;
  }
  try {
    return JSON.parse(text) as T;
  } catch {
    throw new Error(`${file} is not valid JSON: fix or delete it, then log in again`);
  }
}

/** Writes through a temporary file, so a crash never leaves half a file; the mode is set before the rename. */
function writeJson(file: string, value: unknown, mode: number) {
  const temporary = `${file}.${process.pid}.tmp`;
  writeFileSync(temporary, `${JSON.stringify(value, null, 2)}\n`, { mode });
  chmodSync(temporary, mode);
  renameSync(temporary, file);
}

export function loadProfiles(env?: NodeJS.ProcessEnv): { current: string; profiles: Record<string, Profile> } {
  const file = readJson<ConfigFile>(configFile(env), { profiles: {} });
  return { current: file.current ?? DEFAULT_PROFILE, profiles: file.profiles ?? {} };
}

export function loadKey(name: string, env?: NodeJS.ProcessEnv): string | undefined {
  return readJson<Record<string, string>>(credentialsFile(env), {})[name];
}

/** Saves a profile and its key, and makes it the current one. */
export function saveProfile(name: string, profile: Profile, key: string, env?: NodeJS.ProcessEnv): void {
  const dir = configDir(env);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const config = loadProfiles(env);
  writeJson(configFile(env), { current: name, profiles: { ...config.profiles, [name]: profile } }, 0o644);
  const keys = readJson<Record<string, string>>(credentialsFile(env), {});
  writeJson(credentialsFile(env), { ...keys, [name]: key }, 0o600);
}

/** Forgets a profile and its key; true when there was one. */
export function removeProfile(name: string, env?: NodeJS.ProcessEnv): boolean {
  const config = loadProfiles(env);
  const keys = readJson<Record<string, string>>(credentialsFile(env), {});
  if (!config.profiles[name] && !keys[name]) return false;
  const { [name]: _profile, ...profiles } = config.profiles;
  const { [name]: _key, ...rest } = keys;
  writeJson(configFile(env), { current: config.current === name ? Object.keys(profiles)[0] : config.current, profiles }, 0o644);
  writeJson(credentialsFile(env), rest, 0o600);
  return true;
}
