// plan.*: the harnesses' todo and plan-mode tools, all mapped onto the thread's one plan
// (caps.updatePlan). The list each tool shows back is kept per thread in ctx.threadState.
import type { ResolvedTool } from '../../harness/profile.js';
import type { TodoEntry } from '../../protocol/index.js';
import type { ToolContext, ToolSpec } from '../spec.js';
import { asArgs, fail, functionSpec, numberArg, ok, stringArg, styleOption } from './common.js';

const TODO_STYLES = ['zcode', 'kimi', 'kimi-cli', 'opencode', 'claude'] as const;
type TodoStyle = (typeof TODO_STYLES)[number];

interface Todo {
  content: string;
  status: string;
  priority?: string;
}

const TODOS_KEY = 'harness.todos';

function currentTodos(ctx: ToolContext): Todo[] {
  return (ctx.threadState.get(TODOS_KEY) as Todo[] | undefined) ?? [];
}

const DONE = new Set(['completed', 'done', 'cancelled']);

function publish(ctx: ToolContext, todos: Todo[]): void {
  ctx.threadState.set(TODOS_KEY, todos);
  const entries: TodoEntry[] = todos.map((todo) => ({ text: todo.content, completed: DONE.has(todo.status) }));
  ctx.caps.updatePlan(entries);
}

function parseTodos(style: TodoStyle, raw: unknown): Todo[] | string {
  if (!Array.isArray(raw)) return 'todos must be an array';
  const titleKey = style === 'kimi' || style === 'kimi-cli' ? 'title' : 'content';
  const out: Todo[] = [];
  for (const [index, item] of raw.entries()) {
    const entry = asArgs(item);
    const content = stringArg(entry, titleKey);
    const status = stringArg(entry, 'status');
    if (!content) return `todos[${index}].${titleKey} is required`;
    if (!status) return `todos[${index}].status is required`;
    const todo: Todo = { content, status };
    const priority = stringArg(entry, 'priority');
    if (priority) todo.priority = priority;
    out.push(todo);
  }
  return out;
}

function kimiList(todos: Todo[], bullet: string): string {
  return ['Current todo list:', ...todos.map((todo) => `${bullet}[${todo.status}] ${todo.content}`)].join('\n');
}

/** plan.todo: replace (or, where the original allows, read) the todo list. */
export function createTodoTool(tool: ResolvedTool): ToolSpec {
  const style = styleOption(tool, TODO_STYLES, 'claude');
  return functionSpec(
    tool,
    {
      description: 'Replace the todo list.',
      parameters: { type: 'object', properties: { todos: { type: 'array' } }, required: ['todos'] },
      parallelSafe: false,
    },
    async (args, ctx) => {
      const old = currentTodos(ctx);
      if ((style === 'kimi' || style === 'kimi-cli') && (args['todos'] === undefined || args['todos'] === null)) {
        if (old.length === 0) return ok('Todo list is empty.');
        return ok(kimiList(old, style === 'kimi' ? '  ' : '- '));
      }
      const todos = parseTodos(style, args['todos']);
      if (typeof todos === 'string') return fail(`${tool.name} failed: ${todos}`);
      publish(ctx, todos);
      switch (style) {
        case 'zcode': {
          const count = (status: string): number => todos.filter((todo) => todo.status === status).length;
          const strip = (list: Todo[]): Todo[] => list.map((todo) => ({ ...todo }));
          return ok(
            JSON.stringify({
              oldTodos: strip(old),
              todos: strip(todos),
              summary: { total: todos.length, pending: count('pending'), inProgress: count('in_progress'), completed: count('completed') },
            }),
          );
        }
        case 'kimi':
          if (todos.length === 0) return ok('Todo list cleared.');
          return ok(`${kimiList(todos, '  ')}\n\nKeep the list current: mark items done as soon as they are finished.`);
        case 'kimi-cli':
          return ok('Todo list updated');
        case 'opencode':
          return ok(JSON.stringify(todos, null, 2));
        case 'claude':
          return ok('Todos have been updated. Keep using the todo list to track progress, and continue with the current task.');
      }
    },
  );
}

/** plan.todo_read: the list as JSON `{todos: [...]}` (ZCode TodoRead). */
export function createTodoReadTool(tool: ResolvedTool): ToolSpec {
  return functionSpec(
    tool,
    { description: 'Show the todo list.', parameters: { type: 'object', properties: {} }, parallelSafe: true },
    async (_args, ctx) => ok(JSON.stringify({ todos: currentTodos(ctx) })),
  );
}

// --- DeepSeek TUI checklist (ids, add/update/list/write) ----------------------------------------

interface ChecklistItem {
  id: number;
  content: string;
  status: string;
}

