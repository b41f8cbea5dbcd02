// A task's call converted through its mapping (./schema.ts), both ways: positional args and
// kwargs -> one named payload object, and back. Pure and client-safe (the preview shows the
// same result the move sends). Every problem is named by where it is in the letter (`args[2]`,
// `kwargs.when`, `payload.amount`) and nothing is converted when there is one.
import { b64encode } from '@/lib/pyvalues/b64';
import { decimalToString } from '@/lib/pyvalues/pydecimal';
import { isoDate, isoTime, pyTypeName, totalSeconds, uuidText, type PyVal } from '@/lib/pyvalues/pyval';
import { NON_JSON, type CallMapping, type NonJsonKind } from './schema';

export type Converted<T> = { ok: true; value: T; notes: string[] } | { ok: false; problems: Record<string, string> };

class Problem extends Error {
  constructor(
    readonly at: string,
    why: string,
  ) {
    super(why);
  }
}

const NON_JSON_KIND = new Set<string>(Object.keys(NON_JSON));

/** A Python value as JSON, each value JSON cannot hold encoded as the mapping chooses. */
export function pyToJson(v: PyVal, at: string, enc: CallMapping['encodings'], used: Set<string>): unknown {
  if (NON_JSON_KIND.has(v.k)) {
    const kind = v.k as NonJsonKind;
    const how = enc[kind];
    const choices = Object.keys(NON_JSON[kind]).join(' or ');
    if (!how || how === 'refuse')
      throw new Problem(
        at,
        `a ${pyTypeName(v)}: JSON cannot hold it and the mapping ${how ? 'refuses' : 'chooses no encoding for'} ${kind} (choose ${choices}, or refuse the letter)`,
      );
    used.add(`${kind} as ${how}`);
  }
  switch (v.k) {
    case 'none':
      return null;
    case 'bool':
      return v.v;
    case 'int': {
      const n = Number(v.text);
      if (!Number.isSafeInteger(n)) throw new Problem(at, `the integer ${v.text.slice(0, 40)} is too large for a JSON number kept exactly`);
      return n;
    }
    case 'float':
      if (!Number.isFinite(v.v)) throw new Problem(at, 'JSON has no NaN or Infinity');
      return v.v;
    case 'str':
      return v.v;
    case 'list':
      return v.items.map((x, i) => pyToJson(x, `${at}[${i}]`, enc, used));
    case 'dict':
      return Object.fromEntries(v.entries.map(([k, x]) => [k, pyToJson(x, `${at}.${k}`, enc, used)]));
    case 'datetime':
      return `${isoDate(v.date)}T${isoTime(v.time)}`;
    case 'date':
      return isoDate(v.date);
    case 'time':
      return isoTime(v.time);
    case 'timedelta':
      return totalSeconds(v.us);
    case 'uuid':
      return uuidText(v.hex);
    case 'decimal':
      return enc.decimal === 'number' ? Number(decimalToString(v.dec)) : decimalToString(v.dec);
    case 'bytes':
      return b64encode(v.data);
    case 'set':
      return v.items.map((x, i) => pyToJson(x, `${at}[${i}]`, enc, used));
    default: {
      const never: never = v;
      return never;
    }
  }
}

function collect<T>(run: (problems: Record<string, string>) => T): Converted<T> {
  const problems: Record<string, string> = {};
  const notes: string[] = [];
  try {
    const value = run(problems);
    return Object.keys(problems).length ? { ok: false, problems } : { ok: true, value, notes };
  } catch (e) {
    if (e instanceof Problem) return { ok: false, problems: { ...problems, [e.at]: e.message } };
    throw e;
  }
}

