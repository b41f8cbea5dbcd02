// One short, inert line per payload for lists: `boom(1, 'x', when=datetime 2026-…)`.
// Plain text only (the UI renders it as text, never HTML); bounded work even for 10 MB input.
import type { DecodedPayload, ForeignKind } from './types';
import type { TypedValue } from '@/lib/brokers/typed-value';

/** A short, inert line for lists; the console's bridge maps it to its neutral preview. */
export interface PayloadPreview {
  kind: 'potatoq' | 'foreign';
  foreign?: ForeignKind;
  text: string;
}

const LABEL: Record<string, string> = {
  'celery-v2': 'Celery message',
  'kombu-envelope': 'Celery/kombu envelope',
  'no-id': 'no id',
  'not-object': 'not a potatoq message',
  'newer-protocol': 'newer protocol',
  'invalid-json': 'invalid JSON',
  'invalid-utf8': 'invalid UTF-8',
  'tag-error': 'undecodable tag',
};

const OPEN = { list: '[', tuple: '(', set: '{' } as const;
const CLOSE = { list: ']', tuple: ')', set: '}' } as const;

function quote(s: string, room: number): string {
  const cut = s.length > room ? `${s.slice(0, Math.max(room, 0))}…` : s;
  return `'${cut.replace(/[\u0000-\u001f\u007f\u2028\u2029]/g, (c) => (c === '\n' ? '\\n' : c === '\t' ? '\\t' : `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`)).replaceAll("'", "\\'")}'`;
}

/** Renders until about `room` characters; the caller cuts the rest. */
function render(v: TypedValue, room: number): string {
  if (room <= 0) return '…';
  switch (v.t) {
    case 'null':
      return 'None';
    case 'bool':
      return v.v ? 'True' : 'False';
    case 'int':
    case 'float':
      return v.v.length > room ? `${v.v.slice(0, room)}…` : v.v;
    case 'str':
      return quote(v.v, room);
    case 'list':
    case 'tuple':
    case 'set':
      return seq(
        OPEN[v.t],
        v.items.map((x) => (r: number) => render(x, r)),
        CLOSE[v.t],
        room,
      );
    case 'dict':
      return seq(
        '{',
        v.entries.map(
          ([k, x]) =>
            (r: number) =>
              `${quote(k, r)}: ${render(x, r - k.length - 4)}`,
        ),
        '}',
        room,
      );
    case 'datetime':
    case 'date':
    case 'time':
    case 'uuid':
    case 'decimal':
      return `${v.t} ${v.v}`;
    case 'timedelta':
      return `timedelta ${v.seconds}s`;
    case 'bytes':
      return `bytes(${v.size})`;
    case 'deep':
      return '…';
    default: {
      const never: never = v;
      return never;
    }
  }
}

function seq(open: string, parts: Array<(room: number) => string>, close: string, room: number): string {
  let out = open;
  for (let i = 0; i < parts.length; i++) {
    if (out.length >= room) return `${out}…${close}`;
    out += (i ? ', ' : '') + (parts[i] as (r: number) => string)(room - out.length);
  }
  return out + close;
}

function call(task: string, args: TypedValue | null, kwargs: TypedValue | null, max: number): string {
  const parts: string[] = [];
  let used = task.length + 2;
  const items: Array<(room: number) => string> = [];
  if (args?.t === 'list') for (const a of args.items) items.push((r) => render(a, r));
  if (kwargs?.t === 'dict') for (const [k, x] of kwargs.entries) items.push((r) => `${k}=${render(x, r - k.length - 1)}`);
  for (const item of items) {
    if (used >= max) {
      parts.push('…');
      break;
    }
    const s = item(max - used);
    parts.push(s);
    used += s.length + 2;
  }
  return `${task}(${parts.join(', ')})`;
}

function clip(s: string, max: number): string {
  const flat = s.replace(/[\r\n\u2028\u2029]+/g, ' ');
  const cps = [...flat];
  return cps.length <= max ? flat : `${cps.slice(0, max - 1).join('')}…`;
}

export function previewPayload(decoded: DecodedPayload, max = 160): PayloadPreview {
  if (decoded.kind === 'potatoq') {
    return { kind: 'potatoq', text: clip(call(decoded.task, decoded.args, decoded.kwargs, max), max) };
  }
  const label = LABEL[decoded.foreign] ?? decoded.foreign;
  const c = decoded.celery;
  const task = decoded.task ?? c?.task ?? null;
  const body = task ? call(task, c?.args ?? null, c?.kwargs ?? null, max) : decoded.reason;
  return { kind: 'foreign', foreign: decoded.foreign, text: clip(`${label}: ${body}`, max) };
}
