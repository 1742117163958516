// An invite link (`/invite?token=…`, made on the Members page) opens this page: it names the workspace and the role,
// the invitee sets a password (or gives the one of an account they have) and lands on the workflows, signed in.
import { useState, type FormEvent } from 'react';
import { answer, api, ApiError, setCsrfToken } from '../api';
import { ErrorBox, Loading } from '../components/ui';
import { Link, navigate, useLocation } from '../router';
import { reloadSession, rememberWorkspace } from '../session';
import { useRead, useSubmit } from '../use-call';
import { SignInCard } from './SignIn';

export function InvitePage() {
  const token = useLocation().search.get('token') ?? '';
  const invite = useRead(token, () => answer(api.GET('/api/v1/invites/{token}', { params: { path: { token: token || '-' } } })));
  const [email, setEmail] = useState<string | null>(null);
  const [password, setPassword] = useState('');
  const [repeat, setRepeat] = useState('');
  const join = useSubmit(
    () =>
      answer(
        api.POST('/api/v1/invites/{token}/accept', {
          params: { path: { token } },
          body: { email: email ?? invite.data?.email ?? '', password },
        }),
      ),
    (session) => {
      setCsrfToken(session.csrfToken);
      if (invite.data) rememberWorkspace(invite.data.workspaceId);
      navigate('/workflows', { replace: true });
      void reloadSession();
    },
  );
  const mismatch = repeat !== '' && repeat !== password;
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (!mismatch) join.run();
  };

  let content;
  if (invite.pending) content = <Loading />;
  else if (!invite.data) {
    const gone = invite.error instanceof ApiError && (invite.error.status === 404 || invite.error.status === 410);
    content = gone ? (
      <>
        <p role="alert" data-testid="invite-unusable">
          {(invite.error as ApiError).message}
        </p>
        <p className="muted small">
          Have an account already? <Link to="/workflows">Sign in</Link>.
        </p>
      </>
    ) : (
      <ErrorBox error={invite.error} />
    );
  } else {
    const { workspaceName, role, email: named } = invite.data;
    content = (
      <>
        <p data-testid="invite-offer">
          You are invited to <strong>{workspaceName}</strong> as {role === 'editor' || role === 'admin' ? 'an' : 'a'} <strong>{role}</strong>.
        </p>
        <p className="muted small">Set a password for your account. If you have an account on this server already, give its password.</p>
        <label>
          Email
          <input
            type="email"
            autoComplete="email"
            required
            readOnly={Boolean(named)}
            value={email ?? named ?? ''}
            onChange={(e) => setEmail(e.target.value)}
            autoFocus={!named}
          />
        </label>
        <label>
          Password
          <input type="password" autoComplete="new-password" required minLength={8} value={password} onChange={(e) => setPassword(e.target.value)} autoFocus={Boolean(named)} />
        </label>
        <label>
          Repeat password
          <input type="password" autoComplete="new-password" required value={repeat} onChange={(e) => setRepeat(e.target.value)} />
        </label>
        {mismatch && <div className="error-box small" role="alert">The passwords differ.</div>}
        <ErrorBox error={join.error} />
        <button className="btn primary wide" type="submit" disabled={join.pending || mismatch}>
          {join.pending ? 'Please wait…' : `Join ${workspaceName}`}
        </button>
      </>
    );
  }
  return (
    <SignInCard title="Join a workspace" onSubmit={onSubmit}>
      {content}
    </SignInCard>
  );
}
