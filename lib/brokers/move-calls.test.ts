import { describe, expect, it } from 'vitest';
import { buildSendTask } from '@/lib/brokers/celery/send-task';
import { callOfLetter } from '@/lib/brokers/potatoq/calls';
import type { DeadDetail } from '@/lib/brokers/schema';

// A move between systems: a potatoq letter read as a call (potatoq's folder), written as the
// message Celery's send_task writes (Celery's folder). Only this level may import both.

const letter = (raw: string): DeadDetail => ({ id: 'L1', queue: 'q', raw, rawSize: raw.length, rawTruncated: false }) as DeadDetail;
const RAW =
  '{"task":"mv.fail","args":[1,{"__potatoq__":"decimal","v":"1.50"},{"__potatoq__":"datetime","v":"2026-01-02T03:04:05+00:00"}],' +
  '"kwargs":{"u":{"__potatoq__":"uuid","v":"00000000-0000-0000-0000-000000000005"}},"id":"L1","queue":"mvq","priority":3,"eta":1796140333.5,"enqueued_at":1796140333.7,"v":1}';

describe("potatoq's letters as Celery's messages", () => {
  it("writes the typed values as kombu's markers in the message Celery's send_task writes", () => {
    const c = callOfLetter(letter(RAW));
    const built = buildSendTask({ ...c, priority: 0, etaMs: null, expiresMs: null, headers: [] });
    expect(built.body).toContain('{"__type__": "decimal", "__value__": "1.50"}');
    expect(built.body).toContain('{"__type__": "uuid", "__value__": {"hex": "00000000000000000000000000000005"}}');
    expect(JSON.parse(built.json).headers.id).toBe('L1');
  });

  it("keeps the message's ignore_result, root_id and parent_id in Celery's headers", () => {
    const raw = RAW.replace('"v":1}', '"root_id":"R0","parent_id":"P1","ignore_result":true,"v":1}');
    const c = callOfLetter(letter(raw));
    const headers = JSON.parse(buildSendTask({ ...c, priority: 0, etaMs: null, expiresMs: null, headers: [] }).json).headers;
    expect(headers).toMatchObject({ root_id: 'R0', parent_id: 'P1', ignore_result: true });
  });

  it('a message without ignore_result wants a result in Celery too', () => {
    const c = callOfLetter(letter(RAW));
    // false overrides a task that ignores results there (the producer wanted one).
    expect(JSON.parse(buildSendTask({ ...c, priority: 0, etaMs: null, expiresMs: null, headers: [] }).json).headers.ignore_result).toBe(
      false,
    );
    expect(
      JSON.parse(buildSendTask({ ...c, ignoreResult: null, priority: 0, etaMs: null, expiresMs: null, headers: [] }).json).headers
        .ignore_result,
    ).toBeNull();
  });
});
