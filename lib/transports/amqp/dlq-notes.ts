import 'server-only';

// What a dead-letter list or its groups say when a DLQ holds more letters than one read takes
// (`deadBrowseLimit`): the same words for every system whose dead letters sit in a RabbitMQ queue.

/** A DLQ deeper than the read takes (`deadBrowseLimit`): its ready letters when it was read. */
export interface DeepDlq {
  dlq: string;
  messages: number;
}

/** What the list says when a DLQ holds more letters than one read takes. */
export function windowNote(deep: DeepDlq[], limit: number): string {
  const n = (x: number) => x.toLocaleString('en-US');
  const which = deep.map((d) => `${d.dlq} holds ${n(d.messages)} letters`).join(', ');
  return (
    `${which}: a read takes the first ${n(limit)} ${limit === 1 ? 'letter' : 'letters'} of a DLQ in queue order (deadBrowseLimit), so this list is the newest of those, not of all. ` +
    `RabbitMQ 4 puts the letters a read took behind the others, so the next refresh reads the next ${n(limit)}. ` +
    'Replay all… walks every letter of the DLQ.'
  );
}

/** What the error groups say when a DLQ holds more letters than one read takes. */
export function groupsNote(deep: DeepDlq[], limit: number): string {
  const n = (x: number) => x.toLocaleString('en-US');
  const which = deep.map((d) => `${d.dlq} holds ${n(d.messages)} letters`).join(', ');
  const letters = limit === 1 ? 'letter' : 'letters';
  return (
    `${which}: a read takes the first ${n(limit)} ${letters} of a DLQ in queue order (deadBrowseLimit), so these groups count those, not all. ` +
    `RabbitMQ 4 puts the letters a read took behind the others, so the next refresh groups the next ${n(limit)}: two views can count different letters.`
  );
}
