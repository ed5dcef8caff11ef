// --queue redis://[user:password@]HOST:PORT/N: where the BullMQ queue lives. Parsed here (not by
// ioredis) so a bad URL is a clear error before anything connects.
import type { TrialArtifacts } from '../trial.js';
import type { TrialResult } from '../results.js';
import type { TrialSpec } from '../matrix.js';
import type { RunnerKind } from '../runner/types.js';
import { gunzipSync, gzipSync } from 'node:zlib';

export const DEFAULT_QUEUE_NAME = 'rig-eval';

export interface RedisConnection {
  host: string;
  port: number;
  db: number;
  username?: string;
  password?: string;
  tls?: Record<string, never>;
  /** BullMQ workers block on Redis; ioredis must not give up on a command while they wait. */
  maxRetriesPerRequest: null;
}

export function parseQueueUrl(text: string): RedisConnection {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new Error(`--queue ${JSON.stringify(text)} is not a URL; use redis://HOST:PORT/N (N = database number, default 0)`);
  }
  if (url.protocol !== 'redis:' && url.protocol !== 'rediss:') {
    throw new Error(`--queue ${JSON.stringify(text)}: the scheme must be redis:// (or rediss:// for TLS), e.g. redis://127.0.0.1:6379/0`);
  }
  const path = url.pathname.replace(/^\//, '');
  const db = path === '' ? 0 : Number(path);
  if (!Number.isInteger(db) || db < 0) throw new Error(`--queue ${JSON.stringify(text)}: the path must be a database number, e.g. /0`);
  const port = url.port === '' ? 6379 : Number(url.port);
  return {
    host: url.hostname || '127.0.0.1',
    port,
    db,
    ...(url.username ? { username: decodeURIComponent(url.username) } : {}),
    ...(url.password ? { password: decodeURIComponent(url.password) } : {}),
    ...(url.protocol === 'rediss:' ? { tls: {} } : {}),
    maxRetriesPerRequest: null,
  };
}

/** A job's data: the whole trial (paths must exist on the worker's machine). */
export interface TrialJobData {
  runId: string;
  spec: TrialSpec;
  /** The run's runner; a `rig worker --isolate` uses isolate whatever the job says. */
  runner?: RunnerKind;
}

/** A job's return value: the result, and the rollout and diff gzipped for the run folder. */
export interface TrialJobReturn {
  result: TrialResult;
  rollout_gz?: string;
  patch_gz?: string;
}

export function packArtifacts(result: TrialResult, artifacts: TrialArtifacts): TrialJobReturn {
  return {
    result,
    ...(artifacts.rollout !== undefined ? { rollout_gz: gzipSync(artifacts.rollout).toString('base64') } : {}),
    ...(artifacts.patch ? { patch_gz: gzipSync(artifacts.patch).toString('base64') } : {}),
  };
}

export function unpackArtifacts(value: TrialJobReturn): TrialArtifacts {
  return {
    ...(value.rollout_gz ? { rollout: gunzipSync(Buffer.from(value.rollout_gz, 'base64')).toString('utf8') } : {}),
    ...(value.patch_gz ? { patch: gunzipSync(Buffer.from(value.patch_gz, 'base64')).toString('utf8') } : {}),
  };
}
