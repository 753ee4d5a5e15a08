// The replayer's own rules (so a lane can fail): port shifting, data paths, expectations.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { rewriteFixture, check } from './conformance-lib.mjs';

test('ports shift for manifest ports only, data paths become absolute', () => {
  const text = '{"to": "http://localhost:4501/x", "b": "127.0.0.1:4502", "c": "localhost:45010", "d": "localhost:9999", "path": "data/users.csv"}';
  const out = JSON.parse(rewriteFixture(text, [4501, 4502], 12000, '/abs/corpus'));
  assert.equal(out.to, 'http://localhost:16501/x');
  assert.equal(out.b, '127.0.0.1:16502');
  assert.equal(out.c, 'localhost:45010');
  assert.equal(out.d, 'localhost:9999');
  assert.equal(out.path, '/abs/corpus/data/users.csv');
  const small = JSON.parse(rewriteFixture(text, [4501, 4502], 1, '/abs/corpus'));
  assert.equal(small.to, 'http://localhost:4502/x'); // shifted once, not twice
  assert.equal(small.b, '127.0.0.1:4503');
});

test('expectations: status, bodyContains (raw or compact JSON), bodyEquals', () => {
  assert.equal(check({ status: 200 }, 200, ''), '');
  assert.match(check({ status: 200 }, 404, ''), /status: expected 200, got 404/);
  assert.equal(check({ bodyContains: '"name":"Ada"' }, 200, '{\n    "name": "Ada"\n}'), '');
  assert.match(check({ bodyContains: 'Bob' }, 200, '{"name": "Ada"}'), /bodyContains/);
  assert.equal(check({ bodyEquals: 'x' }, 200, 'x'), '');
  assert.match(check({ bodyEquals: 'x' }, 200, 'x '), /bodyEquals/);
});
