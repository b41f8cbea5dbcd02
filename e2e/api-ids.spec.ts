import { expect, test } from '@playwright/test';
import { e2eBrokers } from './brokers';
import { addDead, addTask, deadRow, job, uniqueQueue } from './seed';

// potatoq ids are free text, and some of them are also the API's action paths.
test('ids that are also action paths are read by GET, and POST on them still acts', async ({ request }) => {
  const { main } = e2eBrokers();
  const queue = uniqueQueue('ids');
  addTask(main, { queue, id: 'revoke', task: 'demo.literal' });
  for (const id of ['replay', 'discard', 'convert-celery', 'groups']) addDead(main, { queue, id, reason: `ValueError: ${id}` });

  const task = await request.get('/api/brokers/main/tasks/revoke');
  expect(task.status()).toBe(200);
  expect(await task.json()).toMatchObject({ id: 'revoke', queue, task: 'demo.literal', state: 'ready' });
  for (const id of ['replay', 'discard', 'convert-celery']) {
    const r = await request.get(`/api/brokers/main/dead/${id}`);
    expect(r.status(), id).toBe(200);
    expect(await r.json()).toMatchObject({ id, queue, reason: `ValueError: ${id}` });
  }
  // `/dead/groups` is the groups listing; the letter called `groups` is found by the id filter.
  const groups = await request.get(`/api/brokers/main/dead/groups?queue=${queue}`);
  expect((await groups.json()).groups.map((g: { example: { summary: string } }) => g.example.summary).sort()).toEqual([
    'ValueError: convert-celery',
    'ValueError: discard',
    'ValueError: groups',
    'ValueError: replay',
  ]);
  const byId = await request.get(`/api/brokers/main/dead?queue=${queue}&id=groups`);
  expect((await byId.json()).items.map((d: { id: string }) => d.id)).toEqual(['groups']);
  // An unknown literal is a 404, not the action.
  expect((await request.get('/api/brokers/main/dead/nope-not-here')).status()).toBe(404);

  // POST on the same path is still the action, and acts on ids named like the path.
  const replayed = await request.post('/api/brokers/main/dead/replay', { data: { ids: ['replay'] } });
  expect(replayed.status()).toBe(200);
  expect(await replayed.json()).toMatchObject({ action: 'replay', requested: 1, succeeded: [{ id: 'replay' }], failed: [] });
  expect(deadRow(main, 'replay')).toBeUndefined();
  expect(job(main, 'replay')).toMatchObject({ queue, state: 1 });
  expect((await request.get('/api/brokers/main/dead/replay')).status()).toBe(404);
  expect((await request.get('/api/brokers/main/tasks/replay')).status()).toBe(200);
});
