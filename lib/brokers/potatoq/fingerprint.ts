import 'server-only';
import { reasonSummary } from '@/lib/potatoq';
import { pyStrip } from '@/lib/potatoq/digits';
import { fingerprintError, type Fingerprint } from '@/lib/triage/fingerprint';
import { parsePythonError } from '@/lib/triage/python-traceback';

/** A potatoq dead letter's fingerprint: its reason is the worker's Python traceback. */
export function reasonFingerprint(reason: string | null | undefined): Fingerprint {
  return fingerprintError(parsePythonError(pyStrip(reason ?? '')));
}

// Both are pure functions of the reason text, and the groups read fingerprints the newest
// 10,000 letters on every view, most of which share a few tracebacks: each distinct text is
// parsed once. Bounded: entries, and the size of a text worth keeping.
const TRIAGE_MEMO_ENTRIES = 4096;
const TRIAGE_MEMO_CHARS = 16 * 1024;
const triageMemo = new Map<string, { fp: Fingerprint; summary: string }>();

/** The fingerprint and the one-line summary of a reason, memoised per reason text. */
export function reasonTriage(reason: string | null | undefined): { fp: Fingerprint; summary: string } {
  const text = reason ?? '';
  const known = triageMemo.get(text);
  if (known) return known;
  const made = { fp: reasonFingerprint(text), summary: reasonSummary(text) };
  if (text.length <= TRIAGE_MEMO_CHARS) {
    if (triageMemo.size >= TRIAGE_MEMO_ENTRIES) triageMemo.delete(triageMemo.keys().next().value!);
    triageMemo.set(text, made);
  }
  return made;
}
