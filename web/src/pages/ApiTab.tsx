// The API tab: the execute URL and copyable curl examples (plain, streaming with selectedOutputs, async). The key
// picker lists keys by name and hint only; a key's secret appears only right after it is created here, once.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useMemo, useState } from 'react';
import { answer, api } from '../api';
import { Checkboxes } from '../components/fields';
import { Badge, CopyButton, ErrorBox, Loading } from '../components/ui';
import { normalizeName, specOf } from '../editor/catalog';
import { outputsOf } from '../editor/model';
import { readWorkflow, useWorkflowStatus } from '../queries';
import { Link } from '../router';
import type { Workflow } from '../types';
import type { InputField } from '../../../src/blocks/api-trigger.js';

const NEW_KEY = '__new__';

/** Single-quotes text for a POSIX shell. */
const shellQuote = (text: string) => `'${text.replace(/'/g, `'\\''`)}'`;

function exampleBody(workflow: Workflow | undefined): Record<string, unknown> {
  const trigger = Object.values(workflow?.state.blocks ?? {}).find((b) => b.type === 'api_trigger');
  const fields = Array.isArray(trigger?.config.inputFormat) ? (trigger.config.inputFormat as InputField[]) : [];
  const body: Record<string, unknown> = {};
  for (const field of fields) {
    if (field.value !== undefined) body[field.name] = field.value;
    else body[field.name] = { string: 'text', number: 1, boolean: true, json: {}, files: [] }[field.type] ?? null;
  }
  return body;
}

export function ApiTab({ workflowId, flush }: { workflowId: string; flush: () => Promise<boolean> }) {
  const client = useQueryClient();
  const status = useWorkflowStatus(workflowId);
  const [flushed, setFlushed] = useState(false);
  useEffect(() => {
    void flush().finally(() => setFlushed(true));
  }, [flush]);
  const workflow = useQuery({
    queryKey: ['workflow-fresh', workflowId],
    queryFn: () => readWorkflow(workflowId),
    enabled: flushed,
  });
  const keys = useQuery({
    queryKey: ['api-keys'],
    queryFn: () => answer(api.GET('/api/v1/api-keys')).then((r) => r.data),
  });
  const usable = (keys.data ?? []).filter((k) => !k.workspaceId || k.workspaceId === workflow.data?.workspaceId);
  const [keyChoice, setKeyChoice] = useState<string>('');
  const [created, setCreated] = useState<{ id: string; key: string; name: string } | null>(null);
  const createKey = useMutation({
    mutationFn: () =>
      answer(
        api.POST('/api/v1/api-keys', {
          body: { name: `${workflow.data?.name ?? 'Workflow'} (API tab)`.slice(0, 200), workspaceId: workflow.data?.workspaceId },
        }),
      ),
    onSuccess: ({ data }) => {
      setCreated({ id: data.id, key: data.key, name: data.name });
      setKeyChoice(NEW_KEY);
      void client.invalidateQueries({ queryKey: ['api-keys'] });
    },
  });

  const outputs = useMemo(() => {
    const list: string[] = [];
    for (const block of Object.values(workflow.data?.state.blocks ?? {})) {
      const spec = specOf(block.type);
      if (spec.trigger || spec.container) continue;
      for (const output of outputsOf({ type: block.type, name: block.name, enabled: true, config: block.config })) {
        list.push(`${normalizeName(block.name)}.${output}`);
      }
    }
    return list;
  }, [workflow.data]);
  const [selected, setSelected] = useState<string[] | null>(null);
  const selectedOutputs = selected ?? (outputs.find((o) => o.endsWith('.content')) ? [outputs.find((o) => o.endsWith('.content'))!] : outputs.slice(0, 1));

  if (workflow.isPending || keys.isPending) return <Loading what="API details" />;
  if (workflow.isError) return <ErrorBox error={workflow.error} />;

  const url = `${window.location.origin}/api/workflows/${workflowId}/execute`;
  const keyHeader =
    keyChoice === NEW_KEY && created ? shellQuote(`X-API-Key: ${created.key}`) : `"X-API-Key: $SLUICE_API_KEY"`;
  const body = exampleBody(workflow.data);
  const lines = (extraHeaders: string[], payload: Record<string, unknown>, flags = '') =>
    [
      `curl${flags} -X POST ${shellQuote(url)}`,
      `  -H 'Content-Type: application/json'`,
      `  -H ${keyHeader}`,
      ...extraHeaders.map((h) => `  -H ${shellQuote(h)}`),
      `  -d ${shellQuote(JSON.stringify(payload))}`,
    ].join(' \\\n');
  const examples = [
    { id: 'plain', title: 'Run and wait for the result', code: lines([], body) },
    {
      id: 'stream',
      title: 'Stream the output as Server-Sent Events',
      code: lines([], { ...body, stream: true, ...(selectedOutputs.length ? { selectedOutputs } : {}) }, ' -N'),
    },
    {
      id: 'async',
      title: 'Run in the background, then poll the job',
      code: `${lines(['X-Execution-Mode: async'], body)}\n\n# then, with the taskId from the answer:\ncurl ${shellQuote(`${window.location.origin}/api/jobs/`)}"$TASK_ID" \\\n  -H ${keyHeader}`,
    },
  ];
  const chosen = usable.find((k) => k.id === keyChoice);

  return (
    <div className="page narrow">
      {!status.data?.isDeployed && (
        <div className="banner warn">
          This workflow is not deployed yet: calls answer 409 WORKFLOW_NOT_DEPLOYED. <Link to={`/workflows/${workflowId}/deploy`}>Deploy it</Link>
        </div>
      )}
      {status.data?.needsRedeployment && (
        <div className="banner warn">
          The draft differs from the deployed version v{status.data.activeVersion}; calls run v{status.data.activeVersion}.{' '}
          <Link to={`/workflows/${workflowId}/deploy`}>Redeploy</Link>
        </div>
      )}
      <section className="card">
        <h3>Endpoint</h3>
        <div className="row gap">
          <code className="url" data-testid="execute-url">
            POST {url}
          </code>
          <CopyButton text={url} label="Copy URL" />
        </div>
      </section>
      <section className="card">
        <h3>API key</h3>
        <div className="row gap wrap">
          <select aria-label="API key" value={keyChoice} onChange={(e) => setKeyChoice(e.target.value)}>
            <option value="">Use $SLUICE_API_KEY from your shell</option>
            {created && <option value={NEW_KEY}>{created.name} (new — shown once)</option>}
            {usable
              .filter((k) => k.id !== created?.id)
              .map((k) => (
                <option key={k.id} value={k.id}>
                  {k.name} · {k.hint} · {k.scope}
                </option>
              ))}
          </select>
          <button className="btn" onClick={() => createKey.mutate()} disabled={createKey.isPending} data-testid="create-key">
            Create a key for this workspace
          </button>
        </div>
        <ErrorBox error={createKey.error} />
        {chosen && (
          <p className="small muted">
            Secrets of existing keys are never shown again. Put the key ending in <code>{chosen.hint.slice(-4)}</code> in your shell:{' '}
            <code>export SLUICE_API_KEY=…</code>
          </p>
        )}
        {keyChoice === NEW_KEY && created && (
          <div className="secret-once" data-testid="new-key">
            <Badge tone="warn">Copy it now</Badge> This key is shown once: <code>{created.key}</code> <CopyButton text={created.key} />
          </div>
        )}
      </section>
      {outputs.length > 0 && (
        <section className="card">
          <h3>Streamed outputs</h3>
          <div className="row gap wrap">
            <Checkboxes small options={outputs} checked={selectedOutputs} onChange={setSelected} />
          </div>
        </section>
      )}
      {examples.map((example) => (
        <section className="card" key={example.id} data-testid={`curl-${example.id}`}>
          <div className="row gap">
            <h3 className="grow">{example.title}</h3>
            <CopyButton text={example.code} />
          </div>
          <pre className="code">{example.code}</pre>
        </section>
      ))}
    </div>
  );
}
