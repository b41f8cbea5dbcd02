import { Button } from '@/components/ui/button';

/** A plain HTML form (works without JavaScript); the route answers with a redirect. */
export function LoginForm({ next, error }: { next: string; error?: string }) {
  return (
    <form method="post" action="/api/auth/login" className="grid gap-3 text-sm" data-testid="login-form">
      <input type="hidden" name="next" value={next} />
      <label className="grid gap-1">
        <span>User name</span>
        <input className="input" name="user" autoComplete="username" required maxLength={100} data-testid="login-user" />
      </label>
      <label className="grid gap-1">
        <span>Password</span>
        <input
          className="input"
          name="password"
          type="password"
          autoComplete="current-password"
          required
          maxLength={1000}
          data-testid="login-password"
        />
      </label>
      {error ? (
        <p role="alert" className="text-red-700 dark:text-red-400" data-testid="login-error">
          {error}
        </p>
      ) : null}
      <Button type="submit" variant="primary" data-testid="login-submit">
        Sign in
      </Button>
    </form>
  );
}
