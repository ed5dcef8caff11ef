// Line numbers of the keys and array items of a JSON document, so a message about hooks.json can
// say `file:line`. The document has already parsed; this scanner only tracks structure.

/** 1-based line of `path` (or of its nearest ancestor that is written out), or undefined. */
export function findJsonLine(text: string, path: readonly (string | number)[]): number | undefined {
  const lines = jsonLines(text);
  for (let depth = path.length; depth >= 0; depth--) {
    const line = lines.get(JSON.stringify(path.slice(0, depth)));
    if (line !== undefined) return line;
  }
  return undefined;
}

const textKeys = new Map<string, Map<string, number>>();

function jsonLines(text: string): Map<string, number> {
  const cached = textKeys.get(text);
  if (cached) return cached;
  const out = new Map<string, number>();
  type Frame = { kind: 'object'; key?: string } | { kind: 'array'; index: number };
  const stack: Frame[] = [];
  const path: (string | number)[] = [];
  let line = 1;
  let i = 0;
  const valueStarts = () => {
    const top = stack[stack.length - 1];
    if (top?.kind === 'array') {
      path.push(top.index);
      out.set(JSON.stringify(path), line);
      path.pop();
    }
  };
  while (i < text.length) {
    const c = text[i]!;
    if (c === '\n') {
      line++;
      i++;
      continue;
    }
    if (c === '"') {
      let j = i + 1;
      let s = '';
      while (j < text.length && text[j] !== '"') {
        if (text[j] === '\\') {
          s += text.slice(j, j + 2);
          j += 2;
          continue;
        }
        s += text[j];
        j++;
      }
      const raw = text.slice(i, j + 1);
      i = j + 1;
      const top = stack[stack.length - 1];
      // A string directly followed by ':' is a key.
      let k = i;
      while (k < text.length && /\s/.test(text[k]!)) k++;
      if (top?.kind === 'object' && text[k] === ':') {
        let key: string;
        try {
          key = JSON.parse(raw) as string;
        } catch {
          key = s;
        }
        top.key = key;
        out.set(JSON.stringify([...path, key]), line);
      } else {
        valueStarts();
      }
      continue;
    }
    if (c === '{' || c === '[') {
      valueStarts();
      const top = stack[stack.length - 1];
      if (top?.kind === 'object' && top.key !== undefined) path.push(top.key);
      else if (top?.kind === 'array') path.push(top.index);
      else if (top) path.push('?');
      stack.push(c === '{' ? { kind: 'object' } : { kind: 'array', index: 0 });
      i++;
      continue;
    }
    if (c === '}' || c === ']') {
      stack.pop();
      if (stack.length > 0) path.pop();
      i++;
      continue;
    }
    if (c === ',') {
      const top = stack[stack.length - 1];
      if (top?.kind === 'array') top.index++;
      i++;
      continue;
    }
    if (/[-0-9tfn]/.test(c)) {
      valueStarts();
      while (i < text.length && /[^,\]}\s]/.test(text[i]!)) i++;
      continue;
    }
    i++;
  }
  // A few files per session: keep the last ones only.
  if (textKeys.size >= 16) textKeys.clear();
  textKeys.set(text, out);
  return out;
}
