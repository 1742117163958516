// One Sluice server and one headless chromium context per browser-test file, and the page moves every journey uses
// (drop a palette block, connect two handles, wait for the autosave). Each file starts its own server, so files run in
// parallel workers and a failure in one file cannot leave another's data behind. The chromium process is the worker
// process's, shared by the files it runs one after another (isolate: false): a context is a browser profile of its own
// (cookies, storage, cache), and every context a file opened is closed when it ends.
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { chromium, type Browser, type Locator, type Page } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../support/database.js';
import { migratedDataDir } from '../../support/data-dir.js';
import { eventually } from '../../support/eventually.js';
import { startSluice, type SluiceProcess } from '../../support/process.js';

export const CHROMIUM = '/usr/bin/chromium';
export const SHOTS = resolve('test/web/screenshots');
export const OWNER_EMAIL = 'admin@localhost';
export const OWNER_PASSWORD = 'correct horse battery';

export interface BrowserApp {
  sluice: SluiceProcess;
  browser: Browser;
  page: Page;
  /** The server's base URL, e.g. http://127.0.0.1:41234. */
  url: string;
  /** An owner's API key: made through the API when `owner: true`, or set by the journey that makes one. */
  apiKey: string | undefined;
  /** Uncaught errors of the page, for a journey that asserts there were none. */
  errors: string[];
}

export interface BrowserAppOptions {
  /** Create the owner account and an API key through the API before the first test (not through the setup page). */
  owner?: boolean;
  env?: Record<string, string>;
}

/** A chunk of the built web app, as web/dist/.vite/manifest.json lists it. */
export interface WebChunk {
  file: string;
  imports?: string[];
}

export const webManifest = (): Record<string, WebChunk> =>
  JSON.parse(readFileSync(resolve('web/dist/.vite/manifest.json'), 'utf8')) as Record<string, WebChunk>;

/** The built entry chunk and every chunk it imports statically: what the sign-in page loads. */
export function entryChunks(): string[] {
  const manifest = webManifest();
  const seen = new Set<string>();
  const visit = (key: string) => {
    if (seen.has(key)) return;
    seen.add(key);
    for (const next of manifest[key].imports ?? []) visit(next);
  };
  visit('index.html');
  return [...seen].map((key) => manifest[key].file);
}

/** The setup link `sluice serve` prints on first run. */
export const setupLink = (sluice: SluiceProcess) =>
  eventually(() => /First run: open (\S+\/setup\?token=[\w-]+) /.exec(sluice.output())?.[1], 10_000, 'the setup link');

async function createOwner(sluice: SluiceProcess): Promise<string> {
  const token = new URL(await setupLink(sluice)).searchParams.get('token')!;
  const setup = await fetch(`${sluice.url}/api/v1/auth/setup`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ token, email: OWNER_EMAIL, password: OWNER_PASSWORD }),
  });
  if (setup.status !== 201) throw new Error(`setup answered ${setup.status}: ${await setup.text()}`);
  const { csrfToken } = (await setup.json()) as { csrfToken: string };
  const cookie = setup.headers.getSetCookie().map((c) => c.split(';')[0]).join('; ');
  const key = await fetch(`${sluice.url}/api/v1/api-keys`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Cookie: cookie, 'X-CSRF-Token': csrfToken },
    body: JSON.stringify({ name: 'browser test' }),
  });
  if (key.status !== 201) throw new Error(`creating a key answered ${key.status}: ${await key.text()}`);
  return ((await key.json()) as { data: { key: string } }).data.key;
}

const SHARED_BROWSER = Symbol.for('sluice.test.web.browser');
type Shared = typeof globalThis & { [SHARED_BROWSER]?: Promise<Browser> };

/**
 * This worker process's chromium, launched by the first browser-test file it runs (~1 s of CPU a launch, more on a
 * loaded machine). Kept on globalThis, so a module evaluated again still finds it; Playwright kills it when the
 * process exits. A browser that crashed or failed to launch is launched afresh by the next file.
 */
