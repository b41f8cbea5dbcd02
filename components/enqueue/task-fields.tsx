'use client';
import type { EnqueueDecl } from '@/lib/brokers/schema';
import { Field } from './fields';
import type { TaskRoute } from './routes';

/** Task name and queue: the queue follows the task's route where the system knows it, and a
 *  name no live worker registered is warned about before anything is sent. */
export function TaskFields(props: {
  decl: EnqueueDecl;
  task: string;
  queue: string;
  follows: boolean;
  route: TaskRoute;
  names: string[];
  queues: string[];
  err: (k: string) => string | undefined;
  onTask: (t: string) => void;
  onQueue: (q: string) => void;
  onFollow: () => void;
  ack: boolean;
  onAck: (v: boolean) => void;
}) {
  const { route, task, queue } = props;
  const routed = route.known && route.registered;
  const queueHint = !routed
    ? undefined
    : route.queues.length === 0
      ? 'The workers that registered this task report no queues.'
      : route.queues.includes(queue)
        ? `${props.follows ? 'Follows the task: ' : ''}its workers consume ${route.queues.join(', ')}.`
        : null;
  return (
    <div className="grid gap-4 sm:grid-cols-2">
      <Field label="Task name" name="task" error={props.err('task')}>
        <input
          id="f-task"
          name="task"
          className="input"
          list="task-names"
          autoComplete="off"
          placeholder="app.tasks.send_email"
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
          <div role="alert" data-testid="warning-task" className="grid gap-1 text-xs text-amber-700 dark:text-amber-400">
            <span>
              No live worker has registered <code className="font-mono">{task.trim()}</code>: a worker will not run it as it is.
              {route.suggest.length ? ` Did you mean ${route.suggest.join(', ')}?` : ''}
            </span>
            <label className="flex items-center gap-1">
              <input
                type="checkbox"
                checked={props.ack}
                onChange={(e) => props.onAck(e.target.checked)}
                data-testid="enqueue-ack-unknown"
              />
              Enqueue it anyway
            </label>
          </div>
        ) : null}
      </Field>
      <Field
        label="Queue"
        name="queue"
        error={props.err('queue')}
        hint={
          queueHint === null ? (
            <span className="text-amber-700 dark:text-amber-400" data-testid="warning-queue">
              The workers that registered this task consume {route.known && route.registered ? route.queues.join(', ') : ''}, not {queue}.{' '}
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
      </Field>
    </div>
  );
}
