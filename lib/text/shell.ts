// POSIX shell quoting for command lines the console shows for copy-paste (server and browser
// alike): a queue or task name is data, and must never become shell syntax. Pure.

/** POSIX shell quoting: safe words stay bare, anything else goes in single quotes. */
export function shellQuote(word: string): string {
  if (word !== '' && /^[A-Za-z0-9_@%+=:,./-]+$/.test(word)) return word;
  return `'${word.replace(/'/g, `'\\''`)}'`;
}
