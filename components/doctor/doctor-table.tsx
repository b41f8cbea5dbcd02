import { Badge, type Tone } from '@/components/ui/badge';
import { Empty } from '@/components/ui/states';
import { VERDICT_WORDS, type DoctorBroker, type DoctorCheck, type Verdict } from '@/lib/doctor/types';
import { visible } from '@/lib/text/visible';

const TONE: Record<Verdict, Tone> = { usable: 'green', degraded: 'yellow', unusable: 'red' };
const MARK = (c: DoctorCheck) => (c.ok === true ? '✓' : c.ok === false ? '✗' : '?');

/** The doctor's answer per broker, as text only: every word is the adapter's or the broker's. */
export function DoctorTable({ brokers }: { brokers: DoctorBroker[] }) {
  if (!brokers.length) return <Empty>No broker is configured.</Empty>;
  return (
    <div className="space-y-4" data-testid="doctor">
      {brokers.map((b) => (
        <section key={b.id} className="card p-3" data-testid="doctor-broker" data-broker={b.id} data-verdict={b.verdict}>
          <h2 className="flex flex-wrap items-center gap-2 font-medium">
            <span className="font-mono">{visible(b.name)}</span>
            <span className="text-sm text-zinc-500 dark:text-zinc-400">{b.system}</span>
            <Badge tone={TONE[b.verdict]} testId="doctor-verdict">
              {VERDICT_WORDS[b.verdict]}
            </Badge>
          </h2>
          {b.version ? <p className="mt-1 font-mono text-xs break-all">{visible(b.version)}</p> : null}
          {b.why.length ? (
            <ul className="mt-2 list-disc pl-5 text-sm" data-testid="doctor-why">
              {b.why.map((w) => (
                <li key={w}>{visible(w)}</li>
              ))}
            </ul>
          ) : null}
          <table className="table-base mt-2" data-testid="doctor-checks">
            <thead>
              <tr>
                <th className="w-8" aria-label="Result" />
                <th>Check</th>
                <th>Found</th>
                <th>Switches off</th>
              </tr>
            </thead>
            <tbody>
              {b.checks.map((c) => (
                <tr key={c.check + c.detail} data-testid="doctor-check" data-ok={String(c.ok)} className="align-top">
                  <td aria-label={c.ok === true ? 'passed' : c.ok === false ? 'failed' : 'unknown'}>{MARK(c)}</td>
                  <td className="text-sm">{visible(c.check)}</td>
                  <td className="text-sm break-words">{visible(c.detail)}</td>
                  <td className="font-mono text-xs">{c.ok === false ? c.switchesOff.join(', ') : ''}</td>
                </tr>
              ))}
            </tbody>
          </table>
          {b.off.length ? (
            <details className="mt-2 text-sm">
              <summary>What is off on this broker ({b.off.length})</summary>
              <ul className="mt-1 pl-5">
                {b.off.map((o) => (
                  <li key={o.capability}>
                    <span className="font-mono text-xs">{o.capability}</span>: {visible(o.why)}
                  </li>
                ))}
              </ul>
            </details>
          ) : null}
        </section>
      ))}
    </div>
  );
}
