// The loopback mock provider answering as the eval tests' scripted model for examples/eval, for
// trying `rig eval` offline (scripts/eval-mock.mjs serves it): native and claude-code each solve
// some of the tasks, differently, with harmless tool calls in the trial's sandboxed workspace.
import { startMockProvider, type MockProvider } from '../../support/mock-provider/index.js';
import { loadTasks } from '../../../src/eval/tasks/load.js';
import { defaultSolves, scriptedModel } from './scripted-model.js';

/** Requests the mock can answer before it runs dry (each trial takes about three). */
const TURNS = 100_000;

export async function serveExampleMock(options: { examplesDir: string; port?: number }): Promise<MockProvider> {
  const tasks = loadTasks(options.examplesDir);
  const mock = await startMockProvider(options.port === undefined ? {} : { port: options.port });
  const model = scriptedModel({ tasks, solves: defaultSolves(tasks) });
  for (let i = 0; i < TURNS; i++) mock.enqueue(model);
  return mock;
}
