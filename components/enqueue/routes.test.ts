import { describe, expect, it } from 'vitest';
import type { WorkerInfo } from '@/lib/brokers/schema';
import { closest, followedQueue, routeOf } from './routes';

const worker = (id: string, queues: string[], registered: string[] | null, status: WorkerInfo['status'] = 'alive'): WorkerInfo => ({
  id,
  hostname: id,
  pid: '1',
  queues,
  concurrency: '1',
  threads: null,
  running: [],
  heartbeatAt: '2026-12-01T00:00:00.000Z',
  ageSeconds: 1,
  status,
  registered,
});

describe("a task's route", () => {
  const workers = [
    worker('a', ['emails'], ['app.send_email', 'app.add']),
    worker('b', ['reports', 'default'], ['app.report', 'app.add']),
    worker('gone', ['old'], ['app.legacy'], 'dead'),
  ];

  it('is the queues of the live workers that registered the task', () => {
    expect(routeOf('app.send_email', workers)).toEqual({ known: true, registered: true, queues: ['emails'], suggest: [] });
    expect(routeOf(' app.add ', workers)).toMatchObject({ queues: ['default', 'emails', 'reports'] });
  });

  it('names an unregistered task, with close registered names, ignoring dead workers', () => {
    expect(routeOf('app.sendemail', workers)).toEqual({ known: true, registered: false, queues: [], suggest: ['app.send_email'] });
    expect(routeOf('app.legacy', workers)).toMatchObject({ registered: false });
  });

  it("can't tell when no live worker reports its task names", () => {
    expect(routeOf('app.add', [worker('x', ['q'], null)])).toEqual({ known: false });
    expect(routeOf('app.add', [])).toEqual({ known: false });
  });

  it('moves the queue to the route unless the operator chose one', () => {
    const r = routeOf('app.send_email', workers);
    expect(followedQueue(r, 'default', true)).toBe('emails');
    expect(followedQueue(r, 'default', false)).toBe('default');
    const add = routeOf('app.add', workers);
    expect(followedQueue(add, 'reports', true)).toBe('reports');
    expect(followedQueue({ known: false }, 'default', true)).toBe('default');
  });

  it('suggests only names within a few edits', () => {
    expect(closest('demo.ad', ['demo.add', 'demo.echo', 'other.thing'])).toEqual(['demo.add']);
    expect(closest('zzz', ['demo.add'])).toEqual([]);
  });
});
