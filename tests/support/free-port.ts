// Ports for the servers tests start (consoles, private databases): always chosen by the kernel,
// never fixed, so a run never collides with another program or another run on the machine.
import { execFileSync } from 'node:child_process';
import net from 'node:net';

/** A port nobody listens on right now (the kernel's choice on 127.0.0.1). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as net.AddressInfo).port;
      s.close(() => resolve(port));
    });
  });
}

/** The same, synchronously (for configuration files that cannot await, e.g. Playwright's). */
export function freePortSync(): number {
  const script =
    "const s=require('net').createServer();s.listen(0,'127.0.0.1',()=>{process.stdout.write(String(s.address().port));s.close()})";
  return Number(execFileSync(process.execPath, ['-e', script], { encoding: 'utf8' }));
}

/** Who listens on a TCP port ("pid 123 (redis-server)"), for errors that name the holder. */
export function portHolder(port: number): string {
  try {
    const out = execFileSync('ss', ['-Hltnp', `sport = :${port}`], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
    const m = /users:\(\("([^"]+)",pid=(\d+)/.exec(out);
    if (m) return `pid ${m[2]} (${m[1]})`;
    return out.trim() ? 'another process' : 'nobody now';
  } catch {
    return 'unknown (ss is not available)';
  }
}
