// The commands that talk to a Sluice server through the client: login, workflows, run, logs, runs, members, memories,
// credentials. Registered on the repository's `sluice` command (src/cli/main.ts) and on this package's own
// `sluice-client` binary (bin.ts).
// Results go to stdout (one JSON document, or one JSON line per record, with --json); messages and errors to stderr.
import type { Command } from 'commander';
import { registerCredentials } from './commands/credentials.js';
import { registerLogin } from './commands/login.js';
import { registerLogs } from './commands/logs.js';
import { registerMembers } from './commands/members.js';
import { registerMemories } from './commands/memories.js';
import { registerRun } from './commands/run.js';
import { registerRuns } from './commands/runs.js';
import { registerWorkflows } from './commands/workflows.js';

export function registerClientCommands(program: Command): void {
  registerLogin(program);
  registerWorkflows(program);
  registerRun(program);
  registerLogs(program);
  registerRuns(program);
  registerMembers(program);
  registerMemories(program);
  registerCredentials(program);
}
