import { describe, expect, it } from 'vitest';
import { CAPABILITIES, type BrokerModel, type Capabilities, type CallsDecl } from './model';
import { pairMove, type MoveSide } from './move-pairing';

const allOn = () => Object.fromEntries(CAPABILITIES.map((k) => [k, { on: true }])) as Capabilities;
const calls = (over: Partial<CallsDecl> = {}): CallsDecl => ({
  model: 'celery-compatible',
  export: { does: 'Reads the call.' },
  import: { does: 'Enqueues it under its id.' },
  ...over,
});
const model = (c?: CallsDecl): BrokerModel => ({
  system: 'potatoq',
  states: [],
  actions: {} as BrokerModel['actions'],
  ...(c ? { calls: c } : {}),
});
const side = (id: string, over: Partial<MoveSide> = {}): MoveSide => ({
  id,
  name: id,
  model: model(calls()),
  exports: true,
  imports: true,
  readOnly: false,
  caps: allOn(),
  ...over,
});
const why = (p: ReturnType<typeof pairMove>) => (p.on ? null : p.why);

describe('which brokers a dead letter may move between', () => {
  it('pairs brokers of the same call model and says what the move does, export then import', () => {
    const p = pairMove(side('celery'), side('pq'));
    expect(p).toEqual({ on: true, does: 'Reads the call. Enqueues it under its id.' });
  });

  it('refuses a broker paired with itself', () => {
    expect(why(pairMove(side('a'), side('a')))).toMatch(/already on this broker/);
  });

  it('refuses brokers whose call models differ, naming both models', () => {
    const p = pairMove(side('celery'), side('qf', { model: model(calls({ model: 'queueflow-jobs' })) }));
    expect(why(p)).toBe("celery's tasks are celery-compatible calls, qf's are queueflow-jobs calls");
  });

  it('refuses a system that declares no call model, on either side', () => {
    expect(why(pairMove(side('sdj', { model: model() }), side('pq')))).toMatch(/^sdj's system declares no call model/);
    expect(why(pairMove(side('pq'), side('sdj', { model: model(), imports: false })))).toMatch(
      /^sdj's system declares no call model it could take/,
    );
    expect(why(pairMove(side('x', { model: null }), side('pq')))).toMatch(/declares no call model/);
  });

  it("gives the target's own reason when it can't take calls (RabbitMQ can't look an id up)", () => {
    const rmq = side('rmq', {
      model: model(calls({ import: { why: 'RabbitMQ cannot look a queued message up by its id' } })),
      imports: false,
    });
    expect(why(pairMove(side('celery'), rmq))).toBe(
      'rmq cannot take calls from another broker: RabbitMQ cannot look a queued message up by its id',
    );
    // ... while its own letters may still leave it.
    expect(pairMove(rmq, side('pq')).on).toBe(true);
  });

  it("gives the source's reason when its letters can't leave", () => {
    const src = side('s', { model: model(calls({ export: { why: 'no browse' } })) });
    expect(why(pairMove(src, side('pq')))).toBe('s cannot hand its letters over as calls: no browse');
  });

  it('refuses read-only brokers on either side', () => {
    expect(why(pairMove(side('a', { readOnly: true }), side('b')))).toMatch(/^a is configured read-only/);
    expect(why(pairMove(side('a'), side('b', { readOnly: true })))).toMatch(/^b is configured read-only/);
  });

  it('refuses when the source cannot remove letters or the target cannot enqueue, with their reasons', () => {
    const noDiscard = { ...allOn(), discard: { on: false, why: 'no DELETE grant' } };
    expect(why(pairMove(side('a', { caps: noDiscard }), side('b')))).toBe('a cannot remove its letters: no DELETE grant');
    const noEnqueue = { ...allOn(), enqueue: { on: false, why: 'no INSERT grant' } };
    expect(why(pairMove(side('a'), side('b', { caps: noEnqueue })))).toBe('b cannot take new tasks: no INSERT grant');
  });

  it('refuses an unreachable broker, saying so', () => {
    expect(why(pairMove(side('a'), side('b', { caps: null, down: 'connection refused' })))).toBe('b cannot be reached: connection refused');
  });
});

describe('moves between call models', () => {
  const valueModel = (c: Partial<CallsDecl> = {}): BrokerModel => ({
    ...model(calls({ model: 'named-payload', ...c })),
    task: { noun: 'job', nouns: 'jobs', payload: { shape: 'value', label: 'Payload', help: '' }, deliveries: { label: 'D', help: '' } },
  });
  const callModel = (): BrokerModel => ({
    ...model(calls()),
    task: { noun: 'task', nouns: 'tasks', payload: { shape: 'call' }, deliveries: { label: 'D', help: '' } },
  });

  it('pairs positional calls with a named-payload system whose adapter creates mapped jobs, saying a mapping is needed', () => {
    const p = pairMove(side('celery', { model: callModel() }), side('qf', { model: valueModel(), imports: false, importsValue: true }));
    expect(p).toEqual({ on: true, mapped: true, does: expect.stringMatching(/through the call mapping of its name/) });
  });

  it('refuses a target that cannot create mapped jobs', () => {
    const noImport = pairMove(side('celery', { model: callModel() }), side('qf', { model: valueModel(), importsValue: false }));
    expect(why(noImport)).toMatch(/does not create jobs converted through a call mapping$/);
  });

  it('pairs the way back (named-payload letters into positional calls) when the target enqueues calls, saying how', () => {
    const qf = (leaves?: 'replay') => side('qf', { model: valueModel(leaves ? { leaves } : {}) });
    const back = pairMove(qf('replay'), side('celery', { model: callModel() }));
    expect(back).toEqual({ on: true, mapped: true, back: true, does: expect.stringMatching(/payload keys back to positional arguments/) });
    expect(why(pairMove(qf('replay'), side('celery', { model: callModel(), imports: false })))).toMatch(
      /celery's adapter does not enqueue calls from other brokers$/,
    );
    // The target's own reason comes first (RabbitMQ can't look an id up).
    const rmq = side('rmq', { model: { ...callModel(), calls: calls({ import: { why: 'no lookup by id' } }) }, imports: false });
    expect(why(pairMove(qf('replay'), rmq))).toBe('rmq cannot take calls from another broker: no lookup by id');
  });

  it('asks a source that leaves letters by replay for replay and pause, not discard', () => {
    const src = (caps: Partial<Capabilities>) =>
      side('qf', { model: valueModel({ leaves: 'replay' }), caps: { ...allOn(), discard: { on: false, why: 'no delete' }, ...caps } });
    const to = side('celery', { model: callModel() });
    expect(pairMove(src({}), to).on).toBe(true);
    expect(why(pairMove(src({ pause: { on: false, why: 'read-only token' } }), to))).toBe(
      'qf cannot pause the queues of its letters: read-only token',
    );
    expect(why(pairMove(src({ replay: { on: false, why: 'no' } }), to))).toBe('qf cannot replay (and so remove) its letters: no');
  });
});
