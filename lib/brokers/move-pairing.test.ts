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

  it('refuses the way back (not offered yet) and a target that cannot create mapped jobs', () => {
    const back = pairMove(side('qf', { model: valueModel() }), side('celery', { model: callModel() }));
    expect(why(back)).toMatch(/named-payload jobs into positional calls is not offered yet/);
    const noImport = pairMove(side('celery', { model: callModel() }), side('qf', { model: valueModel(), importsValue: false }));
    expect(why(noImport)).toMatch(/does not create jobs converted through a call mapping$/);
  });
});
