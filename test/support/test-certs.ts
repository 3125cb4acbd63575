import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * Throw-away certificates made with the `openssl` command at test time, for tests of real TLS:
 * a CA and leaves it signs, each naming only what the test says (DNS or IP names in the subject
 * alternative name; the common name matches nothing). Valid for a day; P-256 keys, fast to make.
 */

export interface Pem {
  readonly key: string;
  readonly cert: string;
}

export interface TestCa extends Pem {
  /** A leaf certificate for `names` (`DNS:localhost`, `IP:127.0.0.1`, ...), signed by this CA. */
  leaf(names: readonly string[]): Pem;
}

export interface TestCerts {
  /** A new CA, trusted by nobody until a test passes its `cert`. */
  ca(name: string): TestCa;
  /** Removes the files. */
  remove(): void;
}

export function testCerts(): TestCerts {
  const dir = mkdtempSync(join(tmpdir(), 'courtside-certs-'));
  let n = 0;
  // `words` split on spaces, then each `-flag value` of `values` (paths and names may hold spaces).
  const openssl = (words: string, values: Record<string, string>): void => {
    const args = [...words.split(' '), ...Object.entries(values).flat()];
    execFileSync('openssl', args, { stdio: ['ignore', 'ignore', 'pipe'] });
  };
  const read = (base: string): Pem => ({
    key: readFileSync(`${base}.key`, 'utf8'),
    cert: readFileSync(`${base}.crt`, 'utf8'),
  });
  const newKey = '-newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes';
  return {
    ca(name) {
      const base = join(dir, `ca-${++n}`);
      openssl(
        `req -x509 ${newKey} -days 1 -addext basicConstraints=critical,CA:TRUE -addext keyUsage=critical,keyCertSign,cRLSign`,
        { '-subj': `/CN=${name}`, '-keyout': `${base}.key`, '-out': `${base}.crt` },
      );
      return {
        ...read(base),
        leaf(names) {
          const leaf = join(dir, `leaf-${++n}`);
          writeFileSync(
            `${leaf}.ext`,
            `subjectAltName=${names.join(',')}\nbasicConstraints=CA:FALSE\nextendedKeyUsage=serverAuth\n`,
          );
          openssl(`req -new ${newKey}`, {
            '-subj': '/CN=courtside test leaf',
            '-keyout': `${leaf}.key`,
            '-out': `${leaf}.csr`,
          });
          openssl(`x509 -req -days 1 -set_serial ${n}`, {
            '-in': `${leaf}.csr`,
            '-CA': `${base}.crt`,
            '-CAkey': `${base}.key`,
            '-extfile': `${leaf}.ext`,
            '-out': `${leaf}.crt`,
          });
          return read(leaf);
        },
      };
    },
    remove() {
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
