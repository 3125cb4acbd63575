import { writeFileSync } from 'node:fs';
import { EVENTS_DTS, renderEventsDts } from './events-dts.js';

// Regenerates the client library's event declarations from the model.
writeFileSync(EVENTS_DTS, await renderEventsDts());
console.log(`wrote ${EVENTS_DTS}`);
