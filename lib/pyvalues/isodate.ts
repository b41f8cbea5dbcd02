// `datetime.fromisoformat`, `date.fromisoformat` and `time.fromisoformat` of CPython 3.11's C
// module (`_datetimemodule.c`), ported literally: it works on the UTF-8 bytes with a NUL
// terminator and keeps its quirks (any one-byte separator; fraction digits beyond 6 are
// truncated; offset minutes are not range-checked), because the C code, not the docs, decides
// what a worker accepts. Returns null where Python raises ValueError.

export interface IsoTime {
  hour: number;
  minute: number;
  second: number;
  us: number;
  /** UTC offset in microseconds, null when naive. */
  tz: number | null;
}
export interface IsoDate {
  year: number;
  month: number;
  day: number;
}

const enc = new TextEncoder();
const isDigit = (b: number) => b >= 0x30 && b <= 0x39;

/** Bytes of s plus NUL, or null when s has lone surrogates (UnicodeEncodeError). */
function utf8z(s: string): Uint8Array | null {
  if (/[\ud800-\udfff]/u.test(s.replace(/[\ud800-\udbff][\udc00-\udfff]/g, ''))) return null;
  const b = enc.encode(s);
  const out = new Uint8Array(b.length + 1);
  out.set(b);
  return out;
}

/** parse_digits: exactly n ASCII digits at p, or -1. */
function digits(b: Uint8Array, p: number, n: number): number {
  let v = 0;
  for (let i = 0; i < n; i++) {
    const c = b[p + i] ?? 0;
    if (!isDigit(c)) return -1;
    v = v * 10 + (c - 0x30);
  }
  return v;
}

