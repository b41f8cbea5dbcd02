import 'server-only';
import { reasonSummary } from '@/lib/potatoq';
import { pyStrip } from '@/lib/potatoq/digits';
import { fingerprintError, type Fingerprint } from '@/lib/triage/fingerprint';
import { parsePythonError } from '@/lib/triage/python-traceback';
import { textKey } from '@/lib/triage/text-key';

/** A potatoq dead letter's fingerprint: its reason is the worker's Python traceback. */
export function reasonFingerprint(reason: string | null | undefined): Fingerprint {
  return reasonTriage(reason).fp;
}

// Both are pure functions of the reason text, and the groups read fingerprints the newest
// 10,000 letters on every view, most of which share a few tracebacks: each distinct text is
// parsed once. Keyed by a hash of the text, so a big reason costs one linear hash per view and
// the memo holds no reason text: bounded by entries, each a bounded pattern and summary.
const TRIAGE_MEMO_ENTRIES = 4096;
const triageMemo = new Map<string, { fp: Fingerprint; summary: string }>();

function triage(text: string): { fp: Fingerprint; summary: string } {
  return { fp: fingerprintError(parsePythonError(pyStrip(text))), summary: reasonSummary(text) };
}

/** The fingerprint and the one-line summary of a reason, memoised per reason text. */
export function reasonTriage(reason: string | null | undefined): { fp: Fingerprint; summary: string } {
  const text = reason ?? '';
  const key = textKey(text);
  const known = triageMemo.get(key);
  if (known) return known;
  const made = triage(text);
  if (triageMemo.size >= TRIAGE_MEMO_ENTRIES) triageMemo.delete(triageMemo.keys().next().value!);
  triageMemo.set(key, made);
  return made;
}
