// Why a session has no timer tools: the front ends name theirs when they start a thread. No imports,
// so a front end's startup path does not load the scheduler for them.
/** Why `rig exec` leaves the timer tools out. */
export const EXEC_NO_TIMERS = 'rig exec ends when its turn ends, so a scheduled prompt could never fire; use the TUI, the REPL or the app server for scheduled prompts';
/** Why an ACP or MCP client's sessions have none: every turn there answers one of the client's requests. */
export const CLIENT_TURNS_NO_TIMERS = "this client starts every turn itself (one per request), so a scheduled prompt's turn would answer nobody; use the TUI, the REPL or the app server for scheduled prompts";
/** Why a sub-agent has none (Kimi Code does the same): its thread ends with its task. */
export const SUBAGENT_NO_TIMERS = "a sub-agent's thread ends with its task, so a scheduled prompt could never fire; schedule it from the main thread";
