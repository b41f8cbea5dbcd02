// Test support: the fields an InvalidInput refusal names, or undefined when the call did not
// refuse (any other error is rethrown).
import { isConsoleError } from '@/lib/brokers/errors';

export const fieldsOfError = (f: () => unknown): Record<string, string> | undefined => {
  try {
    f();
  } catch (e) {
    if (isConsoleError(e) && e.code === 'InvalidInput') return e.fields;
    throw e;
  }
  return undefined;
};
