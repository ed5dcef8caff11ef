// Syntax highlighting of code blocks with highlight.js (core plus the languages agents write
// most), turned into styled spans. This module is loaded in the background after the first frame
// (see `loadHighlighter`), so startup does not pay its ~15 ms; a language's grammar compiles on
// its first block (~5-30 ms). Until then code blocks are shown unhighlighted.
import hljs from 'highlight.js/lib/core';
import bash from 'highlight.js/lib/languages/bash';
import c from 'highlight.js/lib/languages/c';
import cpp from 'highlight.js/lib/languages/cpp';
import csharp from 'highlight.js/lib/languages/csharp';
import css from 'highlight.js/lib/languages/css';
import diff from 'highlight.js/lib/languages/diff';
import dockerfile from 'highlight.js/lib/languages/dockerfile';
import go from 'highlight.js/lib/languages/go';
import ini from 'highlight.js/lib/languages/ini';
import java from 'highlight.js/lib/languages/java';
import javascript from 'highlight.js/lib/languages/javascript';
import json from 'highlight.js/lib/languages/json';
import kotlin from 'highlight.js/lib/languages/kotlin';
import lua from 'highlight.js/lib/languages/lua';
import makefile from 'highlight.js/lib/languages/makefile';
import markdown from 'highlight.js/lib/languages/markdown';
import php from 'highlight.js/lib/languages/php';
import python from 'highlight.js/lib/languages/python';
import ruby from 'highlight.js/lib/languages/ruby';
import rust from 'highlight.js/lib/languages/rust';
import shell from 'highlight.js/lib/languages/shell';
import sql from 'highlight.js/lib/languages/sql';
import swift from 'highlight.js/lib/languages/swift';
import typescript from 'highlight.js/lib/languages/typescript';
import xml from 'highlight.js/lib/languages/xml';
import yaml from 'highlight.js/lib/languages/yaml';
import type { Line, Style } from '../text/styled.js';
import { syntax } from './theme.js';

const LANGUAGES = { bash, c, cpp, csharp, css, diff, dockerfile, go, ini, java, javascript, json, kotlin, lua, makefile, markdown, php, python, ruby, rust, shell, sql, swift, typescript, xml, yaml };
for (const [name, language] of Object.entries(LANGUAGES)) hljs.registerLanguage(name, language);
// Fence names that are not the grammars' own aliases.
hljs.registerAliases(['toml'], { languageName: 'ini' });
hljs.registerAliases(['jsonc', 'json5'], { languageName: 'json' });
hljs.registerAliases(['sh', 'zsh', 'console'], { languageName: 'bash' });
hljs.registerAliases(['mjs', 'cjs', 'jsx'], { languageName: 'javascript' });
hljs.registerAliases(['mts', 'cts', 'tsx'], { languageName: 'typescript' });

export function knowsLanguage(name: string): boolean {
  return hljs.getLanguage(name) !== undefined;
}

function styleFor(scope: string): Style | undefined {
  const name = scope.replace(/^hljs-/, '').split(' ')[0]!.replace(/_+$/, '');
  return syntax[name] ?? syntax[name.split('.')[0]!];
}

const ENTITIES: Record<string, string> = { '&amp;': '&', '&lt;': '<', '&gt;': '>', '&quot;': '"', '&#x27;': "'", '&#39;': "'" };

function decode(text: string): string {
  return text.includes('&') ? text.replace(/&(?:amp|lt|gt|quot|#x27|#39);/g, (entity) => ENTITIES[entity] ?? entity) : text;
}

/** `code` highlighted as `language`, one styled line per source line; undefined for unknown languages. */
export function highlight(code: string, language: string): Line[] | undefined {
  if (!knowsLanguage(language)) return undefined;
  let html: string;
  try {
    html = hljs.highlight(code, { language, ignoreIllegals: true }).value;
  } catch {
    return undefined;
  }
  const lines: Line[] = [[]];
  const stack: (Style | undefined)[] = [];
  const current = (): Style | undefined => {
    for (let i = stack.length - 1; i >= 0; i--) if (stack[i]) return stack[i];
    return undefined;
  };
  for (const match of html.matchAll(/<span class="([^"]*)">|<\/span>|([^<]+)/g)) {
    if (match[1] !== undefined) stack.push(styleFor(match[1]));
    else if (match[2] === undefined) stack.pop();
    else {
      const style = current();
      const parts = decode(match[2]).split('\n');
      parts.forEach((part, index) => {
        if (index > 0) lines.push([]);
        if (part !== '') lines[lines.length - 1]!.push(style ? { text: part, style } : { text: part });
      });
    }
  }
  return lines;
}
