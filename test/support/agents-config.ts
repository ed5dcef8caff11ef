// The configuration of issue 14 ("Sub-agents"), exactly as the issue gives it: a planner on one
// model delegating to an implementer role on another. Tests write it into a temp RIG_HOME.

export const ISSUE_CONFIG = `model = "gpt-6-astra"
model_reasoning_effort = "high"
[features]
multi_agent_v2 = true
[agents]
enabled = true
default_subagent_model = "gpt-5.6-sol"
default_subagent_reasoning_effort = "medium"
[agents.implementer]
description = "Makes bounded code changes assigned by the planner."
config_file = "agents/implementer.toml"
model = "gpt-5.6-sol"
model_reasoning_effort = "medium"
developer_instructions = "Implement only the assigned change within the named files. Follow repository instructions. Run relevant validation and report changes, results, and limitations."
`;

export const IMPLEMENTER_INSTRUCTIONS =
  'Implement only the assigned change within the named files. Follow repository instructions. Run relevant validation and report changes, results, and limitations.';

/** The role file the config names (rig's own file name, relative to RIG_HOME). */
export const IMPLEMENTER_ROLE_FILE = `name = "implementer"
description = "Makes bounded code changes assigned by the planner."
`;
