import { describe, expect, it } from 'vitest';
import type { WorkerInfo } from '@/lib/brokers/schema';
import { closest, followedQueue, nameWarnings, routeOf, routeWithSightings } from './routes';

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

describe('a task seen in a queue (no worker reports its tasks)', () => {
  const seenIn = { 'shop.email': ['emails'], 'app.add': ['default', 'reports'] };

  it("follows the queue the broker has seen the task in, the workers' route first", () => {
    const r = routeWithSightings('shop.email', [], seenIn);
    expect(r).toEqual({ known: true, registered: true, queues: ['emails'], suggest: [], via: 'seen' });
    expect(followedQueue(r, 'default', true)).toBe('emails');
    expect(followedQueue(r, 'default', false)).toBe('default');
    const w = worker('a', ['mail'], ['shop.email']);
    expect(routeWithSightings('shop.email', [w], seenIn)).toMatchObject({ queues: ['mail'] });
    expect(routeWithSightings('shop.unseen', [], seenIn)).toEqual({ known: false });
    // Live workers that did not register it: still their warning, and the queue it was seen in.
    const other = routeWithSightings('shop.email', [worker('b', ['default'], ['app.add'])], seenIn);
    expect(other).toEqual({ known: true, registered: false, queues: ['emails'], suggest: [], via: 'seen' });
    expect(followedQueue(other, 'default', true)).toBe('emails');
  });

  it('holds the send for a misspelt task or queue, not for a new one', () => {
    const names = ['shop.email', 'app.add'];
    const queues = ['emails', 'default', 'reports'];
    const typo = nameWarnings('shop.emial', '', names, queues, routeWithSightings('shop.emial', [], seenIn));
    expect(typo).toMatchObject({ task: { seen: false, misspelt: ['shop.email'] }, hold: true });
    const queue = nameWarnings('shop.email', 'emials', names, queues, routeWithSightings('shop.email', [], seenIn));
    expect(queue).toMatchObject({ task: { seen: true }, queue: { seen: false, misspelt: ['emails'] }, hold: true });
    const fresh = nameWarnings('billing.invoice', 'invoices', names, queues, { known: false });
    expect(fresh).toMatchObject({ task: { seen: false, misspelt: [] }, queue: { seen: false, misspelt: [] }, hold: false });
  });
});