function processBrowser(): Promise<Browser> {
  const shared = globalThis as Shared;
  if (!shared[SHARED_BROWSER]) {
    if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: apt-get install -y chromium (.ci/run does this)`);
    const launched = chromium.launch({
      executablePath: CHROMIUM,
      headless: true,
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
        '--disable-quic',
      ],
    });
    shared[SHARED_BROWSER] = launched;
    const forget = () => {
      if (shared[SHARED_BROWSER] === launched) delete shared[SHARED_BROWSER];
    };
    void launched.then((browser) => browser.on('disconnected', forget), forget);
  }
  return shared[SHARED_BROWSER]!;
}

/** Registers the file's beforeAll/afterAll; the fields are filled in before the first test runs. */
export function useBrowserApp(options: BrowserAppOptions = {}): BrowserApp {
  const app = { apiKey: undefined, errors: [] } as unknown as BrowserApp;
  let dataDir: string | undefined;
  let testDb: TestDatabase | undefined;

  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true });
    dataDir = migratedDataDir('sluice-web-');
    const env: Record<string, string> = {
      SLUICE_DATA_DIR: dataDir,
      SLUICE_ALLOW_PRIVATE_NETWORK: 'true',
      SLUICE_SECRET: 'web-journey-secret-web-journey-secret-01',
      HOST: '127.0.0.1',
      ...options.env,
    };
    if (process.env.TEST_DATABASE_URL) {
      testDb = await createTestDatabase();
      await testDb.database.close();
      env.DATABASE_URL = testDb.url!;
    }
    app.sluice = await startSluice(env);
    app.url = app.sluice.url;
    if (options.owner) app.apiKey = await createOwner(app.sluice);

    app.browser = await processBrowser();
    const context = await app.browser.newContext({ viewport: { width: 1280, height: 800 } });
    app.page = await context.newPage();
    app.page.setDefaultTimeout(15_000);
    app.page.on('pageerror', (error) => app.errors.push(error.message));
  }, 120_000);

  afterAll(async () => {
    // Every context of the file (its page's and any a test opened): the next file's start as a fresh browser would.
    if (app.browser) await Promise.all(app.browser.contexts().map((context) => context.close()));
    await app.sluice?.stop();
    if (testDb) await testDb.drop().catch(() => undefined);
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  return app;
}

/** The page moves of the journeys, on the app's page. */
export function pageTools(app: BrowserApp) {
  const page = () => app.page;
  const shot = (name: string) => page().screenshot({ path: join(SHOTS, `${name}.png`) });
  const block = (name: string): Locator => page().locator(`.react-flow__node [data-block-name="${name}"]`);
  const handle = (name: string, id: string) => block(name).locator(`.react-flow__handle[data-handleid="${id}"]`);

  async function dropBlock(type: string, x: number, y: number) {
    await page().getByTestId(`palette-${type}`).dragTo(page().locator('.react-flow__pane'), { targetPosition: { x, y } });
  }

  /** Drags with several mouse moves, as React Flow's node dragging needs (pane coordinates). */
  async function dragMouse(what: Locator, x: number, y: number) {
    const box = (await what.boundingBox())!;
    const pane = (await page().locator('.react-flow__pane').boundingBox())!;
    await page().mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await page().mouse.down();
    await page().mouse.move(pane.x + x, pane.y + y, { steps: 8 });
    await page().mouse.up();
  }

  async function connect(from: Locator, to: Locator) {
    const a = await from.boundingBox();
    const b = await to.boundingBox();
    if (!a || !b) throw new Error('handle not visible');
    await page().mouse.move(a.x + a.width / 2, a.y + a.height / 2);
    await page().mouse.down();
    await page().mouse.move((a.x + b.x) / 2, (a.y + b.y) / 2, { steps: 5 });
    await page().mouse.move(b.x + b.width / 2, b.y + b.height / 2, { steps: 5 });
    await page().mouse.up();
  }

  async function waitSaved() {
    await page().locator('[data-testid=save-state][data-status=saved]').waitFor({ timeout: 10_000 });
  }

  /** Signs in as the owner unless the page is signed in already, and lands on the workflow list. */
  async function signedIn(email = OWNER_EMAIL, password = OWNER_PASSWORD) {
    await page().goto(`${app.url}/workflows`);
    const heading = page().getByRole('heading', { name: /^(Sign in|Workflows)$/ });
    await heading.waitFor();
    if ((await heading.textContent()) === 'Sign in') {
      await page().getByLabel('Email').fill(email);
      await page().getByLabel('Password').fill(password);
      await page().getByRole('button', { name: 'Sign in' }).click();
      await page().getByRole('heading', { name: 'Workflows' }).waitFor();
    }
  }

  /** Calls the API with the app's key. */
  async function keyApi(path: string, init: { method?: string; body?: unknown } = {}) {
    if (!app.apiKey) throw new Error('no API key yet: use { owner: true } or let a journey create one');
    const res = await fetch(`${app.url}${path}`, {
      method: init.method ?? 'GET',
      headers: { 'X-API-Key': app.apiKey, ...(init.body === undefined ? {} : { 'Content-Type': 'application/json' }) },
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
    });
    const text = await res.text();
    return { status: res.status, body: (text ? JSON.parse(text) : {}) as Record<string, unknown> & { data?: unknown } };
  }

  /** Runs a journey; on failure a screenshot named `name` goes to test/web/screenshots/ before the error. */
  const withFailureShot = (name: string, body: () => Promise<void>) => async () => {
    try {
      await body();
    } catch (error) {
      await shot(name).catch(() => undefined);
      throw error;
    }
  };

  return { shot, block, handle, dropBlock, dragMouse, connect, waitSaved, signedIn, keyApi, withFailureShot };
}
