import fs from 'node:fs';
import path from 'node:path';

/** How many times a test worker that appends each task id it runs to `out`/runs.log ran `id`. */
export const runsIn = (out: string, id: string): number => {
  const f = path.join(out, 'runs.log');
  return fs.existsSync(f)
    ? fs
        .readFileSync(f, 'utf8')
        .split('\n')
        .filter((l) => l === id).length
    : 0;
};
