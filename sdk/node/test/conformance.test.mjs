// The three conformance lanes, one after another (they share the node port offset).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { Rift, freePort, locateBinary } from 'rift-sdk';
import { replayLane } from './conformance-lib.mjs';

async function lane(rift, transport) {
  try {
    const result = await replayLane(rift, { transport, tier: 'interpreter' });
    console.log(`node-${transport}-interpreter: conformance: ${result.pass} passed, ${result.fail} failed, ${result.skip} skipped (${result.file})`);
    assert.deepEqual(result.failures, [], `${transport}: failed steps`);
    assert.ok(result.pass > 0, `${transport}: nothing passed`);
  } finally {
    await rift.close();
  }
}

test('conformance: embedded', async () => {
  await lane(await Rift.embedded({ allowInjection: true, tier: 'interpreter' }), 'embedded');
});

test('conformance: spawn', async () => {
  await lane(await Rift.spawn({ allowInjection: true, tier: 'interpreter' }), 'spawn');
});

test('conformance: connect', async () => {
  // A plain subprocess started here; the connect transport only gets its URL.
  const port = await freePort();
  const child = spawn(locateBinary(), ['start', '--port', String(port), '--host', '127.0.0.1', '--allowInjection',
    '--nologfile', '--pidfile', `/tmp/rift-node-connect-${process.pid}.pid`, '--engine', 'interp'], { stdio: 'ignore' });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  try {
    const url = `http://127.0.0.1:${port}`;
    let rift;
    for (let i = 0; ; i++) { // readiness: until GET / answers
      try { rift = await Rift.connect(url); break; } catch (error) {
        if (child.exitCode !== null || i > 400) throw error;
        await new Promise((r) => setTimeout(r, 25));
      }
    }
    await lane(rift, 'connect');
  } finally {
    child.kill('SIGTERM');
    await exited;
  }
});
