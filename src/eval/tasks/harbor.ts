// Harbor / Terminal-Bench 2 task directories: task.toml, instruction.md, environment/ (a Dockerfile
// and its build context), tests/test.sh (writes the reward to /logs/verifier/reward.txt or
// reward.json), optional solution/solve.sh. Tasks run without Docker here, so:
//   - the workspace is the folder the Dockerfile copies into its WORKDIR (`COPY app/ /app/`), or
//     environment/ itself without the Docker files, or `[metadata.rig] workspace` when set;
//   - the check runs test.sh in a sandbox where the workspace appears at the WORKDIR (default /app),
//     tests/ at /tests and a fresh log folder at /logs, as Harbor lays them out in the container.
// RUN steps of the Dockerfile are not executed: `[metadata.rig] setup` can run a command instead.
import { existsSync, readFileSync, statSync } from 'node:fs';
import { basename, join, posix, relative, resolve } from 'node:path';
import { parse as parseToml, TomlError } from 'smol-toml';
import type { z } from 'zod';
import { findKeyLine } from '../../core/config-files.js';
import { TASK_ID_PATTERN, TaskFileError, type EvalTask } from './types.js';
import { parseOrThrow, zod } from './validate.js';

function taskTomlSchema() {
  const z = zod();
  const seconds = z.number({ error: 'must be a number of seconds' }).positive({ error: 'must be a positive number of seconds' });
  return z.looseObject({
    version: z.string().optional(),
    schema_version: z.string().optional(),
    task: z.looseObject({ name: z.string().optional(), description: z.string().optional() }).optional(),
    metadata: z
      .looseObject({
        rig: z
          .strictObject({
            workspace: z.string().min(1).optional(),
            setup: z.string().min(1).optional(),
            max_tokens: z.number().int().positive().optional(),
            id: z.string().regex(TASK_ID_PATTERN).optional(),
          })
          .optional(),
      })
      .optional(),
    agent: z.looseObject({ timeout_sec: seconds.optional() }).optional(),
    verifier: z.looseObject({ timeout_sec: seconds.optional(), env: z.record(z.string(), z.string()).optional() }).optional(),
    environment: z.looseObject({}).optional(),
  });
}

type TaskToml = z.infer<ReturnType<typeof taskTomlSchema>>;

const DOCKER_FILES = ['Dockerfile', 'docker-compose.yaml', 'docker-compose.yml', '.dockerignore'];

/** WORKDIR and the sources COPY'd into it, from a Dockerfile (instructions are case-insensitive). */
function readDockerfile(text: string): { workdir: string; copied: string[] } {
  let workdir = '/';
  let copiedInto: { dest: string; sources: string[] }[] = [];
  for (const raw of text.replace(/\\\r?\n/g, ' ').split(/\r?\n/)) {
    const line = raw.trim();
    const match = /^(\w+)\s+(.*)$/.exec(line);
    if (!match) continue;
    const instruction = match[1]!.toUpperCase();
    const args = match[2]!.split(/\s+/).filter((arg) => !arg.startsWith('--'));
    if (instruction === 'WORKDIR' && args[0]) workdir = posix.resolve(workdir, args[0]);
    if ((instruction === 'COPY' || instruction === 'ADD') && args.length >= 2) {
      const dest = posix.resolve(workdir, args[args.length - 1]!);
      copiedInto.push({ dest, sources: args.slice(0, -1) });
    }
  }
  copiedInto = copiedInto.filter((copy) => copy.dest === workdir || copy.dest === `${workdir}/`);
  return { workdir: workdir === '/' ? '/app' : workdir, copied: copiedInto.flatMap((copy) => copy.sources) };
}

function required(dir: string, name: string, what: string): string {
  const path = join(dir, name);
  if (!existsSync(path)) throw new TaskFileError(path, undefined, undefined, `missing: a Harbor task needs ${what}`);
  return path;
}

export function isHarborTaskDir(dir: string): boolean {
  return existsSync(join(dir, 'task.toml'));
}

export function loadHarborTask(dir: string): EvalTask {
  const tomlFile = join(dir, 'task.toml');
  const text = readFileSync(tomlFile, 'utf8');
  let value: unknown;
  try {
    value = parseToml(text);
  } catch (error) {
    if (error instanceof TomlError) throw new TaskFileError(tomlFile, error.line, undefined, `not valid TOML: ${error.message.split('\n')[0]}`);
    throw error;
  }
  const toml: TaskToml = parseOrThrow(taskTomlSchema(), value, tomlFile, (path) => findKeyLine(text, path));
  const instructionFile = required(dir, 'instruction.md', 'instruction.md (what the agent is asked to do)');
  const prompt = readFileSync(instructionFile, 'utf8').trim();
  if (prompt === '') throw new TaskFileError(instructionFile, 1, undefined, 'is empty; write the task for the agent here');
  const testsDir = join(dir, 'tests');
  required(testsDir, 'test.sh', 'tests/test.sh (the verifier, which writes /logs/verifier/reward.txt)');

  const rig = toml.metadata?.rig;
  const environment = join(dir, 'environment');
  const dockerfile = join(environment, 'Dockerfile');
  const docker = existsSync(dockerfile) ? readDockerfile(readFileSync(dockerfile, 'utf8')) : { workdir: '/app', copied: [] };
  let repo: string;
  let exclude: string[] | undefined;
  if (rig?.workspace) {
    repo = resolve(dir, rig.workspace);
    if (!existsSync(repo) || !statSync(repo).isDirectory()) {
      throw new TaskFileError(tomlFile, findKeyLine(text, ['metadata', 'rig', 'workspace']), 'metadata.rig.workspace', `${rig.workspace} is not a folder of the task`);
    }
  } else {
    const copiedDir = docker.copied
      .map((source) => resolve(environment, source))
      .find((source) => source !== environment && existsSync(source) && statSync(source).isDirectory());
    repo = copiedDir ?? (existsSync(environment) ? environment : dir);
    if (repo === environment) exclude = DOCKER_FILES;
    if (repo === dir) {
      throw new TaskFileError(tomlFile, undefined, 'metadata.rig.workspace', 'the task has no environment/ folder: say which folder is the workspace with [metadata.rig] workspace = "..."');
    }
  }
  const solveScript = join(dir, 'solution', 'solve.sh');
  const id = rig?.id ?? basename(dir);
  if (!TASK_ID_PATTERN.test(id)) {
    throw new TaskFileError(tomlFile, undefined, 'metadata.rig.id', `the folder name ${JSON.stringify(id)} is not a usable task id; set [metadata.rig] id = "..." (letters, digits, ".", "_", "-")`);
  }
  return {
    id,
    format: 'harbor',
    source: { file: tomlFile },
    prompt,
    repo,
    ...(exclude ? { exclude } : {}),
    ...(rig?.setup ? { setup: rig.setup } : {}),
    check: {
      kind: 'harbor',
      testsDir,
      workdir: docker.workdir,
      ...(toml.verifier?.env ? { env: toml.verifier.env } : {}),
    },
    ...(toml.agent?.timeout_sec ? { agentTimeoutMs: Math.round(toml.agent.timeout_sec * 1000) } : {}),
    ...(toml.verifier?.timeout_sec ? { checkTimeoutMs: Math.round(toml.verifier.timeout_sec * 1000) } : {}),
    ...(rig?.max_tokens ? { maxTokens: rig.max_tokens } : {}),
    ...(existsSync(solveScript) ? { solution: { kind: 'script', file: solveScript } } : {}),
    tags: [relative(dir, repo) || '.'],
  };
}
