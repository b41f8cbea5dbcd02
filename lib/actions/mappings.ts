import 'server-only';
import { z } from 'zod';
import { getAuthConfig } from '@/lib/auth/config';
import { ConsoleError } from '@/lib/brokers/errors';
import { parseInput } from '@/lib/brokers/parse-input';
import { brokerList } from '@/lib/brokers/service';
import { getMappingStore } from '@/lib/brokers/mapping/store';
import { previewMove } from '@/lib/brokers/mapping/preview';
import { ZCallMapping, ZMappingExport, type CallMapping, type MappingExport } from '@/lib/brokers/mapping/schema';
import { ZIds } from '@/lib/brokers/schema';
import { gate } from './gate';
import { resolvePrincipal } from './principal';

// Call mappings (lib/brokers/mapping/): saved, removed and imported through the gate on their
// source broker (operator with write access there, audited with the mapping before and after),
// read by anyone signed in. Stored in the state store every console process shares.

function known(id: string, field: string): void {
  if (!brokerList().some((b) => b.id === id))
    throw new ConsoleError('InvalidInput', `${field}: no broker "${id.slice(0, 200)}" is configured`, {
      [field]: 'not a configured broker',
    });
}

const withSource = (brokerId: string, input: unknown) =>
  input && typeof input === 'object' && !Array.isArray(input) ? { ...input, source: brokerId } : input;

/** Saves (inserts or replaces) the mapping of one task name from `brokerId` to its target. */
export const saveMappingOp = (brokerId: string, input: unknown, headers: Headers) =>
  gate({
    action: 'mapping-save',
    brokerId,
    capability: null,
    schema: ZCallMapping,
    input: withSource(brokerId, input),
    headers,
    reasonRequired: false,
    target: (m) => ({ to: m.target, task: m.task }),
    run: async (m, ctx) => {
      known(m.target, 'target');
      const before = await (await getMappingStore()).put(m, ctx.principal.user);
      return { saved: m, before: before?.mapping ?? null };
    },
    audit: (m, r) => ({ to: m.target, task: m.task, mapping: m, before: r.before }),
  });

const ZRemove = z.strictObject({
  target: z.string().trim().min(1, 'required').max(500),
  task: z.string().trim().min(1, 'required').max(500),
});

export const removeMappingOp = (brokerId: string, input: unknown, headers: Headers) =>
  gate({
    action: 'mapping-remove',
    brokerId,
    capability: null,
    schema: ZRemove,
    input,
    headers,
    reasonRequired: false,
    target: (m) => ({ to: m.target, task: m.task }),
    run: async (m) => {
      const store = await getMappingStore();
      const was = await store.get(brokerId, m.target, m.task);
      await store.remove(brokerId, m.target, m.task);
      return { removed: was !== null, before: was?.mapping ?? null };
    },
    audit: (m, r) => ({ to: m.target, task: m.task, before: r.before }),
  });

/** The mappings from `brokerId` (to `to` only, when given). */
export async function listMappingsOp(brokerId: string, to: string | null, headers: Headers) {
  await resolvePrincipal(headers);
  known(brokerId, 'broker');
  const store = await getMappingStore();
  return (await store.list()).filter((m) => m.mapping.source === brokerId && (!to || m.mapping.target === to));
}

/** Every mapping, as the import takes them back. */
export async function exportMappingsOp(headers: Headers): Promise<MappingExport> {
  await resolvePrincipal(headers);
  return { version: 1, mappings: (await (await getMappingStore()).list()).map((m) => m.mapping) };
}

/**
 * An export saved back, all or nothing at validation: every mapping is checked (fields named
 * `mappings.3.args.1`) and every broker it names must be configured before one is saved. Then
 * one gate (and audit entry) per source broker.
 */
export async function importMappingsOp(input: unknown, headers: Headers) {
  await resolvePrincipal(headers);
  const data = parseInput(ZMappingExport, input);
  data.mappings.forEach((m, i) => {
    known(m.source, `mappings.${i}.source`);
    known(m.target, `mappings.${i}.target`);
  });
  const bySource = new Map<string, CallMapping[]>();
  for (const m of data.mappings) bySource.set(m.source, [...(bySource.get(m.source) ?? []), m]);
  let saved = 0;
  for (const [source, mappings] of bySource) {
    saved += await gate({
      action: 'mapping-import',
      brokerId: source,
      capability: null,
      schema: z.unknown(),
      input: { mappings: mappings.length },
      headers,
      reasonRequired: false,
      run: async (_i, ctx) => {
        const store = await getMappingStore();
        for (const m of mappings) await store.put(m, ctx.principal.user);
        return mappings.length;
      },
      audit: () => ({ tasks: mappings.map((m) => `${m.task} -> ${m.target}`).slice(0, 100) }),
    });
  }
  return { saved };
}

const ZPreview = ZIds.extend({
  to: z.string().trim().min(1, 'to: name the broker to move to').max(200),
  /** `waiting`: the ids are waiting tasks (their eta becomes `run_at`), not dead letters. */
  from: z.enum(['dead', 'waiting'], { error: 'from: "dead" or "waiting"' }).optional(),
});

/** The jobs a move would create, beside the letters' calls; a read (no audit entry). */
export const previewMoveOp = (brokerId: string, input: unknown, headers: Headers) =>
  gate({
    action: 'move-preview',
    brokerId,
    capability: null,
    schema: ZPreview,
    input,
    headers,
    reasonRequired: false,
    recorded: false,
    run: ({ to, ids, from }) => {
      if (getAuthConfig().redactArgs)
        throw new ConsoleError(
          'Forbidden',
          'arguments are hidden on this console (POTATOQ_CONSOLE_REDACT_ARGS), so a move cannot be previewed here',
        );
      known(to, 'to');
      return previewMove(brokerId, to, ids, from);
    },
  });
