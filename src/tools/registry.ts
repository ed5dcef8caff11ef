// The set of tools a thread offers, in the order the model sees them. Order is part of the stable
// request prefix, so it never changes within a thread.
import type { ToolDefinition } from '../protocol/index.js';
import { toDefinition, type ToolSpec } from './spec.js';

export class ToolRegistry {
  private readonly byName = new Map<string, ToolSpec>();

  constructor(specs: Iterable<ToolSpec> = []) {
    for (const spec of specs) this.add(spec);
  }

  add(spec: ToolSpec): void {
    if (this.byName.has(spec.name)) {
      throw new Error(`tool "${spec.name}" is registered twice; each tool name must be unique`);
    }
    this.byName.set(spec.name, spec);
  }

  get(name: string): ToolSpec | undefined {
    return this.byName.get(name);
  }

  names(): string[] {
    return [...this.byName.keys()];
  }

  specs(): ToolSpec[] {
    return [...this.byName.values()];
  }

  definitions(): ToolDefinition[] {
    return this.specs().map(toDefinition);
  }
}
