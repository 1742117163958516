// `sluice run <workflow>`: synchronous by default, --stream for output as it is produced, --async for a worker.
import { Option, type Command } from 'commander';
import { EXIT, UsageError } from '../exit-codes.js';
import { action, common, jsonLine, note, out, positiveInt, pretty, readInput } from '../io.js';
import { openSession, resolveWorkflow, type CommonOptions } from '../session.js';

export function registerRun(program: Command): void {
  common(program.command('run'))
    .description('run a deployed workflow with the API trigger\'s input')
    .argument('<workflow>', 'id or name')
    .option('-i, --input <json>', 'the input fields as a JSON object, e.g. \'{"q":"hi"}\'')
    .option('--input-file <file>', 'read the input object from a file (- for standard input)')
    .option('--stream', 'print streamed output as it is produced')
    .option('--select <outputs...>', 'with --stream: blockName.attribute outputs to stream')
    .option('--async', 'queue the run on a worker and wait for it (see --no-wait)')
    .option('--no-wait', 'with --async: print the queued task and return')
    .option('--idempotency-key <key>', 'run once per key: a repeat gets the first answer')
    .addOption(new Option('--timeout <ms>', 'with --async: stop waiting after this long (exit 7)').argParser(positiveInt('--timeout')))
    .action(
      action(
        async (
          nameOrId: string,
          options: CommonOptions & {
            input?: string;
            inputFile?: string;
            stream?: boolean;
            select?: string[];
            async?: boolean;
            wait: boolean;
            idempotencyKey?: string;
            timeout?: number;
          },
        ) => {
          if (options.stream && options.async) throw new UsageError('Choose --stream or --async, not both');
          if (options.select && !options.stream) throw new UsageError('--select goes with --stream');
          const input = readInput(options);
          const session = openSession(options);
          const { id } = await resolveWorkflow(session, nameOrId);
          const run = { idempotencyKey: options.idempotencyKey };

          if (options.async) {
            const queued = await session.client.executeWorkflowAsync(id, input, run);
            if (!options.wait) return void (options.json ? jsonLine(queued) : out(`Queued task ${queued.taskId} (execution ${queued.executionId}).`));
            if (!options.json) note(`Queued task ${queued.taskId} (execution ${queued.executionId}); waiting…`);
            const job = await session.client.waitForJob(queued.taskId, { timeoutMs: options.timeout });
            if (options.json) jsonLine(job);
            else out(pretty(job.output));
            return;
          }

          if (options.stream) {
            const stream = session.client.streamWorkflow(id, input, { ...run, selectedOutputs: options.select });
            let streamed = false;
            for await (const chunk of stream) {
              streamed = true;
              if (options.json) jsonLine(chunk);
              else process.stdout.write(chunk.chunk);
            }
            const done = await stream.done;
            if (options.json) jsonLine({ ...done, executionId: await stream.executionId });
            else {
              // Chunks carry the text; with nothing streamed the final output is the answer.
              out(streamed ? '' : pretty(done.output));
              note(`execution ${await stream.executionId} (${Math.round(done.metadata.duration)} ms)`);
            }
            return;
          }

          const answer = await session.client.executeWorkflow(id, input, run);
          if (options.json) jsonLine({ executionId: answer.executionId, status: answer.status, body: answer.body, replayed: answer.replayed });
          else {
            out(pretty(answer.result ? answer.result.output : answer.body));
            note(`execution ${answer.executionId} (HTTP ${answer.status}${answer.replayed ? ', replayed' : ''})`);
          }
          // A response block that answered an error status: the workflow says it failed.
          return answer.status >= 400 ? EXIT.runFailed : EXIT.ok;
        },
      ),
    );
}
