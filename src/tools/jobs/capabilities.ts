// The capability ids harness profiles bind their background-job and persistent-shell tools to.
import type { ToolFactory } from '../../harness/profile.js';
import type { ToolSpec } from '../spec.js';
import { createDeepseekCancelTool, createDeepseekInteractTool, createDeepseekStartTool, createDeepseekWaitTool } from './deepseek.js';
import { createShellSessionCwdTool, createShellSessionResetTool, createShellSessionTool } from './shell-session.js';

export function jobCapabilities(): [string, ToolFactory<ToolSpec>][] {
  return [
    ['jobs.deepseek_wait', createDeepseekWaitTool],
    ['jobs.deepseek_interact', createDeepseekInteractTool],
    ['jobs.deepseek_cancel', createDeepseekCancelTool],
    ['jobs.deepseek_start', createDeepseekStartTool],
    ['shell.session', createShellSessionTool],
    ['shell.session_cwd', createShellSessionCwdTool],
    ['shell.session_reset', createShellSessionResetTool],
  ];
}
