// `sluice workflows list|export|import|deploy`.
import { writeFile } from 'node:fs/promises';
import { InvalidArgumentError, type Command } from 'commander';
import { action, common, jsonLine, note, out, parseJsonObject, readFile, readStdin, table } from '../io.js';
import { openSession, resolveWorkflow, type CommonOptions } from '../session.js';

export function registerWorkflows(program: Command): void {
  const workflows = program.command('workflows').description('list, export, import and deploy workflows');

  common(workflows.command('list'))
    .description('the workflows of the workspace')
    .action(
      action(async (options: CommonOptions) => {
        const session = openSession(options);
        const list = await session.client.workflows.list({ workspaceId: await session.workspaceId() });
        if (options.json) return void jsonLine(list);
        if (list.length === 0) return void note('No workflows in this workspace yet.');
        out(
          table([
            ['ID', 'NAME', 'DEPLOYED', 'UPDATED'],
            ...list.map((w) => [w.id, w.name, w.activeVersion === null ? '-' : `v${w.activeVersion}`, w.updatedAt]),
          ]),
        );
      }),
    );

  common(workflows.command('export'))
    .description('write a workflow as a sluice.workflow document (literal secrets become {{VARIABLE}} references)')
    .argument('<workflow>', 'id or name')
    .option('-o, --output <file>', 'write to this file instead of standard output')
    .action(
      action(async (nameOrId: string, options: CommonOptions & { output?: string }) => {
        const session = openSession(options);
        const workflow = await resolveWorkflow(session, nameOrId);
        const { data: document, replacedSecrets } = await session.client.workflows.export(workflow.id);
        if (options.output) await writeFile(options.output, `${JSON.stringify(document, null, 2)}\n`);
        if (options.json) {
          jsonLine(options.output ? { file: options.output, replacedSecrets } : { document, replacedSecrets });
          return;
        }
        if (!options.output) out(JSON.stringify(document, null, 2));
        else note(`Wrote ${document.name} to ${options.output}.`);
        for (const secret of replacedSecrets) {
          note(`Left out a secret: ${secret.path} is now {{${secret.variable}}}; set ${secret.variable} where you import it.`);
        }
      }),
    );

  common(workflows.command('import'))
    .description('create a draft workflow from a sluice.workflow document')
    .argument('<file>', 'the document (- for standard input)')
    .option('--name <name>', 'name it differently from the document')
    .option('--folder <id>', 'put it in this folder')
    .option('--deploy', 'deploy it right away')
    .option(
      '--credential <name=id>',
      "use this workspace's credential <id> for the document's credential <name> (repeatable; by default the one of the same name and type)",
      (value: string, all: Record<string, string> = {}) => {
        const at = value.lastIndexOf('=');
        if (at <= 0) throw new InvalidArgumentError(`takes <name>=<credentialId>, got "${value}"`);
        return { ...all, [value.slice(0, at)]: value.slice(at + 1) };
      },
    )
    .action(
      action(async (file: string, options: CommonOptions & { name?: string; folder?: string; deploy?: boolean; credential?: Record<string, string> }) => {
        const document = parseJsonObject(file === '-' ? readStdin() : readFile(file), file === '-' ? 'standard input' : file);
        const session = openSession(options);
        const imported = await session.client.workflows.import({
          workspaceId: await session.workspaceId(),
          document,
          ...(options.name ? { name: options.name } : {}),
          ...(options.folder ? { folderId: options.folder } : {}),
          ...(options.credential ? { credentials: options.credential } : {}),
        });
        const deployed = options.deploy ? await session.client.workflows.deploy(imported.data.id) : undefined;
        if (options.json) {
          jsonLine({ workflow: imported.data, missingEnvironment: imported.missingEnvironment, ...(deployed ? { deployed } : {}) });
          return;
        }
        out(`Imported "${imported.data.name}" as ${imported.data.id}${deployed ? `, deployed as version ${deployed.version}` : ' (a draft)'}.`);
        if (imported.missingEnvironment.length > 0) {
          note(`It uses environment variables this workspace does not have: ${imported.missingEnvironment.join(', ')} (Settings → Environment variables).`);
        }
      }),
    );

  common(workflows.command('deploy'))
    .description('deploy the draft as the next version')
    .argument('<workflow>', 'id or name')
    .action(
      action(async (nameOrId: string, options: CommonOptions) => {
        const session = openSession(options);
        const workflow = await resolveWorkflow(session, nameOrId);
        const deployed = await session.client.workflows.deploy(workflow.id);
        if (options.json) jsonLine({ workflowId: workflow.id, ...deployed });
        else out(`Deployed ${workflow.name} as version ${deployed.version}.`);
      }),
    );
}
