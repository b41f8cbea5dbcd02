'use client';
import type { EnqueueDecl } from '@/lib/brokers/schema';
import { unseenWords, type NameCheck } from '@/lib/text/suggest';
import { Field } from './fields';
import type { NameWarnings, TaskRoute } from './routes';

const AMBER = 'text-amber-700 dark:text-amber-400';

/** "No task named `x` has been seen on this broker: did you mean `y`?", or nothing. */
function Unseen({ kind, name, check, testId }: { kind: 'task' | 'queue'; name: string; check: NameCheck; testId: string }) {
  if (check.seen !== false) return null;
  const words = unseenWords(kind, name, check.suggest);
  const misspelt = check.misspelt.length > 0;
  return (
    <span
      role={misspelt ? 'alert' : undefined}
      data-testid={testId}
      className={`text-xs ${misspelt ? AMBER : 'text-zinc-600 dark:text-zinc-400'}`}
    >
      {words.charAt(0).toUpperCase() + words.slice(1)}
      {misspelt ? '' : ' (fine for a new one).'}
    </span>
  );
}

/** Task name and queue: the queue follows the task's route (its workers' queues, else where the
 *  broker has seen it), a name the broker has never shown is said under its field, and sending
 *  a likely misspelt one (or a task no live worker registered) needs the confirmation below. */
export function TaskFields(props: {
  decl: EnqueueDecl;
  /** The task name's label in the system's words (SDJ's "Type"), and an example name where
   *  the system's names look like one (a Python call's dotted path). */
  nameLabel: string;
  namePlaceholder?: string;
  task: string;
  queue: string;
  follows: boolean;
  route: TaskRoute;
  warnings: NameWarnings;
  names: string[];
  queues: string[];
  err: (k: string) => string | undefined;
  onTask: (t: string) => void;
  onQueue: (q: string) => void;
  onFollow: () => void;
  ack: boolean;
  onAck: (v: boolean) => void;
}) {
  const { route, task, queue, warnings } = props;
  const seen = route.known && route.via === 'seen';
  const routed = route.known && (route.registered || seen);
  const where = routed ? route.queues.join(', ') : '';
  const queueHint = !routed
    ? undefined
    : route.queues.length === 0
      ? 'The workers that registered this task report no queues.'
      : route.queues.includes(queue)
        ? `${props.follows ? 'Follows the task: ' : ''}${seen ? `seen in ${where}` : `its workers consume ${where}`}.`
        : null;
  return (
    <>
      <div className="grid gap-4 sm:grid-cols-2">
        <Field label={props.nameLabel} name="task" error={props.err('task')}>
          <input
            id="f-task"
            name="task"
            className="input"
            list="task-names"
            autoComplete="off"
            placeholder={props.namePlaceholder}
            data-shortcut="search"
            value={task}
            onChange={(e) => props.onTask(e.target.value)}
            aria-invalid={!!props.err('task')}
            data-testid="enqueue-task"
          />
          <datalist id="task-names">
            {props.names.map((n) => (
              <option key={n} value={n} />
            ))}
          </datalist>
          {route.known && !route.registered ? (
            <span role="alert" data-testid="warning-task" className={`text-xs ${AMBER}`}>
              No live worker has registered <code className="font-mono">{task.trim()}</code>: a worker will not run it as it is.
              {route.suggest.length ? ` Did you mean ${route.suggest.join(', ')}?` : ''}
            </span>
          ) : (
            <Unseen kind="task" name={task} check={warnings.task} testId="warning-task" />
          )}
        </Field>
        <Field
          label="Queue"
          name="queue"
          error={props.err('queue')}
          hint={
            queueHint === null ? (
              <span className={AMBER} data-testid="warning-queue">
                {seen ? `This task has been seen in ${where}` : `The workers that registered this task consume ${where}`}, not {queue}.{' '}
                <button type="button" className="link" onClick={props.onFollow}>
                  Follow the task
                </button>
              </span>
            ) : (
              (queueHint ?? (props.decl.routes ? undefined : `Empty: ${props.decl.defaultQueue}.`))
            )
          }
        >
          <input
            id="f-queue"
            name="queue"
            className="input"
            list="queue-names"
            autoComplete="off"
            placeholder={props.decl.defaultQueue}
            value={queue}
            onChange={(e) => props.onQueue(e.target.value)}
            aria-invalid={!!props.err('queue')}
            data-testid="enqueue-queue"
          />
          <datalist id="queue-names">
            {props.queues.map((q) => (
              <option key={q} value={q} />
            ))}
          </datalist>
          <Unseen kind="queue" name={queue} check={warnings.queue} testId="warning-queue-unseen" />
        </Field>
      </div>
      {warnings.hold ? (
        <label className={`flex items-center gap-1 text-sm ${AMBER}`}>
          <input type="checkbox" checked={props.ack} onChange={(e) => props.onAck(e.target.checked)} data-testid="enqueue-ack-unknown" />
          Enqueue it anyway (the names are as I mean them)
        </label>
      ) : null}
    </>
  );
}
