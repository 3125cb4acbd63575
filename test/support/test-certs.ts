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
  const openssl = (...args: string[]): void => {
    execFileSync('openssl', args, { stdio: ['ignore', 'ignore', 'pipe'] });
  };
  const key = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];
  return {
    ca(name) {
      const base = join(dir, `ca-${++n}`);
      openssl(
        'req', '-x509', ...key, '-days', '1', '-subj', `/CN=${name}`,
        '-keyout', `${base}.key`, '-out', `${base}.crt`,
        '-addext', 'basicConstraints=critical,CA:TRUE',
        '-addext', 'keyUsage=critical,keyCertSign,cRLSign',
      );
      const ca = { key: readFileSync(`${base}.key`, 'utf8'), cert: readFileSync(`${base}.crt`, 'utf8') };
      return {
        ...ca,
        leaf(names) {
          const leaf = join(dir, `leaf-${++n}`);
          writeFileSync(
            `${leaf}.ext`,
            `subjectAltName=${names.join(',')}\nbasicConstraints=CA:FALSE\nextendedKeyUsage=serverAuth\n`,
          );
          openssl('req', '-new', ...key, '-subj', '/CN=courtside test leaf', '-keyout', `${leaf}.key`, '-out', `${leaf}.csr`);
          openssl(
            'x509', '-req', '-in', `${leaf}.csr`, '-CA', `${base}.crt`, '-CAkey', `${base}.key`,
            '-set_serial', String(n), '-days', '1', '-extfile', `${leaf}.ext`, '-out', `${leaf}.crt`,
          );
          return { key: readFileSync(`${leaf}.key`, 'utf8'), cert: readFileSync(`${leaf}.crt`, 'utf8') };
        },
      };
    },
    remove() {
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
