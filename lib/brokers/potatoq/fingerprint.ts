import 'server-only';
import { pyStrip } from '@/lib/potatoq/digits';
import { fingerprintError, type Fingerprint } from '@/lib/triage/fingerprint';
import { parsePythonError } from '@/lib/triage/python-traceback';

/** A potatoq dead letter's fingerprint: its reason is the worker's Python traceback. */
export function reasonFingerprint(reason: string | null | undefined): Fingerprint {
  return fingerprintError(parsePythonError(pyStrip(reason ?? '')));
}
