// Node's own TLS (its bundled OpenSSL) and librift's OpenSSL in one process.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import https from 'node:https';
import { Rift, imposter, onGet, ok, freePort } from 'rift-sdk';

function get(url) {
  return new Promise((resolve, reject) => {
    https.get(url, { rejectUnauthorized: false, agent: false }, (res) => {
      let body = '';
      res.on('data', (c) => { body += c; });
      res.on('end', () => resolve({ status: res.statusCode, body, protocol: res.socket.getProtocol?.() }));
    }).on('error', reject);
  });
}

test('an https imposter made in process answers Node\'s https client', async () => {
  const rift = await Rift.embedded();
  try {
    const port = await freePort();
    const secure = await rift.create(imposter('tls').port(port).https().stub(onGet('/hello').willReturn(ok('over tls'))));
    assert.equal(secure.protocol, 'https');
    const r = await get(`https://127.0.0.1:${port}/hello`);
    assert.equal(r.status, 200);
    assert.equal(r.body, 'over tls');
    assert.match(r.protocol ?? 'TLS', /TLS/);
    // The same imposter in process, and plain HTTP to it fails (it really is TLS).
    assert.equal((await secure.call('GET', '/hello')).text(), 'over tls');
    await assert.rejects(fetch(`http://127.0.0.1:${port}/hello`));
  } finally {
    await rift.close();
  }
});
