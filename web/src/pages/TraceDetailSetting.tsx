// The Deploy tab's trace detail (docs/workflows.md "Trace detail"): how much of each run's trace its log keeps. Part of
// the draft like flow control: saved with it through the editor, in force once deployed.
import { useState } from 'react';
import { TRACE_DETAILS, type TraceDetail } from '../../../src/workflow/trace-detail.js';
import type { EditorHandle } from '../editor/Editor';

const LABELS: Record<TraceDetail, string> = {
  full: 'Full: every block’s input and output',
  errors: 'Full when the run fails, else a summary',
  summary: 'Summary: timings and statuses, outputs of failed blocks and the final output',
};

export function TraceDetailSetting({ editor: editorOf, readOnly }: { editor: () => EditorHandle | null; readOnly: boolean }) {
  const [value, setValue] = useState<TraceDetail>(() => editorOf()?.trace() ?? 'full');
  const [status, setStatus] = useState<'idle' | 'saving' | 'saved' | 'failed'>('idle');
  const change = async (next: TraceDetail) => {
    const editor = editorOf();
    if (!editor) return;
    setValue(next);
    setStatus('saving');
    // `full` is the default: the state leaves it out.
    await editor.setTrace(next === 'full' ? undefined : next);
    setStatus((await editor.flush()) ? 'saved' : 'failed');
  };
  return (
    <div className="row gap" data-testid="trace-detail">
      <label className="field">
        <span>Trace kept in each run’s log</span>
        <select aria-label="Trace detail" value={value} disabled={readOnly || status === 'saving'} onChange={(e) => void change(e.target.value as TraceDetail)}>
          {TRACE_DETAILS.map((detail) => (
            <option key={detail} value={detail}>
              {LABELS[detail]}
            </option>
          ))}
        </select>
      </label>
      {status === 'saved' && <span className="small ok-text">Saved to the draft; deploy to put it in force.</span>}
      {status === 'failed' && <span className="small error-text">The draft could not be saved; see the editor for its problems.</span>}
    </div>
  );
}
