// Vitest integration without importing vitest: pass your `test` and get one with fixtures.
//   import { test as base } from 'vitest';
//   const test = riftTest(base);
//   test('x', async ({ rift, imposter }) => { const users = await imposter(...); });
import { Rift, type Imposter } from './client.js';
import type { ImposterBuilder } from './dsl.js';
import { openRift, type RiftSuiteOptions } from './node-test.js';

export interface RiftFixtures {
  /** One engine per worker, shared by its tests. */
  rift: Rift;
  /** Creates an imposter deleted when the test ends. */
  imposter: (definition: ImposterBuilder | Record<string, unknown> | string) => Promise<Imposter>;
}

interface Extendable<T> { extend(fixtures: Record<string, unknown>): T }

export function riftTest<T extends Extendable<unknown>>(test: T, options: RiftSuiteOptions = {}):
  T extends Extendable<infer R> ? R & { [K in keyof RiftFixtures]?: RiftFixtures[K] } : never {
  return test.extend({
    // eslint-disable-next-line no-empty-pattern
    rift: [async ({}, use: (r: Rift) => Promise<void>) => {
      const rift = await openRift(options);
      try { await use(rift); } finally { await rift.close(); }
    }, { scope: 'worker' }],
    imposter: async ({ rift }: { rift: Rift }, use: (f: RiftFixtures['imposter']) => Promise<void>) => {
      const created: Imposter[] = [];
      await use(async (definition) => {
        const imp = await rift.create(definition);
        created.push(imp);
        return imp;
      });
      for (const imp of created) { try { await imp.delete(); } catch { /* deleted by the test */ } }
    },
  }) as never;
}
