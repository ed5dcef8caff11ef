// The reviewer's answer: its final message parsed as review findings (Codex's review output field
// names), tolerant of a fenced block or prose around the JSON, and the plain-text list rig prints.
// A malformed answer is reported as such, with the text kept, never guessed at.
import { isAbsolute, relative, resolve } from 'node:path';

export type Severity = 'critical' | 'high' | 'medium' | 'low';

export interface ReviewFinding {
  title: string;
  body: string;
  /** 0 (drop everything) to 3 (minor); absent when the model gave none. */
  priority?: number;
  /** From the priority: P0 critical, P1 high, P2 medium, P3 low. */
  severity?: Severity;
  confidence_score?: number;
  code_location: { absolute_file_path: string; line_range: { start: number; end: number } };
}

export interface ReviewOutput {
  findings: ReviewFinding[];
  overall_correctness: string;
  overall_explanation: string;
  overall_confidence_score?: number;
}

export type ParsedReview = { ok: true; output: ReviewOutput } | { ok: false; error: string; raw: string };

const SEVERITIES: readonly Severity[] = ['critical', 'high', 'medium', 'low'];

/** JSON candidates in a message: the whole text, each fenced block, then the outermost braces. */
function candidates(text: string): string[] {
  const out = [text.trim()];
  for (const match of text.matchAll(/```[A-Za-z0-9_-]*[ \t]*\n([\s\S]*?)```/g)) out.push(match[1]!.trim());
  const first = text.indexOf('{');
  const last = text.lastIndexOf('}');
  if (first >= 0 && last > first) out.push(text.slice(first, last + 1));
  return out;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function lineNumber(value: unknown): number | undefined {
  const n = typeof value === 'string' && /^\d+$/.test(value.trim()) ? Number(value) : value;
  return typeof n === 'number' && Number.isInteger(n) && n >= 0 ? n : undefined;
}

function finding(raw: unknown, index: number, cwd: string): ReviewFinding | string {
  const where = `findings[${index}]`;
  if (!isObject(raw)) return `${where} is not an object`;
  if (typeof raw['title'] !== 'string' || raw['title'].trim() === '') return `${where}.title is missing`;
  const location = raw['code_location'];
  if (!isObject(location)) return `${where}.code_location is missing`;
  const path = location['absolute_file_path'] ?? location['file_path'] ?? location['path'];
  if (typeof path !== 'string' || path === '') return `${where}.code_location.absolute_file_path is missing`;
  const range = isObject(location['line_range']) ? location['line_range'] : {};
  const start = lineNumber(range['start']);
  const end = lineNumber(range['end']) ?? start;
  if (start === undefined || end === undefined) return `${where}.code_location.line_range.start is not a line number`;
  const priority = lineNumber(raw['priority']);
  const named = typeof raw['severity'] === 'string' ? (raw['severity'].toLowerCase() as Severity) : undefined;
  const fromPriority = priority !== undefined && priority <= 3 ? priority : named && SEVERITIES.includes(named) ? SEVERITIES.indexOf(named) : undefined;
  const confidence = typeof raw['confidence_score'] === 'number' ? raw['confidence_score'] : undefined;
  return {
    title: raw['title'].trim(),
    body: typeof raw['body'] === 'string' ? raw['body'] : '',
    ...(fromPriority !== undefined ? { priority: fromPriority, severity: SEVERITIES[fromPriority]! } : {}),
    ...(confidence !== undefined ? { confidence_score: confidence } : {}),
    code_location: { absolute_file_path: isAbsolute(path) ? path : resolve(cwd, path), line_range: { start, end: Math.max(start, end) } },
  };
}

function reviewFrom(value: unknown, cwd: string): ReviewOutput | string {
  if (!isObject(value)) return 'the answer is not a JSON object';
  const list = value['findings'];
  if (!Array.isArray(list)) return 'the answer has no "findings" list';
  const findings: ReviewFinding[] = [];
  for (const [index, raw] of list.entries()) {
    const parsed = finding(raw, index, cwd);
    if (typeof parsed === 'string') return parsed;
    findings.push(parsed);
  }
  const confidence = value['overall_confidence_score'];
  return {
    findings,
    overall_correctness: typeof value['overall_correctness'] === 'string' ? value['overall_correctness'] : '',
    overall_explanation: typeof value['overall_explanation'] === 'string' ? value['overall_explanation'] : '',
    ...(typeof confidence === 'number' ? { overall_confidence_score: confidence } : {}),
  };
}

/** The reviewer's final message as findings; relative paths are taken from `cwd`. */
export function parseReviewAnswer(text: string | undefined, cwd: string): ParsedReview {
  const raw = text ?? '';
  if (raw.trim() === '') return { ok: false, error: 'the reviewer gave no final answer', raw };
  let firstProblem: string | undefined;
  for (const candidate of candidates(raw)) {
    let value: unknown;
    try {
      value = JSON.parse(candidate);
    } catch {
      continue;
    }
    const review = reviewFrom(value, cwd);
    if (typeof review !== 'string') return { ok: true, output: review };
    firstProblem ??= review;
  }
  return { ok: false, error: firstProblem ? `the reviewer's answer is not a review: ${firstProblem}` : "the reviewer's answer holds no JSON object", raw };
}

function shownPath(path: string, cwd: string): string {
  const rel = relative(cwd, path);
  return rel !== '' && !rel.startsWith('..') && !isAbsolute(rel) ? rel : path;
}

/** `path:start-end` (one line: `path:start`), relative to cwd when inside it. */
export function findingLocation(item: ReviewFinding, cwd: string): string {
  const { start, end } = item.code_location.line_range;
  return `${shownPath(item.code_location.absolute_file_path, cwd)}:${start}${end !== start ? `-${end}` : ''}`;
}

function tagged(item: ReviewFinding): string {
  // The prompt asks for the tag in the title; a title without one gets it from the priority.
  if (item.priority === undefined || /^\[P\d\]/.test(item.title)) return item.title;
  return `[P${item.priority}] ${item.title}`;
}

/** The findings as a plain-text list: a heading, then each finding with its location and body. */
export function formatReview(output: ReviewOutput, cwd: string, hint: string): string[] {
  const n = output.findings.length;
  const lines = [`Review of ${hint}: ${n === 0 ? 'no findings' : `${n} finding${n === 1 ? '' : 's'}`}`];
  for (const item of output.findings) {
    lines.push('', `- ${tagged(item)}${item.severity ? ` (${item.severity})` : ''} — ${findingLocation(item, cwd)}`);
    for (const bodyLine of item.body.trimEnd().split('\n')) if (bodyLine !== '' || item.body.trim() !== '') lines.push(`  ${bodyLine}`);
  }
  if (output.overall_correctness || output.overall_explanation) {
    lines.push('', `Overall: ${[output.overall_correctness, output.overall_explanation].filter(Boolean).join(' — ')}`);
  }
  return lines;
}
