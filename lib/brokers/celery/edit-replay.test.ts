import { describe, expect, it } from 'vitest';
import type { SendTaskInput } from './send-task';
import { buildSendTask } from './send-task';
import { editSendTask } from './edit-replay';

const base: SendTaskInput = {
  task: 'shop.charge',
  queue: 'billing',
  args: { k: 'list', items: [{ k: 'int', text: '1' }] },
  kwargs: { k: 'dict', entries: [['at', { k: 'str', v: 'not yet' }]] },
  priority: 0,
  etaMs: null,
  expiresMs: null,
  headers: [],
  id: 'b1',
};
const fields = (f: () => unknown) => {
  try {
    f();
  } catch (e) {
    return (e as { fields?: Record<string, string> }).fields;
  }
  throw new Error('no error');
};

describe('Celery edit and replay: send_task arguments with the edit applied', () => {
  it('writes typed values as kombu markers and moves the task to the edited queue and priority', () => {
    const out = editSendTask(base, {
      args: [{ t: 'decimal', v: '2.50' }],
      kwargs: [['at', { t: 'datetime', v: '2026-12-02T10:30:00+01:00', aware: true, epochMs: null }]],
      queue: ' other ',
      priority: 7,
    });
    const m = buildSendTask({ ...out, replyTo: 'r', deliveryTag: 't' });
    expect(m.body).toBe(
      '[[{"__type__": "decimal", "__value__": "2.50"}], {"at": {"__type__": "datetime", "__value__": "2026-12-02T10:30:00+01:00"}}, {"callbacks": null, "errbacks": null, "chain": null, "chord": null}]',
    );
    expect(m.json).toContain('"routing_key": "other"}, "priority": 7');
    expect(m.id).toBe('b1');
  });

  it('keeps what the edit leaves out', () => {
    expect(editSendTask(base, {})).toEqual(base);
  });

  it('refuses what kombu cannot send or Celery would get as another type, naming the field', () => {
    expect(fields(() => editSendTask(base, { kwargs: [['s', { t: 'set', items: [] }]] }))).toEqual({
      'kwargs.s': expect.stringContaining("kombu) can't send it"),
    });
    expect(fields(() => editSendTask(base, { kwargs: [['at', { t: 'datetime', v: 'tomorrow', aware: false, epochMs: null }]] }))).toEqual({
      'kwargs.at': expect.stringContaining("Celery's workers would receive it as a plain dict"),
    });
    expect(
      fields(() =>
        editSendTask(base, {
          kwargs: [
            ['a', { t: 'null' }],
            ['a', { t: 'null' }],
          ],
        }),
      ),
    ).toEqual({ 'kwargs.a': 'is given twice' });
    expect(fields(() => editSendTask(base, { priority: 256 }))).toEqual({ priority: expect.stringContaining('between 0 and 255') });
    expect(fields(() => editSendTask(base, { queue: '  ' }))).toEqual({ queue: 'must not be empty' });
  });
});
