// Markers of redacted argument values (POTATOQ_CONSOLE_REDACT_ARGS). Client-safe: the detail
// views recognise a redacted payload by them and offer operators the audited reveal.

export const HIDDEN_TEXT = '‹arguments hidden›';
export const HIDDEN_RAW = '‹the raw message is hidden because it contains the arguments›';

export const isRedacted = (d: { raw: string }) => d.raw === HIDDEN_RAW;
