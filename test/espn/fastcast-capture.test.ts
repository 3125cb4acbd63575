import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  CAPTURE_FORMAT,
  CAPTURE_VERSION,
  createCaptureWriter,
  parseCapture,
  readCaptureFile,
  type CaptureHeader,
} from '../../src/espn/fastcast-capture.js';

/** The capture format: JSON lines, a versioned header, entries written whole as they come. */

const dir = mkdtempSync(join(tmpdir(), 'courtside-capture-format-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const HEADER: CaptureHeader = {
  format: CAPTURE_FORMAT,
  version: CAPTURE_VERSION,
  league: 'womens',
  game: '401700001',
  topic: 'gp-basketball-wnba-401700001',
  startedAt: 1_795_000_000_000,
  discoveryUrl: 'https://fastcast.semfs.engsvc.go.com/public/websockethost',
  upstream: 'https://site.api.espn.com',
  courtside: '0.1.0',
};

const lines = (...values: unknown[]): string => values.map((v) => JSON.stringify(v)).join('\n');

describe('FastCast captures', () => {
  it('are written one whole line per entry, the header first, and read back as written', () => {
    const file = join(dir, 'a.jsonl');
    const writer = createCaptureWriter(file, HEADER);
    const frame =
      '{"op":"P","tc":"gp-basketball-wnba-401700001","mid":7,"pl":"{\\"ts\\":1,\\"~c\\":0,\\"pl\\":\\"[]\\"}"}';
    writer.write({ t: 3, kind: 'received', frame });
    writer.write({ t: 4, kind: 'checkpoint', url: 'https://x/1.json', body: { header: {} } });
    // Readable while still being written: every line is already whole.
    expect(parseCapture(readFileSync(file, 'utf8'), file).entries).toHaveLength(2);
    writer.write({ t: 9, kind: 'end', reason: 'interrupted' });
    writer.close();
    writer.write({ t: 10, kind: 'end', reason: 'after close: dropped' });
    const text = readFileSync(file, 'utf8');
    expect(text.split('\n').map((l) => (l === '' ? '' : Object.keys(JSON.parse(l))[0]))).toEqual([
      'format',
      't',
      't',
      't',
      '',
    ]);
    expect(readCaptureFile(file, '--push-replay')).toEqual({
      header: HEADER,
      entries: [
        { t: 3, kind: 'received', frame },
        { t: 4, kind: 'checkpoint', url: 'https://x/1.json', body: { header: {} } },
        { t: 9, kind: 'end', reason: 'interrupted' },
      ],
      truncated: false,
    });
  });

  it('tolerate a last line cut short, and skip kinds of later versions', () => {
    const text =
      lines(HEADER, { t: 1, kind: 'sent', frame: '{"op":"C"}' }, { t: 2, kind: 'note', text: 'new' }) +
      '\n{"t":3,"kind":"rece';
    const capture = parseCapture(text, 'cut.jsonl');
    expect(capture.truncated).toBe(true);
    expect(capture.entries).toEqual([{ t: 1, kind: 'sent', frame: '{"op":"C"}' }]);
  });

  it('name the file, the line and the expected form of what cannot be read', () => {
    const where = '--push-replay: bad.jsonl';
    expect(() => parseCapture(lines(HEADER, 'x') + '\n{"t":', where)).toThrow(
      /--push-replay: bad\.jsonl: line 2 is not an entry; expected an object with "t" and "kind"/,
    );
    expect(() =>
      parseCapture(lines(HEADER) + '\nnot json\n' + lines({ t: 1, kind: 'end', reason: 'x' }), where),
    ).toThrow(/line 2 is not JSON; expected one entry per line/);
    expect(() => parseCapture('{"game":"1"}\n', where)).toThrow(
      /bad\.jsonl: not a FastCast capture; expected a first line \{"format":"courtside-fastcast-capture",\.\.\.\}/,
    );
    expect(() => parseCapture('', where)).toThrow(/not a FastCast capture/);
    expect(() => parseCapture(lines({ ...HEADER, version: 2 }), where)).toThrow(
      /capture version 2 is not one this courtside reads; expected version 1/,
    );
    expect(() => parseCapture(lines({ ...HEADER, league: 'nba' }), where)).toThrow(
      /"league" is not mens or womens/,
    );
    expect(() => parseCapture(lines({ ...HEADER, game: 'x1' }), where)).toThrow(/"game" is not an event id/);
    const missing = join(dir, 'missing.jsonl');
    expect(() => readCaptureFile(missing, '--push-replay')).toThrow(
      /--push-replay: cannot read .*missing\.jsonl/,
    );
    writeFileSync(join(dir, 'b.jsonl'), 'x');
    expect(() => readCaptureFile(join(dir, 'b.jsonl'), '--push-replay')).toThrow(
      /--push-replay: .*b\.jsonl: not a FastCast capture/,
    );
  });
});
