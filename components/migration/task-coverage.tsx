'use client';
import { Card, CardHeader } from '@/components/ui/card';
import type { StoredMapping } from '@/lib/brokers/mapping/schema';

/**
 * The task names this broker has shown (its newest tasks and letters), each with the brokers
 * its tasks are mapped to, or "no mapping": the names a move would refuse.
 */
export function TaskCoverage({ names, mappings, onMap }: { names: string[]; mappings: StoredMapping[]; onMap: (task: string) => void }) {
  if (!names.length) return null;
  const to = new Map<string, string[]>();
  for (const s of mappings) to.set(s.mapping.task, [...(to.get(s.mapping.task) ?? []), s.mapping.target]);
  const unmapped = names.filter((n) => !to.has(n)).length;
  return (
    <Card testId="mapping-coverage">
      <CardHeader title={`Task names seen here: ${names.length}, ${unmapped} without a mapping`} />
      <ul className="grid gap-1 p-4 text-sm">
        {names.map((n) => (
          <li key={n} className="flex flex-wrap items-center gap-2" data-testid="mapping-coverage-row">
            <span className="font-mono">{n}</span>
            {to.has(n) ? (
              <span className="text-zinc-600 dark:text-zinc-400">mapped to {to.get(n)!.join(', ')}</span>
            ) : (
              <button type="button" className="link" onClick={() => onMap(n)} data-testid="mapping-coverage-map">
                no mapping: map it
              </button>
            )}
          </li>
        ))}
      </ul>
    </Card>
  );
}