const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
const isLeap = (y: number) => (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;

function validDate(year: number, month: number, day: number): IsoDate | null {
  if (year < 1 || year > 9999 || month < 1 || month > 12 || day < 1) return null;
  const dim = month === 2 && isLeap(year) ? 29 : (DAYS_IN_MONTH[month - 1] ?? 0);
  return day <= dim ? { year, month, day } : null;
}

/** Proleptic-Gregorian ordinal (1 = 0001-01-01), as `ymd_to_ord`. */
function toOrd(y: number, m: number, d: number): number {
  const dt = new Date(Date.UTC(2000, m - 1, d));
  dt.setUTCFullYear(y);
  return Math.round((dt.getTime() - Date.UTC(2000, 0, 1)) / 86400000) + 730120;
}
function fromOrd(o: number): IsoDate {
  const dt = new Date(Date.UTC(2000, 0, 1) + (o - 730120) * 86400000);
  return { year: dt.getUTCFullYear(), month: dt.getUTCMonth() + 1, day: dt.getUTCDate() };
}

function isoToYmd(year: number, week: number, day: number): IsoDate | null {
  if (week <= 0 || week >= 53) {
    let out = true;
    if (week === 53) {
      const firstWeekday = (toOrd(year, 1, 1) + 6) % 7;
      if (firstWeekday === 3 || (firstWeekday === 2 && isLeap(year))) out = false;
    }
    if (out) return null;
  }
  if (day <= 0 || day >= 8) return null;
  const first = toOrd(year, 1, 4);
  const week1Monday = first - ((first + 6) % 7);
  return fromOrd(week1Monday + (week - 1) * 7 + day - 1);
}

/** parse_isoformat_date on b[0..len). */
function parseDate(b: Uint8Array, len: number): IsoDate | null {
  let p = 0;
  const year = digits(b, p, 4);
  if (year < 0) return null;
  p += 4;
  const sep = b[p] === 0x2d;
  if (sep) p++;
  if (b[p] === 0x57) {
    p++;
    const week = digits(b, p, 2);
    if (week < 0) return null;
    p += 2;
    let day = 1;
    if (p < len) {
      if (sep && b[p++] !== 0x2d) return null;
      day = digits(b, p, 1);
      if (day < 0) return null;
    }
    const r = isoToYmd(year, week, day);
    return r && validDate(r.year, r.month, r.day);
  }
  const month = digits(b, p, 2);
  if (month < 0) return null;
  p += 2;
  if (sep && b[p++] !== 0x2d) return null;
  const day = digits(b, p, 2);
  if (day < 0) return null;
  return { year, month, day };
}

/** parse_hh_mm_ss_ff between p and pEnd: [h, m, s, us, rv] with rv < 0 on error. */
function parseHms(b: Uint8Array, p: number, pEnd: number): [number, number, number, number, number] {
  const vals = [0, 0, 0];
  let hasSep = true;
  for (let i = 0; i < 3; i++) {
    const v = digits(b, p, 2);
    if (v < 0) return [0, 0, 0, 0, -3];
    vals[i] = v;
    p += 2;
    const c = b[p++] ?? 0;
    if (i === 0) hasSep = c === 0x3a;
    if (p >= pEnd) return [vals[0]!, vals[1]!, vals[2]!, 0, c !== 0 ? 1 : 0];
    if (hasSep && c === 0x3a) continue;
    if (c === 0x2e || c === 0x2c) break;
    if (!hasSep) p--;
    else return [0, 0, 0, 0, -4];
  }
  const toParse = Math.min(pEnd - p, 6);
  let us = digits(b, p, toParse);
  if (us < 0) return [0, 0, 0, 0, -3];
  p += toParse;
  if (toParse < 6) us *= [100000, 10000, 1000, 100, 10][toParse - 1] ?? 1;
  while (isDigit(b[p] ?? 0)) p++;
  return [vals[0]!, vals[1]!, vals[2]!, us, (b[p] ?? 0) !== 0 ? 1 : 0];
}

/** parse_isoformat_time on b[p..p+len). */
function parseTime(b: Uint8Array, p: number, len: number): IsoTime | null {
  const pEnd = p + len;
  let tzPos = p;
  do {
    const c = b[tzPos] ?? 0;
    if (c === 0x5a || c === 0x2b || c === 0x2d) break;
  } while (++tzPos < pEnd);
  const [hour, minute, second, us, rv] = parseHms(b, p, tzPos);
  if (rv < 0) return null;
  let tz: number | null = null;
  if (tzPos === pEnd) {
    if (rv === 1) return null;
  } else if (b[tzPos] === 0x5a) {
    if ((b[tzPos + 1] ?? 0) !== 0) return null;
    tz = 0;
  } else {
    const sign = b[tzPos] === 0x2d ? -1 : 1;
    const [th, tm, ts, tus, trv] = parseHms(b, tzPos + 1, pEnd);
    if (trv !== 0) return null;
    // Only whole seconds decide UTC: `+00:00:00.000001` is UTC in 3.11 (the µs are dropped).
    const secs = th * 3600 + tm * 60 + ts;
    tz = secs === 0 ? 0 : sign * (secs * 1_000_000 + tus);
    // timezone() requires strictly less than 24 hours.
    if (Math.abs(tz) >= 86_400_000_000) return null;
  }
  if (hour > 23 || minute > 59 || second > 59) return null;
  return { hour, minute, second, us, tz };
}

function findSeparator(b: Uint8Array, len: number): number {
  if (len === 7) return 7;
  if (b[4] === 0x2d) {
    if (b[5] === 0x57) {
      if (len < 8) return -1;
      if (len > 8 && b[8] === 0x2d) {
        if (len === 9) return -1;
        if (len > 10 && isDigit(b[10] ?? 0)) return 8;
        return 10;
      }
      return 8;
    }
    return 10;
  }
  if (b[4] === 0x57) {
    let idx = 7;
    while (idx < len && isDigit(b[idx] ?? 0)) idx++;
    if (idx < 9) return idx;
    return idx % 2 === 0 ? 7 : 8;
  }
  return 8;
}

export function pyDateFromIso(s: string): IsoDate | null {
  const b = utf8z(s);
  if (!b) return null;
  const len = b.length - 1;
  if (len !== 7 && len !== 8 && len !== 10) return null;
  const d = parseDate(b, len);
  return d && validDate(d.year, d.month, d.day);
}

export function pyTimeFromIso(s: string): IsoTime | null {
  const b = utf8z(s);
  if (!b) return null;
  let p = 0;
  let len = b.length - 1;
  if (b[0] === 0x54) {
    p = 1;
    len -= 1;
  }
  return parseTime(b, p, len);
}

export function pyDatetimeFromIso(s: string): { date: IsoDate; time: IsoTime } | null {
  if ([...s].length < 7) return null;
  // A non-ASCII separator is replaced by 'T' before encoding (`_sanitize_isoformat_str`).
  for (const pos of [7, 8, 10]) {
    const c = s.charCodeAt(pos);
    if (c > 0x7f) {
      s = s.slice(0, pos) + 'T' + s.slice(pos + 1);
      break;
    }
  }
  const b = utf8z(s);
  if (!b) return null;
  const len = b.length - 1;
  const sepAt = findSeparator(b, len);
  if (sepAt < 0) return null;
  const d = parseDate(b, sepAt);
  if (!d) return null;
  const date = validDate(d.year, d.month, d.day);
  let time: IsoTime | null = { hour: 0, minute: 0, second: 0, us: 0, tz: null };
  if (len > sepAt) time = parseTime(b, sepAt + 1, len - sepAt - 1);
  return date && time ? { date, time } : null;
}
