import 'server-only';
import { ConsoleError } from '@/lib/brokers/errors';

/** Where the console connects, without anything secret in the parts that may be shown. */
export interface AmqpTarget {
  /** The URL handed to amqplib (credentials included; never shown). */
  url: string;
  /** `host:port/vhost`, safe to show. */
  display: string;
  vhost: string;
  username: string;
  password: string;
}

/**
 * potatoq's `_params`: `pyamqp://` is `amqp://`, and both `amqp://host/` and `amqp://host//`
 * mean vhost `/` (plain AMQP URL parsing reads `//` as the empty vhost and is refused).
 */
export function parseAmqpUrl(raw: string): AmqpTarget {
  let url = raw.startsWith('pyamqp://') ? `amqp://${raw.slice('pyamqp://'.length)}` : raw;
  const [scheme, rest = ''] = url.split('://', 2) as [string, string?];
  const slash = rest.indexOf('/');
  const host = slash < 0 ? rest : rest.slice(0, slash);
  let path = slash < 0 ? '' : rest.slice(slash + 1);
  let query = '';
  const q = path.indexOf('?');
  if (q >= 0) {
    query = path.slice(q);
    path = path.slice(0, q);
  }
  if (path === '' || path === '/') path = '%2F';
  url = `${scheme}://${host}/${path}${query}`;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new ConsoleError('InvalidInput', 'the RabbitMQ URL could not be parsed (amqp://user:password@host:5672/vhost)');
  }
  if (!['amqp:', 'amqps:'].includes(parsed.protocol))
    throw new ConsoleError('InvalidInput', 'the RabbitMQ URL must start with amqp:// or amqps://');
  const vhost = decodeURIComponent(path);
  const port = parsed.port || (parsed.protocol === 'amqps:' ? '5671' : '5672');
  return {
    url,
    display: `${parsed.hostname}:${port}, vhost ${vhost}`,
    vhost,
    username: parsed.username ? decodeURIComponent(parsed.username) : 'guest',
    password: parsed.password ? decodeURIComponent(parsed.password) : 'guest',
  };
}

/** The management API's base URL and credentials (defaults: the AMQP login). */
export interface ManagementTarget {
  base: string;
  authorization: string;
}

export function parseManagement(opts: Record<string, unknown>, amqp: AmqpTarget): ManagementTarget | null {
  const raw = opts.managementUrl;
  if (raw === undefined || raw === null || raw === '') return null;
  if (typeof raw !== 'string') throw new ConsoleError('InvalidInput', 'managementUrl must be a string');
  let u: URL;
  try {
    u = new URL(raw);
  } catch {
    throw new ConsoleError('InvalidInput', 'managementUrl could not be parsed (http://host:15672)');
  }
  if (!['http:', 'https:'].includes(u.protocol)) throw new ConsoleError('InvalidInput', 'managementUrl must be http:// or https://');
  const user = typeof opts.managementUser === 'string' ? opts.managementUser : u.username ? decodeURIComponent(u.username) : amqp.username;
  const pass =
    typeof opts.managementPassword === 'string' ? opts.managementPassword : u.password ? decodeURIComponent(u.password) : amqp.password;
  u.username = '';
  u.password = '';
  return {
    base: u.toString().replace(/\/+$/, ''),
    authorization: `Basic ${Buffer.from(`${user}:${pass}`).toString('base64')}`,
  };
}
