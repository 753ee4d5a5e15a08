// The ESM and CommonJS builds in one process (the dual-package case): both bind librift.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import * as esm from 'rift-sdk';

test('ESM and CJS copies of the SDK work side by side', async () => {
  const cjs = createRequire(import.meta.url)('rift-sdk');
  assert.notEqual(cjs.Rift, esm.Rift);
  const a = await esm.Rift.embedded();
  const b = await cjs.Rift.embedded();
  try {
    for (const rift of [a, b]) {
      const port = await esm.freePort();
      const imp = await rift.create(esm.imposter().port(port).stub(esm.onGet('/d').willReturn(esm.ok('dual'))));
      assert.equal((await imp.get('/d')).text(), 'dual');
    }
  } finally {
    await a.close();
    await b.close();
  }
});
