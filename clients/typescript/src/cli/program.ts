// Commander settings shared by `sluice` and `sluice-client`: a wrong argument exits with the usage code (2), not
// commander's default 1, which scripts read as "the workflow failed".
import type { Command, CommanderError } from 'commander';
import { EXIT } from './exit-codes.js';

export function useScriptExitCodes(program: Command): Command {
  return program.exitOverride((err: CommanderError) => {
    // --help and --version end with 0; every parsing error is a usage error.
    process.exit(err.exitCode === 0 ? EXIT.ok : EXIT.usage);
  });
}
