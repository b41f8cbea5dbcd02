import { describe, expect, it } from 'vitest';
import { brokerTitle, shortId } from './titles';

describe('tab titles', () => {
  it('name the page and the broker from the decoded URL params', async () => {
    expect(await brokerTitle('Workers')({ params: Promise.resolve({ brokerId: 'shop%20eu' }) })).toEqual({ title: 'Workers · shop eu' });
    expect(await brokerTitle((p) => `Queue ${p.queue}`)({ params: Promise.resolve({ brokerId: 'main', queue: 'emails' }) })).toEqual({
      title: 'Queue emails · main',
    });
  });

  it('cut long ids to their first 8 characters', () => {
    expect(shortId('7d3c1a9e-5b0f-4c1e-9a7b-2f4d6e8a0b1c')).toBe('7d3c1a9e…');
    expect(shortId('job-42')).toBe('job-42');
  });
});
