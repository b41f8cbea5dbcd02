// Characters that change how text around them reads without showing themselves: bidi controls
// (U+202E turns "gpj.exe" into what looks like "exe.jpg"), zero-width characters, soft hyphen,
// the BOM, Unicode tags, and C0/C1 control characters other than tab and newline. Payload-derived
// text (task names, ids, queues, previews, reasons) is shown with each of them as a visible
// ⟨U+202E⟩ marker. Client-safe, pure.

const HIDDEN =
  /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F\u00AD\u034F\u061C\u115F\u1160\u17B4\u17B5\u180B-\u180F\u200B-\u200F\u2028-\u202E\u2060-\u206F\u3164\uFEFF\uFFA0\uFFF9-\uFFFB]|\uDB40[\uDC00-\uDC7F]/g;

const marker = (ch: string) => `⟨U+${ch.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}⟩`;

/** The text with every hidden or direction-changing character replaced by a visible marker. */
export function visible(text: string): string {
  return text.replace(HIDDEN, marker);
}

/** True when the text holds something a reader can see (not only spaces or hidden characters). */
export function hasVisibleText(text: string): boolean {
  return text.replace(HIDDEN, '').replace(/[\s\u2800]/gu, '').length > 0;
}
