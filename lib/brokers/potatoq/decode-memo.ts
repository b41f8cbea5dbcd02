/**
 * A bounded memo of something decoded from a stored payload, keyed by the payload itself:
 * text as it is, bytes by their exact content (a Latin-1 string is a lossless image of them).
 * Text and bytes are kept apart, because the same characters as text and as bytes can decode
 * differently (bytes are decoded strictly as UTF-8). Lists are polled, so the same payloads come
 * back every few seconds: a hit costs a hash of at most `maxLength` characters, a decode ~15–50 µs.
 * Values are shared between hits: callers copy what they change.
 */
export class DecodeMemo<T> {
  private readonly texts = new Map<string, T>();
  private readonly bytes = new Map<string, T>();

  constructor(
    private readonly entries: number,
    private readonly maxLength: number,
  ) {}

  get(payload: string | Uint8Array, make: () => T): T {
    if (payload.length > this.maxLength) return make();
    const text = typeof payload === 'string';
    const map = text ? this.texts : this.bytes;
    const key = text ? payload : Buffer.from(payload.buffer, payload.byteOffset, payload.byteLength).toString('latin1');
    const known = map.get(key);
    if (known !== undefined) return known;
    const made = make();
    if (map.size >= this.entries) map.delete(map.keys().next().value!);
    map.set(key, made);
    return made;
  }

  get size(): number {
    return this.texts.size + this.bytes.size;
  }
}
