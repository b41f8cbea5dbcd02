#!/usr/bin/env node
// Makes the secrets the console's configuration stores (never the secrets themselves):
//   npm run hash-password            -> prompts for a password, prints its scrypt hash
//                                       (for POTATOQ_CONSOLE_USERS[].hash)
//   npm run hash-password -- --token -> prints a new API token once, and its digest
//                                       (for POTATOQ_CONSOLE_TOKENS[].hash)
//   npm run hash-password -- --secret -> prints a random session secret
// Reads the password from stdin when it is not a terminal (echo -n pw | npm run ...).
import { createHash, randomBytes, scrypt } from 'node:crypto';
import { createInterface } from 'node:readline';

const N = 16384,
  R = 8,
  P = 1,
  KEYLEN = 32;

function hashPassword(password) {
  const salt = randomBytes(16);
  return new Promise((resolve, reject) =>
    scrypt(password, salt, KEYLEN, { N, r: R, p: P }, (e, key) =>
      e ? reject(e) : resolve(['scrypt', N, R, P, salt.toString('base64url'), key.toString('base64url')].join('$')),
    ),
  );
}

async function readPassword() {
  if (!process.stdin.isTTY) {
    let text = '';
    for await (const chunk of process.stdin) text += chunk;
    return text.replace(/\r?\n$/, '');
  }
  const rl = createInterface({ input: process.stdin, output: process.stderr, terminal: true });
  // Hide what is typed.
  rl._writeToOutput = (s) => {
    if (s.includes('Password')) process.stderr.write(s);
  };
  const ask = (q) => new Promise((resolve) => rl.question(q, resolve));
  const a = await ask('Password: ');
  process.stderr.write('\n');
  const b = await ask('Password again: ');
  process.stderr.write('\n');
  rl.close();
  if (a !== b) throw new Error('the passwords differ');
  return a;
}

const arg = process.argv[2];
if (arg === '--token') {
  const token = `pqc_${randomBytes(32).toString('base64url')}`;
  process.stdout.write(`token (give to the client, shown once): ${token}\n`);
  process.stdout.write(`hash  (POTATOQ_CONSOLE_TOKENS[].hash):  sha256:${createHash('sha256').update(token, 'utf8').digest('hex')}\n`);
} else if (arg === '--secret') {
  process.stdout.write(`${randomBytes(32).toString('base64url')}\n`);
} else if (arg === undefined) {
  const password = await readPassword();
  if (password.length < 8) {
    process.stderr.write('hash-password: use at least 8 characters\n');
    process.exit(1);
  }
  process.stdout.write(`${await hashPassword(password)}\n`);
} else {
  process.stderr.write('usage: npm run hash-password [-- --token | --secret]\n');
  process.exit(2);
}