const CHECKLIST_KEY = 'harness.checklist';
const CHECKLIST_STATUS = ['pending', 'in_progress', 'completed'];

function checklistJson(items: ChecklistItem[]): string {
  const done = items.filter((item) => item.status === 'completed').length;
  const pct = items.length === 0 ? 0 : Math.round((done / items.length) * 100);
  const inProgress = items.find((item) => item.status === 'in_progress')?.id ?? null;
  return JSON.stringify({ items, completion_pct: pct, in_progress_id: inProgress });
}

function checklistSummary(items: ChecklistItem[]): string {
  const done = items.filter((item) => item.status === 'completed').length;
  const pct = items.length === 0 ? 0 : Math.round((done / items.length) * 100);
  return `Todo list updated (${items.length} items, ${pct}% complete)\n${checklistJson(items)}`;
}

export function createChecklistTool(tool: ResolvedTool): ToolSpec {
  const action = tool.options['action'];
  return functionSpec(
    tool,
    { description: 'Manage the checklist.', parameters: { type: 'object', properties: {} }, parallelSafe: false },
    async (args, ctx) => {
      const items = [...((ctx.threadState.get(CHECKLIST_KEY) as ChecklistItem[] | undefined) ?? [])];
      const save = (next: ChecklistItem[]): void => {
        ctx.threadState.set(CHECKLIST_KEY, next);
        ctx.caps.updatePlan(next.map((item) => ({ text: item.content, completed: item.status === 'completed' })));
      };
      const statusOf = (value: unknown): string | null => {
        const status = value === undefined ? 'pending' : value;
        return typeof status === 'string' && CHECKLIST_STATUS.includes(status) ? status : null;
      };
      switch (action) {
        case 'list':
          return ok(checklistSummary(items));
        case 'add': {
          const content = stringArg(args, 'content');
          const status = statusOf(args['status']);
          if (!content) return fail(`${tool.name} failed: content is required`);
          if (!status) return fail(`${tool.name} failed: status must be pending, in_progress or completed`);
          const id = items.reduce((max, item) => Math.max(max, item.id), 0) + 1;
          items.push({ id, content, status });
          save(items);
          return ok(checklistSummary(items));
        }
        case 'update': {
          const id = numberArg(args, 'id');
          const status = statusOf(args['status']);
          const item = items.find((entry) => entry.id === id);
          if (!item) return fail(`${tool.name} failed: no item with id ${id}`);
          if (!status) return fail(`${tool.name} failed: status must be pending, in_progress or completed`);
          item.status = status;
          save(items);
          return ok(`Updated todo #${id} to ${status}\n${checklistJson(items)}`);
        }
        default: {
          const raw = args['todos'];
          if (!Array.isArray(raw)) return fail(`${tool.name} failed: todos must be an array`);
          const next: ChecklistItem[] = [];
          for (const [index, entry] of raw.entries()) {
            const fields = asArgs(entry);
            const content = stringArg(fields, 'content');
            const status = statusOf(fields['status']);
            if (!content || !status) return fail(`${tool.name} failed: todos[${index}] needs content and a valid status`);
            next.push({ id: index + 1, content, status });
          }
          save(next);
          return ok(checklistSummary(next));
        }
      }
    },
  );
}

// --- plan mode ------------------------------------------------------------------------------------

const PLAN_MODE_KEY = 'harness.planMode';

export function createEnterPlanModeTool(tool: ResolvedTool): ToolSpec {
  return functionSpec(
    tool,
    { description: 'Enter plan mode.', parameters: { type: 'object', properties: {} }, parallelSafe: false },
    async (_args, ctx) => {
      ctx.threadState.set(PLAN_MODE_KEY, true);
      return ok(
        'Plan mode is on. Explore the code and design the change without editing files or running commands that change state. ' +
          'When the plan is ready, present it with the exit-plan-mode tool for approval.',
      );
    },
  );
}

export function createExitPlanModeTool(tool: ResolvedTool): ToolSpec {
  return functionSpec(
    tool,
    { description: 'Leave plan mode with a plan.', parameters: { type: 'object', properties: {} }, parallelSafe: false },
    async (args, ctx) => {
      ctx.threadState.set(PLAN_MODE_KEY, false);
      const plan = stringArg(args, 'plan');
      if (plan !== undefined) return ok(`Plan submitted for approval.\n\n${plan}`);
      const options = Array.isArray(args['options']) ? args['options'].map(asArgs) : [];
      const listed = options.map((option, i) => `${i + 1}. ${stringArg(option, 'label') ?? ''}${stringArg(option, 'description') ? ` - ${stringArg(option, 'description')}` : ''}`);
      return ok(['Plan mode is off. Proceed with the plan.', ...listed].join('\n'));
    },
  );
}