/** Args and kwargs -> the payload object (positional i under `m.args[i]`, kwargs by name). */
export function callToPayload(
  m: CallMapping,
  call: { args: PyVal; kwargs: PyVal },
): Converted<Record<string, unknown>> & { encoded?: string[] } {
  const used = new Set<string>();
  const r = collect((problems) => {
    const args = call.args.k === 'list' ? call.args.items : null;
    const kwargs = call.kwargs.k === 'dict' ? call.kwargs.entries : null;
    if (!args) problems.args = 'the letter has no list of positional arguments';
    if (!kwargs) problems.kwargs = 'the letter has no dict of keyword arguments';
    const out = new Map<string, unknown>();
    const from = new Map<string, string>();
    const put = (key: string, at: string, v: () => unknown) => {
      const was = from.get(key);
      if (was !== undefined) {
        problems[at] = `payload key "${key}" would come from ${was} and from ${at}`;
        return;
      }
      try {
        out.set(key, v());
        from.set(key, at);
      } catch (e) {
        if (e instanceof Problem) problems[e.at] = e.message;
        else throw e;
      }
    };
    m.args.forEach((key, i) => {
      const item = args?.[i];
      if (item) put(key, `args[${i}]`, () => pyToJson(item, `args[${i}]`, m.encodings, used));
      else if (args && key in m.defaults) put(key, `defaults.${key}`, () => m.defaults[key]);
      else if (args)
        problems[`args[${i}]`] =
          `the letter has ${args.length} positional argument${args.length === 1 ? '' : 's'}, none at index ${i} for payload key "${key}" (and the mapping has no default for it)`;
    });
    for (let i = m.args.length; i < (args?.length ?? 0); i++)
      problems[`args[${i}]`] = `the mapping names no payload key for positional argument ${i}: add one, or the value would be lost`;
    for (const [k, v] of kwargs ?? []) put(k, `kwargs.${k}`, () => pyToJson(v, `kwargs.${k}`, m.encodings, used));
    for (const [k, v] of Object.entries(m.defaults)) if (!from.has(k)) put(k, `defaults.${k}`, () => v);
    return Object.fromEntries(out);
  });
  return r.ok ? { ...r, notes: [...used].map((u) => `encoded ${u}`) } : r;
}

/** A JSON value as the Python value `json.loads` gives. */
export function jsonToPy(v: unknown): PyVal {
  if (v === null || v === undefined) return { k: 'none' };
  if (typeof v === 'boolean') return { k: 'bool', v };
  if (typeof v === 'number') return Number.isInteger(v) ? { k: 'int', text: String(v) } : { k: 'float', v };
  if (typeof v === 'string') return { k: 'str', v };
  if (Array.isArray(v)) return { k: 'list', items: v.map(jsonToPy) };
  return { k: 'dict', entries: Object.entries(v as Record<string, unknown>).map(([k, x]) => [k, jsonToPy(x)]) };
}

/** The payload object -> args (`m.args` in order) and kwargs (every other key, by name). */
export function payloadToCall(m: CallMapping, payload: unknown): Converted<{ args: PyVal; kwargs: PyVal }> {
  return collect((problems) => {
    if (payload === null || typeof payload !== 'object' || Array.isArray(payload)) {
      problems.payload = 'the job has no payload object';
      return { args: { k: 'list', items: [] }, kwargs: { k: 'dict', entries: [] } };
    }
    const p = payload as Record<string, unknown>;
    const has = (k: string) => Object.hasOwn(p, k);
    const args: PyVal[] = m.args.map((key, i) => {
      if (has(key)) return jsonToPy(p[key]);
      if (key in m.defaults) return jsonToPy(m.defaults[key]);
      problems[`payload.${key}`] =
        `the job has no payload key "${key}" for positional argument ${i} (and the mapping has no default for it)`;
      return { k: 'none' };
    });
    const positional = new Set(m.args);
    const kwargs: Array<[string, PyVal]> = Object.entries(p)
      .filter(([k]) => !positional.has(k))
      .map(([k, v]) => [k, jsonToPy(v)]);
    for (const [k, v] of Object.entries(m.defaults)) if (!positional.has(k) && !has(k)) kwargs.push([k, jsonToPy(v)]);
    return { args: { k: 'list', items: args }, kwargs: { k: 'dict', entries: kwargs } };
  });
}
