// Node's http.Agent with keep-alive against one imposter that the admin API deletes and
// recreates between requests: every request must succeed (tests/e2e/test_pooled_clients.py).
// Usage: node agent.js ADMIN_PORT IMPOSTER_PORT ROUNDS
'use strict';
const http = require('http');

const [adminPort, port, rounds] = process.argv.slice(2).map(Number);
const pooled = new http.Agent({ keepAlive: true, maxSockets: 4 });
const admin = new http.Agent({ keepAlive: false });

function call(agent, targetPort, method, path, body) {
  return new Promise((resolve, reject) => {
    const request = http.request({ host: '127.0.0.1', port: targetPort, method, path, agent,
      headers: body ? { 'content-type': 'application/json' } : {} }, (response) => {
      let text = '';
      response.setEncoding('utf8');
      response.on('data', (chunk) => { text += chunk; });
      response.on('end', () => resolve({ status: response.statusCode, text,
        reused: request.reusedSocket }));
    });
    request.on('error', reject);
    request.end(body ? JSON.stringify(body) : undefined);
  });
}

function imposter(round) {
  return { port, protocol: 'http', stubs: [{ responses: [{ is: { body: `round ${round}` } }] }] };
}

(async () => {
  let reused = 0;
  for (let round = 0; round < rounds; round += 1) {
    for (let i = 0; i < 3; i += 1) {
      const answer = await call(pooled, port, 'GET', '/');
      if (answer.status !== 200 || answer.text !== `round ${round}`) {
        throw new Error(`round ${round}: ${answer.status} ${answer.text}`);
      }
      if (answer.reused) reused += 1;
    }
    await call(admin, adminPort, 'DELETE', `/imposters/${port}`);
    const created = await call(admin, adminPort, 'POST', '/imposters', imposter(round + 1));
    if (created.status !== 201) throw new Error(`create: ${created.status} ${created.text}`);
  }
  if (reused === 0) throw new Error('the agent never reused a connection');
  console.log(`ok ${rounds} rounds, ${reused} reused`);
  pooled.destroy();
})().catch((error) => {
  console.error(`FAILED: ${error.stack || error}`);
  process.exit(1);
});
