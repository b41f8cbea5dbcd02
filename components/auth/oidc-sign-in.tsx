/**
 * Mode oidc: a plain link to the start route (a link, not a form or a Next <Link>: no prefetch
 * may start a sign-in, and CSP form-action would stop a form's redirect to the provider).
 */
export function OidcSignIn({ provider, next }: { provider: string; next: string }) {
  const href = `/api/auth/oidc/start${next === '/' ? '' : `?${new URLSearchParams({ next }).toString()}`}`;
  return (
    <div className="grid gap-3 text-sm">
      <a
        href={href}
        className="inline-flex justify-center rounded-md bg-sky-700 px-3 py-1.5 font-medium text-white hover:bg-sky-800"
        data-testid="oidc-sign-in"
      >
        Sign in with {provider}
      </a>
    </div>
  );
}
