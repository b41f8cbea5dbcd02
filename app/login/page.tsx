import type { Metadata } from 'next';
import { LoginForm } from '@/components/auth/login-form';
import { OidcSignIn } from '@/components/auth/oidc-sign-in';
import { PageTitle } from '@/components/ui/states';
import { getAuthConfig } from '@/lib/auth/config';
import { safeNext } from '@/lib/auth/login';
import { loginErrorMessage } from '@/lib/auth/login-errors';

export const dynamic = 'force-dynamic';
export const metadata: Metadata = { title: 'Sign in' };

export default async function LoginPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const sp = await searchParams;
  const one = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v);
  const { mode, oidc } = getAuthConfig();
  return (
    <div className="mx-auto max-w-sm py-10">
      <PageTitle>Sign in</PageTitle>
      {mode === 'accounts' ? (
        <LoginForm next={safeNext(one(sp.next))} error={loginErrorMessage(one(sp.error))} />
      ) : mode === 'oidc' && oidc ? (
        <OidcSignIn provider={oidc.providerName} next={safeNext(one(sp.next))} />
      ) : (
        <p className="text-sm text-zinc-600 dark:text-zinc-400" data-testid="login-not-used">
          {mode === 'proxy'
            ? 'This console is signed in through your organisation’s proxy; open it through that address.'
            : 'This console has no sign-in (authentication mode none).'}
        </p>
      )}
    </div>
  );
}
