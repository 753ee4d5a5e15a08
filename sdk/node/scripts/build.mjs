// Compiles src/ twice: ESM (dist/esm) and CommonJS (dist/cjs), each with .d.ts, and marks each
// folder's module type. self.js differs: CommonJS has __filename, ESM has import.meta.url.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const tsc = path.join(root, 'node_modules', 'typescript', 'bin', 'tsc');
fs.rmSync(path.join(root, 'dist'), { recursive: true, force: true });
execFileSync(process.execPath, [tsc, '-p', 'tsconfig.json'], { cwd: root, stdio: 'inherit' });
execFileSync(process.execPath, [tsc, '-p', 'tsconfig.cjs.json'], { cwd: root, stdio: 'inherit' });
fs.writeFileSync(path.join(root, 'dist/esm/package.json'), '{"type": "module"}\n');
fs.writeFileSync(path.join(root, 'dist/cjs/package.json'), '{"type": "commonjs"}\n');
fs.writeFileSync(path.join(root, 'dist/esm/self.js'),
  "import { fileURLToPath } from 'node:url';\nexport const selfFile = fileURLToPath(import.meta.url);\n");
console.log('built dist/esm and dist/cjs');
