// HTML to readable Markdown for web_fetch. The page is narrowed first to its main content (the
// first <main>, else <article>, else <body>) and stripped of what is never reading matter (scripts,
// styles, navigation, forms, embedded frames); turndown then writes Markdown with ATX headings and
// fenced code. turndown (and the DOM it brings) is loaded on the first HTML page only.
import type TurndownService from 'turndown';

let service: TurndownService | undefined;

const DROPPED = ['script', 'style', 'noscript', 'template', 'svg', 'iframe', 'object', 'embed', 'canvas', 'form', 'button', 'nav', 'aside', 'footer', 'head'] as const;

async function turndown(): Promise<TurndownService> {
  if (service) return service;
  // Bundled, the CommonJS package may arrive with its class under `default` twice over.
  type Ctor = new (options: TurndownService.Options) => TurndownService;
  const mod = (await import('turndown')) as unknown as { default: Ctor | { default: Ctor } };
  const TurndownCtor: Ctor = typeof mod.default === 'function' ? mod.default : mod.default.default;
  const td = new TurndownCtor({ headingStyle: 'atx', codeBlockStyle: 'fenced', bulletListMarker: '-', emDelimiter: '*' });
  td.remove([...DROPPED] as unknown as TurndownService.Filter);
  td.addRule('fencedWithLanguage', {
    filter: (node) => node.nodeName === 'PRE' && node.firstChild?.nodeName === 'CODE',
    replacement: (_content, node) => {
      const code = node.firstChild as HTMLElement;
      const language = /(?:^|\s)(?:language|lang)-(\S+)/.exec(code.getAttribute('class') ?? '')?.[1] ?? '';
      const text = (code.textContent ?? '').replace(/\n$/, '');
      const fence = text.includes('```') ? '~~~' : '```';
      return `\n\n${fence}${language}\n${text}\n${fence}\n\n`;
    },
  });
  td.addRule('table', {
    filter: 'table',
    replacement: (_content, node) => {
      const rows = Array.from((node as HTMLElement).querySelectorAll('tr')).map((tr) =>
        Array.from(tr.querySelectorAll('th,td')).map((cell) => (cell.textContent ?? '').replace(/\s+/g, ' ').replace(/\|/g, '\\|').trim()),
      );
      if (rows.length === 0) return '';
      const width = Math.max(...rows.map((r) => r.length));
      const line = (cells: string[]) => `| ${[...cells, ...Array(width - cells.length).fill('')].join(' | ')} |`;
      return `\n\n${[line(rows[0]!), line(Array(width).fill('---')), ...rows.slice(1).map(line)].join('\n')}\n\n`;
    },
  });
  service = td;
  return td;
}

function between(html: string, tag: string): string | undefined {
  const open = new RegExp(`<${tag}(\\s[^>]*)?>`, 'i').exec(html);
  if (!open) return undefined;
  const close = html.toLowerCase().lastIndexOf(`</${tag}>`);
  return close > open.index ? html.slice(open.index + open[0].length, close) : undefined;
}

export function htmlTitle(html: string): string | undefined {
  const m = /<title[^>]*>([\s\S]*?)<\/title>/i.exec(html);
  const title = m?.[1]?.replace(/\s+/g, ' ').trim();
  return title ? decodeEntities(title) : undefined;
}

function decodeEntities(text: string): string {
  return text.replace(/&(amp|lt|gt|quot|#39|apos|nbsp);/g, (_m, e: string) => ({ amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'", apos: "'", nbsp: ' ' })[e] ?? _m);
}

export async function htmlToMarkdown(html: string): Promise<string> {
  const main = between(html, 'main') ?? between(html, 'article') ?? between(html, 'body') ?? html;
  const markdown = (await turndown()).turndown(main);
  return markdown.replace(/\n{3,}/g, '\n\n').trim();
}
