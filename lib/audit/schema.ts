import 'server-only';

// The audit trail's tables are steps of the state store's schema (lib/state/steps.ts).

/** The key a user name is bound under: look-alike spellings (case, compatibility forms) are one name. */
export const bindingKey = (name: string) => name.normalize('NFKC').toLowerCase();
