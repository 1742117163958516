// First run (issue 15): the link `npm start` prints while nobody can sign in opens this page, where the person at the
// terminal creates the owner account. Afterwards they land on Settings, where API keys are made.
import { useState, type FormEvent } from 'react';
import { answer, api, setCsrfToken } from '../api';
import { ErrorBox, Loading } from '../components/ui';
import { Link, navigate, useLocation } from '../router';
import { reloadSession } from '../session';
import { useRead, useSubmit } from '../use-call';
import { SignInCard } from './SignIn';

export function SetupPage() {
  const token = useLocation().search.get('token') ?? '';
  const state = useRead(token, () => answer(api.GET('/api/v1/auth/setup', { params: { query: { token } } })));
  const [email, setEmail] = useState<string | null>(null);
  const [password, setPassword] = useState('');
  const [repeat, setRepeat] = useState('');
  const create = useSubmit(
    () => answer(api.POST('/api/v1/auth/setup', { body: { token, email: email ?? state.data?.suggestedEmail ?? '', password } })),
    (session) => {
      setCsrfToken(session.csrfToken);
      navigate('/settings', { replace: true });
      void reloadSession();
    },
  );
  const mismatch = repeat !== '' && repeat !== password;
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (!mismatch) create.run();
  };

  let content;
  if (state.pending) content = <Loading />;
  else if (!state.data) content = <ErrorBox error={state.error} />;
  else if (!state.data.needed) {
    content = (
      <p data-testid="setup-done">
        The owner account exists already. <Link to="/workflows">Sign in</Link>.
      </p>
    );
  } else if (!state.data.tokenValid) {
    content = (
      <p role="alert" data-testid="setup-bad-link">
        This setup link is not valid. Use the link <code>npm start</code> printed in its terminal (it starts with
        <code> /setup?token=</code>).
      </p>
    );
  } else {
    content = (
      <>
        <p className="muted small">Nobody can sign in to this server yet. The account you create here owns its Default workspace.</p>
        <label>
          Email
          <input
            type="email"
            autoComplete="email"
            required
            value={email ?? state.data.suggestedEmail ?? ''}
            onChange={(e) => setEmail(e.target.value)}
          />
        </label>
        <label>
          Password
          <input type="password" autoComplete="new-password" required minLength={8} value={password} onChange={(e) => setPassword(e.target.value)} autoFocus />
        </label>
        <label>
          Repeat password
          <input type="password" autoComplete="new-password" required value={repeat} onChange={(e) => setRepeat(e.target.value)} />
        </label>
        {mismatch && <div className="error-box small" role="alert">The passwords differ.</div>}
        <ErrorBox error={create.error} />
        <button className="btn primary wide" type="submit" disabled={create.pending || mismatch}>
          {create.pending ? 'Please wait…' : 'Create the owner account'}
        </button>
      </>
    );
  }
  return (
    <SignInCard title="Set up Sluice" onSubmit={onSubmit}>
      {content}
    </SignInCard>
  );
}
