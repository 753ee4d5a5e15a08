// The client on each transport: create, call, verify, raw JSON, the escape hatch, errors, close.
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import {
  Rift, RiftApiError, RiftError, VerificationError, imposter, onGet, onPost, okJson, ok, response, times, never, freePort, locateBinary,
} from 'rift-sdk';

const transports = {
  embedded: () => Rift.embedded(),
  spawn: () => Rift.spawn(),
};

for (const [kind, open] of Object.entries(transports)) {
  describe(`client over ${kind}`, () => {
    let rift;
    before(async () => { rift = await open(); });
    after(async () => { await rift.close(); });

    test('create, call, verify', async () => {
      assert.equal(rift.kind, kind);
      const port = await freePort();
      const users = await rift.create(imposter('users').port(port).record()
        .stub(onGet('/users/1').willReturn(okJson({ id: 1, name: 'Ada' })))
        .stub(onPost('/users').withBody({ name: 'Bob' }).willReturn(response(201).json({ id: 2 }))));
      assert.equal(users.port, port);
      const r = await users.get('/users/1');
      assert.equal(r.status, 200);
      assert.deepEqual(r.json(), { id: 1, name: 'Ada' });
      assert.equal(r.header('content-type'), 'application/json');
      const c = await users.post('/users', { name: 'Bob', extra: true }, { 'Content-Type': 'application/json' });
      assert.equal(c.status, 201);
      assert.equal((await users.get('/nothing')).status, 200); // Mountebank's default: 200, empty
      await users.verify(onGet('/users/1'), times(1));
      await users.verify(onPost('/users').withBody({ name: 'Bob' }), times(1));
      await users.verify(onGet('/users/2'), never());
      await assert.rejects(users.verify(onGet('/users/1'), times(2)), VerificationError);
      await users.delete();
    });

    test('the imposter also listens on its real socket', async () => {
      const port = await freePort();
      await rift.create(imposter().port(port).stub(onGet('/x').willReturn(ok('socket'))));
      const r = await fetch(`http://127.0.0.1:${port}/x`);
      assert.equal(await r.text(), 'socket');
      await rift.deleteImposter(port);
    });

    test('raw JSON escape hatch and request()', async () => {
      const port = await freePort();
      const raw = `{"port": ${port}, "protocol": "http", "stubs": [{"responses": [{"is": {"statusCode": 418, "body": "teapot"}}]}]}`;
      const imp = await rift.create(raw);
      const r = await rift.call(port, 'GET', '/any?x=1');
      assert.equal(r.status, 418);
      assert.equal(r.text(), 'teapot');
      const list = await rift.request('GET', '/imposters');
      assert.equal(list.status, 200);
      assert.ok(list.json().imposters.some((i) => i.port === port));
      const put = await rift.request('PUT', `/imposters/${port}/stubs`, { stubs: [{ responses: [{ is: { body: 'replaced' } }] }] });
      assert.equal(put.status, 200);
      assert.equal((await imp.get('/')).text(), 'replaced');
      const missing = await rift.request('GET', '/imposters/1');
      assert.equal(missing.status, 404);
      await imp.delete();
    });

    test('bodies with NUL bytes survive both ways', async () => {
      const port = await freePort();
      const bytes = Buffer.from([0x61, 0x00, 0x62, 0x00, 0xff]);
      const imp = await rift.create(imposter().port(port).record().stub(onPost('/bin').willReturn(response(200).binary(bytes))));
      const r = await imp.post('/bin', Buffer.from('x\u0000y'));
      assert.deepEqual(r.body, bytes);
      const [seen] = await imp.requests();
      assert.equal(seen.body, 'x\u0000y');
      await imp.delete();
    });

    test('a bad imposter is a RiftApiError with Mountebank\'s errors', async () => {
      await assert.rejects(rift.create({ protocol: 'nope', port: await freePort() }), (e) => {
        assert.ok(e instanceof RiftApiError);
        assert.equal(e.statusCode, 400);
        assert.ok(e.errors.length > 0);
        return true;
      });
    });

    test('many calls at once', async () => {
      const port = await freePort();
      const imp = await rift.create(imposter().port(port).record().stub(onGet('/n').willReturn(ok('n'))));
      const answers = await Promise.all(Array.from({ length: 50 }, () => imp.get('/n')));
      assert.ok(answers.every((a) => a.status === 200 && a.text() === 'n'));
      await imp.verify(onGet('/n'), times(50));
      await imp.delete();
    });
  });
}

test('embedded: close is idempotent, waits for calls, and later calls fail', async () => {
  const rift = await Rift.embedded();
  const port = await freePort();
  await rift.create(imposter().port(port).stub(onGet('/slow').willReturn(ok('late').wait(200))));
  const pending = rift.call(port, 'GET', '/slow');
  await Promise.all([rift.close(), rift.close()]);
  assert.equal((await pending).text(), 'late');
  await assert.rejects(rift.request('GET', '/'), (e) => e instanceof RiftError && e.code === 'RIFT_ERR_STATE');
  // The port is free again: the engine's listeners are gone.
  const again = await Rift.embedded();
  await again.create(imposter().port(port));
  await again.close();
});

test('spawn: close stops the child', async () => {
  const rift = await Rift.spawn();
  const url = rift.adminUrl;
  assert.equal((await fetch(url)).status, 200);
  await rift.close();
  await rift.close();
  await assert.rejects(fetch(url));
});

test('connect: an existing server', async () => {
  const port = await freePort();
  const child = spawn(locateBinary(), ['start', '--port', String(port), '--host', '127.0.0.1', '--nologfile', '--pidfile', `/tmp/rift-node-client-${process.pid}.pid`], { stdio: 'ignore' });
  const exited = new Promise((r) => child.once('exit', r));
  try {
    let rift;
    for (let i = 0; ; i++) {
      try { rift = await Rift.connect(`http://127.0.0.1:${port}`); break; } catch (e) {
        if (child.exitCode !== null || i > 400) throw e;
        await new Promise((r) => setTimeout(r, 25));
      }
    }
    assert.equal(rift.kind, 'connect');
    const ip = await freePort();
    const imp = await rift.create(imposter().port(ip).record().stub(onGet('/c').willReturn(ok('connected'))));
    assert.equal((await imp.get('/c')).text(), 'connected');
    await imp.verify(onGet('/c'), times(1));
    await rift.close();
    await rift.close();
  } finally {
    child.kill('SIGTERM');
    await exited;
  }
  await assert.rejects(Rift.connect(`http://127.0.0.1:${port}`));
});
