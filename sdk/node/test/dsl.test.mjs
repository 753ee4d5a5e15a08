// The DSL's JSON (no engine needed) and verify()'s matching.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  imposter, stub, onGet, onPost, on, okJson, ok, response, proxy, inject, fault, equals, deepEquals, contains,
  startsWith, endsWith, matches, exists, not, or, and, injectPredicate, times, never, atLeast, atMost, between,
  verifyRequests, VerificationError,
} from 'rift-sdk';

test('imposter JSON from the builder', () => {
  const json = imposter('users').port(4545).record()
    .stub(onGet('/users/1').willReturn(okJson({ id: 1 })))
    .defaultResponse(response(404).body('none'))
    .toJSON();
  assert.deepEqual(json, {
    protocol: 'http', name: 'users', port: 4545, recordRequests: true, defaultResponse: { statusCode: 404, body: 'none' },
    stubs: [{
      predicates: [{ equals: { method: 'GET', path: '/users/1' } }],
      responses: [{ is: { statusCode: 200, headers: { 'Content-Type': 'application/json' }, body: { id: 1 } } }],
    }],
  });
});

test('request matchers: query, headers, body, regexes', () => {
  const m = onPost(/^\/orders\/\d+$/).withQuery('tier', 'gold').withHeader('X-Id', 'a').withBody({ status: 'new' });
  assert.deepEqual(m.predicates(), [
    { equals: { method: 'POST', query: { tier: 'gold' }, headers: { 'X-Id': 'a' }, body: { status: 'new' } } },
    { matches: { path: '^\\/orders\\/\\d+$' } },
  ]);
});

test('every predicate operator, with options', () => {
  const s = stub(
    equals({ path: '/a' }, { caseSensitive: true }), deepEquals({ query: {} }), contains({ body: 'x' }),
    startsWith({ path: '/a' }), endsWith({ path: 'z' }), matches({ path: '^/a' }), exists({ headers: { 'X-A': true } }),
    not(equals({ method: 'DELETE' })), or(equals({ path: '/a' }), equals({ path: '/b' })), and(equals({ method: 'GET' })),
    equals({ body: { a: 1 } }, { jsonpath: { selector: '$.a' } }), injectPredicate('(config) => true'),
  ).willReturn(ok('x'));
  const { predicates } = s.toJSON();
  assert.deepEqual(predicates.map((p) => Object.keys(p)[0]),
    ['equals', 'deepEquals', 'contains', 'startsWith', 'endsWith', 'matches', 'exists', 'not', 'or', 'and', 'equals', 'inject']);
  assert.equal(predicates[0].caseSensitive, true);
  assert.deepEqual(predicates[10].jsonpath, { selector: '$.a' });
});

test('responses and behaviors', () => {
  const { responses } = stub().willReturn(
    ok('a').wait(10).repeat(2).copy('path', '${id}', { method: 'regex', selector: '\\d+' }).decorate('(c) => {}'),
    proxy('http://localhost:1').mode('proxyAlways').predicateGenerators({ matches: { path: true } }),
    inject('(config) => ({ statusCode: 201 })'),
    fault('CONNECTION_RESET_BY_PEER'),
  ).toJSON();
  assert.deepEqual(responses[0], {
    is: { statusCode: 200, body: 'a' },
    _behaviors: { wait: 10, repeat: 2, copy: [{ from: 'path', into: '${id}', using: { method: 'regex', selector: '\\d+' } }], decorate: '(c) => {}' },
  });
  assert.deepEqual(responses[1], { proxy: { to: 'http://localhost:1', mode: 'proxyAlways', predicateGenerators: [{ matches: { path: true } }] } });
  assert.deepEqual(responses[2], { inject: '(config) => ({ statusCode: 201 })' });
  assert.deepEqual(responses[3], { fault: 'CONNECTION_RESET_BY_PEER' });
});

const journal = [
  { method: 'GET', path: '/users/1', query: {}, headers: { Accept: 'application/json' }, body: '' },
  { method: 'GET', path: '/users/1', query: { verbose: 'true' }, headers: {}, body: '' },
  { method: 'POST', path: '/users', query: {}, headers: { 'content-type': 'application/json' }, body: '{"name":"Ada","age":36}' },
];

test('verify counts what matches, the way the DSL built it', () => {
  assert.equal(verifyRequests(journal, onGet('/users/1'), times(2)), 2);
  assert.equal(verifyRequests(journal, onGet('/users/1').withQuery('verbose', 'TRUE'), times(1)), 1);
  assert.equal(verifyRequests(journal, onGet('/users/1').withHeader('accept', 'application/json'), times(1)), 1);
  assert.equal(verifyRequests(journal, onPost('/users').withBody({ name: 'Ada' }), times(1)), 1);
  assert.equal(verifyRequests(journal, onPost('/users').withBody(/"age":36/), times(1)), 1);
  assert.equal(verifyRequests(journal, on('DELETE', '/users/1'), never()), 0);
  assert.equal(verifyRequests(journal, onGet(/^\/users\/\d+$/), atLeast(2)), 2);
  verifyRequests(journal, onGet('/users/1'), atMost(2));
  verifyRequests(journal, onGet('/users/1'), between(1, 3));
});

test('verify fails with what was recorded', () => {
  assert.throws(() => verifyRequests(journal, onGet('/users/2'), times(1)), (e) => {
    assert.ok(e instanceof VerificationError);
    assert.equal(e.actual, 0);
    assert.match(e.message, /expected exactly 1 request\(s\) matching GET \/users\/2, got 0/);
    assert.match(e.message, /GET \/users\/1/);
    return true;
  });
  assert.throws(() => verifyRequests(journal, onPost('/users').withBody({ name: 'Bob' }), times(1)), VerificationError);
  assert.throws(() => verifyRequests(journal, onGet('/users/1'), times(1)), VerificationError);
});
