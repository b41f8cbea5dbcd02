import { z } from 'zod';

// What every system's form schemas read the same way: an untouched input, a whole number in
// range, and plain JSON as the console's typed value. Systems name their fields; this names none.

/** Empty text (an untouched form input) and null mean "not given". */
export const given = (v: unknown) => (v === '' || v === null ? undefined : v);

/** An optional whole number in [min, max], from text or a number; `what` names it in refusals. */
export const wholeNumber = (what: string, min: number, max: number) =>
  z.preprocess(
    given,
    z.coerce
      .number({ error: `${what} must be a whole number` })
      .int(`${what} must be a whole number`)
      .min(min, `${what} must be at least ${min}`)
      .max(max, `${what} must be at most ${max}`)
      .optional(),
  );
