// How apply_patch is offered to a model: as a freeform (custom) tool constrained by a Lark
// grammar, which current Codex models expect, or as a JSON function tool taking {"input"} for
// models and wires without custom tools. The grammar is a formal statement of the format the
// parser accepts (the parser is more lenient: padded markers, heredoc wrappers, blank lines).
import type { CustomToolDefinition, FunctionToolDefinition } from '../protocol/index.js';

export const APPLY_PATCH_TOOL_NAME = 'apply_patch';

const GRAMMAR_RULES = String.raw`
hunk: add_file | delete_file | update_file
add_file: "*** Add File: " path LF new_line+
delete_file: "*** Delete File: " path LF
update_file: "*** Update File: " path LF move_to? body?
move_to: "*** Move to: " path LF
body: (anchor | diff_line)+ end_of_file?
anchor: ("@@" | "@@ " /(.+)/) LF
diff_line: ("+" | "-" | " ") /(.*)/ LF
new_line: "+" /(.*)/ LF
end_of_file: "*** End of File" LF
path: /(.+)/

%import common.LF
`;

/** The Lark grammar of a patch; `withEnvironment` adds the multi-environment header. */
export function applyPatchGrammar(options: { withEnvironment?: boolean } = {}): string {
  const start = options.withEnvironment
    ? 'start: begin environment? hunk+ end\nenvironment: "*** Environment ID: " path LF'
    : 'start: begin hunk+ end';
  return `${start}\nbegin: "*** Begin Patch" LF\nend: "*** End Patch" LF?\n${GRAMMAR_RULES}`;
}

export const APPLY_PATCH_LARK_GRAMMAR = applyPatchGrammar();

export const APPLY_PATCH_CUSTOM_DESCRIPTION =
  'Create, edit, rename and delete files by sending a patch in the apply_patch format. ' +
  'This is a FREEFORM tool: send the raw patch text itself, not JSON.';

export const APPLY_PATCH_FUNCTION_DESCRIPTION = `Create, edit, rename and delete files with a patch. Put the whole patch text in "input".

A patch is wrapped in an envelope:

*** Begin Patch
[one or more file sections]
*** End Patch

Each file section starts with one of three headers:

*** Add File: <path>      create a file (an existing one is replaced); every following line is a line of the new file, prefixed with +
*** Delete File: <path>   remove a file; nothing follows
*** Update File: <path>   change a file in place; may be followed at once by "*** Move to: <new path>" to rename it

An Update File section holds one or more changes. Each change shows the old text with every line prefixed:
  " " (a space) for a line that stays, "-" for a line to remove, "+" for a line to add.
Give about three unchanged lines before and after each change so the place is unambiguous, and do not repeat a line in the context of two neighbouring changes. Start each change with "@@"; when the context lines alone could match in several places, name the enclosing class or function after it ("@@ class Parser", "@@ def load():"); several "@@" lines in a row narrow the place step by step. A change that must match the end of the file ends with "*** End of File".

Example:

*** Begin Patch
*** Add File: docs/notes.md
+# Notes
+First entry.
*** Update File: src/app.py
@@ def main():
     args = parse_args()
-    run(args)
+    result = run(args)
+    report(result)
     return 0
*** Delete File: src/old_helper.py
*** End Patch

Rules:
- Paths are relative to the working directory; never absolute.
- Every line of a new file, including empty ones, starts with "+".
- Copy context lines exactly as they are in the file.`;

export function applyPatchCustomTool(options: { withEnvironment?: boolean } = {}): CustomToolDefinition {
  return {
    kind: 'custom',
    name: APPLY_PATCH_TOOL_NAME,
    description: APPLY_PATCH_CUSTOM_DESCRIPTION,
    format: { type: 'grammar', syntax: 'lark', definition: applyPatchGrammar(options) },
  };
}

export function applyPatchFunctionTool(): FunctionToolDefinition {
  return {
    kind: 'function',
    name: APPLY_PATCH_TOOL_NAME,
    description: APPLY_PATCH_FUNCTION_DESCRIPTION,
    parameters: {
      type: 'object',
      properties: {
        input: { type: 'string', description: 'The complete patch, from *** Begin Patch to *** End Patch' },
      },
      required: ['input'],
      additionalProperties: false,
    },
    strict: false,
  };
}
