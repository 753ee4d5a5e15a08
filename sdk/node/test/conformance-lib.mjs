// The conformance replayer (tests/conformance/README.md), shared by the three lanes.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
export const sdkRoot = path.dirname(here);
export const conformanceDir = path.resolve(process.env.RIFT_CONFORMANCE_DIR ?? path.join(sdkRoot, '../../tests/conformance'));
export const resultsDir = path.resolve(process.env.RIFT_RESULTS ?? path.join(sdkRoot, '../../build/conformance-results'));

const CLIENT = 'node';
const CLIENT_OFFSET = 12000;
const LANE_TAGS = new Set(['injection', 'proxy', 'https', 'shell']); // never redis, rhai
const CORPORA = ['rift', 'reference-rift'];

export function portOffset() {
  const env = process.env.RIFT_CONFORMANCE_PORT_OFFSET;
  return env !== undefined && env !== '' ? Number(env) : CLIENT_OFFSET;
}

function loadCorpora() {
  return CORPORA.map((corpus) => {
    const dir = path.join(conformanceDir, corpus);
    const manifest = JSON.parse(fs.readFileSync(path.join(dir, 'manifest.json'), 'utf8'));
    return { corpus, dir, fixtures: manifest.fixtures };
  });
}

/** The fixture's text with its ports shifted and data paths made absolute (README steps 2, 3). */
export function rewriteFixture(text, manifestPorts, offset, corpusDataDir) {
  // One pass, so a small offset cannot shift a port twice (4501 -> 4502 -> 4503).
  const ports = new Set(manifestPorts);
  const out = text.replace(/(localhost|127\.0\.0\.1):(\d+)(?!\d)/g,
    (m, host, p) => (ports.has(Number(p)) ? `${host}:${Number(p) + offset}` : m));
  return out.split('"data/').join(`"${corpusDataDir}/data/`);
}

function compact(body) {
  try { return JSON.stringify(JSON.parse(body)); } catch { return undefined; }
}

/** Checks one expectation; returns '' when it holds, else the reason. */
export function check(expect, status, body) {
  const problems = [];
  if (expect.status !== undefined && status !== expect.status) problems.push(`status: expected ${expect.status}, got ${status}`);
  if (expect.bodyContains !== undefined) {
    const c = compact(body);
    if (!body.includes(expect.bodyContains) && !(c !== undefined && c.includes(expect.bodyContains))) {
      problems.push(`bodyContains: expected ${JSON.stringify(expect.bodyContains)} in ${JSON.stringify(body.slice(0, 300))}`);
    }
  }
  if (expect.bodyEquals !== undefined && body !== expect.bodyEquals) {
    problems.push(`bodyEquals: expected ${JSON.stringify(expect.bodyEquals)}, got ${JSON.stringify(body.slice(0, 300))}`);
  }
  return problems.join('; ');
}

/**
 * Replays every fixture on `rift` (a Rift client of one transport) and writes
 * $RIFT_RESULTS/node-<transport>-<tier>.jsonl. Returns {pass, fail, skip, failures}.
 */
export async function replayLane(rift, { transport, tier = 'interpreter' }) {
  const offset = portOffset();
  const corpora = loadCorpora();
  const skips = JSON.parse(fs.readFileSync(path.join(conformanceDir, 'skips.json'), 'utf8')).skips;
  const manifestPorts = [...new Set(corpora.flatMap((c) => c.fixtures.map((f) => f.port)))].sort((a, b) => b - a);
  const lines = [];
  const record = (corpus, fixture, stub, step, outcome, reason = '') =>
    lines.push({ client: CLIENT, transport, tier, corpus, fixture, stub, step, outcome, reason });
  const skipOf = (corpus, fixture, stub) => skips.find((s) => s.corpus === corpus && s.fixture === fixture && (s.stub === null || s.stub === stub));

  await rift.reset();
  // Step 4: create every fixture first.
  const plan = [];
  for (const { corpus, dir, fixtures } of corpora) {
    for (const f of fixtures) {
      const name = path.basename(f.file, '.json');
      const missing = (f.requires ?? []).filter((t) => !LANE_TAGS.has(t));
      if (missing.length) { record(corpus, name, null, null, 'skip', `requires ${missing.join(', ')}, which this lane lacks`); continue; }
      const file = path.join(dir, f.file);
      const text = rewriteFixture(fs.readFileSync(file, 'utf8'), manifestPorts, offset, path.join(dir, 'corpus'));
      const json = JSON.parse(text);
      const port = f.port + offset;
      json.port = port;
      // A whole fixture in skips.json is not created (its Rhai would be refused): one line.
      const whole = skips.find((s) => s.corpus === corpus && s.fixture === name && s.stub === null);
      if (whole) { record(corpus, name, null, null, 'skip', whole.why); continue; }
      const r = await rift.request('POST', '/imposters', JSON.stringify(json), { 'Content-Type': 'application/json' });
      const refusal = r.status === 201 ? '' : `POST /imposters refused: ${r.status} ${r.text().slice(0, 500)}`;
      plan.push({ corpus, name, port, json, refusal });
    }
  }
  // Step 5: replay.
  for (const { corpus, name, port, json, refusal } of plan) {
    (json.stubs ?? []).forEach((stub, stubIndex) => { stub.__index = stubIndex; });
    for (const stub of json.stubs ?? []) {
      const sequence = stub._verify?.sequence ?? [];
      for (let step = 0; step < sequence.length; step++) {
        const skip = skipOf(corpus, name, stub.__index);
        if (skip) { record(corpus, name, stub.__index, step, 'skip', skip.why); continue; }
        if (refusal) { record(corpus, name, stub.__index, step, 'fail', refusal); continue; }
        const { request = {}, expect = {} } = sequence[step];
        const body = request.body === undefined ? undefined : typeof request.body === 'string' ? request.body : JSON.stringify(request.body);
        try {
          const r = await rift.call(port, request.method ?? 'GET', request.path ?? '/', { headers: request.headers, body });
          const reason = check(expect, r.status, r.text());
          record(corpus, name, stub.__index, step, reason ? 'fail' : 'pass', reason);
        } catch (error) {
          record(corpus, name, stub.__index, step, 'fail', `no answer: ${error.message}`);
        }
      }
    }
  }
  // Step 6.
  await rift.reset();

  fs.mkdirSync(resultsDir, { recursive: true });
  const out = path.join(resultsDir, `${CLIENT}-${transport}-${tier}.jsonl`);
  fs.writeFileSync(out, lines.map((l) => JSON.stringify(l)).join('\n') + '\n');
  const count = (o) => lines.filter((l) => l.outcome === o).length;
  return {
    file: out, pass: count('pass'), fail: count('fail'), skip: count('skip'),
    failures: lines.filter((l) => l.outcome === 'fail').map((l) => `${l.corpus}/${l.fixture} stub ${l.stub} step ${l.step}: ${l.reason}`),
  };
}
