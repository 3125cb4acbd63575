import { parseFrames, frameToArrow } from './src/tables/index.js';
import { readFileSync } from 'node:fs';
const raw = JSON.parse(readFileSync('/work/shared/fixtures/espn/mens/summary__401585607_final.json', 'utf8'));
const frames = parseFrames('mens_summary', raw) as Record<string, any>;
const t = (fn: () => unknown, n = 400) => { for (let i = 0; i < 100; i++) fn(); const s = performance.now(); for (let i = 0; i < n; i++) fn(); return ((performance.now() - s) / n); };
let P = 0, A = 0;
for (const [name, fr] of Object.entries(frames)) {
  const p = t(() => parseFrames('mens_summary', raw, name)), a = t(() => frameToArrow(fr)); P += p; A += a;
  console.log(name.padEnd(16), fr.rows.length, fr.columns.length, 'parse', p.toFixed(4), 'arrow', a.toFixed(4));
}
console.log('total parse', P.toFixed(3), 'arrow', A.toFixed(3));
