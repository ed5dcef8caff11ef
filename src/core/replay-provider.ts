// The id of the offline provider that plays a recorded rollout back: its own file so a caller that
// needs only the name (`rig`'s readiness check, on every start) loads nothing else with it.
export const REPLAY_PROVIDER_ID = 'replay';
