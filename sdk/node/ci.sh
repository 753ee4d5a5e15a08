#!/usr/bin/env bash
# Node SDK CI: pinned install (empty npm cache), build (ESM + CJS + .d.ts), every test including
# the three conformance lanes and the Vitest fixture, npm pack of both packages, and an install
# of the tarballs into a scratch project that finds librift through the per-platform package.
# Environment: RIFT_LIB, RIFT_BIN, RIFT_RESULTS, RIFT_ABI_JSON (defaults: this checkout's).
set -euo pipefail
started=$(date +%s%N)
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../.." && pwd)
cd "$here"

source "$here/../ci-env.sh"
echo "ci.sh: node $(node --version), npm $(npm --version); RIFT_LIB=$RIFT_LIB RIFT_BIN=$RIFT_BIN RIFT_RESULTS=$RIFT_RESULTS"

stage() { echo "== [$(( ($(date +%s%N) - started) / 1000000000 )) s] $*"; }

scratch=$(mktemp -d "${TMPDIR:-/tmp}/rift-node-ci.XXXXXX")
trap 'rm -rf "$scratch"' EXIT
export npm_config_cache="$scratch/npm-cache" # empty cache, as on a fresh machine
export npm_config_audit=false npm_config_fund=false npm_config_update_notifier=false

stage "install (npm ci, from package-lock.json)"
npm ci --no-audit --no-fund

stage "native package: librift into native/linux-x64"
# Debug info stripped: the package carries the code only (223 MB -> ~14 MB today).
if command -v strip >/dev/null; then
  strip --strip-debug -o native/linux-x64/librift.so.1 "$RIFT_LIB"
else
  cp -L "$RIFT_LIB" native/linux-x64/librift.so.1
fi

stage "build"
npm run --silent build

stage "tests (node --test on the compiled output)"
node --test --test-concurrency=1 test/*.test.mjs test/*.test.cjs

stage "tests (vitest fixture)"
npx --no-install vitest run

stage "conformance lanes"
sdk_check_lanes node

stage "pack"
rm -rf pack && mkdir pack
npm pack --pack-destination pack >/dev/null
npm pack --workspace native/linux-x64 --pack-destination pack >/dev/null
ls -l pack

stage "install the tarballs into a scratch project (no RIFT_LIB: the per-platform package)"
consumer="$scratch/consumer"
mkdir -p "$consumer"
(cd "$consumer" && echo '{"name":"consumer","version":"1.0.0","private":true}' > package.json &&
  npm install --no-audit --no-fund "$here"/pack/rift-sdk-linux-x64-0.1.0.tgz "$here"/pack/rift-sdk-0.1.0.tgz >/dev/null)
cat > "$consumer/check.mjs" <<'JS'
import { createRequire } from 'node:module';
import { Rift, imposter, onGet, okJson, times, locateLibrary, freePort } from 'rift-sdk';
const lib = locateLibrary();
if (!lib.includes('node_modules/rift-sdk-linux-x64/')) throw new Error(`librift from ${lib}`);
const rift = await Rift.embedded();
const port = await freePort();
const users = await rift.create(imposter('users').port(port).record().stub(onGet('/users/1').willReturn(okJson({ id: 1 }))));
const r = await users.get('/users/1');
if (r.json().id !== 1) throw new Error(r.text());
await users.verify(onGet('/users/1'), times(1));
await rift.close();
const cjs = createRequire(import.meta.url)('rift-sdk');
if (typeof cjs.Rift.embedded !== 'function') throw new Error('CommonJS export');
console.log(`packaged SDK works from ${lib}`);
JS
(cd "$consumer" && env -u RIFT_LIB -u RIFT_BIN node check.mjs)
cat > "$consumer/types.ts" <<'TS'
import { Rift, imposter, onGet, okJson, times, type Imposter } from 'rift-sdk';
import { useRift } from 'rift-sdk/node-test';
import { create } from 'rift-sdk/mountebank';
export async function typed(): Promise<Imposter> {
  const rift: Rift = await Rift.embedded({ allowInjection: true });
  const i = await rift.create(imposter('u').port(1).record().stub(onGet('/u').willReturn(okJson({ a: 1 }))));
  await i.verify(onGet('/u'), times(1));
  void useRift; void create;
  return i;
}
TS
node node_modules/typescript/bin/tsc --noEmit --strict --module nodenext --moduleResolution nodenext --skipLibCheck \
  --types node --typeRoots "$here/node_modules/@types" "$consumer/types.ts"
echo "types from the packed .d.ts check"

ended=$(date +%s%N)
elapsed_ms=$(( (ended - started) / 1000000 ))
printf 'ci.sh: all green, wall time %d.%01d s\n' $((elapsed_ms / 1000)) $((elapsed_ms % 1000 / 100))
