#!/usr/bin/env node
// `sluice-client`: the client's commands without the server (login, workflows, run, logs).
import { Command } from 'commander';
import { registerClientCommands } from './commands.js';
import { useScriptExitCodes } from './program.js';

const program = useScriptExitCodes(new Command('sluice-client').description('Talk to a Sluice server: login, workflows, run, logs'));
registerClientCommands(program);
await program.parseAsync(process.argv);
