import { describe, expect, it } from 'vitest';
import type { SdjJobDetail } from './detail';
import { jobView, previewOf, rawOf } from './message';
import { decodePayload } from './payload';
import { letterFingerprint, summaryOf, toDeadDetail, toResult, toTaskDetail, toTaskSummary } from './views';

const ID = '0190f1d2-0000-7000-8000-000000000001';
const KID = '0190f1d2-0000-7000-8000-000000000002';

function job(over: Partial<SdjJobDetail> = {}): SdjJobDetail {
  const args = Buffer.from('{"order": 42, "sku": "A-1"}', 'utf8');
  return {
    id: ID,
    type: 'charge',
    queue: 'billing',
    status: 'pending',
    priority: 3,
    attempt: 1,
    maxRetries: 2,
    createdAt: '2026-01-02T03:04:05.123456Z',
    runAt: null,
    startedAt: null,
    completedAt: null,
    lockedBy: null,
    lastError: null,
    deadLetteredAt: null,
    deadLetterReason: null,
    reasonLabel: null,
    parentJobId: null,
    fanOutId: null,
    args: decodePayload(args),
    argsBytes: args,
    result: null,
    reasonError: null,
    tenant: null,
    metadata: null,
    timeoutNs: '0',
    previousStatus: null,
    lockedUntil: null,
    lastHeartbeatAt: null,
    updatedAt: null,
    uniqueKey: null,
    rootJobId: null,
    fanOutIndex: null,
    checkpoints: [],
    fanOuts: [],
    childIds: [],
    childrenTruncated: false,
    ...over,
  };
}

const field = (v: ReturnType<typeof jobView>, name: string) => v.fields.find((f) => f.name === name);

