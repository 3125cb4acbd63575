import { parseOperation } from './src/tables/index.js';
import { readFileSync } from 'node:fs';
const raw = JSON.parse(readFileSync('/work/shared/fixtures/espn/mens/summary__401585607_final.json', 'utf8'));
const end = performance.now() + 8000; let n = 0;
while (performance.now() < end) { parseOperation('mens_summary', raw); n++; }
console.log(n);
