// The doctor's answer for one broker, JSON-safe and client-safe (the admin page renders it, the
// command prints it). Nothing here names a system: every word comes from the adapter.

/** usable: everything the console needs is there; degraded: usable, with what is off and why;
 *  unusable: the console cannot read this broker at all, with why. */
export type Verdict = 'usable' | 'degraded' | 'unusable';

export interface DoctorCheck {
  check: string;
  /** null: could not be told. */
  ok: boolean | null;
  detail: string;
  /** What a failed check switches off in the console (capability names). */
  switchesOff: string[];
}

export interface DoctorBroker {
  id: string;
  name: string;
  /** "Celery · Redis". */
  system: string;
  verdict: Verdict;
  /** One sentence per reason for the verdict (empty when usable). */
  why: string[];
  /** What the system says about itself (its version, schema, server), never credentials. */
  version: string | null;
  checks: DoctorCheck[];
  /** Every capability that is off, with the adapter's reason. */
  off: Array<{ capability: string; why: string }>;
}

export const VERDICT_WORDS: Record<Verdict, string> = {
  usable: 'usable',
  degraded: 'degraded',
  unusable: 'UNUSABLE',
};
