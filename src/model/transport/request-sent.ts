// Published (node:diagnostics_channel) once a model request's body has been handed to the OS and
// the process has nothing to do until the answer comes: the one moment of a turn when work on the
// main thread costs the user nothing, since a model takes hundreds of milliseconds to first token.
// The CLI's heap keeper collects garbage there (src/cli/boot/heap-keeper.ts). Publishing costs a
// property read when nobody subscribes.
export const MODEL_REQUEST_SENT_CHANNEL = 'rig:model-request-sent';
