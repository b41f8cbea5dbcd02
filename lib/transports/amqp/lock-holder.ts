import 'server-only';
import os from 'node:os';

// Who this console process is on a RabbitMQ server: the name its AMQP connections carry and the
// holder its browse locks record. Its own module, so the connection (which names itself) and the
// browse lock (which takes a connection) don't import each other.

/** This process as a holder of browse locks (also the AMQP connection's name). */
export const THIS_CONSOLE = `${os.hostname()} pid ${process.pid}`;
export const HOLDER_ARG = 'x-potatoq-console-holder';
export const SINCE_ARG = 'x-potatoq-console-since';

/** Who holds a browse lock, as the management API shows the lock queue. */
export interface LockHolder {
  holder: string | null;
  since: string | null;
}
