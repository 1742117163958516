import { useState, type FormEvent, type ReactNode } from 'react';
import { answer, api, setCsrfToken } from '../api';
import { ErrorBox } from '../components/ui';
import { reloadSession } from '../session';
import { useRead, useSubmit } from '../use-call';

export function SignInPage() {
  const [mode, setMode] = useState<'sign-in' | 'sign-up'>('sign-in');
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const options = useRead('auth-options', () => answer(api.GET('/api/v1/auth/options')));
  const submit = useSubmit(
    () =>
      mode === 'sign-up'
        ? answer(api.POST('/api/v1/auth/sign-up', { body: { email, password } }))
        : answer(api.POST('/api/v1/auth/sign-in', { body: { email, password } })),
    (session) => {
      setCsrfToken(session.csrfToken);
      void reloadSession();
    },
  );
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    submit.run();
  };
  const signingUp = mode === 'sign-up';
  return (
    <SignInCard title={signingUp ? 'Create an account' : 'Sign in'} onSubmit={onSubmit}>
      <label>
        Email
        <input type="email" autoComplete="email" required value={email} onChange={(e) => setEmail(e.target.value)} autoFocus />
      </label>
      <label>
        Password
        <input
          type="password"
          autoComplete={signingUp ? 'new-password' : 'current-password'}
          required
          minLength={signingUp ? 8 : undefined}
          value={password}
          onChange={(e) => setPassword(e.target.value)}
        />
      </label>
      <ErrorBox error={submit.error} />
      <button className="btn primary wide" type="submit" disabled={submit.pending}>
        {submit.pending ? 'Please wait…' : signingUp ? 'Create account' : 'Sign in'}
      </button>
      {options.data?.setupNeeded && (
        <p className="muted small center" data-testid="setup-hint">
          First run: nobody has an account yet. Open the setup link <code>npm start</code> printed in its terminal
          (<code>…/setup?token=…</code>) to create the owner account.
        </p>
      )}
      {options.data?.signupAllowed ? (
        <p className="muted center">
          {signingUp ? 'Already have an account? ' : 'New here? '}
          <button type="button" className="linklike" onClick={() => setMode(signingUp ? 'sign-in' : 'sign-up')}>
            {signingUp ? 'Sign in' : 'Create an account'}
          </button>
        </p>
      ) : (
        <p className="muted small center" data-testid="no-account-hint">
          No account? Ask a workspace owner or admin for an invite link.
        </p>
      )}
    </SignInCard>
  );
}

/** The centred card with the brand that the sign-in and setup pages ask in: a form under a heading. */
export function SignInCard({ title, onSubmit, children }: { title: string; onSubmit: (event: FormEvent) => void; children: ReactNode }) {
  return (
    <div className="signin">
      <form className="card signin-card" onSubmit={onSubmit}>
        <div className="brand big">
          <img src="/favicon.svg" alt="" width={32} height={32} /> Sluice
        </div>
        <h1>{title}</h1>
        {children}
      </form>
    </div>
  );
}
