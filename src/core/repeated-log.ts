import type { Logger } from './log.js';

export type RepeatLevel = 'debug' | 'info' | 'warn' | 'error';

export interface RepeatedLogOptions {
  /** How long repeats of one error are folded into one line; default 30 s. */
  windowMs?: number;
}

interface Window {
  level: RepeatLevel;
  message: string;
  fields: Record<string, unknown>;
  repeats: number;
  openedAt: number;
  timer: NodeJS.Timeout;
}

const DEFAULT_WINDOW_MS = 30_000;

/**
 * A log for errors that come back in a loop (a Redis that refuses every command, a worker whose
 * every job fails the same way): the first occurrence of an error is logged at once; its repeats
 * within the window are counted and told in one line when the window ends,
 * `… (repeated 312 times in 30 s)`, and nothing when there were none. A failure that lasts an hour
 * costs two lines a minute instead of thousands a second, and a new kind of error is never hidden.
 *
 * Errors are told apart by `key` with its digits blanked, so the same error about job 17 and job 18
 * (or port 6379 and 6380) folds together.
 */
export class RepeatedErrorLog {
  private readonly windows = new Map<string, Window>();
  private readonly windowMs: number;

  constructor(
    private readonly logger: Logger,
    options: RepeatedLogOptions = {},
  ) {
    this.windowMs = options.windowMs ?? DEFAULT_WINDOW_MS;
  }

  log(level: RepeatLevel, key: string, fields: Record<string, unknown>, message: string): void {
    const id = `${level}|${key.replace(/[0-9]+/g, '#')}`;
    const open = this.windows.get(id);
    if (open) {
      open.repeats += 1;
      open.fields = fields;
      return;
    }
    this.logger[level](fields, message);
    this.openWindow(id, level, message, fields);
  }

  /** Tells the repeats counted so far (at shutdown, so none goes untold) and forgets every window. */
  flush(): void {
    for (const [id, window] of this.windows) {
      clearTimeout(window.timer);
      this.tell(window);
      this.windows.delete(id);
    }
  }

  private openWindow(id: string, level: RepeatLevel, message: string, fields: Record<string, unknown>): void {
    const window: Window = {
      level,
      message,
      fields,
      repeats: 0,
      openedAt: Date.now(),
      timer: setTimeout(() => {
        this.windows.delete(id);
        if (window.repeats === 0) return;
        this.tell(window);
        // Still failing: the summary stands for this window's first line, so a new one opens.
        this.openWindow(id, level, message, window.fields);
      }, this.windowMs),
    };
    window.timer.unref();
    this.windows.set(id, window);
  }

  private tell(window: Window): void {
    if (window.repeats === 0) return;
    // The window's length when it ran out, less when flushed early.
    const seconds = Math.round(Math.min(this.windowMs, Date.now() - window.openedAt) / 100) / 10;
    const times = window.repeats === 1 ? 'once' : `${window.repeats} times`;
    this.logger[window.level](
      { ...window.fields, repeated: window.repeats },
      `${window.message} (repeated ${times} in ${seconds} s)`,
    );
  }
}
