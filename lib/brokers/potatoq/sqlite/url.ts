import 'server-only';
import os from 'node:os';
import path from 'node:path';
import { ConsoleError } from '@/lib/brokers/errors';

/**
 * The database path of a `sqlite://` URL, read exactly like potatoq's `_path_from_url`:
 * `sqlite:///relative.db` is relative to the working directory, `sqlite:////abs.db` is
 * absolute, a query string is ignored, `~` is expanded (potatoq's `Path.expanduser`) and
 * `:memory:` is refused (it can't be shared with workers).
 */
export function pathFromUrl(url: string): string {
  let p = url;
  if (url.includes('://')) {
    const rest = url.slice(url.indexOf('://') + 3);
    p = rest.startsWith('/') ? rest.slice(1) : rest;
    p = p.split('?', 1)[0]!;
    if (!p) throw new ConsoleError('InvalidInput', 'no database path in the sqlite URL');
    if (p === ':memory:') throw new ConsoleError('InvalidInput', "sqlite:///:memory: can't be shared with potatoq's workers; use a file");
  }
  if (p === '~' || p.startsWith('~/')) p = path.join(os.homedir(), p.slice(1));
  return path.resolve(p);
}
