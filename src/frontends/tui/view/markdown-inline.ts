// Inline Markdown: `code`, **bold**, *italic*, ~~strike~~, [links](url), <autolinks> and bare
// URLs, into styled spans. Unclosed markers stay literal text, as they are in a half-streamed line.
import type { Span, Style } from '../text/styled.js';
import { theme } from './theme.js';

export interface InlineContext {
  /** OSC 8 links are shown; otherwise a link's target is printed after its text. */
  hyperlinks: boolean;
}

const BARE_URL = /^(?:https?|file):\/\/[^\s<>"'`]*[^\s<>"'`.,;:!?)\]]/;
const LINK = /^\[((?:[^\]\\]|\\.)*)\]\(\s*(<[^>]*>|[^\s)]+)(?:\s+"[^"]*")?\s*\)/;
const AUTOLINK = /^<((?:https?|mailto|file):[^>\s]+)>/;
const ESCAPABLE = '\\`*_{}[]()#+-.!|~<>';

function merge(base: Style | undefined, extra: Style): Style {
  return base ? { ...base, ...extra } : extra;
}

function isWordChar(char: string | undefined): boolean {
  return char !== undefined && /[\p{L}\p{N}]/u.test(char);
}

/** Index of the closing `marker` after `from`, not preceded by a space; -1 when none. */
function findClosing(text: string, marker: string, from: number): number {
  let at = from;
  for (;;) {
    const found = text.indexOf(marker, at);
    if (found === -1) return -1;
    if (found > from && text[found - 1] !== ' ' && text[found - 1] !== '\\') {
      // `_` closes only at a word's end (snake_case words are not emphasis).
      if (marker[0] !== '_' || !isWordChar(text[found + marker.length])) return found;
    }
    at = found + 1;
  }
}

export function renderInline(text: string, context: InlineContext, base?: Style): Span[] {
  const out: Span[] = [];
  let plain = '';
  const push = (span: Span) => {
    if (plain !== '') out.push(base ? { text: plain, style: base } : { text: plain });
    plain = '';
    out.push(span);
  };
  const pushAll = (spans: Span[]) => {
    if (plain !== '') out.push(base ? { text: plain, style: base } : { text: plain });
    plain = '';
    out.push(...spans);
  };

  let i = 0;
  while (i < text.length) {
    const char = text[i]!;
    const rest = text.slice(i);
    if (char === '\\' && i + 1 < text.length && ESCAPABLE.includes(text[i + 1]!)) {
      plain += text[i + 1];
      i += 2;
      continue;
    }
    if (char === '`') {
      const run = /^`+/.exec(rest)![0];
      const close = text.indexOf(run, i + run.length);
      if (close !== -1) {
        let code = text.slice(i + run.length, close);
        if (code.length > 2 && code.startsWith(' ') && code.endsWith(' ')) code = code.slice(1, -1);
        push({ text: code, style: merge(base, theme.inlineCode) });
        i = close + run.length;
        continue;
      }
      plain += run;
      i += run.length;
      continue;
    }
    if (char === '*' || char === '_' || char === '~') {
      const double = text[i + 1] === char;
      const marker = double ? char + char : char;
      const opensWord = !(char === '_' && isWordChar(text[i - 1])) && text[i + marker.length] !== ' ' && i + marker.length < text.length;
      if ((char !== '~' || double) && opensWord) {
        const close = findClosing(text, marker, i + marker.length);
        if (close !== -1) {
          const style: Style = char === '~' ? { strike: true } : double ? { bold: true } : { italic: true };
          pushAll(renderInline(text.slice(i + marker.length, close), context, merge(base, style)));
          i = close + marker.length;
          continue;
        }
      }
      plain += marker;
      i += marker.length;
      continue;
    }
    if (char === '[') {
      const link = LINK.exec(rest);
      if (link) {
        const target = link[2]!.replace(/^<|>$/g, '');
        const label = link[1]!;
        const linkStyle = merge(base, { ...theme.link, link: target });
        pushAll(renderInline(label, context, linkStyle));
        if (!context.hyperlinks && label !== target) push({ text: ` (${target})`, style: merge(base, { dim: true, link: target }) });
        i += link[0].length;
        continue;
      }
    }
    if (char === '<') {
      const auto = AUTOLINK.exec(rest);
      if (auto) {
        push({ text: auto[1]!, style: merge(base, { ...theme.link, link: auto[1]! }) });
        i += auto[0].length;
        continue;
      }
    }
    if ((char === 'h' || char === 'f') && !isWordChar(text[i - 1])) {
      const url = BARE_URL.exec(rest);
      if (url) {
        push({ text: url[0], style: merge(base, { ...theme.link, link: url[0] }) });
        i += url[0].length;
        continue;
      }
    }
    plain += char;
    i++;
  }
  if (plain !== '') out.push(base ? { text: plain, style: base } : { text: plain });
  return out;
}
