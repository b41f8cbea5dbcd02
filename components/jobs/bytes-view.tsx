import { formatBytes } from '@/lib/text/format';

const PREVIEW = 48;

function decodeBase64(b64: string, max: number): Uint8Array {
  // Only the prefix is decoded: previews must stay cheap for megabyte blobs.
  const chars = Math.ceil((max * 4) / 3 / 4) * 4;
  try {
    const bin = atob(b64.slice(0, chars));
    return Uint8Array.from(bin.slice(0, max), (c) => c.charCodeAt(0));
  } catch {
    return new Uint8Array();
  }
}

/** bytes as size + hex preview + printable-text preview (non-printables as "·"). */
export function BytesView({ base64, size }: { base64: string; size: number }) {
  const head = decodeBase64(base64, PREVIEW);
  const hex = Array.from(head, (b) => b.toString(16).padStart(2, '0')).join(' ');
  const text = Array.from(head, (b) => (b >= 0x20 && b < 0x7f ? String.fromCharCode(b) : '·')).join('');
  const more = size > head.length ? ` … (${size - head.length} more bytes)` : '';
  return (
    <span className="inline-grid gap-0.5" data-testid="pv-bytes">
      <span className="text-xs text-zinc-500 dark:text-zinc-400">{formatBytes(size)}</span>
      <code className="font-mono text-xs break-all">
        {hex || '(empty)'}
        {more}
      </code>
      {head.length ? <code className="font-mono text-xs break-all text-zinc-500 dark:text-zinc-400">“{text}”</code> : null}
    </span>
  );
}
