// useRift(): one engine for the suite, each test's imposters deleted after it.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { useRift } from 'rift-sdk/node-test';
import { imposter, onGet, okJson, times, freePort } from 'rift-sdk';

let sharedPort;
let engineSeen;

describe('useRift (embedded)', () => {
  const ctx = useRift();

  test('creates imposters for this test', async () => {
    sharedPort = await freePort();
    const users = await ctx.imposter(imposter('users').port(sharedPort).record().stub(onGet('/users/1').willReturn(okJson({ id: 1 }))));
    assert.equal((await users.get('/users/1')).json().id, 1);
    await users.verify(onGet('/users/1'), times(1));
    engineSeen = ctx.rift;
  });

  test('the previous test\'s imposters are gone, the engine is the same', async () => {
    assert.equal(ctx.rift, engineSeen);
    const list = await ctx.rift.list();
    assert.equal(list.some((i) => i.port === sharedPort), false);
  });
});

describe('useRift (spawn)', () => {
  const ctx = useRift({ transport: 'spawn' });
  test('works the same over a child server', async () => {
    const port = await freePort();
    const imp = await ctx.imposter({ port, protocol: 'http', stubs: [{ responses: [{ is: { body: 'spawned' } }] }] });
    assert.equal((await imp.get('/')).text(), 'spawned');
    assert.equal(ctx.rift.kind, 'spawn');
  });
});

