/**
 * A one-line progress bar on stderr, drawn only when stderr is a terminal (piped output and CI
 * logs stay clean). `tick` redraws at most every 50 ms so fast work is not slowed by drawing.
 */
export interface Progress {
  tick(label?: string): void;
  done(): void;
}

const WIDTH = 28;
const REDRAW_MS = 50;

export function createProgress(total: number, stream: NodeJS.WriteStream = process.stderr): Progress {
  if (!stream.isTTY || total <= 0) return { tick() {}, done() {} };
  let count = 0;
  let last = 0;
  const draw = (label: string): void => {
    const filled = Math.round((count / total) * WIDTH);
    const bar = `${'█'.repeat(filled)}${'░'.repeat(WIDTH - filled)}`;
    const text = `\r${bar} ${count}/${total} ${label}`.slice(0, (stream.columns || 80) - 1);
    stream.write(`${text}\x1b[K`);
  };
  return {
    tick(label = '') {
      const before = count;
      count = Math.min(count + 1, total);
      const now = Date.now();
      // The line that reaches the total is always drawn; ticks past it change nothing.
      if (now - last >= REDRAW_MS || (count === total && before < total)) {
        last = now;
        draw(label);
      }
    },
    done() {
      draw('done');
      stream.write('\n');
    },
  };
}
