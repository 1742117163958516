// Where a rendering error stops: a page (route level) or one panel of a page (the editor's inspector, a workflow's tab)
// shows the error with a way on, and the rest of the app — the top bar, the other panels, unsaved edits held in
// memory — stays. A page chunk that fails to load (the server was updated meanwhile) lands here too: Reload fetches
// the new one.
import type { ReactNode } from 'react';
import { ErrorBoundary, type FallbackProps } from 'react-error-boundary';
import { errorMessage } from '../api';

function Fallback({ what, back, error, resetErrorBoundary }: FallbackProps & { what: string; back: ReactNode }) {
  return (
    <div className="error-box" role="alert" data-testid="error-boundary">
      <strong>
        {what} failed: {errorMessage(error)}
      </strong>
      <div className="row gap">
        <button className="btn small" onClick={() => window.location.reload()}>
          Reload
        </button>
        {back}
        <button className="btn small ghost" onClick={resetErrorBoundary}>
          Try again
        </button>
      </div>
    </div>
  );
}

/**
 * Holds a failure inside `children`. `what` names the part in the message ("This page", "The block panel"); `back`
 * is the way out offered beside Reload. A change of `resetKeys` (another page, another selected block) clears it.
 */
export function Boundary({
  what,
  back,
  resetKeys,
  children,
}: {
  what: string;
  back?: ReactNode;
  resetKeys?: unknown[];
  children: ReactNode;
}) {
  return (
    <ErrorBoundary fallbackRender={(props) => <Fallback {...props} what={what} back={back} />} resetKeys={resetKeys}>
      {children}
    </ErrorBoundary>
  );
}
