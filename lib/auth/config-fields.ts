import 'server-only';
import { z } from 'zod';
import { ConfigError } from '@/lib/config-error';

// The pieces of the authentication settings that both config.ts and oidc-config.ts use (roles,
// grants and the helpers that read one variable and name it in a ConfigError): a leaf, so the
// two parsers do not import each other.

export type Role = 'viewer' | 'operator';

export interface Grant {
  role: Role;
  /** Brokers where this grant only reads, whatever its role. */
  readOnlyBrokers: string[];
}

export const ZRole = z.enum(['viewer', 'operator'], { error: 'must be "viewer" or "operator"' });
export const ZGrant = z.union([
  ZRole.transform((role): Grant => ({ role, readOnlyBrokers: [] })),
  z.object({ role: ZRole, readOnlyBrokers: z.array(z.string()).default([]) }).strict(),
]);

export function json<T extends z.ZodType>(name: string, raw: string | undefined, schema: T, fallback: unknown): z.output<T> {
  let value: unknown = fallback;
  if (raw?.trim()) {
    try {
      value = JSON.parse(raw);
    } catch (e) {
      throw new ConfigError(`${name}: not valid JSON (${(e as Error).message})`);
    }
  }
  return field(name, schema, value);
}

export function field<T extends z.ZodType>(name: string, schema: T, value: unknown): z.output<T> {
  const r = schema.safeParse(value);
  if (r.success) return r.data;
  const issue = r.error.issues[0]!;
  // NAME[0].hash, NAME[ops]
  const [head, ...rest] = issue.path.map(String);
  const where = head === undefined ? name : `${name}[${head}]${rest.map((p) => `.${p}`).join('')}`;
  throw new ConfigError(`${where}: ${issue.message}`);
}

export const opt = (v: string | undefined) => (v?.trim() ? v.trim() : undefined);