describe('SDJ jobs as the console shows them', () => {
  it('shows object args as keyword arguments, list args as positional ones, and the raw bytes as stored', () => {
    const v = jobView(job());
    expect(v).toMatchObject({ format: 'sdj', task: 'charge', id: ID, queue: 'billing', args: null, foreign: null });
    expect(v.kwargs).toEqual({
      t: 'dict',
      entries: [
        ['order', { t: 'int', v: '42' }],
        ['sku', { t: 'str', v: 'A-1' }],
      ],
    });
    const list = Buffer.from('[1, "two"]');
    const l = jobView(job({ args: decodePayload(list), argsBytes: list }));
    expect([l.args, l.kwargs]).toEqual([
      {
        t: 'list',
        items: [
          { t: 'int', v: '1' },
          { t: 'str', v: 'two' },
        ],
      },
      null,
    ]);
    expect(rawOf(job().argsBytes)).toEqual({ raw: '{"order": 42, "sku": "A-1"}', rawSize: 27, rawTruncated: false });
  });

  it('shows ciphertext of a payload codec and non-JSON bytes as bytes, flagged, never decoded', () => {
    const enc = Buffer.concat([Buffer.from('sdjenc:'), Buffer.from([0, 1, 2, 255])]);
    const v = jobView(job({ args: decodePayload(enc), argsBytes: enc }));
    expect([v.args, v.kwargs]).toEqual([null, null]);
    expect(field(v, 'args')).toEqual({ name: 'args', value: { t: 'bytes', base64: enc.toString('base64'), size: 11 }, carriesArgs: true });
    expect(v.flags.map((f) => f.code)).toEqual(['encrypted']);
    expect(rawOf(enc).raw).toBe(enc.toString('base64'));
    expect(previewOf(enc, enc.length).text).toBe('encrypted (11 bytes)');
    const bad = Buffer.from('not json <b>');
    expect(jobView(job({ args: decodePayload(bad), argsBytes: bad })).flags.map((f) => f.code)).toEqual(['not-json']);
  });

  it('names the lock holder, lease, heartbeat, attempts, unique key, fan-out and checkpoints as fields', () => {
    const v = jobView(
      job({
        status: 'running',
        lockedBy: 'worker-7',
        lockedUntil: '2026-01-02T03:49:05Z',
        lastHeartbeatAt: '2026-01-02T03:06:05Z',
        uniqueKey: 'order-42',
        fanOuts: [
          { id: KID, totalCount: 2, completedCount: 1, failedCount: 0, cancelledCount: 0, strategy: 'collect_all', status: 'pending' },
        ],
        childIds: [KID],
        checkpoints: [
          {
            id: KID,
            callIndex: 0,
            callType: 'fanout',
            result: decodePayload('{"fan_out_id":"x"}'),
            error: null,
            errorKind: null,
            createdAt: null,
          },
        ],
        result: decodePayload('{"ok": true}'),
      }),
    );
    expect(field(v, 'locked_by')?.value).toEqual({ t: 'str', v: 'worker-7' });
    expect(field(v, 'locked_until')?.value).toEqual({ t: 'str', v: '2026-01-02T03:49:05Z' });
    expect(field(v, 'last_heartbeat_at')).toBeDefined();
    expect(field(v, 'attempt')?.value).toEqual({ t: 'str', v: '1 of 2 runs' });
    expect(field(v, 'unique_key')?.value).toEqual({ t: 'str', v: 'order-42' });
    expect(field(v, 'sub_jobs')?.value).toEqual({ t: 'list', items: [{ t: 'uuid', v: KID }] });
    expect(field(v, 'checkpoints')?.carriesArgs).toBe(true);
    expect(field(v, 'result')).toMatchObject({ value: { t: 'dict' }, carriesArgs: true });
    // Unset columns say nothing.
    expect(field(v, 'tenant')).toBeUndefined();
    expect(field(v, 'timeout')).toBeUndefined();
  });

  it('lists a pending job as due at its run_at, else at once, and a running one with its worker', () => {
    expect(toTaskSummary(job()).runAt).toBe('2026-01-02T03:04:05.123456Z');
    expect(toTaskSummary(job({ runAt: '2026-02-01T00:00:00Z' })).runAt).toBe('2026-02-01T00:00:00Z');
    const r = toTaskSummary(job({ status: 'running', lockedBy: 'w1', startedAt: '2026-01-02T03:05:00Z', attempt: 2 }));
    expect([r.worker, r.claimedAt, r.deliveries, r.priority]).toEqual(['w1', '2026-01-02T03:05:00Z', '2', '3']);
    expect(toTaskSummary(job({ lockedBy: 'w1' })).worker).toBeNull();
  });

  it('reads a dead letter as the library labels it: the error after the label, its last line as the summary', () => {
    const err = 'Traceback (most recent call last):\n  File "/app/tasks.py", line 3, in boom\nKeyError: \'sku-1\'';
    const dead = job({
      status: 'failed',
      deadLetteredAt: '2026-01-02T04:00:00Z',
      deadLetterReason: `non-retryable failure: ${err}`,
      reasonLabel: 'non-retryable failure',
      lastError: err,
    });
    expect(summaryOf(dead)).toBe("KeyError: 'sku-1'");
    const d = toDeadDetail(dead);
    expect([d.reason, d.cause, d.diedAt]).toEqual([err, 'non-retryable failure', '2026-01-02T04:00:00Z']);
    expect(d.result?.status).toBe('FAILED');
    expect(letterFingerprint(dead).pattern).toBe('KeyError: <str>');
    // A Go error with no type: the label stands in for one; the label alone when there is no error text.
    const go = {
      deadLetterReason: 'max retries exhausted: harness: always errors',
      lastError: 'harness: always errors',
      reasonLabel: 'max retries exhausted',
    };
    expect(summaryOf(go)).toBe('harness: always errors');
    expect(summaryOf({ deadLetterReason: 'max retries exhausted', lastError: '', reasonLabel: 'max retries exhausted' })).toBe(
      'max retries exhausted',
    );
  });

  it('shows a finished job as a result record with its stored result or error', () => {
    const done = toResult(job({ status: 'completed', completedAt: '2026-01-02T05:00:00Z', result: decodePayload('{"n": 1}') }));
    expect(done).toMatchObject({ id: ID, status: 'COMPLETED', name: 'charge', dateDone: '2026-01-02T05:00:00Z', raw: '{"n":1}' });
    expect(done.record).toEqual({ t: 'dict', entries: [['n', { t: 'int', v: '1' }]] });
    const cancelled = toResult(job({ status: 'cancelled', lastError: 'cancelled by user' }));
    expect([cancelled.status, cancelled.excMessage, cancelled.record]).toEqual(['CANCELLED', 'cancelled by user', null]);
  });

  it('previews args inertly: whitespace folded, cut, and a cut character dropped', () => {
    expect(previewOf(Buffer.from('{"a":\n 1}'), 9)).toEqual({ kind: 'native', text: '{"a": 1}' });
    expect(previewOf(Buffer.from('x'.repeat(300)), 300).text).toHaveLength(160);
    const cut = Buffer.from('"é"').subarray(0, 2);
    expect(previewOf(cut, 4).text).toBe('"…');
    expect(previewOf(null, 0).text).toBe('');
  });

  it('leaves parent and sub-job links to the task family (no related links on the detail)', () => {
    expect(Object.keys(toTaskDetail(job({ status: 'waiting', parentJobId: ID, childIds: [KID] })))).not.toContain('related');
  });
});
