/**
 * A line diff of two texts, for the configuration page's versions (a kept version against the
 * file now): the lines both have, and those only one has, in order. The longest common
 * subsequence of the lines between the common head and tail; config files are a few hundred
 * lines, and a pair too large for that (more than MAX_CELLS line pairs between head and tail) is
 * told as all of one removed and all of the other added, never a long wait.
 */

/** `=` in both, `-` only in the first text, `+` only in the second. */
export type DiffLine = readonly ['=' | '-' | '+', string];

const MAX_CELLS = 4_000_000;

function linesOf(text: string): string[] {
  const lines = text.split(/\r?\n/);
  if (lines[lines.length - 1] === '') lines.pop();
  return lines;
}

export function lineDiff(before: string, after: string, maxCells = MAX_CELLS): DiffLine[] {
  const a = linesOf(before);
  const b = linesOf(after);
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) head++;
  let tail = 0;
  while (tail < a.length - head && tail < b.length - head && a[a.length - 1 - tail] === b[b.length - 1 - tail]) tail++;
  const out: DiffLine[] = a.slice(0, head).map((line) => ['=', line] as const);
  const midA = a.slice(head, a.length - tail);
  const midB = b.slice(head, b.length - tail);
  out.push(...middle(midA, midB, maxCells));
  out.push(...a.slice(a.length - tail).map((line) => ['=', line] as const));
  return out;
}

function middle(a: readonly string[], b: readonly string[], maxCells: number): DiffLine[] {
  const n = a.length;
  const m = b.length;
  if (n * m > maxCells) return [...a.map((l) => ['-', l] as const), ...b.map((l) => ['+', l] as const)];
  // common[i * (m + 1) + j]: length of the longest common subsequence of a[i..] and b[j..].
  const width = m + 1;
  const common = new Uint32Array((n + 1) * width);
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--) {
      common[i * width + j] =
        a[i] === b[j] ? common[(i + 1) * width + j + 1]! + 1 : Math.max(common[(i + 1) * width + j]!, common[i * width + j + 1]!);
    }
  }
  const out: DiffLine[] = [];
  let i = 0;
  let j = 0;
  while (i < n && j < m) {
    if (a[i] === b[j]) {
      out.push(['=', a[i]!]);
      i++;
      j++;
    } else if (common[(i + 1) * width + j]! >= common[i * width + j + 1]!) out.push(['-', a[i++]!]);
    else out.push(['+', b[j++]!]);
  }
  while (i < n) out.push(['-', a[i++]!]);
  while (j < m) out.push(['+', b[j++]!]);
  return out;
}

/** Lines only in the second text (`added`) and only in the first (`removed`). */
export function diffCounts(lines: readonly DiffLine[]): { added: number; removed: number } {
  let added = 0;
  let removed = 0;
  for (const [op] of lines) {
    if (op === '+') added++;
    else if (op === '-') removed++;
  }
  return { added, removed };
}
