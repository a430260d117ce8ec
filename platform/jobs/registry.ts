import type { JobHandler, JobOptions, JobRegistrar } from './ports.js';

/** Job type -> handler: the process's side of the port that the subgraphs register their jobs on. */
export class JobRegistry implements JobRegistrar {
  private readonly handlers = new Map<string, JobHandler>();
  private readonly outsideTransaction = new Set<string>();

  register(type: string, handler: JobHandler, options: JobOptions = {}): void {
    if (options.outsideTransaction) this.outsideTransaction.add(type);
    if (this.handlers.has(type)) {
      throw new Error(`A handler is already registered for job type "${type}"`);
    }
    this.handlers.set(type, handler);
  }

  get(type: string): JobHandler | undefined {
    return this.handlers.get(type);
  }

  runsOutsideTransaction(type: string): boolean {
    return this.outsideTransaction.has(type);
  }

  has(type: string): boolean {
    return this.handlers.has(type);
  }

  types(): string[] {
    return [...this.handlers.keys()];
  }
}
