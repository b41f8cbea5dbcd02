import { VERDICT_WORDS, type DoctorBroker, type DoctorCheck } from './types';

// The doctor's answer as text for a terminal: one block per broker, its verdict first.

const mark = (c: DoctorCheck) => (c.ok === true ? 'ok  ' : c.ok === false ? 'FAIL' : '??  ');

export function formatDoctorTable(brokers: DoctorBroker[]): string {
  const lines: string[] = [];
  for (const b of brokers) {
    lines.push(`${b.id} (${b.system}): ${VERDICT_WORDS[b.verdict]}`);
    if (b.version) lines.push(`  version    ${b.version}`);
    for (const c of b.checks) {
      const off = c.ok === false && c.switchesOff.length ? ` [switches off: ${c.switchesOff.join(', ')}]` : '';
      lines.push(`  ${mark(c)}       ${c.check}: ${c.detail}${off}`);
    }
    for (const o of b.off) lines.push(`  off        ${o.capability}: ${o.why}`);
    lines.push('');
  }
  const count = (v: DoctorBroker['verdict']) => brokers.filter((b) => b.verdict === v).length;
  lines.push(`${brokers.length} broker(s): ${count('usable')} usable, ${count('degraded')} degraded, ${count('unusable')} unusable`);
  return `${lines.join('\n')}\n`;
}
