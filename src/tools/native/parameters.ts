// The native tools' parameter schemas, written with zod: the source of truth. rig does not build
// them at runtime (zod schema objects and z.toJSONSchema cost milliseconds on the way to the
// first request): `node scripts/gen-native-parameters.mjs` renders them into
// parameters.generated.ts, and test/tools/native/parameters.test.ts fails when the two differ.
import { toParameters, z } from './schema.js';
import type { JsonSchema } from '../../protocol/index.js';

const escalationFields = {
  sandbox_permissions: z
    .enum(['use_default', 'require_escalated'])
    .optional()
    .describe('Use "require_escalated" to ask the user to run this command outside the sandbox; give a justification.'),
  justification: z.string().optional().describe('One sentence for the user explaining why escalation is needed.'),
  prefix_rule: z
    .array(z.string())
    .optional()
    .describe('With require_escalated: an argv prefix (e.g. ["npm","test"]) the user may approve for the rest of the session.'),
};

export const nativeParameterSchemas = {
  exec_command: z
    .object({
      cmd: z.string().describe('Shell command to run.'),
      workdir: z.string().optional().describe('Working directory; defaults to the session directory.'),
      shell: z.string().optional().describe('Shell binary; defaults to the user\'s shell.'),
      tty: z.boolean().optional().describe('Allocate a terminal (for interactive programs). Default false.'),
      login: z.boolean().optional().describe('Run in a login shell (-l: reads the user\'s profile first). Default false.'),
      yield_time_ms: z.number().optional().describe('Wait this long for output before returning (default 10000).'),
      max_output_tokens: z.number().optional().describe('Output budget in tokens (default 10000).'),
      ...escalationFields,
    })
    .strict(),
  write_stdin: z
    .object({
      session_id: z.number().describe('Session id returned by exec_command.'),
      chars: z.string().optional().describe('Characters to write; empty just polls. Ctrl-C is "\\u0003".'),
      yield_time_ms: z.number().optional().describe('Wait this long for output before returning.'),
      max_output_tokens: z.number().optional().describe('Output budget in tokens (default 10000).'),
    })
    .strict(),
  shell: z
    .object({
      command: z.array(z.string()).describe('The command as an argv array, e.g. ["bash", "-lc", "ls -la"].'),
      workdir: z.string().optional().describe('Working directory; always set it rather than using cd.'),
      timeout_ms: z.number().optional().describe('Timeout in milliseconds (default 10000).'),
      ...escalationFields,
    })
    .strict(),
  shell_command: z
    .object({
      command: z.string().describe('The shell script to run.'),
      workdir: z.string().optional().describe('Working directory; always set it rather than using cd.'),
      timeout_ms: z.number().optional().describe('Timeout in milliseconds (default 10000).'),
      ...escalationFields,
    })
    .strict(),
  update_plan: z
    .object({
      explanation: z.string().optional(),
      plan: z
        .array(
          z
            .object({
              step: z.string(),
              status: z.enum(['pending', 'in_progress', 'completed']),
            })
            .strict(),
        )
        .describe('The steps, in order, each with its status.'),
    })
    .strict(),
  view_image: z.object({ path: z.string().describe('Path of a local image file.') }).strict(),
};

export type NativeParameterName = keyof typeof nativeParameterSchemas;

/** What parameters.generated.ts must hold: each schema as JSON Schema, as sent to providers. */
export function renderNativeParameters(): Record<NativeParameterName, JsonSchema> {
  const out = {} as Record<NativeParameterName, JsonSchema>;
  for (const [name, schema] of Object.entries(nativeParameterSchemas)) out[name as NativeParameterName] = toParameters(schema);
  return out;
}
