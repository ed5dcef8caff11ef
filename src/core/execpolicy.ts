// `rig execpolicy check` as a core service: which decision .rules files give a command.
export { runExecPolicyCheck } from '../policy/index.js';
