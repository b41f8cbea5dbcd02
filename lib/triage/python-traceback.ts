import type { ErrorFrame, ErrorParts } from './fingerprint';

// Python's traceback text (what potatoq and Celery store as a dead letter's reason) -> the
// neutral parts of the exception that was finally raised. Chained exceptions ("The above
// exception was the direct cause…", "During handling…") print the last-raised one last.

const FRAME = /^ {2}File "(.*)", line \d+, in (.+)$/;
const HEADER = /^Traceback \(most recent call last\):\s*$/;

/** The final exception of a traceback (or of a bare "Type: message" reason). */
export function parsePythonError(text: string): ErrorParts {
  const lines = text.replace(/\r\n?/g, '\n').split('\n');
  let start = -1;
  for (let i = lines.length - 1; i >= 0; i--) {
    if (HEADER.test(lines[i]!)) {
      start = i;
      break;
    }
  }
  const frames: ErrorFrame[] = [];
  let i = start + 1;
  if (start >= 0) {
    // Frames and their source lines are indented; the exception starts at the first line that is not.
    for (; i < lines.length; i++) {
      const line = lines[i]!;
      const m = FRAME.exec(line);
      if (m) frames.push({ file: m[1]!, func: m[2]!.trim() });
      else if (!/^\s/.test(line) && line.trim() !== '') break;
    }
  }
  const rest = lines
    .slice(start >= 0 ? i : 0)
    .join('\n')
    .trim();
  return { ...splitException(rest), frames };
}

/** `pkg.mod.Error: message` -> type and message; a line without a type-like prefix is all message. */
function splitException(s: string): { type: string | null; message: string } {
  const m = /^([A-Za-z_][\w.]*)(?::\s?([\s\S]*))?$/.exec(s);
  if (m && (m[2] !== undefined || /^[A-Z]\w*(Error|Exception|Exit|Interrupt|Warning)$|^[\w.]*\.[A-Z]\w*$/.test(m[1]!)))
    return { type: m[1]!, message: (m[2] ?? '').trim() };
  return { type: null, message: s };
}
