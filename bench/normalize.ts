// Figures from the optional bench modules (sessions.ts, sandbox.ts) as table rows. They may return
// Metric-shaped rows, a plain number of milliseconds, or an object of named numbers.
import type { Metric } from './report.js';

function unitOf(field: string): { unit: string; scale: number } {
  if (/ms$/i.test(field)) return { unit: 'ms', scale: 1 };
  if (/(mb|megabytes)$/i.test(field)) return { unit: 'MB', scale: 1 };
  if (/kb$/i.test(field)) return { unit: 'MB', scale: 1 / 1024 };
  if (/bytes$/i.test(field)) return { unit: 'B', scale: 1 };
  if (/(seconds|sec|s)$/.test(field) && !/items$/i.test(field)) return { unit: 'ms', scale: 1000 };
  return { unit: '', scale: 1 };
}

function asNumber(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}

function fromObject(key: string, object: Record<string, unknown>): Metric[] {
  const value = asNumber(object['value']) ?? asNumber(object['ms']) ?? asNumber(object['medianMs']) ?? asNumber(object['median']);
  if (value !== undefined) {
    const label = [object['label'], object['name'], object['metric']].find((text) => typeof text === 'string') as string | undefined;
    const target = asNumber(object['target']) ?? asNumber(object['targetMs']);
    const unit = typeof object['unit'] === 'string' ? object['unit'] : 'ms';
    const rowKey = typeof object['key'] === 'string' ? object['key'] : key;
    const note = typeof object['note'] === 'string' ? object['note'] : undefined;
    return [{ key: rowKey, label: label ?? key, value, unit, ...(target !== undefined ? { target } : {}), ...(note ? { note } : {}) }];
  }
  // An object of named figures: one row each.
  return Object.entries(object).flatMap(([field, raw]) => {
    const number = asNumber(raw);
    if (number === undefined) return [];
    const { unit, scale } = unitOf(field);
    return [{ key: `${key}.${field}`, label: `${key}.${field}`, value: number * scale, unit }];
  });
}

export function toMetrics(key: string, result: unknown): Metric[] {
  if (typeof result === 'number') return [{ key, label: key, value: result, unit: 'ms' }];
  if (Array.isArray(result)) return result.flatMap((entry, i) => toMetrics(`${key}.${i}`, entry));
  if (result && typeof result === 'object') return fromObject(key, result as Record<string, unknown>);
  return [];
}
