import 'server-only';
import { isIP } from 'node:net';

// Exact addresses and IPv4/IPv6 CIDR ranges for the trusted-proxy list.

export type AddressMatcher = (address: string) => boolean;

function v4ToInt(a: string): number {
  return a.split('.').reduce((n, o) => n * 256 + Number(o), 0);
}

function v6ToBigInt(a: string): bigint {
  let s = a.toLowerCase();
  const v4 = /(\d+\.\d+\.\d+\.\d+)$/.exec(s);
  if (v4) {
    const n = v4ToInt(v4[1]!);
    s = s.slice(0, -v4[1]!.length) + `${(n >>> 16).toString(16)}:${(n & 0xffff).toString(16)}`;
  }
  const [head, tail] = s.includes('::') ? (s.split('::') as [string, string]) : [s, undefined];
  const h = head ? head.split(':') : [];
  const t = tail ? tail.split(':') : [];
  const groups = tail === undefined ? h : [...h, ...Array(8 - h.length - t.length).fill('0'), ...t];
  return groups.reduce((n, g) => (n << 16n) + BigInt(parseInt(g || '0', 16)), 0n);
}

/** `::ffff:127.0.0.1` (an IPv4 client on a dual-stack socket) compares as `127.0.0.1`. */
export function normalizeAddress(a: string): string {
  const t = a.trim().replace(/^\[|\]$/g, '');
  const m = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(t);
  return m ? m[1]! : t.toLowerCase();
}

export function parseAddressList(raw: string): AddressMatcher {
  const tests = raw
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)
    .map((entry): AddressMatcher => {
      const [addr, bitsText] = entry.split('/') as [string, string | undefined];
      const kind = isIP(addr);
      if (!kind) throw new Error(`"${entry}" is not an IP address or CIDR range`);
      const max = kind === 4 ? 32 : 128;
      const bits = bitsText === undefined ? max : Number(bitsText);
      if (!Number.isInteger(bits) || bits < 0 || bits > max) throw new Error(`"${entry}" has a bad prefix length`);
      if (kind === 4) {
        const mask = bits === 0 ? 0 : (~0 << (32 - bits)) >>> 0;
        const net = (v4ToInt(addr) & mask) >>> 0;
        return (a) => isIP(a) === 4 && (v4ToInt(a) & mask) >>> 0 === net;
      }
      const shift = BigInt(128 - bits);
      const net = v6ToBigInt(addr) >> shift;
      return (a) => isIP(a) === 6 && v6ToBigInt(a) >> shift === net;
    });
  if (!tests.length) throw new Error('lists no address');
  return (address) => {
    const a = normalizeAddress(address);
    return tests.some((t) => t(a));
  };
}

export function isLoopback(address: string): boolean {
  const a = normalizeAddress(address);
  if (a === 'localhost') return true;
  if (isIP(a) === 4) return a.startsWith('127.');
  if (isIP(a) === 6) return v6ToBigInt(a) === 1n;
  return false;
}
