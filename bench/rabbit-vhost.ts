// A RabbitMQ vhost of a benchmark's own, created before and deleted after the run through the
// management API, so that other consoles on the shared broker (which browse every potatoq DLQ they
// discover, under its lock) never meet the benchmark's queues.

export interface BenchVhost {
  /** The AMQP URL of the vhost. */
  url: string;
  name: string;
  remove(): Promise<void>;
}

export async function createBenchVhost(base: string, mgmtBase: string, name: string): Promise<BenchVhost> {
  const login = new URL(base);
  const user = decodeURIComponent(login.username);
  const auth = `Basic ${Buffer.from(`${user}:${decodeURIComponent(login.password)}`).toString('base64')}`;
  const mgmt = async (method: string, p: string, body?: unknown): Promise<void> => {
    const send = () =>
      fetch(`${mgmtBase}${p}`, {
        method,
        headers: { authorization: auth, 'content-type': 'application/json' },
        ...(body ? { body: JSON.stringify(body) } : {}),
      });
    // The management API closes idle keep-alive connections: a request sent on one just as it
    // closes fails without reaching RabbitMQ, and is sent again once (each call is idempotent).
    const r = await send().catch(send);
    if (!r.ok && r.status !== 404) throw new Error(`management ${method} ${p}: HTTP ${r.status} ${await r.text()}`);
  };
  const v = encodeURIComponent(name);
  await mgmt('PUT', `/api/vhosts/${v}`, { description: 'potatoq console bench (deleted at the end)' });
  await mgmt('PUT', `/api/permissions/${v}/${encodeURIComponent(user)}`, { configure: '.*', write: '.*', read: '.*' });
  return { url: `${base.replace(/\/[^/]*$/, '')}/${v}`, name, remove: () => mgmt('DELETE', `/api/vhosts/${v}`) };
}
