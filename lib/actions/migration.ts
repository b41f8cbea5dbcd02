import 'server-only';
import { z } from 'zod';
import { ConsoleError } from '@/lib/brokers/errors';
import { migrationView } from '@/lib/brokers/migration-read';
import { getMovesLedger, type MoveRecord } from '@/lib/brokers/moves-ledger';
import { brokerList } from '@/lib/brokers/service';
import { parseParams } from './http';
import { resolvePrincipal } from './principal';

// The migration view and a task's moves: reads, so anyone signed in (the read role) may see them;
// the principal is resolved here, on the server, for every request.

export const ZMigrationQuery = z.object({ to: z.string().trim().min(1, 'to: name the broker to compare with').max(200) });

function known(id: string, field?: string): void {
  if (brokerList().some((b) => b.id === id)) return;
  const what = `no broker "${id.slice(0, 200)}" is configured`;
  throw field
    ? new ConsoleError('InvalidInput', `${field}: ${what}`, { [field]: 'not a configured broker' })
    : new ConsoleError('NotFound', what);
}

/** GET /api/brokers/:broker/migration?to=: counts per task name on both brokers, mappings, moves. */
export async function migrationOp(brokerId: string, params: URLSearchParams, headers: Headers) {
  await resolvePrincipal(headers);
  return migrationFor(brokerId, parseParams(ZMigrationQuery, params).to);
}

/** Where task `id` of `brokerId` went and came from by console moves (the task pages), each
 *  with the other broker's name; empty (and logged) when the state store cannot be read. */
export async function taskMoves(brokerId: string, id: string) {
  const names = new Map(brokerList().map((b) => [b.id, b.name]));
  const named = (m: MoveRecord, other: string) => ({ ...m, otherName: names.get(other) ?? other });
  try {
    const { to, from } = await (await getMovesLedger()).of(brokerId, id);
    return { to: to.map((m) => named(m, m.target)), from: from.map((m) => named(m, m.source)) };
  } catch (e) {
    console.error(JSON.stringify({ event: 'console.moves-ledger-error', message: String(e) }));
    return { to: [], from: [] };
  }
}

/** The migration view for a page that checked the reader already. */
export async function migrationFor(brokerId: string, to: string) {
  known(brokerId);
  known(to, 'to');
  return migrationView(brokerId, to);
}

/** The brokers a migration view can compare this one with. */
export const otherBrokers = (brokerId: string) => brokerList().filter((b) => b.id !== brokerId);
