// The SDK's binding table against embed/abi.json, and proof that the comparison can fail.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { BINDINGS, compareBindings, loadNative, RIFT_ABI_VERSION, Rift, RiftError } from 'rift-sdk';

const sdkRoot = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const abiPath = process.env.RIFT_ABI_JSON ?? path.join(sdkRoot, '../../embed/abi.json');
const abi = () => JSON.parse(fs.readFileSync(abiPath, 'utf8'));

test('the binding table equals abi.json', () => {
  assert.deepEqual(compareBindings(abi()), []);
  assert.equal(abi().functions.length, BINDINGS.length);
});

test('an altered abi.json (one argument type) is caught', () => {
  const copy = abi();
  const request = copy.functions.find((f) => f.name === 'rift_request');
  request.args[5][1] = 'uint32_t'; // body_len: size_t -> uint32_t
  const altered = path.join(fs.mkdtempSync(path.join(process.env.TMPDIR ?? '/tmp', 'rift-abi-')), 'abi.json');
  fs.writeFileSync(altered, JSON.stringify(copy));
  const problems = compareBindings(JSON.parse(fs.readFileSync(altered, 'utf8')));
  assert.deepEqual(problems, ['rift_request: argument 5 (body_len) is size_t, abi.json says uint32_t']);
});

test('a missing function, a changed return and an extra argument are caught', () => {
  const copy = abi();
  copy.functions = copy.functions.filter((f) => f.name !== 'rift_free');
  copy.functions.find((f) => f.name === 'rift_abi_version').returns = 'int32_t';
  copy.functions.find((f) => f.name === 'rift_engine_close').args.push(['flags', 'int32_t']);
  const problems = compareBindings(copy);
  assert.equal(problems.length, 3, problems.join('\n'));
});

test('the loaded library is ABI 1 and says what it is', () => {
  const native = loadNative();
  assert.equal(native.abiVersion(), RIFT_ABI_VERSION);
  const info = native.buildInfo();
  assert.equal(info.abi, 1);
  assert.ok(info.features.includes('javascript'));
  assert.equal(native.statusName(-1), 'RIFT_ERR_ARGUMENT');
});

test('a refused option is a RiftError with status, code and message', async () => {
  await assert.rejects(Rift.embedded({ tier: 'jit' }), (e) => {
    assert.ok(e instanceof RiftError);
    assert.equal(e.status, -4);
    assert.equal(e.code, 'RIFT_ERR_UNSUPPORTED');
    assert.match(e.message, /RIFT_ERR_UNSUPPORTED \(-4\): .+/);
    return true;
  });
  assert.throws(() => loadNative().open('{"allowInjektion": true}'), (e) => e instanceof RiftError && e.status === -1 && e.code === 'RIFT_ERR_ARGUMENT');
});

test('a missing RIFT_LIB fails clearly', () => {
  assert.throws(() => loadNative('/nonexistent/librift.so.1'), /librift not found at \/nonexistent/);
});
