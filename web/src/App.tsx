import { lazy, Suspense } from 'react';
import { ErrorBox, Spinner } from './components/ui';
import { SetupPage } from './pages/Setup';
import { SignInPage } from './pages/SignIn';
import { useLocation } from './router';
import { useSession } from './session';

// The signed-in app (TanStack Query, the top bar, every page) is fetched once somebody is signed in: the sign-in page's
// first load is React, the API client and this file's few pages.
const SignedInApp = lazy(() => import('./Shell').then((m) => ({ default: m.SignedInApp })));
// Only whoever opens an invite link needs its page: a chunk of its own, out of the sign-in page's first load.
const InvitePage = lazy(() => import('./pages/Invite').then((m) => ({ default: m.InvitePage })));

const loading = (
  <div className="page-message">
    <Spinner /> Loading…
  </div>
);

export function App() {
  const session = useSession();
  const { pathname } = useLocation();
  if (session.status === 'loading') return loading;
  if (session.status === 'error') return <div className="page-message"><ErrorBox error={session.error} /></div>;
  // An invite link opens its page whoever is signed in: joining signs in as the invitee.
  if (pathname === '/invite') {
    return (
      <Suspense fallback={loading}>
        <InvitePage />
      </Suspense>
    );
  }
  if (!session.session) return pathname === '/setup' ? <SetupPage /> : <SignInPage />;
  return (
    <Suspense fallback={loading}>
      <SignedInApp session={session.session} />
    </Suspense>
  );
}
