import { describe, expect, it } from 'vitest';
import { checkName, closest, distance, misspells, unseenWords } from './suggest';

describe('names checked against those a broker has shown', () => {
  const names = ['shop.email', 'shop.refund', 'demo.add', 'demo.echo'];

  it('calls an unseen name a swap or an edit from a seen one misspelt, and suggests it', () => {
    expect(checkName('shop.emial', names)).toEqual({ seen: false, misspelt: ['shop.email'], suggest: ['shop.email'] });
    expect(checkName('demo.ad', names)).toMatchObject({ seen: false, misspelt: ['demo.add'] });
    expect(checkName(' shop.email ', names)).toEqual({ seen: true });
  });

  it('leaves a wholly new name unmisspelt, and says nothing when nothing was seen', () => {
    expect(checkName('billing.invoice', names)).toEqual({ seen: false, misspelt: [], suggest: [] });
    expect(checkName('shop.email', [])).toEqual({ seen: 'unknown' });
    expect(checkName('  ', names)).toEqual({ seen: 'unknown' });
  });

  it('suggests names a few edits away without calling them misspelt', () => {
    // Three edits: close enough to suggest for a name this long, too far to hold the send.
    expect(checkName('shop.refund.v2', names)).toEqual({ seen: false, misspelt: [], suggest: ['shop.refund'] });
  });

  it('never takes random test-queue suffixes for misspellings of each other', () => {
    const seen = ['enqueue-1f3a9c0e', 'enqueue-b7d24e61', 'move-0c9e4a7b'];
    expect(checkName('enqueue-5e8f2d19', seen)).toMatchObject({ seen: false, misspelt: [] });
  });

  it('takes short names, numbered siblings and several edits for different names, not typos', () => {
    expect(misspells('ct.e', 'ct.r')).toBe(false);
    expect(misspells('shop.email_v2', 'shop.email_v1')).toBe(false);
    expect(misspells('reports', 'report')).toBe(true);
    expect(misspells('send_mail', 'send_email')).toBe(true);
    expect(misspells('send_mails', 'send_emails')).toBe(true);
    expect(misspells('send_male', 'send_email')).toBe(false);
  });

  it('says the name and the names meant', () => {
    expect(unseenWords('task', 'shop.emial', ['shop.email'])).toBe(
      'no task named `shop.emial` has been seen on this broker: did you mean `shop.email`?',
    );
    expect(unseenWords('queue', 'emials', [])).toBe('no queue named `emials` has been seen on this broker');
  });

  it('bounds the work: a distance stops once it must exceed its limit', () => {
    expect(distance('kitten', 'sitting')).toBe(3);
    expect(distance('shop.emial', 'shop.email')).toBe(1);
    expect(distance('a'.repeat(400), 'b'.repeat(400), 6)).toBe(7);
    expect(closest('x'.repeat(500), ['y'.repeat(500), 'x'.repeat(499)])).toEqual(['x'.repeat(499)]);
  });
});
