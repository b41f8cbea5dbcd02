import type { Capabilities } from '@/lib/brokers/model';
import type { ToastSpec } from './outcome-toasts';

/**
 * Where the page goes after a dead letter was replayed as `newId`, by what the broker's adapter
 * declares: the task's page where the system can show a waiting or running task (it lists them),
 * else the dead-letter list with a notice naming the new id (a task page there would only say
 * the system can't show it).
 */
export function afterReplay(
  brokerId: string,
  caps: Capabilities | undefined,
  newId: string,
  message: string,
): { href: string; notice: ToastSpec | null } {
  const base = `/brokers/${encodeURIComponent(brokerId)}`;
  const lists = Object.entries(caps ?? {}).filter(([k]) => k.startsWith('list:'));
  const taskPage = lists.some(([, c]) => c.on);
  if (taskPage) return { href: `${base}/jobs/${encodeURIComponent(newId)}`, notice: null };
  const why = lists.find(([, c]) => c.why)?.[1].why;
  return {
    href: `${base}/dead`,
    notice: {
      tone: 'success',
      title: `Replayed as ${newId}`,
      body: `${message}.${why ? ` Its task page can't be shown here (${why}).` : ''}`,
    },
  };
}
