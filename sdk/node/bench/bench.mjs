// One stubbed call (GET answering a small JSON body): in process through the embedded gateway vs
// loopback HTTP/1.1 (keep-alive) to a spawned `rift`. Prints µs per call. Not a test.
//   node bench/bench.mjs [iterations=5000] [warmup=500]
import { performance } from 'node:perf_hooks';
import { Rift, imposter, onGet, okJson, freePort } from 'rift-sdk';

const N = Number(process.argv[2] ?? 5000);
const WARMUP = Number(process.argv[3] ?? 500);

async function measure(label, rift) {
  try {
    const port = await freePort();
    const imp = await rift.create(imposter('bench').port(port).stub(onGet('/users/1').willReturn(okJson({ id: 1, name: 'Ada' }))));
    for (let i = 0; i < WARMUP; i++) await imp.get('/users/1');
    const start = performance.now();
    for (let i = 0; i < N; i++) {
      const r = await imp.get('/users/1');
      if (r.status !== 200) throw new Error(`status ${r.status}`);
    }
    const us = ((performance.now() - start) * 1000) / N;
    console.log(`${label.padEnd(34)} ${us.toFixed(1).padStart(8)} µs/call  (${N} sequential calls after ${WARMUP} warm-up)`);
    return us;
  } finally {
    await rift.close();
  }
}

const embedded = await measure('embedded gateway (rift_request)', await Rift.embedded());
const spawned = await measure('spawned rift, loopback HTTP/1.1', await Rift.spawn());
console.log(`ratio loopback/embedded: ${(spawned / embedded).toFixed(2)}x`);
