import type { Principal } from '@/lib/auth/resolve';
import { visible } from '@/lib/text/visible';

/** Who is signed in, their role, and (for cookie sessions) a sign-out button. */
export function AccountBadge({ principal }: { principal: Pick<Principal, 'user' | 'role' | 'via' | 'sub' | 'iss'> }) {
  return (
    <span className="flex items-center gap-2 text-xs" data-testid="account-badge" data-role={principal.role}>
      <span
        className="max-w-[9rem] truncate font-medium"
        title={visible(principal.sub ? `${principal.user} (sub ${principal.sub} at ${principal.iss ?? '?'})` : principal.user)}
        data-testid="account-user"
      >
        {visible(principal.user)}
      </span>
      <span className="rounded bg-zinc-200 px-1.5 py-0.5 text-zinc-700 dark:bg-zinc-800 dark:text-zinc-300" data-testid="account-role">
        {principal.role}
      </span>
      {principal.via === 'session' || principal.via === 'oidc' ? (
        <form method="post" action="/api/auth/logout">
          <button type="submit" className="link" data-testid="sign-out">
            Sign out
          </button>
        </form>
      ) : null}
    </span>
  );
}
