import { describe, expect, it } from 'vitest';
import { fingerprintError, isLibraryFrame, normaliseMessage, ownFrame } from './fingerprint';
import { parsePythonError } from './python-traceback';

const SITE = '/srv/venv/lib/python3.11/site-packages';
const STDLIB = '/usr/lib/python3.11';

/** A traceback as potatoq 26.1a8's worker stores it (executor -> task -> project code). */
function traceback(type: string, message: string, own: Array<[string, string]>, below: Array<[string, string]> = []): string {
  const frame = ([file, func]: [string, string]) => `  File "${file}", line 12, in ${func}\n    do_it()\n    ^^^^^^^`;
  return [
    'Traceback (most recent call last):',
    frame([`${SITE}/potatoq/worker/executor.py`, '_execute']),
    frame([`${SITE}/potatoq/task.py`, '__call__']),
    ...own.map(frame),
    ...below.map(frame),
    message ? `${type}: ${message}` : type,
  ].join('\n');
}

const fp = (reason: string) => fingerprintError(parsePythonError(reason));
const charge = (customer: string, amount: string, ms: number, ref: string, why: string, dir = '/srv/shop') =>
  fp(
    traceback(
      'shop.billing.CardDeclined',
      `customer ${customer} declined: amount ${amount} EUR over limit 500.00 after ${ms}ms (gateway ref ${ref}, reason '${why}')`,
      [
        [`${dir}/tasks.py`, 'charge'],
        [`${dir}/shop/billing.py`, '_authorise'],
      ],
    ),
  );

describe('normaliseMessage', () => {
  it.each([
    ['customer 7d3c1a9e-5b0f-4c1e-9a7b-2f4d6e8a0b1c owes 1,234.56 EUR', 'customer <uuid> owes <n> EUR'],
    ['timed out after 30.5s (attempt 3 of 5)', 'timed out after <dur> (attempt <n> of <n>)'],
    ['took 358ms', 'took <dur>'],
    ["no such key 'invoice-2024-77'", 'no such key <str>'],
    ['unknown value "gold plan" for tier', 'unknown value <str> for tier'],
    ["[Errno 2] No such file or directory: '/var/data/exports/2026-11-30/report.csv'", '[Errno <n>] No such file or directory: <str>'],
    ['cannot read /srv/exports/2026-04-18/88834.json for order #88834', 'cannot read <path> for order #<n>'],
    ['object at 0x7f3a2b1c9d80 is not callable', 'object at <hex> is not callable'],
    ['document 65a1f0c2e4b0a1d2c3e4f5a6 not found', 'document <hex> not found'],
    ['sha 3f786850e387550fdab836ed7e6dc881de23001b mismatch', 'sha <hex> mismatch'],
    ['due 2026-11-30T09:15:00+01:00, now 2026-11-30 10:00:01.123', 'due <time>, now <time>'],
    ['GET https://api.example.com/v2/orders/991?x=1 returned 503', 'GET <url> returned <n>'],
    ['mail to jane.doe+shop@example.co.uk bounced', 'mail to <email> bounced'],
    ['connect to 10.0.3.17:5432 refused', 'connect to <ip>:<n> refused'],
  ])('%s', (input, out) => {
    expect(normaliseMessage(input)).toBe(out);
  });

  it("keeps words that only look like numbers or quotes (utf8, v2, don't)", () => {
    expect(normaliseMessage("don't decode utf8 payloads with codec_v2")).toBe("don't decode utf8 payloads with codec_v2");
  });

  it('keeps what tells different errors apart', () => {
    expect(normaliseMessage('Expecting value: line 1 column 1 (char 0)')).not.toBe(
      normaliseMessage('Extra data: line 1 column 1 (char 0)'),
    );
    expect(normaliseMessage('connection refused')).not.toBe(normaliseMessage('connection reset'));
  });
});

describe('frames', () => {
  it('treats site-packages, dist-packages, the standard library and <frozen> as library code', () => {
    expect(isLibraryFrame(`${SITE}/requests/api.py`)).toBe(true);
    expect(isLibraryFrame('/usr/lib/python3/dist-packages/yaml/parser.py')).toBe(true);
    expect(isLibraryFrame(`${STDLIB}/json/decoder.py`)).toBe(true);
    expect(isLibraryFrame('/opt/pyenv/versions/3.11.7/lib/python3.11/json/__init__.py')).toBe(true);
    expect(isLibraryFrame('<frozen importlib._bootstrap>')).toBe(true);
    expect(isLibraryFrame('C:\\Python311\\Lib\\json\\decoder.py')).toBe(true);
    expect(isLibraryFrame('/srv/shop/shop/billing.py')).toBe(false);
    expect(isLibraryFrame('/srv/python-projects/shop/lib/money.py')).toBe(false);
  });

  it('names the innermost frame of the project, skipping library frames below it', () => {
    const parts = parsePythonError(
      traceback(
        'json.decoder.JSONDecodeError',
        'Expecting value: line 1 column 1 (char 0)',
        [['/srv/shop/shop/exports.py', 'load_manifest']],
        [
          [`${STDLIB}/json/__init__.py`, 'loads'],
          [`${STDLIB}/json/decoder.py`, 'raw_decode'],
        ],
      ),
    );
    expect(ownFrame(parts.frames)).toBe('shop/exports.py in load_manifest');
    expect(ownFrame([{ file: `${SITE}/potatoq/task.py`, func: '__call__' }])).toBeNull();
  });
});

