// Re-exports the codec (`@/lib/potatoq`) for the SQLite adapter. The two helpers at the bottom
// are TEMPORARY stand-ins until the codec's index exports them; then this file goes away.
import type { DecodedPayload } from '@/lib/potatoq/types';
import type { PayloadPreview } from '../schema';

export { decodePayload } from '@/lib/potatoq/decode';
export { buildMessage, BuildMessageError, reencodeWithoutEta } from '@/lib/potatoq/encode';
export { parseJson } from '@/lib/potatoq/json';
export { toPValue } from '@/lib/potatoq/pvalue';

export const previewPayload = (d: DecodedPayload, max: number): PayloadPreview =>
  d.kind === 'potatoq' ? { kind: 'potatoq', text: `${d.task}`.slice(0, max) } : { kind: 'foreign', foreign: d.foreign, text: d.reason.slice(0, max) };
const lastLine = (r: string) => r.trim().split(/\r?\n/).pop() ?? '';
export const reasonSummaryFull = (r: string | null) => lastLine(r ?? '');
export const reasonSummary = (r: string | null) => {
  const l = reasonSummaryFull(r);
  return l.length <= 70 ? l : `${l.slice(0, 69)}…`;
};
