import 'server-only';
import { reasonSummary } from '@/lib/pyvalues';
import { pyStrip } from '@/lib/pyvalues/digits';
import { fingerprintError, type Fingerprint } from '@/lib/triage/fingerprint';
import { parsePythonError } from '@/lib/triage/python-traceback';
import { textKey } from '@/lib/triage/text-key';

/** A potatoq dead letter's fingerprint: its reason is the worker's Python traceback. */
export function reasonFingerprint(reason: string | null | undefined): Fingerprint {
  return reasonTriage(reason).fp;
}

// Both are pure functions of the reason text, and the groups read fingerprints the newest
// 10,000 letters on every view (Celery: up to 20,000), which differ only in ids more often than
// not: each distinct text is parsed once. Keyed by a hash of the text, so a big reason costs one
// linear hash per view and the memo keeps no reason text. Bounded twice: entries (more than a
// window, or every poll would evict what the next one needs) and the characters kept.
const TRIAGE_MEMO_ENTRIES = 24_000;
const TRIAGE_MEMO_CHARS = 8_000_000;
type Triage = { fp: Fingerprint; summary: string };
const triageMemo = new Map<string, { t: Triage; size: number }>();
let triageMemoChars = 0;

function triage(text: string): Triage {
  return { fp: fingerprintError(parsePythonError(pyStrip(text))), summary: reasonSummary(text) };
}

/** The fingerprint and the one-line summary of a reason, memoised per reason text. */
export function reasonTriage(reason: string | null | undefined): Triage {
  const text = reason ?? '';
  const key = textKey(text);
  const known = triageMemo.get(key);
  if (known) return known.t;
  const t = triage(text);
  const size = 64 + key.length + t.fp.key.length + t.fp.pattern.length + (t.fp.frame?.length ?? 0) + t.summary.length;
  while (triageMemo.size > 0 && (triageMemo.size >= TRIAGE_MEMO_ENTRIES || triageMemoChars + size > TRIAGE_MEMO_CHARS)) {
    const [oldest, entry] = triageMemo.entries().next().value!;
    triageMemo.delete(oldest);
    triageMemoChars -= entry.size;
  }
  triageMemo.set(key, { t, size });
  triageMemoChars += size;
  return t;
}

/** What the memo holds (for tests): entries and characters. */
export function triageMemoSize(): { entries: number; chars: number } {
  return { entries: triageMemo.size, chars: triageMemoChars };
}
