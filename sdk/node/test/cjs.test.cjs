// The CommonJS build, through the package's "require" export.
const { test } = require('node:test');
const assert = require('node:assert/strict');
const { Rift, imposter, onGet, ok, freePort } = require('rift-sdk');
const { create } = require('rift-sdk/mountebank');

test('require(rift-sdk) works embedded', async () => {
  assert.equal(typeof create, 'function');
  const rift = await Rift.embedded();
  try {
    const port = await freePort();
    const imp = await rift.create(imposter().port(port).stub(onGet('/cjs').willReturn(ok('cjs'))));
    assert.equal((await imp.get('/cjs')).text(), 'cjs');
  } finally {
    await rift.close();
  }
});
