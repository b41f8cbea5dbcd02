import 'server-only';
import { StandaloneConnector } from 'ioredis/built/connectors';

// ioredis (6.0) listens for a socket's errors with `once`, twice: the connector keeps the first
// error and the client forwards it as its own 'error'. A socket can emit a second error: a TLS
// session that fails mid-reply (an alert, a record that does not decrypt) emits the TLS error
// without closing the socket, and the reset that follows is another error. With no listener
// left, Node turns that one into an uncaught exception and the whole console process dies for
// one broker's bad answer. This connector keeps a listener on every socket for its whole life
// (duplicates inherit it through the options), and closes the socket on its first error, so the
// client sees the close at once (its commands fail, it reconnects as configured) instead of
// waiting for a command timeout on a session that can no longer carry a reply.
export class GuardedConnector extends StandaloneConnector {
  // ioredis constructs a connector with its whole (resolved) options object.
  constructor(options: unknown) {
    super(options as ConstructorParameters<typeof StandaloneConnector>[0]);
  }

  override connect(...args: Parameters<StandaloneConnector['connect']>): ReturnType<StandaloneConnector['connect']> {
    return super.connect(...args).then((stream) => {
      // The client forwards the first error (with its own listener, added after this one).
      stream.on('error', () => {
        if (!stream.destroyed) stream.destroy();
      });
      return stream;
    });
  }
}