describe('parsePythonError', () => {
  it('takes the exception finally raised from a chained traceback', () => {
    const inner = traceback('json.decoder.JSONDecodeError', 'Expecting value: line 1 column 1 (char 0)', [
      ['/srv/shop/shop/exports.py', 'load_manifest'],
    ]);
    const outer = traceback('ValueError', 'bad manifest /srv/exports/1.json', [
      ['/srv/shop/tasks.py', 'export'],
      ['/srv/shop/shop/exports.py', 'load_manifest'],
    ]);
    const p = parsePythonError(`${inner}\n\nThe above exception was the direct cause of the following exception:\n\n${outer}`);
    expect(p.type).toBe('ValueError');
    expect(p.message).toBe('bad manifest /srv/exports/1.json');
    expect(p.frames.map((f) => f.func)).toEqual(['_execute', '__call__', 'export', 'load_manifest']);
  });

  it('reads a multi-line message, a bare type, and a reason that is no traceback', () => {
    expect(parsePythonError(traceback('KeyError', "'sku-1'\nnote: from cart 12", [['/a/b.py', 'f']])).message).toBe(
      "'sku-1'\nnote: from cart 12",
    );
    expect(parsePythonError(traceback('shop.Timeout', '', [['/a/b.py', 'f']]))).toMatchObject({ type: 'shop.Timeout', message: '' });
    expect(parsePythonError('unregistered task shop.refund')).toEqual({ type: null, message: 'unregistered task shop.refund', frames: [] });
    expect(parsePythonError('ValueError: boom')).toEqual({ type: 'ValueError', message: 'boom', frames: [] });
  });
});

describe('fingerprintError', () => {
  it('gives letters that differ only in ids, amounts, durations, refs and quoted values one key', () => {
    const a = charge('7d3c1a9e-5b0f-4c1e-9a7b-2f4d6e8a0b1c', '1234.56', 358, '0xff22a27b', 'do not honour');
    const b = charge('0b9e2f4a-1c3d-4e5f-8a7b-9c0d1e2f3a4b', '99999.01', 29001, '0x0000a1b2', 'insufficient funds');
    expect(b.key).toBe(a.key);
    expect(a.pattern).toBe(
      'shop.billing.CardDeclined: customer <uuid> declined: amount <n> EUR over limit <n> after <dur> (gateway ref <hex>, reason <str>)',
    );
    expect(a.frame).toBe('shop/billing.py in _authorise');
    expect(a.key).toMatch(/^fp-[0-9a-f]{16}$/);
  });

  it('ignores the deploy directory and line numbers of the frame', () => {
    const a = charge('7d3c1a9e-5b0f-4c1e-9a7b-2f4d6e8a0b1c', '1', 1, '0x1', 'x', '/srv/releases/41');
    const b = charge('7d3c1a9e-5b0f-4c1e-9a7b-2f4d6e8a0b1c', '1', 1, '0x1', 'x', '/opt/shop-v42');
    expect(b.key).toBe(a.key);
  });

  it('separates the same message raised from different project code, and different types', () => {
    const msg = 'customer 42 not found';
    const inBilling = fp(traceback('LookupError', msg, [['/srv/shop/shop/billing.py', 'charge']]));
    const inExports = fp(traceback('LookupError', msg, [['/srv/shop/shop/exports.py', 'export']]));
    const asKeyError = fp(traceback('KeyError', msg, [['/srv/shop/shop/billing.py', 'charge']]));
    expect(new Set([inBilling.key, inExports.key, asKeyError.key]).size).toBe(3);
  });

  it('is stable: the same input always gives the same key', () => {
    const r = traceback('ValueError', 'x 1', [['/a/b.py', 'f']]);
    expect(fp(r).key).toBe(fp(r).key);
    expect(fp(r).key).toBe('fp-' + fp(r).key.slice(3));
  });
});
