import { closeSync, openSync, readFileSync, writeSync } from 'node:fs';
import { InvalidOptionsError } from '../core/errors.js';
import { isLeague, type League } from '../core/leagues.js';

/**
 * A FastCast capture: one game's topic as a client received it, for bug reports
 * (`courtside record --push` writes one, `courtside upstream --push-replay` replays it). JSON
 * lines, written as they come so that a capture cut short (Ctrl-C, a crash) is still readable:
 * the first line is the header, every later line an entry. Frames are kept as the exact text
 * received, envelope and all. The format is described in docs/upstream.md, "Captures".
 */

export const CAPTURE_FORMAT = 'courtside-fastcast-capture';
export const CAPTURE_VERSION = 1;

export interface CaptureHeader {
  readonly format: typeof CAPTURE_FORMAT;
  readonly version: number;
  readonly league: League;
  readonly game: string;
  readonly topic: string;
  /** Wall-clock ms when the capture started; entries' `t` count from it. */
  readonly startedAt: number;
  readonly discoveryUrl: string;
  /** The site API the summary and the checkpoints were fetched from. */
  readonly upstream: string;
  /** The courtside version that wrote it. */
  readonly courtside: string;
}

interface Timed {
  /** Milliseconds since the capture started. */
  readonly t: number;
}

export type CaptureEntry =
  | (Timed & { readonly kind: 'received'; readonly frame: string })
  | (Timed & { readonly kind: 'sent'; readonly frame: string })
  | (Timed & {
      readonly kind: 'checkpoint';
      readonly url: string;
      readonly body?: unknown;
      readonly error?: string;
    })
  | (Timed & { readonly kind: 'summary'; readonly body: unknown })
  | (Timed & { readonly kind: 'end'; readonly reason: string });

export interface Capture {
  readonly header: CaptureHeader;
  readonly entries: readonly CaptureEntry[];
  /** The last line was cut short (the writer was stopped mid-line) and was left out. */
  readonly truncated: boolean;
}

const ENTRY_KINDS: ReadonlySet<string> = new Set(['received', 'sent', 'checkpoint', 'summary', 'end']);

/** Appends a capture's lines to a file, each written whole as soon as it is known. */
export interface CaptureWriter {
  write(entry: CaptureEntry): void;
  close(): void;
}

export function createCaptureWriter(path: string, header: CaptureHeader): CaptureWriter {
  // Synchronous writes: a line is on disk before the next frame is read, so an interrupted
  // recording loses at most the line being written, which the reader tolerates.
  const fd = openSync(path, 'w');
  let open = true;
  const line = (value: unknown): void => {
    if (open) writeSync(fd, `${JSON.stringify(value)}\n`);
  };
  line(header);
  return {
    write: line,
    close() {
      if (!open) return;
      open = false;
      closeSync(fd);
    },
  };
}

const problem = (where: string, detail: string): InvalidOptionsError =>
  new InvalidOptionsError(`${where}: ${detail}`);

/**
 * Reads a capture's text; `where` names it in errors (the option and the file). A last line that
 * does not parse is taken for one cut short and left out; any other unreadable line is an error
 * naming its number. Entries of kinds this version does not know are skipped.
 */
export function parseCapture(text: string, where: string): Capture {
  const lines = text.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  const first = lines[0];
  let header: unknown;
  try {
    header = first === undefined ? undefined : JSON.parse(first);
  } catch {
    header = undefined;
  }
  checkHeader(header, where);
  const entries: CaptureEntry[] = [];
  let truncated = false;
  for (let i = 1; i < lines.length; i++) {
    let entry: unknown;
    try {
      entry = JSON.parse(lines[i] as string);
    } catch {
      if (i === lines.length - 1) {
        truncated = true;
        break;
      }
      throw problem(where, `line ${i + 1} is not JSON; expected one entry per line`);
    }
    const e = entry as { kind?: unknown; t?: unknown };
    if (typeof e !== 'object' || e === null || typeof e.t !== 'number' || typeof e.kind !== 'string')
      throw problem(where, `line ${i + 1} is not an entry; expected an object with "t" and "kind"`);
    if (ENTRY_KINDS.has(e.kind)) entries.push(entry as CaptureEntry);
  }
  return { header, entries, truncated };
}

function checkHeader(value: unknown, where: string): asserts value is CaptureHeader {
  const h = value as Partial<Record<keyof CaptureHeader, unknown>> | undefined;
  if (typeof h !== 'object' || h === null || h.format !== CAPTURE_FORMAT)
    throw problem(
      where,
      `not a FastCast capture; expected a first line {"format":"${CAPTURE_FORMAT}",...} as written by courtside record --push`,
    );
  if (typeof h.version !== 'number' || h.version > CAPTURE_VERSION)
    throw problem(
      where,
      `capture version ${String(h.version)} is not one this courtside reads; expected version ${CAPTURE_VERSION}`,
    );
  if (typeof h.league !== 'string' || !isLeague(h.league))
    throw problem(where, 'the header\'s "league" is not mens or womens');
  if (typeof h.game !== 'string' || !/^[0-9]+$/.test(h.game))
    throw problem(where, 'the header\'s "game" is not an event id (digits)');
  if (typeof h.topic !== 'string' || typeof h.startedAt !== 'number')
    throw problem(where, 'the header lacks "topic" or "startedAt"');
}

/** Reads a capture file; errors name `option` and the file. */
export function readCaptureFile(path: string, option: string): Capture {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new InvalidOptionsError(`${option}: cannot read ${path}: ${(error as Error).message}`);
  }
  return parseCapture(text, `${option}: ${path}`);
}
