// What the editor shows over or above the canvas: the block and canvas menu, the shortcut list, and the banners for a
// past run on the canvas and for a draft kept in this browser. Presentational: the editor owns the state and actions.
import { errorMessage } from '../api';
import { Link } from '../router';
import type { LogDetail } from '../types';
import type { LocalDraft } from './local-draft';
import { SHORTCUTS } from './use-shortcuts';

export interface MenuItem {
  label: string;
  keys?: string;
  danger?: boolean;
  run(): void;
}

/** A menu at the pointer (right click): choosing an item closes it first. */
export function ContextMenu({ at, items, onClose }: { at: { x: number; y: number }; items: MenuItem[]; onClose: () => void }) {
  return (
    <div className="context-menu" role="menu" style={{ left: at.x, top: at.y }} onMouseLeave={onClose}>
      {items.map((item) => (
        <button
          key={item.label}
          role="menuitem"
          className={item.danger ? 'danger' : undefined}
          onClick={() => {
            onClose();
            item.run();
          }}
        >
          {item.label} {item.keys && <kbd>{item.keys}</kbd>}
        </button>
      ))}
    </div>
  );
}

/** The list `?` opens (use-shortcuts.ts SHORTCUTS). */
export function ShortcutSheet({ onClose }: { onClose: () => void }) {
  return (
    <div className="modal-backdrop" onClick={onClose}>
      <div className="modal" role="dialog" aria-label="Keyboard shortcuts" onClick={(e) => e.stopPropagation()}>
        <h3>Keyboard shortcuts</h3>
        <table className="shortcuts">
          <tbody>
            {SHORTCUTS.map(([keys, what]) => (
              <tr key={keys}>
                <td>
                  <kbd>{keys}</kbd>
                </td>
                <td>{what}</td>
              </tr>
            ))}
          </tbody>
        </table>
        <button className="btn small" onClick={onClose}>
          Close
        </button>
      </div>
    </div>
  );
}

/** Which run the canvas shows (past-run.ts), with its log and the way back to editing. */
export function PastRunBanner({
  executionId,
  query,
  onClose,
}: {
  executionId: string;
  query: { data?: LogDetail; isError: boolean; error: unknown };
  onClose: () => void;
}) {
  return (
    <div className="banner info" role="status" data-testid="past-run">
      {query.isError ? (
        <>
          Could not open run {executionId}: {errorMessage(query.error)}
        </>
      ) : query.data ? (
        <>
          Showing run <code>{executionId}</code> of {new Date(query.data.startedAt).toLocaleString()} on the workflow as it
          is now.
          <Link to={`/logs/${query.data.id}`}>Open its log</Link>
        </>
      ) : (
        <>Loading run {executionId}…</>
      )}
      <button className="btn small" onClick={onClose}>
        Back to editing
      </button>
    </div>
  );
}

/** A draft this browser kept (local-draft.ts), offered back. */
export function DraftBanner({ draft, onRestore, onDiscard }: { draft: LocalDraft; onRestore: () => void; onDiscard: () => void }) {
  return (
    <div className="banner warn" role="alert" data-testid="local-draft">
      This browser kept changes to this workflow that were not saved ({new Date(draft.keptAt).toLocaleString()}).
      <button className="btn small" onClick={onRestore}>
        Restore them
      </button>
      <button className="btn small danger" onClick={onDiscard}>
        Discard
      </button>
    </div>
  );
}
