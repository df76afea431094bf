/** One run of a word diff: text both sides share, text only the newer side has, or text it dropped. */
export interface DiffPart {
  op: 'same' | 'add' | 'del';
  text: string;
}

/** Above this many token pairs the diff says "all of it changed" rather than spend the time. */
const MAX_CELLS = 2_000_000;

/** Words and the spaces between them, as tokens (so the parts join back into the exact texts). */
function tokens(text: string): string[] {
  return text.split(/(\s+)/).filter((t) => t.length > 0);
}

function push(parts: DiffPart[], op: DiffPart['op'], text: string) {
  const last = parts[parts.length - 1];
  if (last && last.op === op) last.text += text;
  else parts.push({ op, text });
}

/**
 * The difference from `before` to `after`, word by word (a longest common subsequence of words and spaces): the
 * whole of both texts, with what `after` added and dropped marked. Joining `same` and `add` parts gives `after`;
 * `same` and `del` give `before`.
 */
export function diffWords(before: string, after: string): DiffPart[] {
  if (before === after) return before ? [{ op: 'same', text: before }] : [];
  const a = tokens(before);
  const b = tokens(after);
  const parts: DiffPart[] = [];
  if (a.length * b.length > MAX_CELLS) {
    if (before) parts.push({ op: 'del', text: before });
    if (after) parts.push({ op: 'add', text: after });
    return parts;
  }
  // lcs[i][j]: the longest common run of a[i…] and b[j…].
  const width = b.length + 1;
  const lcs = new Uint32Array((a.length + 1) * width);
  for (let i = a.length - 1; i >= 0; i--) {
    for (let j = b.length - 1; j >= 0; j--) {
      lcs[i * width + j] =
        a[i] === b[j]
          ? lcs[(i + 1) * width + j + 1]! + 1
          : Math.max(lcs[(i + 1) * width + j]!, lcs[i * width + j + 1]!);
    }
  }
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    if (a[i] === b[j]) {
      push(parts, 'same', a[i]!);
      i++;
      j++;
    } else if (lcs[(i + 1) * width + j]! >= lcs[i * width + j + 1]!) {
      push(parts, 'del', a[i++]!);
    } else {
      push(parts, 'add', b[j++]!);
    }
  }
  while (i < a.length) push(parts, 'del', a[i++]!);
  while (j < b.length) push(parts, 'add', b[j++]!);
  return parts;
}
