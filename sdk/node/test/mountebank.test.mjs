// create() shaped like the mountebank package's, driven the way mountebank client code does: HTTP.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import mb from 'rift-sdk/mountebank';
import { freePort } from 'rift-sdk';

test('mb.create({port}) serves the admin API until close(callback)', async () => {
  const port = await freePort();
  const server = await mb.create({ port, pidfile: 'ignored.pid', logfile: 'ignored.log', ipWhitelist: ['*'] });
  assert.equal(server.port, port);
  const base = `http://127.0.0.1:${port}`;
  const ip = await freePort();
  const created = await fetch(`${base}/imposters`, {
    method: 'POST', headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ port: ip, protocol: 'http', stubs: [{ responses: [{ is: { body: 'mb' } }] }] }),
  });
  assert.equal(created.status, 201);
  assert.equal(await (await fetch(`http://127.0.0.1:${ip}/`)).text(), 'mb');
  await new Promise((resolve) => server.close(resolve));
  await assert.rejects(fetch(`${base}/imposters`));
  await assert.rejects(fetch(`http://127.0.0.1:${ip}/`));
});

test('a port in use is refused', async () => {
  const port = await freePort();
  const first = await mb.create({ port });
  try {
    await assert.rejects(mb.create({ port }), (e) => e.code === 'RIFT_ERR_START');
  } finally {
    await first.close();
  }
});
