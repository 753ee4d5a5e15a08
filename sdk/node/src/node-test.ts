// node:test integration: one engine per suite (before/after), imposters per test (afterEach).
import { before, after, afterEach } from 'node:test';
import { Rift, type Imposter } from './client.js';
import type { EngineOptions, SpawnOptions } from './transport.js';
import type { ImposterBuilder } from './dsl.js';

export type RiftSuiteOptions =
  | ({ transport?: 'embedded' } & EngineOptions)
  | ({ transport: 'spawn' } & SpawnOptions)
  | { transport: 'connect'; url: string };

export interface RiftSuite {
  /** The suite's engine (available once `before` ran). */
  readonly rift: Rift;
  /** Creates an imposter deleted after the current test. */
  imposter(definition: ImposterBuilder | Record<string, unknown> | string): Promise<Imposter>;
}

export function openRift(options: RiftSuiteOptions = {}): Promise<Rift> {
  if (options.transport === 'spawn') return Rift.spawn(options);
  if (options.transport === 'connect') return Rift.connect(options.url);
  return Rift.embedded(options);
}

/**
 * Call at the top of a test file or inside describe(): registers before/after hooks that open
 * and close one Rift, and an afterEach hook that deletes the imposters each test created.
 */
export function useRift(options: RiftSuiteOptions = {}): RiftSuite {
  let rift: Rift | undefined;
  let created: Imposter[] = [];
  before(async () => { rift = await openRift(options); });
  afterEach(async () => {
    const mine = created;
    created = [];
    for (const imp of mine) { try { await imp.delete(); } catch { /* deleted by the test */ } }
  });
  after(async () => { await rift?.close(); rift = undefined; });
  return {
    get rift(): Rift {
      if (!rift) throw new Error('useRift: the engine is open only inside tests and hooks of its suite');
      return rift;
    },
    async imposter(definition) {
      if (!rift) throw new Error('useRift: the engine is open only inside tests and hooks of its suite');
      const imp = await rift.create(definition);
      created.push(imp);
      return imp;
    },
  };
}
