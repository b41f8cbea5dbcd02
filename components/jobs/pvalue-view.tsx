'use client';
import type { ReactNode } from 'react';
import { Badge } from '@/components/ui/badge';
import { useNow } from '@/components/ui/time';
import { formatLocal, formatRelative, formatTimedelta, formatUtc } from '@/lib/text/format';
import type { TypedValue } from '@/lib/brokers/schema';
import { BytesView } from './bytes-view';
import { visible } from '@/lib/text/visible';

// Renders a neutral typed value by type, whatever system it came from. Every string is a React
// text node: payload text is never HTML and never a link.

function Tag({ children }: { children: ReactNode }) {
  return (
    <span className="mr-1 rounded bg-violet-100 px-1 font-mono text-[10px] text-violet-800 dark:bg-violet-950 dark:text-violet-300">
      {children}
    </span>
  );
}

function More({ n, what }: { n?: number; what: string }) {
  return n ? (
    <li className="text-xs text-zinc-500 dark:text-zinc-400 italic">
      … {n.toLocaleString('en-US')} more {what} not shown (see raw JSON)
    </li>
  ) : null;
}

function DateTimeView({ v, aware, epochMs }: { v: string; aware: boolean; epochMs: number | null }) {
  const now = useNow();
  const iso = epochMs !== null ? new Date(epochMs).toISOString() : null;
  return (
    <span className="inline-grid gap-0.5" data-testid="pv-datetime">
      <span>
        <Tag>datetime</Tag>
        <code className="font-mono text-xs">{v}</code>{' '}
        {aware ? null : (
          <Badge tone="yellow" title="No UTC offset: the producer's local time">
            naive
          </Badge>
        )}
      </span>
      {iso ? (
        <span className="text-xs text-zinc-500 dark:text-zinc-400" suppressHydrationWarning>
          {formatUtc(iso)} · {formatLocal(iso)} · {formatRelative(iso, now)}
        </span>
      ) : null}
    </span>
  );
}

export function PValueView({ value }: { value: TypedValue }): ReactNode {
  switch (value.t) {
    case 'null':
      return <span className="font-mono text-xs text-zinc-500 dark:text-zinc-400">null</span>;
    case 'bool':
      return <span className="font-mono text-xs text-amber-700 dark:text-amber-400">{value.v ? 'true' : 'false'}</span>;
    case 'int':
      return (
        <span className="font-mono text-xs text-sky-700 dark:text-sky-400" data-testid="pv-int">
          {value.v}
        </span>
      );
    case 'float': {
      const special = /^(-?Infinity|NaN)$/.test(value.v);
      return (
        <span className="font-mono text-xs text-sky-700 dark:text-sky-400" data-testid="pv-float">
          {value.v}{' '}
          {special ? (
            <Badge tone="yellow" title="Not valid strict JSON; potatoq writes it anyway">
              non-finite
            </Badge>
          ) : null}
        </span>
      );
    }
    case 'str':
      return (
        <span className="font-mono text-xs break-all whitespace-pre-wrap text-emerald-800 dark:text-emerald-300" data-testid="pv-str">
          “{visible(value.v)}”
          {value.truncated ? (
            <span className="text-zinc-500 dark:text-zinc-400 italic">
              {' '}
              … {value.truncated.toLocaleString('en-US')} more characters not shown
            </span>
          ) : null}
        </span>
      );
    case 'datetime':
      return <DateTimeView v={value.v} aware={value.aware} epochMs={value.epochMs} />;
    case 'date':
    case 'time':
      return (
        <span data-testid={`pv-${value.t}`}>
          <Tag>{value.t}</Tag>
          <code className="font-mono text-xs">{visible(value.v)}</code>
        </span>
      );
    case 'timedelta':
      return (
        <span data-testid="pv-timedelta">
          <Tag>timedelta</Tag>
          {formatTimedelta(value.seconds)} <span className="font-mono text-xs text-zinc-500 dark:text-zinc-400">({value.seconds} s)</span>
        </span>
      );
    case 'uuid':
      return (
        <span data-testid="pv-uuid">
          <Tag>uuid</Tag>
          <code className="font-mono text-xs">{visible(value.v)}</code>
        </span>
      );
    case 'decimal':
      return (
        <span data-testid="pv-decimal">
          <Tag>Decimal</Tag>
          <code className="font-mono text-xs">{visible(value.v)}</code>
        </span>
      );
    case 'bytes':
      return (
        <span>
          <Tag>bytes</Tag>
          <BytesView base64={value.base64} size={value.size} />
        </span>
      );
    case 'set':
    case 'tuple':
    case 'list':
      return (
        <span data-testid={`pv-${value.t}`}>
          {value.t !== 'list' ? <Tag>{value.t}</Tag> : null}
          {value.items.length === 0 && !(value.t === 'list' && value.truncated) ? (
            <span className="font-mono text-xs text-zinc-500 dark:text-zinc-400">
              {value.t === 'set' ? 'set()' : value.t === 'tuple' ? '()' : '[]'}
            </span>
          ) : (
            <ol className="ml-2 grid gap-0.5 border-l border-zinc-200 pl-3 dark:border-zinc-700">
              {value.items.map((item, i) => (
                <li key={i} className="flex gap-2">
                  <span className="font-mono text-[10px] text-zinc-400">{i}</span>
                  <PValueView value={item} />
                </li>
              ))}
              {value.t === 'list' ? <More n={value.truncated} what="items" /> : null}
            </ol>
          )}
        </span>
      );
    case 'dict':
      return <DictView value={value} />;
    case 'deep':
      return (
        <span className="text-xs text-zinc-500 dark:text-zinc-400 italic" data-testid="pv-deep">
          nested too deep — see raw JSON
        </span>
      );
    default: {
      const never: never = value;
      return <span>{JSON.stringify(never)}</span>;
    }
  }
}

function DictView({ value }: { value: Extract<TypedValue, { t: 'dict' }> }) {
  const note = value.note;
  return (
    <span data-testid="pv-dict">
      {note ? (
        <Badge tone="yellow" title={note.why} testId="pv-flag">
          {note.label}
        </Badge>
      ) : null}
      {value.entries.length === 0 && !value.truncated ? (
        <span className="font-mono text-xs text-zinc-500 dark:text-zinc-400">{'{}'}</span>
      ) : (
        <ul className="ml-2 grid gap-0.5 border-l border-zinc-200 pl-3 dark:border-zinc-700">
          {value.entries.map(([k, v], i) => (
            <li key={`${i}:${k}`} className="flex flex-wrap gap-2">
              <span className="font-mono text-xs font-semibold break-all">{k}:</span>
              <PValueView value={v} />
            </li>
          ))}
          <More n={value.truncated} what="keys" />
        </ul>
      )}
    </span>
  );
}
