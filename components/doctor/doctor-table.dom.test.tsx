import { render, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { DoctorBroker } from '@/lib/doctor/types';
import { DoctorTable } from './doctor-table';

const degraded: DoctorBroker = {
  id: 'rabbit',
  name: 'rabbit',
  system: 'potatoq · RabbitMQ',
  verdict: 'degraded',
  why: ['AMQP write permission on vhost "/": refused (switches off replay, enqueue)'],
  version: 'RabbitMQ 4.1.4 at <b>rabbit</b>:5672',
  checks: [
    { check: 'connect and read the overview', ok: true, detail: 'RabbitMQ 4.1.4', switchesOff: [] },
    { check: 'AMQP write permission on vhost "/"', ok: false, detail: 'refused', switchesOff: ['replay', 'enqueue'] },
    { check: 'access checks', ok: null, detail: 'could not run', switchesOff: [] },
  ],
  off: [{ capability: 'pause', why: 'potatoq has no queue pause' }],
};
const gone: DoctorBroker = {
  ...degraded,
  id: 'gone',
  name: 'gone',
  verdict: 'unusable',
  why: ['not reachable'],
  version: null,
  checks: [],
  off: [],
};

describe('DoctorTable', () => {
  it('shows each verdict, the failed checks with what they switch off, and broker text as text', () => {
    render(<DoctorTable brokers={[degraded, gone]} />);
    const [first, second] = screen.getAllByTestId('doctor-broker');
    expect(within(first!).getByTestId('doctor-verdict').textContent).toBe('degraded');
    expect(within(second!).getByTestId('doctor-verdict').textContent).toBe('UNUSABLE');
    expect(within(second!).getByTestId('doctor-why').textContent).toBe('not reachable');
    const rows = within(first!).getAllByTestId('doctor-check');
    expect(rows.map((r) => [r.dataset.ok, r.lastElementChild?.textContent])).toEqual([
      ['true', ''],
      ['false', 'replay, enqueue'],
      ['null', ''],
    ]);
    expect(first!.textContent).toContain('RabbitMQ 4.1.4 at <b>rabbit</b>:5672');
    expect(first!.querySelector('b')).toBeNull();
    expect(first!.textContent).toContain('What is off on this broker (1)');
  });

  it('says so when no broker is configured', () => {
    render(<DoctorTable brokers={[]} />);
    expect(screen.getByText('No broker is configured.')).toBeTruthy();
  });
});
