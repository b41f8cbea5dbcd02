import 'server-only';

/**
 * Every setting the console reads, as a config-file field and the variable it stands for. The
 * file is turned into those variables' values and the same parsers check them (lib/config.ts,
 * lib/auth/config.ts, ...), so the file and the environment cannot drift apart: a setting
 * added to a parser without a row here is caught by fields.test.ts, which greps for variables.
 *
 * `kind` is the JSON type the file's value may have and how it becomes the variable's text:
 * text (a string), number, flag (true/false), json (an array or object, written out as JSON),
 * list (an array of strings or one string, joined with commas).
 */
export type FieldKind = 'text' | 'number' | 'flag' | 'json' | 'list';

export interface FileField {
  path: string;
  env: string;
  kind: FieldKind;
}

const row = (path: string, env: string, kind: FieldKind): FileField => ({ path, env: `POTATOQ_CONSOLE_${env}`, kind });

export const FILE_FIELDS: readonly FileField[] = [
  row('brokers', 'BROKERS', 'json'),
  row('readTimeoutMs', 'READ_TIMEOUT_MS', 'number'),
  row('writeTimeoutMs', 'WRITE_TIMEOUT_MS', 'number'),
  row('readCacheMs', 'READ_CACHE_MS', 'number'),
  row('readCacheMb', 'READ_CACHE_MB', 'number'),
  row('overdueSeconds', 'OVERDUE_SECONDS', 'number'),
  row('demoPath', 'DEMO_PATH', 'text'),
  row('environment', 'ENVIRONMENT', 'text'),
  row('state', 'STATE', 'text'),
  row('allowedHosts', 'ALLOWED_HOSTS', 'list'),
  row('publicUrl', 'PUBLIC_URL', 'text'),
  row('auth.mode', 'AUTH', 'text'),
  row('auth.insecureNoAuth', 'INSECURE_NO_AUTH', 'flag'),
  row('auth.users', 'USERS', 'json'),
  row('auth.tokens', 'TOKENS', 'json'),
  row('auth.sessionSecret', 'SESSION_SECRET', 'text'),
  row('auth.sessionHours', 'SESSION_HOURS', 'number'),
  row('auth.cookieSecure', 'COOKIE_SECURE', 'text'),
  row('auth.redactArgs', 'REDACT_ARGS', 'flag'),
  row('auth.proxy.addresses', 'PROXY_ADDRESSES', 'list'),
  row('auth.proxy.secret', 'PROXY_SECRET', 'text'),
  row('auth.proxy.userHeader', 'PROXY_USER_HEADER', 'text'),
  row('auth.proxy.groupsHeader', 'PROXY_GROUPS_HEADER', 'text'),
  row('auth.proxy.secretHeader', 'PROXY_SECRET_HEADER', 'text'),
  row('auth.proxy.roles', 'PROXY_ROLES', 'json'),
  row('auth.oidc.issuer', 'OIDC_ISSUER', 'text'),
  row('auth.oidc.clientId', 'OIDC_CLIENT_ID', 'text'),
  row('auth.oidc.clientSecret', 'OIDC_CLIENT_SECRET', 'text'),
  row('auth.oidc.redirectUrl', 'OIDC_REDIRECT_URL', 'text'),
  row('auth.oidc.scopes', 'OIDC_SCOPES', 'text'),
  row('auth.oidc.name', 'OIDC_NAME', 'text'),
  row('auth.oidc.userClaim', 'OIDC_USER_CLAIM', 'list'),
  row('auth.oidc.rolesClaim', 'OIDC_ROLES_CLAIM', 'text'),
  row('auth.oidc.roles', 'OIDC_ROLES', 'json'),
  row('metrics.maxQueues', 'METRICS_MAX_QUEUES', 'number'),
  row('metrics.budgetMs', 'METRICS_BUDGET_MS', 'number'),
  row('alerts', 'ALERTS', 'json'),
  row('trends.intervalSeconds', 'TRENDS_INTERVAL_S', 'number'),
  row('trends.retentionHours', 'TRENDS_RETENTION_HOURS', 'number'),
  row('trends.maxQueues', 'TRENDS_MAX_QUEUES', 'number'),
  row('campaigns.followSeconds', 'CAMPAIGN_FOLLOW_S', 'number'),
];

/** Variables that are no setting of the file: where the file is, and the test harness's own. */
export const NOT_FILE_SETTINGS = new Set(['POTATOQ_CONSOLE_CONFIG', 'POTATOQ_CONSOLE_TOKEN']);
